// The warp-synchronous tail of a shared-memory reduction with no
// __syncwarp: after the last __syncthreads, lanes 0..31 add in place.
// Right under pre-Volta lockstep (2080 on every schedule); under
// independent thread scheduling (--warps its) lanes drift apart and read
// partial sums that are not there yet, as on an H100 (which returned 70).
//@ launch tail grid(1) block(64)
//@ buffer out u32[1] = 0
//@ expect race
//@ check out = {2080}
__global__ void tail(unsigned *out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = t + 1;
  __syncthreads();
  if (t < 32) {
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
  }
  if (t == 0) out[0] = s[0];
}
