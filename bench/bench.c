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

/* One launch to time. */
typedef struct { gr_module *m; const char *kernel; gr_dim3 g, b; gr_arg *args; int nargs; gr_stats st; } job;

/* Best wall time of reps launches; -1 on an emulation error. */
static double best_launch(job *j, int reps) {
  double best = 1e30;
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
    if (gr_launch(j->m, j->kernel, j->g, j->b, 0, j->args, j->nargs)) return -1;
    double t1 = now();
    if (t1 - t0 < best) best = t1 - t0;
  }
  return best;
}

int main(void) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = GR_MEMORY_SC;   /* whatever GPURACE_MEMORY says: the weak run is separate */
  cfg.max_steps = 0;
  gr_context *ctx = gr_context_create(&cfg);
  gr_module *alu, *mem;
  if (gr_module_load(ctx, path("bench/kernels/alu.cu"), NULL, 0, &alu)) return die(ctx);
  if (gr_module_load(ctx, path("bench/kernels/mem.cu"), NULL, 0, &mem)) return die(ctx);
  printf("gpurace benchmark (round-robin scheduler, %d SMs; sequentially consistent memory unless -weak)\n\n", cfg.sms);
  printf("%-10s %14s %14s %14s %12s %10s\n", "kernel", "thread-instr", "emulated (s)", "thr-instr/s", "native (s)", "ratio");

  /* ALU-bound */
  {
    const unsigned blocks = 64, threads = 256, n = blocks * threads;
    const int iters = 400;
    unsigned *emu = calloc(n, 4), *nat = calloc(n, 4);
    gr_ptr d;
    gr_malloc(ctx, n * 4, "out", &d);
    gr_arg args[2] = {gr_arg_ptr(d), gr_arg_i32(iters)};
    gr_dim3 g = {blocks, 1, 1}, b = {threads, 1, 1};
    double nbest = 1e30;
    gr_stats st;
    job j = {alu, "alu", g, b, args, 2, {0}};
    double best = best_launch(&j, 3);
    if (best < 0) return die(ctx);
    gr_last_stats(ctx, &st);
    for (int rep = 0; rep < 20; rep++) {
      double t0 = now();
      alu_native(nat, n, iters);
      double t1 = now();
      if (t1 - t0 < nbest) nbest = t1 - t0;
    }
    gr_memcpy_dtoh(ctx, emu, d, n * 4);
    if (memcmp(emu, nat, n * 4)) { fprintf(stderr, "bench: alu results differ from the native loop\n"); return 1; }
    printf("%-10s %14llu %14.4f %14.3g %12.6f %9.1fx\n", "alu", (unsigned long long)st.thread_instructions, best,
           (double)st.thread_instructions / best, nbest, best / nbest);
    free(emu); free(nat);
  }
  /* memory-bound */
  {
    const int n = 1 << 21;
    float *a = malloc(n * sizeof(float)), *bb = malloc(n * sizeof(float)), *c = malloc(n * sizeof(float)), *ce = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) { a[i] = (float)(i % 1000) * 0.5f; bb[i] = (float)(i % 7); }
    gr_ptr da, db, dc;
    gr_malloc(ctx, n * 4, "a", &da);
    gr_malloc(ctx, n * 4, "b", &db);
    gr_malloc(ctx, n * 4, "c", &dc);
    gr_memcpy_htod(ctx, da, a, n * 4);
    gr_memcpy_htod(ctx, db, bb, n * 4);
    gr_arg args[4] = {gr_arg_ptr(da), gr_arg_ptr(db), gr_arg_ptr(dc), gr_arg_i32(n)};
    gr_dim3 g = {256, 1, 1}, b = {256, 1, 1};
    double nbest = 1e30;
    gr_stats st;
    job j = {mem, "triad", g, b, args, 4, {0}};
    double best = best_launch(&j, 3);
    if (best < 0) return die(ctx);
    gr_last_stats(ctx, &st);
    for (int rep = 0; rep < 20; rep++) {
      double t0 = now();
      triad_native(a, bb, c, n);
      double t1 = now();
      if (t1 - t0 < nbest) nbest = t1 - t0;
    }
    gr_memcpy_dtoh(ctx, ce, dc, n * 4);
    if (memcmp(ce, c, n * 4)) { fprintf(stderr, "bench: triad results differ from the native loop\n"); return 1; }
    printf("%-10s %14llu %14.4f %14.3g %12.6f %9.1fx\n", "triad", (unsigned long long)st.thread_instructions, best,
           (double)st.thread_instructions / best, nbest, best / nbest);

    /* the same kernel under weak memory, in a context of its own */
    gr_config wc = cfg;
    wc.memory = GR_MEMORY_WEAK;
    gr_context *wctx = gr_context_create(&wc);
    gr_module *wmem;
    if (gr_module_load(wctx, path("bench/kernels/mem.cu"), NULL, 0, &wmem)) return die(wctx);
    gr_ptr wa, wb, wcc;
    gr_malloc(wctx, n * 4, "a", &wa);
    gr_malloc(wctx, n * 4, "b", &wb);
    gr_malloc(wctx, n * 4, "c", &wcc);
    gr_memcpy_htod(wctx, wa, a, n * 4);
    gr_memcpy_htod(wctx, wb, bb, n * 4);
    gr_arg wargs[4] = {gr_arg_ptr(wa), gr_arg_ptr(wb), gr_arg_ptr(wcc), gr_arg_i32(n)};
    job wj = {wmem, "triad", g, b, wargs, 4, {0}};
    double wbest = best_launch(&wj, 3);
    if (wbest < 0) return die(wctx);
    gr_memcpy_dtoh(wctx, ce, wcc, n * 4);
    if (memcmp(ce, c, n * 4)) { fprintf(stderr, "bench: weak-memory triad results differ from the native loop\n"); return 1; }
    gr_last_stats(wctx, &st);
    printf("%-10s %14llu %14.4f %14.3g %12.6f %9.1fx\n", "triad-weak", (unsigned long long)st.thread_instructions, wbest,
           (double)st.thread_instructions / wbest, nbest, wbest / nbest);
    printf("\nweak memory costs %.2fx sequentially consistent memory on triad (%.4f s / %.4f s, measured in this run)\n",
           wbest / best, wbest, best);
    gr_context_destroy(wctx);
    free(a); free(bb); free(c); free(ce);
  }
  printf("ratio = emulated time / native time for the same computation (goal for alu: at most 20x)\n");
  gr_context_destroy(ctx);
  return 0;
}
