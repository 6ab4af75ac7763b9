// Run-ahead (emu/simt.h) must not change a run: warps whose stretches of
// their own instructions differ in length race on one word, read the clock
// (the step count) and diverge; the last writer, the clock values and the
// step counts must be those of one instruction per turn; under weak memory
// a load's value feeds arithmetic that must wait for it.
//@ launch k grid(3) block(96)
//@ buffer last u32[1] = 0
//@ buffer seen u32[288] = 0
//@ buffer when u32[288] = 0
__global__ void k(unsigned *last, unsigned *seen, unsigned *when) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, x = t;
  // a stretch whose length depends on the warp, and lanes that diverge
  for (unsigned i = 0; i < (threadIdx.x / 32) * 3 + 1; i++) x = x * 1664525u + 1013904223u;
  if (threadIdx.x & 1) x ^= x >> 7; else x += 5;
  unsigned v = *last;   // weak memory: the load may still be pending at the arithmetic
  seen[t] = (v * 3u + 1u) ^ x;
  *last = t;
  when[t] = (unsigned)clock() ^ (x & 1);
}
