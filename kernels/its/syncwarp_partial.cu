// __syncwarp with a partial mask: the lower 16 lanes exchange values
// through shared memory and wait only for each other; the upper 16 do the
// same with their own mask.  Each half's result is its own, under both
// warp models and every schedule.
//@ launch halves grid(1) block(32)
//@ buffer out u32[32] = 0
//@ expect norace
//@ check out = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16}
__global__ void halves(unsigned *out) {
  __shared__ unsigned s[32];
  unsigned t = threadIdx.x, mask = t < 16 ? 0x0000ffffu : 0xffff0000u;
  s[t] = t;
  __syncwarp(mask);
  unsigned base = t < 16 ? 0 : 16;
  out[t] = s[base + 15 - (t - base)];
}
