// An address the analysis cannot follow (emu/prov.h): thread 1 stores
// into src through a pointer rebuilt from two 32-bit halves that thread 0
// left in memory, while src's loads, which no store seemed to reach, were
// performed at once.  The launch stops performing accesses at once at that
// store and says so (tests/cli.sh): what ran before it stays a schedule
// the model allows.
//@ launch k grid(1) block(64)
//@ buffer src u32[64] = iota
//@ buffer dst u32[64]
//@ buffer halves u32[2]
__global__ void k(unsigned *src, unsigned *dst, unsigned *halves) {
  unsigned i = threadIdx.x;
  unsigned v = src[i];
  if (i == 0) {
    unsigned long long p = (unsigned long long)src;
    halves[0] = (unsigned)p;
    halves[1] = (unsigned)(p >> 32);
  }
  __syncthreads();
  if (i == 1) {
    unsigned long long q = (unsigned long long)halves[1] << 32 | halves[0];
    ((unsigned *)q)[5] = 7u;
  }
  dst[i] = v + src[i];
}
