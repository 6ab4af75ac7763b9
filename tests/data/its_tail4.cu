// A four-lane warp-synchronous tail: lanes 0 and 1 add s[t + 2], then lane
// 0 adds s[1].  Without __syncwarp (SYNCWARP=0), independent thread
// scheduling reaches sums other than 10 (tests/its.sh explores every
// schedule with gpurace states); with it, only 10.
//@ launch tail grid(1) block(4)
//@ buffer out u32[1] = 0
#ifndef SYNCWARP
#define SYNCWARP 0
#endif
__global__ void tail(unsigned *out) {
  __shared__ unsigned s[4];
  unsigned t = threadIdx.x;
  s[t] = t + 1;
  __syncwarp();
  if (t < 2) {
    unsigned v = s[t] + s[t + 2];
    if (SYNCWARP) __syncwarp(0x3);
    s[t] = v;
    if (SYNCWARP) __syncwarp(0x3);
    if (t == 0) s[0] = s[0] + s[1];
  }
  if (t == 0) out[0] = s[0];
}
