// The warp-synchronous tail of a shared-memory reduction: after the last
// __syncthreads, lanes 0..31 add the upper half in place.  With SYNCWARP=1
// a __syncwarp() separates the steps (tests/boyer.sh: boyer then reports
// nothing; without it, hazards within a warp).
//@ launch tail grid(1) block(64)
//@ buffer out u32[1] = 0
#ifndef SYNCWARP
#define SYNCWARP 0
#endif
__global__ void tail(unsigned *out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = t + 1;
  __syncthreads();
  if (t < 32) {
    for (unsigned d = 32; d > 0; d /= 2) {
      if (t < d) s[t] += s[t + d];
      if (SYNCWARP) __syncwarp();
    }
  }
  if (t == 0) out[0] = s[0];
}
