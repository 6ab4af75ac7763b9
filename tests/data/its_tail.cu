// ITS under round-robin runs the one group of a warp whose other lanes wait
// at __syncthreads as a converged warp runs (emu/its.c, its_one): ahead of
// its turns, up to a backward branch.  A reduction's last rounds leave a
// shrinking group of warp 0 running while the rest of the warp waits; the
// group's stretches of arithmetic, a per-lane loop, its lanes parting, a race between the two
// warps and the clock (the step count) read inside the group must come out
// as with one instruction per turn (tests/cli.sh).
//@ launch tail grid(2) block(48)
//@ buffer out u32[96] = 0
//@ buffer when u32[96] = 0
//@ buffer last u32[1] = 0
__global__ void tail(unsigned *out, unsigned *when, unsigned *last) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = t * 2654435761u;
  if (t < 16) s[t + 48] = t;
  __syncthreads();
  for (unsigned h = 32; h > 0; h >>= 1) {
    if (t < h) {
      unsigned a = s[t] + s[t + h];
      a = a * 1664525u + (t ^ h);
      a ^= a >> 7;
      for (unsigned k = 0; k < t % 3; k++) a = a * 31u + k;
      // the group parts: which half runs first is the round-robin's turn
      // over the lanes, where the group's steps left it
      if (t & 1) a += (unsigned)clock(); else a ^= (unsigned)clock() << 3;
      s[t] = a;
      if (h == 4) when[blockIdx.x * 48 + t] = (unsigned)clock() ^ a;
    }
    __syncthreads();
  }
  *last = t;
  out[blockIdx.x * 48 + t] = s[t % 8] ^ *last;
}
