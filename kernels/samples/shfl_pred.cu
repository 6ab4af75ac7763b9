// shfl.sync with its predicate result (whether the source lane was inside
// the lane's segment), in each mode, on segments of 8 lanes, as CUB's
// scans use it: each thread stores 1000 * predicate + the value it got.
//@ launch modes grid(1) block(32)
//@ buffer out i32[128]
//@ expect norace
__device__ int shfl_pred(int mode, int v, int b, int c, int *p) {
  int d, q;
  switch (mode) {
  case 0: asm volatile("{ .reg .pred q; shfl.sync.up.b32 %0|q, %2, %3, %4, -1; selp.b32 %1, 1, 0, q; }" : "=r"(d), "=r"(q) : "r"(v), "r"(b), "r"(c)); break;
  case 1: asm volatile("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, %4, -1; selp.b32 %1, 1, 0, q; }" : "=r"(d), "=r"(q) : "r"(v), "r"(b), "r"(c)); break;
  case 2: asm volatile("{ .reg .pred q; shfl.sync.bfly.b32 %0|q, %2, %3, %4, -1; selp.b32 %1, 1, 0, q; }" : "=r"(d), "=r"(q) : "r"(v), "r"(b), "r"(c)); break;
  default: asm volatile("{ .reg .pred q; shfl.sync.idx.b32 %0|q, %2, %3, %4, -1; selp.b32 %1, 1, 0, q; }" : "=r"(d), "=r"(q) : "r"(v), "r"(b), "r"(c)); break;
  }
  *p = q;
  return d;
}

__global__ void modes(int *out) {
  int lane = threadIdx.x, seg = (32 - 8) << 8;
  for (int mode = 0; mode < 4; mode++) {
    int p, c = mode == 0 ? seg : seg | 7, b = mode == 3 ? 5 : 3;
    int d = shfl_pred(mode, 100 + lane, b, c, &p);
    out[mode * 32 + lane] = 1000 * p + d;
  }
}
//@ check out = {100, 101, 102, 1100, 1101, 1102, 1103, 1104, 108, 109, 110, 1108, 1109, 1110, 1111, 1112, 116, 117, 118, 1116, 1117, 1118, 1119, 1120, 124, 125, 126, 1124, 1125, 1126, 1127, 1128, 1103, 1104, 1105, 1106, 1107, 105, 106, 107, 1111, 1112, 1113, 1114, 1115, 113, 114, 115, 1119, 1120, 1121, 1122, 1123, 121, 122, 123, 1127, 1128, 1129, 1130, 1131, 129, 130, 131, 1103, 1102, 1101, 1100, 1107, 1106, 1105, 1104, 1111, 1110, 1109, 1108, 1115, 1114, 1113, 1112, 1119, 1118, 1117, 1116, 1123, 1122, 1121, 1120, 1127, 1126, 1125, 1124, 1131, 1130, 1129, 1128, 1105, 1105, 1105, 1105, 1105, 1105, 1105, 1105, 1113, 1113, 1113, 1113, 1113, 1113, 1113, 1113, 1121, 1121, 1121, 1121, 1121, 1121, 1121, 1121, 1129, 1129, 1129, 1129, 1129, 1129, 1129, 1129}
