// A histogram with plain increments over few bins: each bin a word that
// hundreds of threads of many blocks read and write (a hot racy word).
//@ launch hist grid(16) block(128)
//@ buffer in u32[2048] = random(7, 0, 100000)
//@ buffer bins u32[64]
__global__ void hist(const unsigned *in, unsigned *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = in[i] & 63u;
  bins[k] = bins[k] + 1u;
}
