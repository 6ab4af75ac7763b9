// A shared-memory reduction missing a barrier (racy, the default) or with
// it (-DFIXED): the race is reported at its source line.  The racy build's
// sum depends on the schedule: 2016 (right) under lockstep warps; other
// sums under independent thread scheduling; 678 on an H200, whose code
// also reorders a thread's shared accesses (reports/programs-hw.md).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reduce(const int *in, int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int stride = 32; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
#ifdef FIXED
    __syncthreads();
#else
    if (stride > 16) __syncthreads();   // the last five steps within warp 0, without a barrier: racy
#endif
  }
  if (t == 0) *out = s[0];
}

int main(void) {
  int h[64], *in, *out, sum = 0;
  for (int i = 0; i < 64; i++) h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  reduce<<<1, 64>>>(in, out);
  cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost);
  printf("sum %d\n", sum);
  return 0;
}
