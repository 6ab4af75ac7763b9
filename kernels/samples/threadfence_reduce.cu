// The threadFenceReduction sample's kind: each block writes its partial
// sum, fences, and takes a ticket; the last block to arrive adds the
// partial sums up (__threadfence and an atomic counter, no second launch).
//@ launch fence_reduce grid(8) block(64)
//@ buffer in i32[512] = iota
//@ buffer partial i32[8]
//@ buffer count u32[1]
//@ buffer out i32[1]
//@ expect norace
//@ check out = {130816}
__global__ void fence_reduce(const int *in, volatile int *partial, unsigned *count, int *out) {
  __shared__ int sum;
  __shared__ bool last;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  atomicAdd(&sum, in[blockIdx.x * 64 + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = sum;
    __threadfence();
    unsigned ticket = atomicInc(count, gridDim.x);
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int t = 0;
    for (int b = 0; b < gridDim.x; b++) t += partial[b];
    *out = t;
  }
}
