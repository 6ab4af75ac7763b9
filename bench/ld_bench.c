/* ld_bench: the measurements of reports/ld.md, in Markdown on stdout.
 *
 *   1. Table VI of the LD paper on kernels/ld: what LD finds (race, type,
 *      scope, units and addresses involved, regions analysed and racy),
 *      next to the verdicts of hb, scord and boyer on the same file.
 *   2. The time of LD against plain emulation, as ratios measured in this
 *      one run (best of REPS runs each), with the breakdown of the paper's
 *      Figure 8, and the memory overhead as private copies.
 *   3. Memory-adaptive checking (§4.5): the probability of finding a race
 *      planted between two random blocks of 64 by round r, with M copies
 *      and random regrouping each round, against Equation 1; and the
 *      base-M digit grouping, which finds every pair by ceil(log_M 64).
 *
 * Usage: ld_bench [--reps N] [--trials N] FILE...   (FILE[:KNOB] runs FILE with -D KNOB=1)
 * The planted kernel is kernels/ld/planted.cu under GR_SRCDIR. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "detectors.h"
#include "gpurace.h"
#include "ld/ld.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
  int status;
  size_t races;             /* distinct reports */
  double seconds;           /* best run */
  ld_stats st;              /* ld only: of the best run */
  char classes[256];
} outcome;

/* Runs file (with knob) under dets (NULL: none) reps times in one context;
 * the best time, and the last run's reports. */
static outcome run_file(const char *file, const char *knob, const char *dets, const det_options *o, int reps) {
  outcome r;
  memset(&r, 0, sizeof r);
  r.seconds = 1e30;
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.sched = GR_SCHED_RANDOM;
  gr_context *ctx = gr_context_create(&cfg);
  char def[128];
  const char *defs[1] = {def};
  if (knob) snprintf(def, sizeof def, "%s=1", knob);
  gr_script *s = NULL;
  r.status = gr_script_load(ctx, file, defs, knob ? 1 : 0, &s);
  if (r.status) { fprintf(stderr, "ld_bench: %s\n", gr_error(ctx)); gr_context_destroy(ctx); return r; }
  for (int k = 0; k < reps; k++) {
    race_log *log = race_log_new();
    detector_set *set = NULL;
    char err[256];
    if (dets && detectors_attach(ctx, dets, o, log, &set, err, sizeof err)) { fprintf(stderr, "ld_bench: %s\n", err); exit(2); }
    if (k) gr_script_reset(s);
    double t0 = now();
    r.status = gr_script_run(s);
    double t = now() - t0;
    size_t n;
    const gr_race *rep = race_log_reports(log, &n);
    if (t < r.seconds) {
      r.seconds = t;
      if (dets && !strcmp(dets, "ld")) ld_get_stats(detectors_instance(set, 0), &r.st);
    }
    r.races = n;
    r.classes[0] = 0;
    for (size_t j = 0; j < n; j++) {
      if (strstr(r.classes, rep[j].cls)) continue;
      size_t len = strlen(r.classes);
      snprintf(r.classes + len, sizeof r.classes - len, "%s%s", len ? ", " : "", rep[j].cls);
    }
    detectors_detach(set);
    race_log_free(log);
  }
  gr_script_free(s);
  gr_context_destroy(ctx);
  return r;
}

static const char *base(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static void verdict(const outcome *o) {
  if (o->status && o->status != GR_ECHECK) printf(" run failed |");
  else if (!o->races) printf(" no race |");
  else printf(" race: %s |", o->classes);
}

/* The kinds of race ld found, from its classes. */
static void ld_kinds(const outcome *o) {
  int rw = strstr(o->classes, "read-write") != NULL, ww = strstr(o->classes, "write-write") != NULL;
  printf(" %s |", rw && ww ? "rw, ww" : rw ? "rw" : ww ? "ww" : "-");
  int sh = o->st.shared_bytes_racy > 0, gl = o->st.global_bytes_racy > 0;
  if (!sh && !gl && o->st.intra_bytes) printf(" intra-warp |");
  else printf(" %s |", sh && gl ? "shared, global" : sh ? "shared" : gl ? "global" : "-");
}

/* ---------------------------------------------------------------- §4.5 */

/* One trial: blocks a and b race; ld with M copies, `rounds` rounds of
 * random regrouping from `seed` (0: the base-M digits).  Returns the first
 * round (1-based) whose pass 1 found the race, 0 if none did. */
static int planted_round(gr_module *m, gr_context *ctx, gr_ptr out, int a, int b, int copies, uint64_t seed, int rounds) {
  det_options o;
  det_options_default(&o);
  o.ld_copies = copies;
  o.ld_shuffle = seed;
  o.ld_rounds = seed ? rounds : 0;
  race_log *log = race_log_new();
  detector_set *set = NULL;
  char err[256];
  if (detectors_attach(ctx, "ld", &o, log, &set, err, sizeof err)) { fprintf(stderr, "ld_bench: %s\n", err); exit(2); }
  gr_memset(ctx, out, 0, 64 * 4);
  gr_arg args[3] = {gr_arg_ptr(out), gr_arg_i32(a), gr_arg_i32(b)};
  if (gr_launch(m, "planted", (gr_dim3){64, 1, 1}, (gr_dim3){32, 1, 1}, 0, args, 3)) {
    fprintf(stderr, "ld_bench: %s\n", gr_error(ctx));
    exit(2);
  }
  ld_stats st;
  ld_get_stats(detectors_instance(set, 0), &st);
  detectors_detach(set);
  race_log_free(log);
  for (int r = 0; r < 64; r++) if (st.first_round_ww >> r & 1) return r + 1;
  return 0;
}

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void memory_adaptive(const char *srcdir, int trials) {
  char path[4096];
  snprintf(path, sizeof path, "%s/kernels/ld/planted.cu", srcdir);
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m;
  gr_ptr out;
  if (gr_module_load(ctx, path, NULL, 0, &m) || gr_malloc(ctx, 64 * 4, "out", &out)) {
    fprintf(stderr, "ld_bench: %s\n", gr_error(ctx));
    exit(2);
  }
  const int N = 64, R = 6;
  static const int Ms[] = {2, 4, 8, 16};
  printf("\n## Memory-adaptive checking (§4.5)\n\n");
  printf("`kernels/ld/planted.cu`: %d one-warp blocks, two of which (a, b) write one word. With M private copies a round "
         "checks M groups of blocks against each other, and finds the race when a and b fall in different groups.\n\n", N);
  printf("**Random regrouping** (`--ld-shuffle SEED --ld-rounds %d`): %d trials per M, each with its own pair (a, b) drawn "
         "uniformly and its own seed. Measured: the share of trials whose race was found by round r. Equation 1: "
         "1 - q^r, where q = (N/M - 1)/(N - 1) is the chance that a given pair shares a group in one balanced random grouping "
         "(the paper's Table I is not reproduced here; the column gives the equation's value).\n\n", R, trials);
  printf("| M | q |");
  for (int r = 1; r <= R; r++) printf(" r=%d measured | r=%d Eq. 1 |", r, r);
  printf("\n|---|---|");
  for (int r = 1; r <= R; r++) printf("---|---|");
  printf("\n");
  for (size_t k = 0; k < sizeof Ms / sizeof Ms[0]; k++) {
    int M = Ms[k];
    int found_by[8] = {0};
    uint64_t s = 12345 + (uint64_t)M;
    for (int t = 0; t < trials; t++) {
      int a = (int)(splitmix(&s) % (uint64_t)N), b;
      do b = (int)(splitmix(&s) % (uint64_t)N); while (b == a);
      int r1 = planted_round(m, ctx, out, a, b, M, (uint64_t)t + 1, R);
      for (int r = 1; r <= R; r++) found_by[r] += r1 && r1 <= r;
    }
    double q = ((double)N / M - 1) / (N - 1);
    printf("| %d | %.3f |", M, q);
    for (int r = 1; r <= R; r++) printf(" %.3f | %.3f |", (double)found_by[r] / trials, 1 - pow(q, r));
    printf("\n");
  }
  printf("\n**Base-M digits** (the default with `--ld-copies M`): round r groups blocks by digit r of their index in base M, "
         "so two blocks are apart in the first round where their digits differ. Every one of the %d pairs:\n\n", N * (N - 1) / 2);
  printf("| M | rounds ceil(log_M %d) | pairs found | by round 1 | latest round |\n|---|---|---|---|---|\n", N);
  for (size_t k = 0; k < sizeof Ms / sizeof Ms[0]; k++) {
    int M = Ms[k], found = 0, first = 0, latest = 0, rounds = 0;
    for (long p = 1; p < N; p *= M) rounds++;
    for (int a = 0; a < N; a++)
      for (int b = a + 1; b < N; b++) {
        int r1 = planted_round(m, ctx, out, a, b, M, 0, 0);
        found += r1 > 0;
        first += r1 == 1;
        if (r1 > latest) latest = r1;
      }
    printf("| %d | %d | %d | %d | %d |\n", M, rounds, found, first, latest);
  }
  gr_context_destroy(ctx);
}

int main(int argc, char **argv) {
  int reps = 20, trials = 400;
  const char *files[128];
  int nfiles = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--trials") && i + 1 < argc) trials = atoi(argv[++i]);
    else if (argv[i][0] == '-') { fprintf(stderr, "usage: ld_bench [--reps N] [--trials N] FILE[:KNOB]...\n"); return 2; }
    else if (nfiles < 128) files[nfiles++] = argv[i];
  }
  if (reps < 1 || trials < 1) { fprintf(stderr, "ld_bench: --reps and --trials take a positive count\n"); return 2; }
  const char *srcdir = getenv("GR_SRCDIR");
  if (!srcdir || !*srcdir) srcdir = ".";
  det_options o, timed;
  det_options_default(&o);
  timed = o;
  timed.ld_timing = 1;
  outcome *plain = calloc((size_t)nfiles + 1, sizeof *plain), *ld = calloc((size_t)nfiles + 1, sizeof *ld);
  outcome *hb = calloc((size_t)nfiles + 1, sizeof *hb), *sc = calloc((size_t)nfiles + 1, sizeof *sc), *by = calloc((size_t)nfiles + 1, sizeof *by);
  char (*name)[300] = calloc((size_t)nfiles + 1, sizeof *name);
  for (int f = 0; f < nfiles; f++) {
    char file[4096];
    snprintf(file, sizeof file, "%s", files[f]);
    char *colon = strrchr(file, ':');
    const char *knob = NULL;
    if (colon) { *colon = 0; knob = colon + 1; }
    snprintf(name[f], sizeof name[f], "%.200s%s%.60s", base(file), knob ? " +" : "", knob ? knob : "");
    plain[f] = run_file(file, knob, NULL, &o, reps);
    ld[f] = run_file(file, knob, "ld", &timed, reps);
    hb[f] = run_file(file, knob, "hb", &o, reps);
    sc[f] = run_file(file, knob, "scord", &o, reps);
    by[f] = run_file(file, knob, "boyer", &o, 1);
  }
  printf("## Detection results (Table VI)\n\n");
  printf("One run each, random scheduler, seed 1. ld's columns: the kinds of race (rw read-write, ww write-write; "
         "intra-warp where only lanes of one store collide), the memory they showed in, the warps or blocks named, the racy "
         "bytes (distinct addresses), and the AP regions analysed (the global one, and each block's barrier intervals) and "
         "found racy. hb watches global and shared memory, scord global memory only, boyer shared memory only.\n\n");
  printf("| kernel | ld | type | scope | units | addresses | regions | racy regions | hb | scord | boyer |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int f = 0; f < nfiles; f++) {
    printf("| %s |", name[f]);
    verdict(&ld[f]);
    ld_kinds(&ld[f]);
    printf(" %llu | %llu | %llu | %llu |", (unsigned long long)ld[f].st.units, (unsigned long long)ld[f].st.addresses,
           (unsigned long long)ld[f].st.regions, (unsigned long long)ld[f].st.racy_regions);
    verdict(&hb[f]);
    verdict(&sc[f]);
    verdict(&by[f]);
    printf("\n");
  }
  printf("\n## Time and memory\n\n");
  printf("Best of %d runs of each file in this one process (one core, random scheduler, seed 1): plain emulation, then "
         "with each detector. Ratios are detector time / plain time. The breakdown splits ld's time as the paper's Figure 8 "
         "does, in percent: *targets* is the plain run that finds what the kernel writes (the paper's compiler analysis); "
         "*init* makes the private copies; *pass 1* and *pass 2* are emulation on the copies; *check* builds the union "
         "and finds write-write races, *init 2* prepares pass 2, *check 2* finds read-write races, *copy back* merges the "
         "blocks' results into global memory. Engine time between two events goes to the pass that the event's block is "
         "in, which is exact for the inter-block runs and close for the inter-warp run, whose blocks interleave. "
         "*Copies* are ld's private copies: per inter-block round (each of the global targets), and per block in the "
         "inter-warp run (each of the block's shared memory and global targets); *peak* is the most bytes of copies held "
         "at once.\n\n", reps);
  printf("| kernel | plain (ms) | ld | hb | scord |");
  for (int p = 0; p < LD_NPHASES; p++) printf(" %s |", ld_phase_name(p));
  printf(" copies (block / warp) | peak bytes |\n|---|---|---|---|---|");
  for (int p = 0; p < LD_NPHASES; p++) printf("---|");
  printf("---|---|\n");
  double geo_ld = 0, geo_hb = 0, geo_sc = 0;
  int ng = 0;
  for (int f = 0; f < nfiles; f++) {
    double p = plain[f].seconds;
    printf("| %s | %.3f | %.1fx | %.1fx | %.1fx |", name[f], 1e3 * p, ld[f].seconds / p, hb[f].seconds / p, sc[f].seconds / p);
    double tot = 0;
    for (int k = 0; k < LD_NPHASES; k++) tot += ld[f].st.seconds[k];
    for (int k = 0; k < LD_NPHASES; k++) printf(" %.0f |", tot > 0 ? 100 * ld[f].st.seconds[k] / tot : 0.0);
    printf(" %d / %d | %llu |\n", ld[f].st.block_copies, ld[f].st.warp_copies, (unsigned long long)ld[f].st.copy_bytes_peak);
    if (p > 0 && ld[f].seconds > 0) {
      geo_ld += log(ld[f].seconds / p);
      geo_hb += log(hb[f].seconds / p);
      geo_sc += log(sc[f].seconds / p);
      ng++;
    }
  }
  if (ng) printf("\nGeometric mean over the %d kernels: ld %.1fx, hb %.1fx, scord %.1fx plain emulation.\n", ng, exp(geo_ld / ng),
                 exp(geo_hb / ng), exp(geo_sc / ng));
  memory_adaptive(srcdir, trials);
  free(plain); free(ld); free(hb); free(sc); free(by); free(name);
  return 0;
}
