// The second translation unit of units.cu.
#include <cuda_runtime.h>

__device__ int add_b = 10;
__global__ void plus_b(int *v) { v[threadIdx.x] += add_b; }

void run_b(int *d, int n) {
  int eleven = 11;
  cudaMemcpyToSymbol(add_b, &eleven, sizeof eleven);
  plus_b<<<1, n>>>(d);
}
