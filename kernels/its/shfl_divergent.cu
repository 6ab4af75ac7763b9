// Shuffles under divergence: the lower half-warp reverses its values with
// __shfl_sync over its own mask in one branch, the upper half rotates its
// values in the other.  Each *_sync names only lanes of its own path, so
// both warp models run it, and every schedule gives the same result.
//@ launch k grid(1) block(32)
//@ buffer out u32[32] = 0
//@ expect norace
//@ check out = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 16}
__global__ void k(unsigned *out) {
  unsigned t = threadIdx.x, v;
  if (t < 16) {
    v = __shfl_sync(0x0000ffffu, t, 15 - t);
  } else {
    v = __shfl_sync(0xffff0000u, t, 16 + (t - 15) % 16);
  }
  out[t] = v;
}
