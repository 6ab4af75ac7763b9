// Figure 4 of the paper (left), in CUDA: thread 0 alone writes.  DRF.
//@ launch fig4 grid(1) block(32)
//@ buffer A i32[1]
//@ expect norace
//@ meta babycuda drf
__global__ void fig4(int *A) {
  if (threadIdx.x == 0) {
    A[0] = threadIdx.x;
  }
}
