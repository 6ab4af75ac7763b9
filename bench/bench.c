/* make bench: emulated thread-instructions per second, and the time of the
 * emulator against the same computation in plain C, compiled by the same
 * compiler with the same flags, both measured in this one run.  Outputs of
 * the two are compared, so the native loop cannot drift from the kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpurace.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The native twins of bench/kernels/*.cu; noinline keeps them honest. */
__attribute__((noinline)) static void alu_native(unsigned *out, unsigned nthreads, int iters) {
  for (unsigned t = 0; t < nthreads; t++) {
    unsigned x = t, y = t * 2654435761u;
    for (int i = 0; i < iters; i++) {
      x = x * 1664525u + 1013904223u;
      y ^= x >> 7;
      y = y * 31u + (x & 0xffu);
    }
    out[t] = x ^ y;
  }
}

__attribute__((noinline)) static void triad_native(const float *a, const float *b, float *c, int n) {
  for (int i = 0; i < n; i++) c[i] = a[i] * 2.0f + b[i];
}

static const char *path(const char *rel) {
  static char buf[4096];
  const char *d = getenv("GR_SRCDIR");
  snprintf(buf, sizeof buf, "%s/%s", d && *d ? d : ".", rel);
  return buf;
}

static int die(gr_context *ctx) { fprintf(stderr, "bench: %s\n", gr_error(ctx)); return 2; }

/* Best wall time of reps launches of kernel; -1 on an emulation error. */
static double best_launch(gr_module *m, const char *kernel, gr_dim3 g, gr_dim3 b, const gr_arg *args, int nargs, int reps) {
  double best = 1e30;
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
    if (gr_launch(m, kernel, g, b, 0, args, nargs)) return -1;
    double t1 = now();
    if (t1 - t0 < best) best = t1 - t0;
  }
  return best;
}

static void row(const char *name, const gr_stats *st, double emu, double native) {
  printf("%-10s %14llu %14.4f %14.3g %12.6f %9.1fx\n", name, (unsigned long long)st->thread_instructions, emu,
         (double)st->thread_instructions / emu, native, emu / native);
}

#define NATIVE_BEST(var, call) do { var = 1e30; for (int rep_ = 0; rep_ < 20; rep_++) { \
    double t0_ = now(); call; double t1_ = now(); if (t1_ - t0_ < var) var = t1_ - t0_; } } while (0)

/* triad (c = 2a + b over n floats) in a fresh context of the given memory
 * model: best time, stats, and the result in c. */
static double triad_emulated(gr_memory memory, const float *a, const float *b, float *c, int n, gr_stats *st) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = memory;
  cfg.max_steps = 0;
  gr_context *ctx = gr_context_create(&cfg);
  gr_module *m;
  double best = -1;
  if (gr_module_load(ctx, path("bench/kernels/mem.cu"), NULL, 0, &m) == GR_OK) {
    gr_ptr da, db, dc;
    gr_malloc(ctx, (size_t)n * 4, "a", &da);
    gr_malloc(ctx, (size_t)n * 4, "b", &db);
    gr_malloc(ctx, (size_t)n * 4, "c", &dc);
    gr_memcpy_htod(ctx, da, a, (size_t)n * 4);
    gr_memcpy_htod(ctx, db, b, (size_t)n * 4);
    gr_arg args[4] = {gr_arg_ptr(da), gr_arg_ptr(db), gr_arg_ptr(dc), gr_arg_i32(n)};
    gr_dim3 g = {256, 1, 1}, bl = {256, 1, 1};
    best = best_launch(m, "triad", g, bl, args, 4, 3);
    gr_last_stats(ctx, st);
    gr_memcpy_dtoh(ctx, c, dc, (size_t)n * 4);
  }
  if (best < 0) fprintf(stderr, "bench: %s\n", gr_error(ctx));
  gr_context_destroy(ctx);
  return best;
}

int main(void) {
  printf("gpurace benchmark (round-robin scheduler, 4 SMs; sequentially consistent memory unless -weak)\n\n");
  printf("%-10s %14s %14s %14s %12s %10s\n", "kernel", "thread-instr", "emulated (s)", "thr-instr/s", "native (s)", "ratio");

  /* ALU-bound */
  {
    gr_config cfg;
    gr_config_default(&cfg);
    cfg.memory = GR_MEMORY_SC;   /* whatever GPURACE_MEMORY says */
    cfg.max_steps = 0;
    gr_context *ctx = gr_context_create(&cfg);
    gr_module *alu;
    if (gr_module_load(ctx, path("bench/kernels/alu.cu"), NULL, 0, &alu)) return die(ctx);
    const unsigned blocks = 64, threads = 256, n = blocks * threads;
    const int iters = 400;
    unsigned *emu = calloc(n, 4), *nat = calloc(n, 4);
    gr_ptr d;
    gr_malloc(ctx, n * 4, "out", &d);
    gr_arg args[2] = {gr_arg_ptr(d), gr_arg_i32(iters)};
    gr_dim3 g = {blocks, 1, 1}, b = {threads, 1, 1};
    double best = best_launch(alu, "alu", g, b, args, 2, 3), nbest;
    if (best < 0) return die(ctx);
    gr_stats st;
    gr_last_stats(ctx, &st);
    NATIVE_BEST(nbest, alu_native(nat, n, iters));
    gr_memcpy_dtoh(ctx, emu, d, n * 4);
    if (memcmp(emu, nat, n * 4)) { fprintf(stderr, "bench: alu results differ from the native loop\n"); return 1; }
    row("alu", &st, best, nbest);
    free(emu); free(nat);
    gr_context_destroy(ctx);
  }
  /* memory-bound, under both memory models */
  {
    const int n = 1 << 21;
    float *a = malloc(n * sizeof(float)), *bb = malloc(n * sizeof(float)), *c = malloc(n * sizeof(float)), *ce = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) { a[i] = (float)(i % 1000) * 0.5f; bb[i] = (float)(i % 7); }
    double nbest;
    NATIVE_BEST(nbest, triad_native(a, bb, c, n));
    double best[2];
    for (int weak = 0; weak < 2; weak++) {
      gr_stats st;
      best[weak] = triad_emulated(weak ? GR_MEMORY_WEAK : GR_MEMORY_SC, a, bb, ce, n, &st);
      if (best[weak] < 0) return 2;
      if (memcmp(ce, c, n * 4)) { fprintf(stderr, "bench: triad results (%s memory) differ from the native loop\n", weak ? "weak" : "sc"); return 1; }
      row(weak ? "triad-weak" : "triad", &st, best[weak], nbest);
    }
    printf("\nweak memory costs %.2fx sequentially consistent memory on triad (%.4f s / %.4f s, measured in this run)\n",
           best[1] / best[0], best[1], best[0]);
    free(a); free(bb); free(c); free(ce);
  }
  printf("ratio = emulated time / native time for the same computation (goal for alu: at most 20x)\n");
  return 0;
}
