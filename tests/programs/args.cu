// A program's own arguments, stdin and exit status pass through gpurace exec.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void twice(int *v) { *v *= 2; }

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) printf("arg %d: %s\n", i, argv[i]);
  int x = 0;
  if (scanf("%d", &x) != 1) x = -1;
  int *d;
  cudaMalloc(&d, sizeof x);
  cudaMemcpy(d, &x, sizeof x, cudaMemcpyHostToDevice);
  twice<<<1, 1>>>(d);
  cudaMemcpy(&x, d, sizeof x, cudaMemcpyDeviceToHost);
  printf("stdin doubled: %d\n", x);
  return argc > 1 ? atoi(argv[argc - 1]) : 0;
}
