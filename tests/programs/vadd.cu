// The smallest program: allocate, copy, launch, copy back, print.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1000;
  float a[n], b[n], c[n];
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice);
  vadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  cudaError_t e = cudaMemcpy(c, dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += c[i];
  printf("%s: c[0]=%g c[999]=%g sum=%g\n", cudaGetErrorName(e), c[0], c[n - 1], sum);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}
