// The shape of an original ScoR microbenchmark (N2), as its authors wrote it:
// <stdio.h>, macros, module globals, a host main that allocates, launches and
// checks for a launch error.  Only the //@ lines are gpurace's.
#include <stdio.h>
#include <stdlib.h>
#include <cuda.h>

//@ launch kmain grid(2) block(1)
//@ buffer data u32[1]
//@ expect norace
//@ check dummy = 1
//@ check flag = 1

#define NBLOCKS 2
#define TPERBLK 1
#define WAITX(f) while (atomicCAS(&(f), 1, 1) != 1) {}

__device__ int flag = 0;
__device__ int dummy = 0;

__global__ void kmain(volatile unsigned int *data) {
  if (blockIdx.x == 0) {
    data[0] = 1;
    __threadfence();
    atomicExch(&flag, 1);
  } else {
    WAITX(flag);
    unsigned int r = data[0];
    dummy = r;
  }
}

int main(int argc, char *argv[]) {
  unsigned int *data;
  cudaMalloc((void **)&data, sizeof(unsigned int));
  kmain<<<NBLOCKS, TPERBLK>>>(data);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "launch failed: %s\n", cudaGetErrorString(err));
    return EXIT_FAILURE;
  }
  cudaDeviceSynchronize();
  cudaFree(data);
  return 0;
}
