/* The RED driver (scor-spec.md section 3.2): n ints drawn with glibc's
 * rand() % 100, their int32 sum by the emulated threadFence reduction,
 * checked against the CPU.  The launch follows the ScoR host: threads =
 * 512 if n >= 1024, else the next power of two of n/2; blocks = min(30,
 * max(1, n / (2 threads))).  Paper size: n = 1,000,000 (30 x 512); small:
 * n = 8192 (8 x 512), enough for both race sites (block size >= 128, two
 * blocks or more). */
#include <stdio.h>
#include <stdlib.h>

#include "app.h"

static unsigned next_pow2(unsigned x) {
  unsigned p = 1;
  while (p < x) p <<= 1;
  return p;
}

int main(int argc, char **argv) {
  app a;
  app_begin(&a, "red", argc, argv);
  const unsigned nthreads = 512, nblocks = 30;
  int n = a.paper ? 1000000 : 8192;
  unsigned threads = (unsigned)n >= 2 * nthreads ? nthreads : next_pow2((unsigned)n / 2 ? (unsigned)n / 2 : 1);
  unsigned blocks = (unsigned)n / (2 * threads);
  if (blocks < 1) blocks = 1;
  if (blocks > nblocks) blocks = nblocks;
  int *in = malloc(sizeof(int) * (size_t)n);
  if (!in) { fputs("red: out of memory\n", stderr); return 2; }
  glibc_rand g;
  glibc_srand(&g, (uint32_t)a.input_seed);
  uint32_t ref = 0;   /* the int32 wrapping sum */
  for (int i = 0; i < n; i++) { in[i] = glibc_rand_next(&g) % 100; ref += (uint32_t)in[i]; }

  app_load(&a, "red.cu");
  gr_ptr din = app_alloc(&a, sizeof(int) * (size_t)n, "g_idata", in);
  gr_ptr dout = app_alloc(&a, sizeof(int) * blocks, "g_odata", in);   /* the host pre-fills it with the first inputs */
  gr_ptr sdata = app_alloc(&a, sizeof(int) * (size_t)threads * blocks, "sdata", NULL);
  gr_ptr locks = app_alloc(&a, sizeof(int) * (size_t)threads * blocks, "locks", NULL);
  gr_arg args[] = {gr_arg_ptr(din), gr_arg_ptr(dout), gr_arg_ptr(sdata), gr_arg_ptr(locks), gr_arg_i32(n),
                   gr_arg_i32((n & (n - 1)) == 0)};
  int rc = app_launch(&a, "reduce", blocks, threads, args, 6);
  int ok = 0;
  if (rc == GR_OK) {
    int32_t got;
    app_read(&a, &got, dout, sizeof got);
    ok = (uint32_t)got == ref;
    if (!a.quiet || !ok) {
      FILE *out = a.json ? stderr : stdout;
      fprintf(out, "red n=%d on %ux%u: sum %d %s the CPU reference %d\n", n, blocks, threads, got, ok ? "matches" : "differs from",
              (int32_t)ref);
    }
  }
  free(in);
  return app_end(&a, rc, ok);
}
