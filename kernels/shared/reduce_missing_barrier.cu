// A shared-memory tree reduction with the barrier inside its loop left out:
// each step reads partial sums other warps may not have written yet.
//@ launch reduce grid(2) block(128)
//@ buffer in u32[256] = 1
//@ buffer out u32[2] = 0
//@ expect race
__global__ void reduce(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[128];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  for (unsigned d = 64; d > 0; d /= 2) {
    if (t < d) s[t] += s[t + d];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
