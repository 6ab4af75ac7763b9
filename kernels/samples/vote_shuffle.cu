// Warp vote and shuffle intrinsics as the simpleVoteIntrinsics and
// shfl_scan samples use them: __all_sync, __any_sync, __ballot_sync,
// __activemask in a divergent branch (its lanes, and no other), and an
// inclusive scan by
// __shfl_up_sync.
//@ launch votes grid(1) block(64)
//@ buffer in i32[64] = iota
//@ buffer out u32[192]
//@ expect norace
//@ check out = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 2454267026, 0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120, 136, 153, 171, 190, 210, 231, 253, 276, 300, 325, 351, 378, 406, 435, 465, 496, 32, 65, 99, 134, 170, 207, 245, 284, 324, 365, 407, 450, 494, 539, 585, 632, 680, 729, 779, 830, 882, 935, 989, 1044, 1100, 1157, 1215, 1274, 1334, 1395, 1457, 1520}
__global__ void votes(const int *in, unsigned *out) {
  int x = in[threadIdx.x], lane = threadIdx.x % 32;
  unsigned all = __all_sync(0xffffffffu, x >= 0), any = __any_sync(0xffffffffu, x == 40);
  unsigned ballot = __ballot_sync(0xffffffffu, x % 3 == 0);
  unsigned active = 0;
  /* the lanes active with it: which of the branch's lanes is the scheduler's, never another's */
  if (lane % 4 == 1) active = __activemask();
  unsigned ok = lane % 4 != 1 || ((active >> lane & 1) && !(active & ~0x22222222u));
  int s = x;
  for (int d = 1; d < 32; d <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, s, d);
    if (lane >= d) s += y;
  }
  out[threadIdx.x] = all * 2 + any;
  out[64 + threadIdx.x] = ballot ^ (ok ? 0u : 0xdeadu);
  out[128 + threadIdx.x] = (unsigned)s;
}
