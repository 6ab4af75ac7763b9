// Dynamic shared memory: every extern __shared__ array of the kernel is
// one region (they alias); -D RACY reads a neighbour's slot unsynchronised.
//@ launch k grid(2) block(32) shared(256)
//@ buffer out i32[64]
extern __shared__ int buf[];
__global__ void k(int *out) {
  extern __shared__ int alias[];
  buf[threadIdx.x] = threadIdx.x;
#ifndef RACY
  __syncthreads();
#endif
  out[blockIdx.x * 32 + threadIdx.x] = alias[(threadIdx.x + 1) % 32];
}
