#include <cstdio>
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main() {
  const int n = 1024;
  float *a, *b, *c;
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMalloc(&c, n * 4);
  float h[n];
  for (int i = 0; i < n; i++) h[i] = i;
  cudaMemcpy(a, h, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(b, h, n * 4, cudaMemcpyHostToDevice);
  vadd<<<4, 256>>>(a, b, c, n);
  cudaMemcpy(h, c, n * 4, cudaMemcpyDeviceToHost);
  printf("%g %g\n", h[1], h[1023]);
  return 0;
}
