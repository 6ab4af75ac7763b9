// Each thread reads its bin at three places and writes it at two: an
// agent's later access of the same kind replaces its earlier one at
// another source position.
//@ launch hist_reread grid(8) block(64)
//@ buffer in u32[512] = random(12, 0, 100000)
//@ buffer bins u32[16]
//@ buffer out u32[512]
__global__ void hist_reread(const unsigned *in, unsigned *bins, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = in[i] & 15u;
  unsigned a = bins[k];
  bins[k] = a + 1u;
  unsigned b = bins[k];
  unsigned c = bins[(k + 1u) & 15u];
  bins[k] = b + c;
  out[i] = a + b + c;
}
