// Two halves of a warp each __syncwarp with their own mask, then read the
// other half's slots: nothing orders a half's store before the other
// half's load, under either warp model (CUDA: a __syncwarp synchronises the
// lanes its mask names).  Under lockstep both halves run the instruction at
// once, yet they are two barriers, not one of the whole warp.
//@ launch halves grid(1) block(32)
//@ buffer out u32[32] = 0
//@ expect race
__global__ void halves(unsigned *out) {
  __shared__ unsigned s[32];
  unsigned t = threadIdx.x, mask = t < 16 ? 0x0000ffffu : 0xffff0000u;
  s[t] = t;
  __syncwarp(mask);
  out[t] = s[31 - t];
}
