// A program of two translation units (units.cu and units_b.cu), each with
// its own kernels and __device__ variable: two fatbinaries registered, each
// lowered once; built with or without -rdc=true.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int scale_a = 3;
__global__ void times_a(int *v) { v[threadIdx.x] *= scale_a; }
void run_b(int *d, int n);   // units_b.cu

int main(void) {
  int h[4] = {1, 2, 3, 4}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  times_a<<<1, 4>>>(d);
  run_b(d, 4);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d %d: %s\n", h[0], h[1], h[2], h[3], cudaGetErrorName(cudaGetLastError()));
  return 0;
}
