// An API gpurace's runtime does not implement (CUDA graphs): the program
// loads and runs, the call answers cudaErrorNotSupported and says so.
#include <cstdio>
#include <cuda_runtime.h>

int main(void) {
  cudaGraph_t g;
  cudaError_t e = cudaGraphCreate(&g, 0);
  printf("cudaGraphCreate: %s\n", cudaGetErrorName(e));
  return 0;
}
