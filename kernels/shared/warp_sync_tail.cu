// The warp-synchronous tail of a reduction: lanes of one warp add in place
// with no __syncwarp between the steps.  A race under PTX, whose agents are
// threads (hb-ptx, boyer); pre-Volta lockstep orders it, which is the model
// of hb (its agents are warps), so hb does not report it.
//@ launch tail grid(1) block(64)
//@ buffer out u32[1] = 0
//@ expect race
__global__ void tail(unsigned *out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = t + 1;
  __syncthreads();
  if (t < 32) {
    for (unsigned d = 32; d > 0; d /= 2) {
      if (t < d) s[t] += s[t + d];
    }
  }
  if (t == 0) out[0] = s[0];
}
