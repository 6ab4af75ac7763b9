// Byte bins: four bins share a word, each thread's access touches one byte
// of it (the word's entries have different byte masks).
//@ launch hist_bytes grid(8) block(128)
//@ buffer in u32[1024] = random(8, 0, 100000)
//@ buffer bins u8[64]
__global__ void hist_bytes(const unsigned *in, unsigned char *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = in[i] & 63u;
  bins[k] = (unsigned char)(bins[k] + 1);
}
