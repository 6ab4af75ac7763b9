// Half the threads add with atomicAdd, a quarter plainly, a quarter
// through volatile loads and stores: every pair of kinds meets on a bin.
//@ launch hist_mixed grid(8) block(128)
//@ buffer in u32[1024] = random(10, 0, 100000)
//@ buffer bins u32[32]
__global__ void hist_mixed(const unsigned *in, unsigned *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = in[i] & 31u;
  if (i % 4 < 2) atomicAdd(&bins[k], 1u);
  else if (i % 4 == 2) bins[k] = bins[k] + 1u;
  else { volatile unsigned *v = bins; v[k] = v[k] + 1u; }
}
