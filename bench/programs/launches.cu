// make bench's program for gpurace's CUDA runtime (bench/runtime.c):
// `launches N BLOCKS` runs N launches of axpy over BLOCKS x 256 floats,
// after one launch that is not timed (the module's lowering), and prints
// the launch loop's wall time and a checksum.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

__global__ void axpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 1000, blocks = argc > 2 ? atoi(argv[2]) : 1, n = blocks * 256;
  float *h = new float[n], *x, *y;
  for (int i = 0; i < n; i++) h[i] = (float)(i % 17);
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, h, n * sizeof(float), cudaMemcpyHostToDevice);
  axpy<<<blocks, 256>>>(y, x, 0.5f, n);
  cudaDeviceSynchronize();
  timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int r = 0; r < reps; r++) axpy<<<blocks, 256>>>(y, x, 0.5f, n);
  cudaError_t e = cudaDeviceSynchronize();
  clock_gettime(CLOCK_MONOTONIC, &t1);
  cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += h[i];
  printf("seconds %.9f checksum %.1f %s\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9, sum, cudaGetErrorName(e));
  return e != cudaSuccess;
}
