// Thread 0 reads A[0] plainly, then exchanges it atomically; thread 1
// exchanges it atomically: thread 0's read races with thread 1's atomic.
// hb once let thread 0's atomic stand for its read, and atomics do not
// race with atomics: the race was lost whenever thread 0 went first.
// Under --warps its: under lockstep the warp is one agent of ScoRD's model.
// (Found by gpurace babycuda prop, seed 7, program 400.)
//@ launch k grid(1) block(2)
//@ buffer A u32[4]
//@ buffer out u32[2]
//@ expect race
__global__ void k(unsigned *A, unsigned *out) {
  out[threadIdx.x] = A[threadIdx.x * 3 % 4];
  atomicExch(&A[0], threadIdx.x);
}
