// Run-ahead of shared loads (emu/simt.h's quiet) must not change a run: a
// load runs ahead of its turn only while no warp of its block can write
// before the next barrier.  Phase 1: every warp only reads (the block holds
// still).  Phase 2, after the barrier that ends it: warp 0 reads, at pcs
// from which it writes nothing, the words that warp 1 rewrites one by one
// in the same phase (a race): each of warp 0's loads must read what the
// schedule gives at its own turn, which one instruction per turn shows.
// Phase 3: the same with the warps' parts swapped and divergent lanes.
//@ launch k grid(2) block(64)
//@ buffer out u32[128] = 0
__global__ void k(unsigned *out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x, v = 0, x = t + 7;
  s[t] = t * 3u + 1u;
  __syncthreads();
  for (int i = 0; i < 4; i++) v += s[(t + (unsigned)i * 5u) % 64u] ^ (unsigned)i;
  __syncthreads();
  if (t < 32) {
    for (int i = 0; i < 12; i++) v = v * 5u + s[32u + (t + (unsigned)i) % 32u];
  } else {
    for (int i = 0; i < 6; i++) {
      x = x * 1664525u + 1013904223u;
      s[t] = x;
    }
  }
  __syncthreads();
  if (t >= 32) {
    if (t & 1) {
      for (int i = 0; i < 9; i++) v = v * 7u + s[(t + (unsigned)i * 3u) % 32u];
    } else v += s[t - 32u];
  } else {
    for (int i = 0; i < 3; i++) {
      x = x * 69069u + 1u;
      s[t] = x;
    }
  }
  out[blockIdx.x * 64u + t] = v;
}
