// Memory-bound: a grid-stride triad over large arrays.
__global__ void triad(const float *a, const float *b, float *c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    c[i] = a[i] * 2.0f + b[i];
}
