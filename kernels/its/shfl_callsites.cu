// A shuffle reached at two call sites: the lower half-warp and the upper
// half take different branches, and each calls __shfl_sync with the full
// mask.  Since Volta the lanes meet there ("with the same qualifiers and
// same membermask value", PTX), and every lane reads lane 0's value: 7.
// Under lockstep the first branch's shuffle names lanes parked in the other
// branch: an error, as on pre-Volta GPUs.
//@ launch k grid(1) block(32)
//@ buffer out u32[32] = 0
//@ expect norace
//@ check out = {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8}
__global__ void k(unsigned *out) {
  unsigned t = threadIdx.x, v = t == 0 ? 7 : 100 + t, r;
  if (t < 16) {
    r = __shfl_sync(0xffffffffu, v, 0);
  } else {
    unsigned u = v + 1;
    r = __shfl_sync(0xffffffffu, u, 0) + 1;
  }
  out[t] = r;
}
