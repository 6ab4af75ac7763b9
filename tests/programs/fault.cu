// A faulting kernel: the fault is reported at its source line, and the
// program sees cudaErrorIllegalAddress (or cudaErrorMisalignedAddress with
// -DMISALIGNED) from its next synchronising call, and from every call after.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void poke(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(MISALIGNED)
  if (i == 3) *(int *)((char *)p + 2) = 7;
#elif defined(OUT_OF_BOUNDS)
  p[i + n] = i;   // a buffer of n ints: every thread writes one past it
#else
  if (i == 3) *(volatile int *)0 = 7;
#endif
  (void)n;
}

int main(void) {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  poke<<<2, 32>>>(d, 64);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %s\n", cudaGetErrorName(e));
  printf("memcpy after: %s\n", cudaGetErrorName(cudaMemcpy(d, d, 4, cudaMemcpyDeviceToDevice)));
  return e == cudaSuccess ? 0 : 1;
}
