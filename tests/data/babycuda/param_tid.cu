// An int parameter called tid was the thread variable tid: A[tid] looked
// like one element per thread.  Every thread writes A[tid], one element.
//@ launch k grid(1) block(32)
//@ buffer A i32[32]
//@ arg tid = 3
__global__ void k(int *A, int tid) { A[tid] = (int)threadIdx.x; }
