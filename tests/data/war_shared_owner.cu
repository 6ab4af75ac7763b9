// A granule read by two warps, then written by the first without a fence:
// scord must name the other warp's read as the partner, not the writer's
// own earlier read (tests/partners.sh).
//@ launch k grid(1) block(64)
//@ buffer d i32[1] = 0
//@ buffer out i32[64] = 0
//@ expect race
__global__ void k(int *d, int *out) {
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  if (l == 0) out[threadIdx.x] = d[0];
  if (w == 0 && l == 0) {
    for (int i = 0; i < 100; i++) out[1] += i;
    d[0] = 5;
  }
}
