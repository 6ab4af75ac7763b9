// tail_syncwarp.cu in global memory: __syncwarp between the steps makes
// each lane's stores visible to the warp's later loads, so the sum is 2080
// under both warp models and both memory models, on every schedule.
//@ launch tail grid(1) block(64)
//@ buffer s u32[64] = 0
//@ buffer out u32[1] = 0
//@ expect norace
//@ check out = {2080}
__global__ void tail(unsigned *s, unsigned *out) {
  unsigned t = threadIdx.x;
  s[t] = t + 1;
  __syncthreads();
  if (t < 32) {
    for (unsigned d = 32; d > 0; d /= 2) {
      unsigned v = s[t] + s[t + d];
      __syncwarp();
      s[t] = v;
      __syncwarp();
    }
  }
  if (t == 0) out[0] = s[0];
}
