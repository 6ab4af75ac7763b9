// A failing device assert: the launch fails with cudaErrorAssert, which the
// program sees from its next synchronising call, and from every call after.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void check(const int *v, int n) {
  int i = threadIdx.x;
  if (i < n) assert(v[i] >= 0);
}

int main(void) {
  int h[4] = {1, 2, -3, 4}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  check<<<1, 4>>>(d, 4);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("malloc after: %s\n", cudaGetErrorName(cudaMalloc(&d, 4)));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
