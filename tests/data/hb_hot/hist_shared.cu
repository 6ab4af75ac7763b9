// A per-block histogram in shared memory with plain increments, written out
// after a barrier: hot racy words in shared memory, and a barrier that
// orders the block's entries before the write-out.
//@ launch hist_shared grid(4) block(256)
//@ buffer in u32[1024] = random(9, 0, 100000)
//@ buffer out u32[128]
__global__ void hist_shared(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[32];
  unsigned t = threadIdx.x;
  if (t < 32) s[t] = 0;
  __syncthreads();
  unsigned k = in[blockIdx.x * blockDim.x + t] & 31u;
  s[k] = s[k] + 1u;
  __syncthreads();
  if (t < 32) out[blockIdx.x * 32 + t] = s[t];
}
