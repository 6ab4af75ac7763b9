// Odd warps fence between their read and their write, and every block
// passes a barrier halfway: entries of a hot word are released while it
// is read and written, so the oracle's view of it changes mid-launch.
//@ launch hist_fenced grid(8) block(128)
//@ buffer in u32[2048] = random(11, 0, 100000)
//@ buffer bins u32[32]
__global__ void hist_fenced(const unsigned *in, unsigned *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = in[i] & 31u;
  unsigned v = bins[k];
  if ((threadIdx.x / 32) % 2) __threadfence();
  bins[k] = v + 1u;
  __syncthreads();
  k = in[1024 + i] & 31u;
  v = bins[k];
  if ((threadIdx.x / 32) % 2) __threadfence_block();
  bins[k] = v + 1u;
}
