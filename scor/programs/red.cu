// ScoR RED as a program (scor/apps/red/red.c is its C driver): a threadFence reduction.
#include "../apps/red/red.cu"
#include "programs.h"

int main(int argc, char **argv) {
  prog p = prog_args("red", argc, argv);
  const unsigned nthreads = 512, nblocks = 30;
  int n = p.paper ? 1000000 : 8192;
  unsigned threads = (unsigned)n >= 2 * nthreads ? nthreads : 1;
  while (threads < nthreads && threads < (unsigned)n / 2) threads <<= 1;
  unsigned blocks = (unsigned)n / (2 * threads);
  if (blocks < 1) blocks = 1;
  if (blocks > nblocks) blocks = nblocks;
  int *in = new int[n];
  glibc_rand g;
  glibc_srand(&g, p.input_seed);
  unsigned ref = 0;   // the int32 wrapping sum
  for (int i = 0; i < n; i++) { in[i] = glibc_rand_next(&g) % 100; ref += (unsigned)in[i]; }
  int *g_idata = dev_alloc((size_t)n, in), *g_odata = dev_alloc((size_t)blocks, in);   // the host pre-fills it with the first inputs
  int *sdata = dev_alloc<int>((size_t)threads * blocks, NULL), *locks = dev_alloc<int>((size_t)threads * blocks, NULL);
  reduce<<<blocks, threads>>>(g_idata, g_odata, sdata, locks, n, (n & (n - 1)) == 0);
  LAUNCHED();
  int got;
  dev_read(&got, g_odata, 1);
  int ok = (unsigned)got == ref;
  printf("red n=%d on %ux%u: sum %d %s the CPU reference %d\n", n, blocks, threads, got, ok ? "matches" : "differs from", (int)ref);
  return ok ? 0 : 1;
}
