/* make bench: emulated thread-instructions per second, and the time of the
 * emulator against the same computation in plain C, compiled by the same
 * compiler with the same flags, both measured in this one run.  Outputs of
 * the two are compared, so the native loop cannot drift from the kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detectors.h"
#include "floor.h"
#include "gpurace.h"
#include "hb/hb.h"
#include "peer.h"
#include "runtime.h"

/* The native twins of the kernels in bench/kernels (the ALU kernel is bench/peer/hash.cu, its
 * twin peer_hash); noinline keeps them honest. */
__attribute__((noinline)) static void triad_native(const float *a, const float *b, float *c, int n) {
  for (int i = 0; i < n; i++) c[i] = a[i] * 2.0f + b[i];
}

static const char *path(const char *rel) {
  static char buf[4096];
  const char *d = getenv("GR_SRCDIR");
  snprintf(buf, sizeof buf, "%s/%s", d && *d ? d : ".", rel);
  return buf;
}


/* Best wall time of reps launches of kernel; -1 on an emulation error. */
static double best_launch(gr_module *m, const char *kernel, gr_dim3 g, gr_dim3 b, const gr_arg *args, int nargs, int reps) {
  double best = 1e30;
  for (int rep = 0; rep < reps; rep++) {
    double t0 = gr_now();
    if (gr_launch(m, kernel, g, b, 0, args, nargs)) return -1;
    double t1 = gr_now();
    if (t1 - t0 < best) best = t1 - t0;
  }
  return best;
}

static void row(const char *name, const gr_stats *st, double emu, double native) {
  printf("%-10s %14llu %14.4f %14.3g %12.6f %9.1fx\n", name, (unsigned long long)st->thread_instructions, emu,
         (double)st->thread_instructions / emu, native, emu / native);
}

#define NATIVE_BEST(var, call) do { var = 1e30; for (int rep_ = 0; rep_ < 20; rep_++) { \
    double t0_ = gr_now(); call; double t1_ = gr_now(); if (t1_ - t0_ < var) var = t1_ - t0_; } } while (0)

/* triad (c = 2a + b over n floats) in a fresh context of the given memory
 * model: best time, stats, and the result in c. */
static double triad_emulated(gr_memory memory, gr_cc cc, const float *a, const float *b, float *c, int n, gr_stats *st) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = memory;
  cfg.cc = cc;
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

/* ------------------------------------------------------------- detector overhead */

static det_options dopts;   /* the defaults, set in main */

static const char *const detector_columns[] = {NULL, "scord", "scord-nocache", "hb", "hb-ptx", "boyer", "boyer-banks"};
#define NDCOL 7

/* Triad over n floats on 8 blocks of 256 threads with the detectors
 * `dets` (NULL: none): best time of 3; -1 on an error or a race report
 * (the kernel is race-free). */
static double triad_detected(const char *dets, const float *a, const float *b, int n) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = GR_MEMORY_SC;
  cfg.max_steps = 0;
  gr_context *ctx = gr_context_create(&cfg);
  gr_module *m;
  double best = -1;
  race_log *log = race_log_new();
  detector_set *set = NULL;
  char err[256];
  if (gr_module_load(ctx, path("bench/kernels/mem.cu"), NULL, 0, &m) == GR_OK &&
      (!dets || detectors_attach(ctx, dets, &dopts, log, &set, err, sizeof err) == GR_OK)) {
    gr_ptr da, db, dc;
    gr_malloc(ctx, (size_t)n * 4, "a", &da);
    gr_malloc(ctx, (size_t)n * 4, "b", &db);
    gr_malloc(ctx, (size_t)n * 4, "c", &dc);
    gr_memcpy_htod(ctx, da, a, (size_t)n * 4);
    gr_memcpy_htod(ctx, db, b, (size_t)n * 4);
    gr_arg args[4] = {gr_arg_ptr(da), gr_arg_ptr(db), gr_arg_ptr(dc), gr_arg_i32(n)};
    gr_dim3 g = {8, 1, 1}, bl = {256, 1, 1};
    best = best_launch(m, "triad", g, bl, args, 4, 3);
    size_t nr;
    race_log_reports(log, &nr);
    if (nr) { fprintf(stderr, "bench: %s reported a race on triad\n", dets); best = -1; }
  } else fprintf(stderr, "bench: %s\n", dets ? err : gr_error(ctx));
  detectors_detach(set);
  race_log_free(log);
  gr_context_destroy(ctx);
  return best;
}

/* Runs each of the kernel files `files` (paths from the source tree)
 * `reps` times in one context with the detectors `dets`: total wall time of
 * the runs. */
static double script_loop(const char *const *files, size_t nfiles, const char *dets, int reps) {
  double total = 0;
  for (size_t f = 0; f < nfiles; f++) {
    gr_config cfg;
    gr_config_default(&cfg);
    cfg.memory = GR_MEMORY_SC;
    gr_context *ctx = gr_context_create(&cfg);
    gr_script *s;
    if (gr_script_load(ctx, path(files[f]), NULL, 0, &s)) { fprintf(stderr, "bench: %s\n", gr_error(ctx)); return -1; }
    race_log *log = race_log_new();
    detector_set *set = NULL;
    char err[256];
    if (dets && detectors_attach(ctx, dets, &dopts, log, &set, err, sizeof err)) return -1;
    for (int r = 0; r < reps; r++) {
      race_log_clear(log);
      double t0 = gr_now();
      if (gr_script_reset(s) || gr_script_run(s)) { fprintf(stderr, "bench: %s\n", gr_error(ctx)); return -1; }
      total += gr_now() - t0;
    }
    detectors_detach(set);
    race_log_free(log);
    gr_script_free(s);
    gr_context_destroy(ctx);
  }
  return total;
}

/* Every ScoR microbenchmark, `reps` runs each. */
static double micro_loop(const char *dets, int reps) {
  static const char *const names[] = {
    "norace_interblock_atom", "norace_interblock_fence_raw", "norace_interblock_lock_waw",
    "norace_interwarp-block_fence-atom_hrd-indirect", "norace_interwarp-block_fence_hrf-indirect",
    "norace_interwarp_blkatom", "norace_interwarp_blkfence_raw", "norace_interwarp_blklock_waw",
    "norace_interwarp_dev-blkatom", "norace_interwarp_dev-blklock_waw", "norace_interwarp_fence_raw",
    "norace_intrawarp_none-blkatom", "norace_intrawarp_none-blklock-no-tf_waw", "norace_intrawarp_none-blklock_waw",
    "race_interblock_blkatom", "race_interblock_blkfence_raw", "race_interblock_blklock_waw",
    "race_interblock_fence_rtraw", "race_interblock_lock-blkfence_waw", "race_interblock_lock-no-stf_waw",
    "race_interblock_lock-no-tf_waw", "race_interblock_none-atom_waw", "race_interblock_none-lock_rtraw",
    "race_interblock_none-lock_waw", "race_interwarp_blklock-no-stf_waw", "race_interwarp_blklock-no-tf_waw",
    "race_interwarp_dev-blklock-no-stf_waw", "race_interwarp_dev-blklock-no-tf_waw", "race_interwarp_none-atom_waw",
    "race_interwarp_none-blkatom_waw", "race_interwarp_none-blklock_waw", "race_interwarp_none-lock_waw"};
  static char paths[sizeof names / sizeof names[0]][128];
  const char *files[sizeof names / sizeof names[0]];
  for (size_t f = 0; f < sizeof names / sizeof names[0]; f++) {
    snprintf(paths[f], sizeof paths[f], "scor/micro/%s.cu", names[f]);
    files[f] = paths[f];
  }
  return script_loop(files, sizeof names / sizeof names[0], dets, reps);
}

static void detector_overhead(void) {
  det_options_default(&dopts);
  printf("\ndetector overhead (time with the detector / time without, measured in this run)\n");
  printf("%-28s", "workload");
  for (int d = 0; d < NDCOL; d++) printf(" %13s", detector_columns[d] ? detector_columns[d] : "none (s)");
  putchar('\n');
  double base = micro_loop(NULL, 20);
  printf("%-28s %13.4f", "ScoR micro loop (32 x 20)", base);
  for (int d = 1; d < NDCOL; d++) {
    double t = micro_loop(detector_columns[d], 20);
    if (t < 0 || base <= 0) printf(" %13s", "error");
    else printf(" %12.2fx", t / base);
  }
  putchar('\n');
  static const char *const scan[] = {"kernels/boyer/scan.cu"};
  double sb = script_loop(scan, 1, NULL, 50);
  printf("%-28s %13.4f", "Harris scan, 512 (x 50)", sb);
  for (int d = 1; d < NDCOL; d++) {
    double t = script_loop(scan, 1, detector_columns[d], 50);
    if (t < 0 || sb <= 0) printf(" %13s", "error");
    else printf(" %12.2fx", t / sb);
  }
  putchar('\n');
  const int n = 1 << 18;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { a[i] = (float)(i % 1000) * 0.5f; b[i] = (float)(i % 7); }
  double tb = triad_detected(NULL, a, b, n);
  printf("%-28s %13.4f", "triad 2^18, 8x256 threads", tb);
  for (int d = 1; d < NDCOL; d++) {
    double t = triad_detected(detector_columns[d], a, b, n);
    if (t < 0 || tb <= 0) printf(" %13s", "error");
    else printf(" %12.2fx", t / tb);
  }
  putchar('\n');
  free(a);
  free(b);
}

/* ------------------------------------------------------------- the oracle (issue 18) */

typedef struct { const char *kernel; int n; } oracle_case;

/* One launch of an oracle workload over n elements (256-thread blocks) with
 * the detectors `dets` (NULL: none): its time, and 0 with *ok when it ran
 * race-free with every detector watching and the output matched the plain
 * C twin; *why says otherwise. */
static double oracle_run(const char *kernel, int n, const char *dets, int *ok, const char **why, uint64_t *mem) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = GR_MEMORY_SC;
  cfg.max_steps = 0;
  gr_context *ctx = gr_context_create(&cfg);
  gr_module *m;
  race_log *log = race_log_new();
  detector_set *set = NULL;
  char err[256];
  double t = -1;
  *ok = 0;
  *why = "load";
  unsigned *in = malloc((size_t)n * 4), *out = calloc((size_t)n, 4), *want = calloc((size_t)n, 4);
  float *fa = malloc((size_t)n * 4), *fb = malloc((size_t)n * 4), *fc = calloc((size_t)n, 4);
  for (int i = 0; i < n; i++) { in[i] = (unsigned)i * 2654435761u >> 7; fa[i] = (float)(i % 1000) * 0.5f; fb[i] = (float)(i % 7); }
  if (gr_module_load(ctx, path("bench/kernels/oracle.cu"), NULL, 0, &m) == GR_OK &&
      (!dets || detectors_attach(ctx, dets, &dopts, log, &set, err, sizeof err) == GR_OK)) {
    gr_ptr da, db, dc;
    gr_dim3 g = {(unsigned)(n / 256), 1, 1}, bl = {256, 1, 1};
    size_t outn = 0;
    int st;
    double t0 = gr_now();
    if (!strncmp(kernel, "histogram", 9)) {
      gr_malloc(ctx, (size_t)n * 4, "in", &da);
      gr_malloc(ctx, 256 * 4, "bins", &db);
      gr_memcpy_htod(ctx, da, in, (size_t)n * 4);
      gr_memset(ctx, db, 0, 256 * 4);
      gr_arg args[3] = {gr_arg_ptr(da), gr_arg_ptr(db), gr_arg_i32(n)};
      t0 = gr_now();
      st = gr_launch(m, kernel, g, bl, 0, args, 3);
      t = gr_now() - t0;
      for (int i = 0; i < n; i++) want[in[i] & 255u]++;
      outn = 256;
      dc = db;
    } else if (!strcmp(kernel, "triad1")) {
      gr_malloc(ctx, (size_t)n * 4, "a", &da);
      gr_malloc(ctx, (size_t)n * 4, "b", &db);
      gr_malloc(ctx, (size_t)n * 4, "c", &dc);
      gr_memcpy_htod(ctx, da, fa, (size_t)n * 4);
      gr_memcpy_htod(ctx, db, fb, (size_t)n * 4);
      gr_arg args[4] = {gr_arg_ptr(da), gr_arg_ptr(db), gr_arg_ptr(dc), gr_arg_i32(n)};
      t0 = gr_now();
      st = gr_launch(m, kernel, g, bl, 0, args, 4);
      t = gr_now() - t0;
      triad_native(fa, fb, fc, n);
      memcpy(want, fc, (size_t)n * 4);
      outn = (size_t)n;
    } else {
      gr_malloc(ctx, (size_t)n * 4, "in", &da);
      gr_malloc(ctx, (size_t)n / 256 * 4, "out", &dc);
      gr_memcpy_htod(ctx, da, in, (size_t)n * 4);
      gr_arg args[2] = {gr_arg_ptr(da), gr_arg_ptr(dc)};
      t0 = gr_now();
      st = gr_launch(m, kernel, g, bl, 0, args, 2);
      t = gr_now() - t0;
      for (int i = 0; i < n; i++) want[i / 256] += in[i];
      outn = (size_t)n / 256;
    }
    size_t nr;
    race_log_reports(log, &nr);
    int racy = !strcmp(kernel, "histogram_racy");   /* its bins lose updates: the race is the point */
    if (st) *why = gr_error(ctx);
    else if (!racy && (gr_memcpy_dtoh(ctx, out, dc, outn * 4) || memcmp(out, want, outn * 4))) *why = "output differs from the plain C twin";
    else if (nr && !racy) *why = "a race reported on a race-free kernel";
    else if (!nr && racy && dets) *why = "no race reported on the racy histogram";
    else if (set && detectors_size(set) && race_log_unwatched_why(log, detectors_name(set, 0))) *why = "not watched";
    else { *ok = 1; *why = NULL; }
    if (mem) *mem = set && detectors_size(set) ? hb_memory_peak(detectors_instance(set, 0)) : 0;
  } else *why = dets ? "attach" : gr_error(ctx);
  detectors_detach(set);
  race_log_free(log);
  gr_context_destroy(ctx);
  free(in); free(out); free(want); free(fa); free(fb); free(fc);
  return t;
}

/* Runs of each of the oracle table's cells. */
#define ORACLE_REPS 3

static void oracle_table(void) {
  det_options_default(&dopts);
  static const oracle_case cases[] = {
    {"histogram", 1 << 16}, {"histogram", 1 << 18}, {"histogram", 1 << 20},
    {"histogram_racy", 1 << 16}, {"histogram_racy", 1 << 18}, {"histogram_racy", 1 << 20}, {"histogram_racy", 1 << 22},
    {"triad1", 1 << 18}, {"triad1", 1 << 20}, {"triad1", 1 << 22}, {"reduce", 1 << 20}};
  static const char *const dets[] = {"hb", "hb-ptx"};
  printf("\nthe happens-before oracle (issue 18): time with the detector / time without, measured in this run\n"
         "(best of %d, the three runs of a workload in turn, so that a slow minute of the machine falls on each);\n"
         "ns per element with each; detector memory (peak) per byte the kernel touches;\n"
         "goals: hb <= 3x, hb-ptx <= 4x, time per element flat, at most 16 bytes per byte\n", ORACLE_REPS);
  printf("%-22s %11s %12s %12s %12s %12s %9s %9s\n", "workload", "none (s)", "hb", "hb-ptx", "hb ns/elem", "ptx ns/elem",
         "hb B/B", "ptx B/B");
  /* the racy histogram's plain runs, for its floor below */
  int racy_n[8], nracy = 0;
  double racy_none[8];
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    char name[64];
    snprintf(name, sizeof name, "%s 2^%d", cases[c].kernel, __builtin_ctz((unsigned)cases[c].n));
    /* none, hb, hb-ptx: the best time of each, or why one failed */
    double best[3] = {-1, -1, -1};
    int k[3] = {1, 1, 1};
    const char *w[3] = {NULL, NULL, NULL};
    uint64_t mem[3] = {0, 0, 0};
    for (int r = 0; r < ORACLE_REPS; r++)
      for (int d = 0; d < 3; d++) {
        int ok;
        const char *why;
        uint64_t m = 0;
        double t = oracle_run(cases[c].kernel, cases[c].n, d ? dets[d - 1] : NULL, &ok, &why, d ? &m : NULL);
        if (!ok) { k[d] = 0; w[d] = why; }
        else if (best[d] < 0 || t < best[d]) best[d] = t;
        if (m > mem[d]) mem[d] = m;
      }
    /* bytes of global and shared memory the kernel touches */
    double n = cases[c].n, touched = !strncmp(cases[c].kernel, "histogram", 9) ? 4 * n + 1024
                                     : !strcmp(cases[c].kernel, "triad1") ? 12 * n : 8 * n + n / 64;
    if (!k[0]) { printf("%-22s error: %s\n", name, w[0]); continue; }
    double base = best[0], *t = best + 1;
    if (!strcmp(cases[c].kernel, "histogram_racy") && nracy < 8) {
      racy_n[nracy] = cases[c].n;
      racy_none[nracy++] = base;
    }
    printf("%-22s %11.4f", name, base);
    for (int d = 0; d < 2; d++) {
      if (k[d + 1]) printf(" %11.2fx", t[d] / base);
      else printf(" %12.12s", w[d + 1]);
    }
    for (int d = 0; d < 2; d++) {
      if (k[d + 1]) printf(" %12.1f", t[d] * 1e9 / cases[c].n);
      else printf(" %12s", "-");
    }
    for (int d = 0; d < 2; d++) {
      if (k[d + 1]) printf(" %9.2f", (double)mem[d + 1] / touched);
      else printf(" %9s", "-");
    }
    putchar('\n');
    fflush(stdout);
  }
  /* how close any oracle that follows each access can come (floor.h) */
  printf("floor of an exact per-access oracle on the racy histogram (its bookkeeping alone, floor.h): (none + floor) / none\n");
  for (int r = 0; r < nracy; r++) {
    int n = racy_n[r];
    unsigned *bins = malloc((size_t)n * sizeof *bins);
    for (int i = 0; i < n; i++) bins[i] = ((unsigned)i * 2654435761u >> 7) & 255u;   /* oracle_run's in[i], its bin */
    double f = floor_hot(bins, n, ORACLE_REPS), fw = floor_warp(bins, n, ORACLE_REPS);
    free(bins);
    if (f < 0) printf("  histogram_racy 2^%d: no floor (not whole waves of blocks, or a record outlived its block)\n", __builtin_ctz((unsigned)n));
    else printf("  histogram_racy 2^%-2d %8.1f ns/elem %9.2fx", __builtin_ctz((unsigned)n), f * 1e9 / n, (racy_none[r] + f) / racy_none[r]);
    if (fw < 0) printf("   a warp's access as one record: no floor (its pieces came out wrong)\n");
    else if (f >= 0) printf("   a warp's access as one record: %6.1f ns/elem %6.2fx\n", fw * 1e9 / n, (racy_none[r] + fw) / racy_none[r]);
    else putchar('\n');
  }
}

/* The ALU kernel over n threads through front end cc: best time of 3, -1 on an error. */
static double alu_emulated(gr_cc cc, unsigned *out, unsigned n, int iters, gr_stats *st) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = GR_MEMORY_SC;   /* whatever GPURACE_MEMORY says */
  cfg.max_steps = 0;
  cfg.cc = cc;
  gr_context *ctx = gr_context_create(&cfg);
  gr_module *alu;
  double best = -1;
  if (gr_module_load(ctx, path("bench/peer/hash.cu"), NULL, 0, &alu) == GR_OK) {
    gr_ptr d;
    gr_malloc(ctx, n * 4, "out", &d);
    gr_arg args[2] = {gr_arg_ptr(d), gr_arg_i32(iters)};
    gr_dim3 g = {n / 256, 1, 1}, b = {256, 1, 1};
    best = best_launch(alu, "hash", g, b, args, 2, 3);
    gr_last_stats(ctx, st);
    gr_memcpy_dtoh(ctx, out, d, n * 4);
  }
  if (best < 0) fprintf(stderr, "bench: %s\n", gr_error(ctx));
  gr_context_destroy(ctx);
  return best;
}

/* The same kernels through the PTX front end (nvcc's -O3 PTX) against the
 * subset front end, in this run; skipped, and said so, without nvcc. */
static int front_ends(const unsigned *alu_nat, unsigned alu_n, int alu_iters) {
  printf("\nfront ends (time through nvcc's PTX / time through the subset front end, measured in this run)\n");
  gr_config probe;
  gr_config_default(&probe);
  probe.cc = GR_CC_NVCC;
  gr_context *pc = gr_context_create(&probe);
  gr_module *pm;
  int ok = gr_module_load(pc, path("bench/peer/hash.cu"), NULL, 0, &pm) == GR_OK;
  if (!ok) printf("skipped: %s\n", gr_error(pc));
  gr_context_destroy(pc);
  if (!ok) return 0;
  printf("%-10s %14s %14s %10s\n", "kernel", "subset (s)", "PTX (s)", "ratio");
  unsigned *out = calloc(alu_n, 4);
  gr_stats st;
  double sub = alu_emulated(GR_CC_SUBSET, out, alu_n, alu_iters, &st);
  double ptx = alu_emulated(GR_CC_NVCC, out, alu_n, alu_iters, &st);
  if (sub < 0 || ptx < 0) return 2;
  if (memcmp(out, alu_nat, alu_n * 4)) { fprintf(stderr, "bench: alu through PTX differs from the native loop\n"); return 1; }
  printf("%-10s %14.4f %14.4f %9.2fx\n", "alu", sub, ptx, ptx / sub);
  free(out);
  const int n = 1 << 21;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)), *c1 = malloc(n * sizeof(float)), *c2 = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { a[i] = (float)(i % 1000) * 0.5f; b[i] = (float)(i % 7); }
  sub = triad_emulated(GR_MEMORY_SC, GR_CC_SUBSET, a, b, c1, n, &st);
  ptx = triad_emulated(GR_MEMORY_SC, GR_CC_NVCC, a, b, c2, n, &st);
  if (sub < 0 || ptx < 0) return 2;
  if (memcmp(c1, c2, (size_t)n * 4)) { fprintf(stderr, "bench: triad through PTX differs from the subset's\n"); return 1; }
  printf("%-10s %14.4f %14.4f %9.2fx\n", "triad", sub, ptx, ptx / sub);
  free(a); free(b); free(c1); free(c2);
  return 0;
}

/* NVRTC's PTX kept across runs (host.c's ptx_disk_key): `gpurace run` of a
 * CUB kernel file three times with one fresh cache folder, the first
 * compiling, the later two finding its PTX, each process timed whole;
 * skipped, and said so, where the first run fails (no NVRTC). */
static int ptx_kept(const char *src, const char *build) {
  printf("\nNVRTC's PTX across runs (gpurace run kernels/samples/cub_sort.cu --cc nvrtc, the whole process, one fresh\n"
         "cache folder: the first run compiles, the next two find the PTX; measured in this run)\n");
  char dir[] = "/tmp/gpurace-bench-ptx-XXXXXX";
  if (!mkdtemp(dir)) { printf("skipped: cannot make a cache folder in /tmp\n"); return 0; }
  char cmd[8400];
  snprintf(cmd, sizeof cmd, "'%s/gpurace' run '%s/kernels/samples/cub_sort.cu' -q --cc nvrtc --jit-cache '%s' >/dev/null 2>&1",
           build, src, dir);
  double t[3];
  int rc = 0;
  for (int k = 0; k < 3 && !rc; k++) {
    double t0 = gr_now();
    rc = system(cmd);
    t[k] = gr_now() - t0;
  }
  char rm[200];
  snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
  if (system(rm)) { /* a folder left in /tmp */ }
  if (rc) { printf("skipped: the run failed (no NVRTC?): %s\n", cmd); return 0; }
  double kept = t[1] < t[2] ? t[1] : t[2];
  printf("%-10s %14s %14s %10s\n", "kernel", "compiled (s)", "kept (s)", "ratio");
  printf("%-10s %14.4f %14.4f %9.1fx\n", "cub_sort", t[0], kept, t[0] / kept);
  return 0;
}

int main(int argc, char **argv) {
  /* `bench oracle`: only the oracle's table; `bench peers`: only the comparison with PoCL and C;
   * `bench peer KERNEL [REPS [MODE]]`: one of its kernels, for a profiler */
  if (argc > 1 && !strcmp(argv[1], "oracle")) { oracle_table(); return 0; }
  const char *src = getenv("GR_SRCDIR"), *build = getenv("GR_BUILDDIR");
  /* `bench runtime`: only gpurace exec against the library's launches */
  if (argc > 1 && !strcmp(argv[1], "runtime")) return runtime_bench(src && *src ? src : ".", build && *build ? build : ".");
  if (argc > 1 && !strcmp(argv[1], "peers")) return peer_tables(src && *src ? src : ".") ? 1 : 0;
  /* `bench ptx`: only NVRTC's PTX across runs */
  if (argc > 1 && !strcmp(argv[1], "ptx")) return ptx_kept(src && *src ? src : ".", build && *build ? build : ".");
  if (argc > 2 && !strcmp(argv[1], "peer")) return peer_one(src && *src ? src : ".", argv[2], argc > 3 ? atoi(argv[3]) : 5, argc > 4 ? argv[4] : NULL);
  printf("gpurace benchmark (round-robin scheduler, 4 SMs; sequentially consistent memory unless -weak)\n\n");
  printf("%-10s %14s %14s %14s %12s %10s\n", "kernel", "thread-instr", "emulated (s)", "thr-instr/s", "native (s)", "ratio");

  /* ALU-bound */
  const unsigned alu_n = 64 * 256;
  const int alu_iters = 400;
  unsigned *alu_nat = calloc(alu_n, 4), *alu_emu = calloc(alu_n, 4);
  {
    gr_stats st;
    double best = alu_emulated(GR_CC_SUBSET, alu_emu, alu_n, alu_iters, &st), nbest;
    if (best < 0) return 2;
    NATIVE_BEST(nbest, peer_hash(alu_nat, alu_n, alu_iters));
    if (memcmp(alu_emu, alu_nat, alu_n * 4)) { fprintf(stderr, "bench: alu results differ from the native loop\n"); return 1; }
    row("alu", &st, best, nbest);
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
      best[weak] = triad_emulated(weak ? GR_MEMORY_WEAK : GR_MEMORY_SC, GR_CC_SUBSET, a, bb, ce, n, &st);
      if (best[weak] < 0) return 2;
      if (memcmp(ce, c, n * 4)) { fprintf(stderr, "bench: triad results (%s memory) differ from the native loop\n", weak ? "weak" : "sc"); return 1; }
      row(weak ? "triad-weak" : "triad", &st, best[weak], nbest);
    }
    printf("\nweak memory costs %.2fx sequentially consistent memory on triad (%.4f s / %.4f s, measured in this run)\n",
           best[1] / best[0], best[1], best[0]);
    free(a); free(bb); free(c); free(ce);
  }
  printf("ratio = emulated time / native time for the same computation (goal for alu: at most 20x)\n");
  int fe = front_ends(alu_nat, alu_n, alu_iters);
  if (fe) return fe;
  ptx_kept(src && *src ? src : ".", build && *build ? build : ".");
  free(alu_nat); free(alu_emu);
  detector_overhead();
  oracle_table();
  if (runtime_bench(src && *src ? src : ".", build && *build ? build : ".")) return 1;
  return peer_tables(src && *src ? src : ".") ? 1 : 0;
}
