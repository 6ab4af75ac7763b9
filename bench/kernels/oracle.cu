// The happens-before oracle's workloads (issue 18): a 256-bin atomicAdd
// histogram, a triad with one element per thread, and a shared-memory tree
// reduction with 256-thread blocks.
__global__ void histogram(const unsigned *in, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i] & 255u], 1u);
}

__global__ void triad1(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] * 2.0f + b[i];
}

__global__ void reduce(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned d = 128; d > 0; d /= 2) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// The same histogram with plain increments: the race every user wants
// found, each bin a word that thousands of threads read and write.
__global__ void histogram_racy(const unsigned *in, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bins[in[i] & 255u] = bins[in[i] & 255u] + 1u;
}
