// 256 bins, one input per thread, atomicAdd on global bins.
__global__ void histogram(const unsigned *in, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i] & 255u], 1u);
}
