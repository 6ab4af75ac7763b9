// The warp-level reductions of sm_80 (__reduce_add_sync and friends: PTX
// redux.sync) over the whole warp and over a mask of half of it.
//@ arch sm_80
//@ launch warp_reduce grid(1) block(64)
//@ buffer in i32[64] = iota(-20)
//@ buffer out i32[14]
//@ expect norace
//@ check out = {-144, -20, 11, 0, -1, 0, 880, 12, 43, 43, -64, 1, 448, 13}
__global__ void warp_reduce(const int *in, int *out) {
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  int x = in[threadIdx.x];
  unsigned u = (unsigned)x;
  int add = __reduce_add_sync(0xffffffffu, x);
  int mn = __reduce_min_sync(0xffffffffu, x);
  int mx = __reduce_max_sync(0xffffffffu, x);
  unsigned a = __reduce_and_sync(0xffffffffu, u);
  unsigned o = __reduce_or_sync(0xffffffffu, u);
  unsigned x2 = __reduce_xor_sync(0xffffffffu, u);
  unsigned umx = __reduce_max_sync(0xffffffffu, u);
  if (w == 0 && lane == 0) { out[0] = add; out[1] = mn; out[2] = mx; out[3] = (int)a; out[4] = (int)o; out[5] = (int)x2; }
  if (w == 1 && lane == 0) { out[6] = add; out[7] = mn; out[8] = mx; out[9] = (int)umx; }
  if (lane % 2 == 1) {   /* the odd lanes alone */
    int s = __reduce_add_sync(0xaaaaaaaau, x);
    unsigned m = __reduce_min_sync(0xaaaaaaaau, u);
    if (lane == 1) { out[10 + 2 * w] = s; out[11 + 2 * w] = (int)m; }
  }
}
