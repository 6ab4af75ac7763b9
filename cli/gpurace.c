/* gpurace: the command line.  `gpurace run FILE` runs a self-running kernel
 * file, with race detectors if asked; `gpurace ir FILE` prints its KIR;
 * `gpurace litmus FILE...` runs litmus tests; `gpurace table` writes verdict
 * tables.  Exit statuses: 0 every check held, 1 a check failed, 2 bad input
 * or usage, 3 emulation error, 4 a detector reported a race. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif
#include "check.h"
#include "exec.h"
#include "ranks.h"
#include "detectors.h"
#include "fatbin.h"
#include "loops/loops.h"
#include "gpurace.h"

static const char *const usage_main_head =
  "usage: gpurace COMMAND [OPTIONS] FILE\n"
  "\n"
  "gpurace is a reference emulator for CUDA kernels (a CUDA C subset) with\n"
  "explicit warp lockstep, and a conformance suite for GPU race detectors.\n"
  "\n"
  "commands:\n";
static const char *const usage_main_tail =
  "\n"
  "exit status: 0 ok, 1 a check failed, 2 bad input or usage,\n"
  "             3 emulation error (invalid access, deadlock, barrier divergence, step limit),\n"
  "             4 a race detector reported a race (check: a racy array),\n"
  "             5 no verdict (check: outside the calculus, or unknown)\n";

static const char *const usage_run_head =
  "usage: gpurace run FILE [OPTIONS]\n"
  "\n"
  "Runs the launch that FILE's //@ directives describe, then evaluates its\n"
  "//@ check lines.\n"
  "\n"
  "options:\n"
  "  -D NAME[=VALUE]   define a preprocessor macro, as with nvcc (repeatable)\n";
/* run's own options, after the configuration's */
static const char *const usage_run_own =
  "  --dump NAME       print a buffer or __device__ variable after the run (repeatable)\n"
  "  --digest          print 'digest NAME BYTES HASH' for every buffer and __device__\n"
  "                    variable: the FNV-1a hash of its final bytes, to compare backends\n"
  "  --stats           print instruction counts and memory operations (lanes and bytes\n"
  "                    per space and kind), summed over the file's launches\n"
  "  --seq             run the file's sequential loop in C (a loop kernel's '//@ meta seq\n"
  "                    NAME') over its buffers instead of its launches, then check and dump\n"
  "  --time N          run N more times on fresh buffers and print the fastest run's time\n"
  "                    (the launches alone, or the sequential loop alone with --seq)\n"
  "  -q, --quiet       print only failures and errors\n"
  "  --detect LIST     race detectors to run, comma-separated (see 'gpurace detectors')\n"
  "  --json            print race reports as JSON, one object per line, on stdout;\n"
  "                    everything else goes to stderr\n";
static const char *const usage_run_tail =
  "\n"
  "exit status: 0 ok, 1 a check failed, 2 bad input or usage, 3 emulation error,\n"
  "             4 a detector reported a race (checks and emulation errors are still reported),\n"
  "             5 a detector stopped watching the run (it says why): its verdict is void\n";

static const char *const usage_table_head =
  "usage: gpurace table DIR|FILE... --detect LIST [OPTIONS]\n"
  "\n"
  "Runs every kernel file (a DIR means its *.cu files, in name order) once per\n"
  "seed with every detector of LIST watching the same run, and writes a verdict\n"
  "table: per file the expected verdict (//@ expect) and each detector's verdict,\n"
  "report count and race classes, with totals by //@ meta category.  Runs go in\n"
  "parallel (OpenMP; OMP_NUM_THREADS); the tables are the same whatever the\n"
  "number of threads.\n"
  "\n"
  "options:\n"
  "  --detect LIST     detectors, comma-separated (required)\n"
  "  --seeds K         seeds 1..K (default 1)\n"
  "  --out BASE        write BASE.md and BASE.csv (default reports/ and the DIR's\n"
  "                    path with '/' as '-', e.g. reports/scor-micro)\n"
  ;
static const char *const usage_table_own =
  "  --notes FILE      append FILE (Markdown) to the .md table, e.g. what explains it\n"
  "  -D NAME[=VALUE]   define a macro for every run (repeatable)\n"
  "  --knobs           a file with '//@ expect race if KNOB...' gives a row without\n"
  "                    its knobs (expected race-free) and one row per knob alone\n"
  "                    (-D KNOB=1, expected racy)\n"
  "  -q, --quiet       no progress line on stderr\n"
  "\n"
  "exit status: 0 every verdict as expected, 1 a verdict differs from its\n"
  "             expect line or a detector stopped watching a run (its cell\n"
  "             says \"not watched\", never a verdict), 2 bad input or usage\n";

static const char *const usage_litmus_head =
  "usage: gpurace litmus FILE... [OPTIONS]\n"
  "\n"
  "Runs each litmus test (a kernel file with //@ litmus, observe and outcome\n"
  "directives) under weak memory and the random scheduler, prints the histogram\n"
  "of its outcomes and a verdict line: PASS, or FAIL with the reason (a\n"
  "forbidden outcome seen, with the seed that reproduces it; a required outcome\n"
  "not seen).  Run k uses seed S+k, the same run as\n"
  "'gpurace run FILE --memory weak --sched random --seed S+k'.  Where a test's\n"
  "runs would take more than a second, they are split across the machine's\n"
  "threads (OMP_NUM_THREADS); the output is the same, byte for byte.\n"
  "\n"
  "options:\n"
  "  --runs N          sampled runs per test (default 10000)\n"
  "  --seed S          first seed (default 1)\n"
  ;
static const char *const usage_litmus_tail =
  "  --exhaustive      enumerate every schedule and memory-system choice instead,\n"
  "                    and print the exact set of reachable outcomes\n"
  "  --max-states N    bound of the exhaustive search (default 2000000 states)\n"
  "  --max-seconds N   time bound of each exhaustive search (default 600); a search\n"
  "                    that hits either bound fails its test as incomplete.  A search\n"
  "                    prints a progress line on stderr every 10 s\n"
  "  --axiomatic       compute the PTX memory model's allowed set instead (the\n"
  "                    axioms of Lustig et al., ASPLOS'19, over the test's candidate\n"
  "                    executions); the test passes when the file's verdict agrees.\n"
  "                    With --exhaustive, also explore the emulator: an outcome it\n"
  "                    reaches that the model forbids fails the test, and each allowed\n"
  "                    outcome it cannot reach is listed as a completeness gap\n"
  "  --report FILE     run every way (sampled, exhaustive, axiomatic) and write a\n"
  "                    Markdown report\n"
  "  --backend cuda    run on the GPU instead: --iterations instances of each test\n"
  "                    (default 100000), placement randomised and memory stressed;\n"
  "                    a test passes when every outcome the GPU shows is in the\n"
  "                    emulator's exhaustive reachable set (--report writes that table)\n"
  "  --iterations N    GPU instances per test (0: only compile each test's harness,\n"
  "                    which needs NVRTC but no GPU)\n"
  "  --stress N        stress iterations of each stressing thread (default 64; 0 none)\n"
  "\n"
  "exit status: 0 every test passed, 1 one failed, 2 bad input, 3 emulation error\n";

static const char *const usage_fatbin =
  "usage: gpurace fatbin PROGRAM [--ptx] [--arch N]\n"
  "\n"
  "Lists the device code a CUDA program carries (its .nv_fatbin: PTX and\n"
  "cubins, their architectures and compression), whether it loads the\n"
  "shared CUDA runtime (libcudart.so, which gpurace's runtime can replace)\n"
  "or links the static one, and which PTX the emulator would run: the\n"
  "newest not newer than --arch (default: any).  A program gpurace could not\n"
  "run is exit status 2, with how to rebuild it.\n"
  "\n"
  "  --ptx      print that PTX (decompressed) instead of the list\n"
  "  --arch N   the architecture to choose PTX for (75 for sm_75)\n";

static const char *const usage_nvrtc =
  "usage: gpurace nvrtc FILE... [-D NAME[=VALUE]]... [--arch N] [--knobs]\n"
  "\n"
  "Compiles each kernel file with NVRTC exactly as '--backend cuda' would (its\n"
  "folder on the include path, the same defines, no FMA contraction), without\n"
  "loading or running it: a check that needs NVRTC, not a GPU.\n"
  "\n"
  "options:\n"
  "  --arch N          compile for sm_N (default 90)\n"
  "  --knobs           also compile once with each knob of the file's\n"
  "                    '//@ expect race if KNOB...' line defined\n"
  "\n"
  "exit status: 0 every file compiled, 2 one did not (or bad usage)\n";

static const char *const usage_devices =
  "usage: gpurace devices\n"
  "\n"
  "Lists the backends: the emulator, whether MPI is built in (mpirun -np N\n"
  "gpurace table), and the GPU that '--backend cuda' would\n"
  "use ($GPURACE_CUDA_DEVICE, default 0) or why there is none.\n"
  "\n"
  "exit status: 0 the CUDA backend is usable, 1 it is not (so that scripts\n"
  "can test for a GPU)\n";

static const char *const usage_ir =
  "usage: gpurace ir FILE [-D NAME[=VALUE]]... [--cc subset|nvrtc|nvcc] [--cc-flags FLAGS]\n"
  "                [--max-code N] [--max-source BYTES] [--max-nesting N] [--slice ARRAYS]\n"
  "\n"
  "Prints the KIR of every kernel in FILE: one line per warp instruction with\n"
  "its source line:column; branches show their reconvergence point.  FILE needs\n"
  "no //@ directives: an unmodified CUDA file compiles as nvcc's device pass\n"
  "reads it (host code skipped).  A FILE.ptx is read as PTX; with --cc nvrtc or\n"
  "nvcc, a .cu file is compiled to PTX by that CUDA compiler and read as PTX.\n"
  "--slice A,B prints instead the two-pass inspector's slice of each kernel for\n"
  "the loop arrays A and B: only what computes their accesses' addresses, the\n"
  "control flow, and the accesses (docs/detectors.md, loop dependencies).\n";

/* ---------------------------------------------------------------- help */

/* One option's help line: its spelling, its text from column 20, the
 * text's further lines under it. */
static void print_option(FILE *out, const gr_option *o) {
  char head[96];
  snprintf(head, sizeof head, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
  if (strlen(head) < 18) fprintf(out, "  %-18s", head);
  else fprintf(out, "  %s  ", head);
  for (const char *p = o->help; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    fprintf(out, "%.*s\n", (int)n, p);
    if (!nl) break;
    p = nl + 1;
    fprintf(out, "%20s", "");
  }
}

/* The registry's options of the scopes in mask (1 << GR_OPT_*), all but
 * those named in skip (NULL-terminated). */
static void print_registry(FILE *out, unsigned mask, const char *const *skip) {
  for (int pass = 0; pass < 2; pass++) {
    for (size_t k = 0;; k++) {
      const gr_option *o = pass ? det_option_at(k) : gr_option_at(k);
      if (!o) break;
      if (!(mask & 1u << o->scope)) continue;
      int skipped = 0;
      for (int j = 0; skip && skip[j]; j++) skipped |= !strcmp(skip[j], o->name);
      if (!skipped) print_option(out, o);
    }
  }
}

/* The variables that set the options' defaults for every context. */
static void print_environment(FILE *out) {
  fputs("\nenvironment (a bad value stops every command):\n", out);
  for (size_t k = 0; gr_option_at(k); k++) {
    const gr_option *o = gr_option_at(k);
    if (!o->env) continue;
    char head[96];
    snprintf(head, sizeof head, "%s=%s", o->env, o->arg ? o->arg : "1");
    fprintf(out, "  %-30s the default of %s\n", head, o->name);
  }
}

#define SCOPE(s) (1u << (s))
static void help_litmus(FILE *out);
static void help_states(FILE *out);

static void help_run(FILE *out) {
  fputs(usage_run_head, out);
  print_registry(out, SCOPE(GR_OPT_RUN) | SCOPE(GR_OPT_FRONT), NULL);
  fputs(usage_run_own, out);
  print_registry(out, SCOPE(GR_OPT_DETECTOR), NULL);
  print_environment(out);
  fputs(usage_run_tail, out);
}

static void help_ir(FILE *out) {
  fputs(usage_ir, out);
  fputs("\noptions:\n  -D NAME[=VALUE]   define a preprocessor macro (repeatable)\n", out);
  print_registry(out, SCOPE(GR_OPT_FRONT), NULL);
  fputs("  --slice A,B       the two-pass inspector's slice for the loop arrays A and B\n", out);
}

static void help_table(FILE *out) {
  static const char *const not_table[] = {"--seed", "--backend", NULL};   /* --seeds; the emulator only */
  fputs(usage_table_head, out);
  fputs("  the run options, as for run, but --sched is random and --max-steps\n"
        "  10000000 unless given:\n", out);
  print_registry(out, SCOPE(GR_OPT_RUN) | SCOPE(GR_OPT_FRONT) | SCOPE(GR_OPT_DETECTOR), not_table);
  fputs(usage_table_own, out);
}

typedef struct {
  const char *file;
  const char **defines;
  int ndefines;
  const char **dumps;
  int ndumps;
  gr_config cfg;
  int stats, quiet, json, digest;
  const char *detect;
  det_options dopts;
  const char *slice;   /* ir: the loop arrays of the inspector slice to print */
  int seq;             /* run: the file's sequential loop in C instead of its launches */
  uint64_t time_reps;  /* run: time this many runs, print the fastest */
} opts;

static int usage_error(const char *cmd, const char *fmt, const char *arg) {
  fprintf(stderr, "gpurace%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(see 'gpurace help%s%s')\n", cmd ? " " : "", cmd ? cmd : "");
  return 2;
}

static int parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s || *s == '-') return 0;
  char *e;
  errno = 0;
  unsigned long long v = strtoull(s, &e, 0);
  if (*e || errno) return 0;
  *out = v;
  return 1;
}

/* The options the library parses (gr_config_option, det_options_option):
 * 1 when argv[*i] was one of them, with *i past its value; *rc a usage
 * error where the value is bad. */
static int lib_option(const char *cmd, int argc, char **argv, int *i, gr_config *cfg, det_options *d, int *rc) {
  const char *opt = argv[*i], *val = *i + 1 < argc ? argv[*i + 1] : NULL;
  char err[256];
  int r = cfg ? gr_config_option(cfg, opt, val, err, sizeof err) : 0;
  if (r == 0 && d) r = det_options_option(d, opt, val, err, sizeof err);
  *rc = 0;
  if (r == 0) return 0;
  if (r < 0) *rc = usage_error(cmd, "%s", err);
  else *i += r - 1;
  return 1;
}

/* Whether a is an option of the front end (the registry's GR_OPT_FRONT), which ir takes. */
static int front_option(const char *a) {
  for (size_t k = 0; gr_option_at(k); k++) {
    const gr_option *o = gr_option_at(k);
    if (!strcmp(o->name, a) || (strlen(o->name) == 2 && o->arg && !strncmp(a, o->name, 2))) return o->scope == GR_OPT_FRONT;
  }
  return 0;
}

/* --cc auto: which front end read the file, where it was not the subset's. */
static void front_note(const char *file, const gr_module *m) {
  const char *why, *fe = gr_module_front(m, &why);
  if (!why) return;
  const char *nl = strchr(why, '\n');
  fprintf(stderr, "note: %s: read through %s's PTX (--cc auto), as the CUDA-subset front end cannot read it: %.*s\n", file,
          !strcmp(fe, "nvrtc") ? "NVRTC" : "nvcc", nl ? (int)(nl - why) : (int)strlen(why), why);
}

static int parse_opts(const char *cmd, int argc, char **argv, opts *o, int allow_run_opts) {
  int rc = 0;
  memset(o, 0, sizeof *o);
  gr_config_default(&o->cfg);
  det_options_default(&o->dopts);
  o->defines = calloc((size_t)argc + 1, sizeof(char *));
  o->dumps = calloc((size_t)argc + 1, sizeof(char *));
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
#define NEEDVAL() do { if (i + 1 >= argc) return usage_error(cmd, "option '%s' needs a value", a); val = argv[++i]; } while (0)
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) { (!strcmp(cmd, "run") ? help_run : help_ir)(stdout); exit(0); }
    if (!strncmp(a, "-D", 2)) {
      val = a[2] ? a + 2 : NULL;
      if (!val) NEEDVAL();
      if (!*val || *val == '=') return usage_error(cmd, "bad macro definition '%s'", val);
      o->defines[o->ndefines++] = val;
      continue;
    }
    if (allow_run_opts) {
      if (lib_option(cmd, argc, argv, &i, &o->cfg, &o->dopts, &rc)) { if (rc) return rc; continue; }
      if (!strcmp(a, "--dump")) { NEEDVAL(); o->dumps[o->ndumps++] = val; continue; }
      if (!strcmp(a, "--stats")) { o->stats = 1; continue; }
      if (!strcmp(a, "--seq")) { o->seq = 1; continue; }
      if (!strcmp(a, "--time")) {
        NEEDVAL();
        if (!parse_u64(val, &o->time_reps) || o->time_reps < 1 || o->time_reps > 1000000) return usage_error(cmd, "--time takes a number of runs from 1 to 1000000, not '%s'", val);
        continue;
      }
      if (!strcmp(a, "--digest")) { o->digest = 1; continue; }
      if (!strcmp(a, "--detect")) { NEEDVAL(); o->detect = val; continue; }
      if (!strcmp(a, "--json")) { o->json = 1; continue; }
      if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) { o->quiet = 1; continue; }
    }
    if (!allow_run_opts && !strcmp(a, "--slice")) { NEEDVAL(); o->slice = val; continue; }
    if (!allow_run_opts && front_option(a)) {
      if (lib_option(cmd, argc, argv, &i, &o->cfg, NULL, &rc)) { if (rc) return rc; continue; }
    }
    if (a[0] == '-' && a[1]) return usage_error(cmd, "unknown option '%s'", a);
    if (o->file) return usage_error(cmd, "one FILE only; '%s' is a second", a);
    o->file = a;
  }
  if (!o->file) return usage_error(cmd, "%s", "no FILE given");
  if (o->cfg.backend == GR_BACKEND_CUDA && o->stats) return usage_error(cmd, "%s", "--stats counts emulated instructions: not on the CUDA backend");
  if (o->cfg.backend == GR_BACKEND_CUDA && o->detect) return usage_error(cmd, "%s", "race detectors watch the emulator: --detect needs --backend emu");
  if (o->seq && (o->detect || o->stats)) return usage_error(cmd, "%s", "--seq runs the sequential loop in C: no --detect or --stats with it");
  if (o->time_reps && o->detect) return usage_error(cmd, "%s", "--time repeats the run: not with --detect (the detectors would watch every repetition)");
  return 0;
}

static void free_opts(opts *o) { free(o->defines); free(o->dumps); }

/* --stats: the run's memory operations, per space and kind, as lanes and bytes */
static void print_mem_count(FILE *out, const gr_stats *st) {
  static const char *const space[2] = {"global", "shared"};
  fputs("memory:", out);
  for (int sp = 0; sp < 2; sp++)
    fprintf(out, "%s %s %llu loads (%llu bytes), %llu stores (%llu bytes), %llu atomics (%llu bytes)", sp ? ";" : "",
            space[sp], (unsigned long long)st->mem_ops[sp][GR_LOAD], (unsigned long long)st->mem_bytes[sp][GR_LOAD],
            (unsigned long long)st->mem_ops[sp][GR_STORE], (unsigned long long)st->mem_bytes[sp][GR_STORE],
            (unsigned long long)st->mem_ops[sp][GR_ATOMIC], (unsigned long long)st->mem_bytes[sp][GR_ATOMIC]);
  fputc('\n', out);
}

static int cmd_run(int argc, char **argv) {
  opts o;
  int rc = parse_opts("run", argc, argv, &o, 1);
  if (rc) { free_opts(&o); return rc; }
  gr_context *ctx = gr_context_create(&o.cfg);
  gr_script *s = NULL;
  race_log *log = race_log_new();
  detector_set *set = NULL;
  FILE *text = o.json ? stderr : stdout;   /* with --json, stdout is JSON only */
  rc = gr_context_ok(ctx);
  if (rc == GR_OK) rc = gr_script_load(ctx, o.file, o.defines, o.ndefines, &s);
  if (rc) fprintf(stderr, "%s\n", gr_error(ctx));
  else if (!o.quiet) front_note(o.file, gr_script_module(s));
  if (!rc && o.detect) {
    char err[512];
    if (!o.dopts.loop_arrays) o.dopts.loop_arrays = gr_script_loop_arrays(s);   /* a loop kernel's arrays */
    if (detectors_attach(ctx, o.detect, &o.dopts, log, &set, err, sizeof err)) rc = usage_error("run", "%s", err);
  }
  if (rc) {
    gr_script_free(s);
    race_log_free(log);
    gr_context_destroy(ctx);
    free_opts(&o);
    return rc;
  }
  double secs = 0;
  if (o.seq) {
    char err[512];
    rc = loop_seq_run(s, o.time_reps ? (int)o.time_reps : 1, &secs, err, sizeof err);
    if (rc) fprintf(stderr, "%s: error: %s\n", o.file, err);
  } else {
    /* --time: a first run (compilation, first-touch), then the timed ones on reset buffers */
    rc = gr_script_run(s);
    for (uint64_t k = 0; k < o.time_reps && rc == GR_OK; k++) {
      rc = gr_script_reset(s);
      double t0 = gr_now();
      if (rc == GR_OK) rc = gr_script_run(s);
      double t = gr_now() - t0;
      if (k == 0 || t < secs) secs = t;
    }
    if (rc) fprintf(stderr, "%s\n", gr_error(ctx));
  }
  gr_device_output(ctx, text);   /* the kernels' printf, as CUDA prints it at the launch's end */
  if (rc == GR_OK && o.time_reps)
    fprintf(text, "time: %.9f s, the fastest of %llu runs (%s)\n", secs, (unsigned long long)o.time_reps,
            o.seq ? "the sequential loop in C" : o.cfg.backend == GR_BACKEND_CUDA ? "launches on the GPU, to the last synchronisation" : "launches on the emulator");
  size_t nraces = 0;
  if (set) {
    /* a run that failed still reports what the detectors saw up to then */
    const gr_race *r = race_log_reports(log, &nraces);
    for (size_t k = 0; k < nraces; k++) {
      if (o.json) race_print_json(stdout, &r[k]);
      else race_print_text(stdout, &r[k]);
    }
    if (!o.quiet) {
      fprintf(text, "detectors:");
      for (size_t d = 0; d < detectors_size(set); d++) {
        size_t n = race_log_count(log, detectors_name(set, d));
        fprintf(text, "%s %s %zu race report%s", d ? "," : "", detectors_name(set, d), n, n == 1 ? "" : "s");
        if (race_log_unwatched_why(log, detectors_name(set, d))) fputs(" (NOT WATCHED: incomplete)", text);
      }
      fputc('\n', text);
      detectors_summary(set, text);
    }
  }
  if (rc == GR_OK) {
    if (o.stats) {
      gr_stats st;
      gr_script_stats(s, &st);
      fprintf(text, "stats: %llu warp instructions, %llu thread instructions, %llu divergent branches, %llu barriers",
             (unsigned long long)st.warp_steps, (unsigned long long)st.thread_instructions,
             (unsigned long long)st.divergences, (unsigned long long)st.barriers);
      if (gr_context_config(ctx)->memory == GR_MEMORY_WEAK)
        fprintf(text, ", %llu background memory actions, %llu accesses at once", (unsigned long long)st.memory_actions,
                (unsigned long long)st.memory_at_once);
      if (st.memory_at_once_stopped)
        fprintf(text, ", %llu launch%s stopped at an address outside its roots", (unsigned long long)st.memory_at_once_stopped,
                st.memory_at_once_stopped == 1 ? "" : "es");
      fputc('\n', text);
      print_mem_count(text, &st);
      /* apart: the only line that differs between the engines (tests/engines.sh) */
      if (gr_context_config(ctx)->engine != GR_ENGINE_INTERP) {
        fprintf(text, "engine: compiled code in %d launch%s, the C compiler %.3f s", st.compiled, st.compiled == 1 ? "" : "es",
                st.compile_seconds);
        if (st.whole) fprintf(text, ", %d launch%s a warp at a time", st.whole, st.whole == 1 ? "" : "es");
        if (st.compiled_declined)
          fprintf(text, ", %llu entr%s declined (a uniform register's lanes apart)", (unsigned long long)st.compiled_declined,
                  st.compiled_declined == 1 ? "y" : "ies");
        fputc('\n', text);
      }
    }
    for (int k = 0; k < o.ndumps; k++) {
      int d = gr_script_dump(s, o.dumps[k], text);
      if (d) { fprintf(stderr, "%s\n", gr_error(ctx)); rc = d; }
    }
    if (o.digest && rc == GR_OK) {
      int d = gr_script_digest(s, text);
      if (d) { fprintf(stderr, "%s\n", gr_error(ctx)); rc = d; }
    }
    if (rc == GR_OK) {
      FILE *out = o.quiet ? tmpfile() : text;
      rc = gr_script_check(s, out ? out : text);
      if (o.quiet && out) {
        if (rc) { rewind(out); int c; while ((c = fgetc(out)) != EOF) fputc(c, text); }
        fclose(out);
      }
    }
  }
  if (nraces && (rc == GR_OK || rc == GR_ECHECK)) rc = 4;
  for (size_t d = 0; set && d < detectors_size(set); d++) {
    const char *why = race_log_unwatched_why(log, detectors_name(set, d));
    if (!why) continue;
    fprintf(stderr, "gpurace: detector %s stopped watching the run: %s\n", detectors_name(set, d), why);
    if (rc == GR_OK || rc == GR_ECHECK || rc == 4) rc = 5;
  }
  detectors_detach(set);
  race_log_free(log);
  gr_script_free(s);
  gr_context_destroy(ctx);
  free_opts(&o);
  return rc;
}

static int cmd_ir(int argc, char **argv) {
  opts o;
  int rc = parse_opts("ir", argc, argv, &o, 0);
  if (rc) { free_opts(&o); return rc; }
  gr_context *ctx = gr_context_create(&o.cfg);
  gr_module *m;
  rc = gr_module_load(ctx, o.file, o.defines, o.ndefines, &m);
  if (rc) fprintf(stderr, "%s\n", gr_error(ctx));
  else front_note(o.file, m);
  if (!rc && !gr_kernel_count(m)) {
    /* nothing to print is not success: a file whose kernels a header defined away says so */
    fprintf(stderr, "%s: error: no __global__ function in the file\n", o.file);
    rc = GR_EINPUT;
  } else if (rc) {
  } else if (o.slice) {
    char err[512];
    if ((rc = loop_print_slice(stdout, m, o.slice, err, sizeof err))) fprintf(stderr, "%s\n", err);
  } else gr_module_print_ir(m, stdout);
  gr_context_destroy(ctx);
  free_opts(&o);
  return rc;
}

/* ------------------------------------------------------------- litmus */

static void md_escape(FILE *f, const char *s) {
  for (; *s; s++) { if (*s == '|') fputc('\\', f); fputc(*s, f); }
}

/* The outcomes of a result as one table cell, the weak one in bold. */
static void md_outcomes(FILE *f, const gr_litmus_result *r, int counts) {
  for (size_t k = 0; k < r->noutcomes; k++) {
    const char *bold = r->outcomes[k].weak ? "**" : "";
    fprintf(f, "%s%s`", k ? "<br>" : "", bold);
    md_escape(f, r->outcomes[k].text);
    fprintf(f, "`%s", bold);
    if (counts) fprintf(f, ": %llu", (unsigned long long)r->outcomes[k].count);
  }
}

/* The outcomes of `a` missing from `b`, as one table cell. */
static void md_missing(FILE *f, const gr_litmus_result *a, const gr_litmus_result *b) {
  int n = 0;
  for (size_t k = 0; k < a->noutcomes; k++) {
    size_t j = 0;
    while (j < b->noutcomes && strcmp(a->outcomes[k].text, b->outcomes[j].text)) j++;
    if (j < b->noutcomes) continue;
    fprintf(f, "%s`", n++ ? "<br>" : "");
    md_escape(f, a->outcomes[k].text);
    fputc('`', f);
  }
  if (!n) fputs("none", f);
}

static void report_row(FILE *f, const char *path, const gr_litmus_result *sr, const gr_litmus_result *xr, const gr_litmus_result *ar) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  fprintf(f, "| %s | %s | `", sr->id, sr->where);
  md_escape(f, sr->weak);
  int beyond = gr_litmus_compare(NULL, xr, ar);
  fprintf(f, "` | %s | %s | %s | %s | %s | ", gr_verdict_name(sr->verdict), ar->pass ? "agrees" : "**DISAGREES**",
          sr->pass ? "PASS" : "**FAIL**", xr->pass ? "PASS" : "**FAIL**", beyond ? "**FAIL**" : "PASS");
  md_outcomes(f, sr, 1);
  fputs(" | ", f);
  md_outcomes(f, xr, 0);
  fputs(" | ", f);
  md_outcomes(f, ar, 0);
  fputs(" | ", f);
  md_missing(f, ar, xr);
  fprintf(f, " | %llu | %s |\n", (unsigned long long)xr->explored.states, base);
}

/* The end of a litmus command, on the emulator or the GPU: the report's
 * last line, the summary, and the exit status (the worst error, else 1
 * where a test failed; a test that did not run has failed). */
static int litmus_summary(FILE *rep, const char *where, int nfiles, int failed, int worst) {
  if (rep) {
    fprintf(rep, "\n%d tests, %d failed.\n", nfiles, failed);
    fclose(rep);
  }
  printf("%d tests%s, %d passed, %d failed\n", nfiles, where, nfiles - failed, failed);
  if (worst) return worst;
  return failed ? 1 : 0;
}

/* Litmus tests on the GPU, judged against the emulator: every outcome the
 * hardware shows must be in the exhaustive reachable set of the weak mode. */
static int litmus_on_gpu(char **files, int nfiles, const gr_hw_litmus_opts *ho, const gr_litmus_opts *lo, const char *report) {
  if (!ho->iterations) {
    /* --iterations 0: build each test's harness with NVRTC, run nothing (no GPU needed) */
    int bad = 0;
    for (int k = 0; k < nfiles; k++) {
      gr_litmus_result r;
      int rc = gr_litmus_run_hw(files[k], ho, &r);
      printf("%s %s: %s\n", rc ? "FAIL" : "ok  ", files[k], rc ? "" : r.reason);
      fflush(stdout);
      if (rc) { fprintf(stderr, "%s\n", r.reason); bad = rc; }
      gr_litmus_result_free(&r);
    }
    return bad;
  }
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.backend = GR_BACKEND_CUDA;
  gr_context *dev = gr_context_create(&cfg);
  if (gr_context_ok(dev)) {
    fprintf(stderr, "%s\n", gr_error(dev));
    gr_context_destroy(dev);
    return 2;
  }
  FILE *rep = NULL;
  if (report) {
    rep = fopen(report, "w");
    if (!rep) { fprintf(stderr, "gpurace litmus: cannot write %s\n", report); gr_context_destroy(dev); return 2; }
    fprintf(rep, "# Litmus tests on hardware\n\n"
                 "GPU: %s.\n\n"
                 "Generated by `gpurace litmus --backend cuda --iterations %llu --stress %d --seed %llu --report FILE kernels/litmus/*.cu`.\n"
                 "Each test ran %llu times on the GPU: many instances per launch, each on its own copy of the buffers,\n"
                 "thread placement drawn afresh for every launch (a test warp's lanes permuted in a random warp, each test\n"
                 "block in its own random block) and the other warps stressing memory; compiled with `--device-debug`, so\n"
                 "that the compiler keeps program order and only the hardware reorders.  The emulator's column is the\n"
                 "exhaustive reachable set of its weak mode; a test passes when every outcome the GPU showed is in it.\n"
                 "The weak outcome of each test is in bold.\n\n"
                 "| test | pl. | weak outcome | verdict | GPU outcomes (counts) | weak on GPU | emulator reachable set | result |\n"
                 "|---|---|---|---|---|---|---|---|\n",
            gr_context_device(dev), (unsigned long long)ho->iterations, ho->stress, (unsigned long long)ho->seed,
            (unsigned long long)ho->iterations);
  }
  gr_context_destroy(dev);
  int worst = 0, failed = 0;
  for (int k = 0; k < nfiles; k++) {
    gr_litmus_result r, xr;
    int rc = gr_litmus_run_hw(files[k], ho, &r);
    if (rc) {   /* a test that does not run is a failed test, never a passed one */
      fprintf(stderr, "%s\n", r.reason);
      if (rc > worst) worst = rc;
      failed++;
      gr_litmus_result_free(&r);
      continue;
    }
    gr_litmus_opts xo = *lo;
    xo.exhaustive = 1;
    rc = gr_litmus_run(files[k], &xo, &xr);
    if (rc) {
      fprintf(stderr, "%s\n", xr.reason);
      if (rc > worst) worst = rc;
      failed++;
      gr_litmus_result_free(&r);
      gr_litmus_result_free(&xr);
      continue;
    }
    /* judge: each GPU outcome against the reachable set; a side with no
     * outcome at all checked nothing, and passes nothing */
    r.pass = xr.explored.complete && r.noutcomes && xr.noutcomes;
    char why[512] = "";
    if (!xr.explored.complete) snprintf(why, sizeof why, "the emulator's reachable set is incomplete (%llu states)", (unsigned long long)xr.explored.states);
    else if (!r.noutcomes) snprintf(why, sizeof why, "the GPU gave no outcome (%llu runs): nothing was checked", (unsigned long long)r.runs);
    else if (!xr.noutcomes) snprintf(why, sizeof why, "the emulator reached no final state: nothing was checked");
    for (size_t i = 0; i < r.noutcomes; i++) {
      int found = 0;
      for (size_t j = 0; j < xr.noutcomes; j++) found |= !strcmp(r.outcomes[i].text, xr.outcomes[j].text);
      if (!found && r.pass) {
        r.pass = 0;
        snprintf(why, sizeof why, "outcome %s (%llu times) is not reachable in the emulator's weak mode: a bug of the memory model",
                 r.outcomes[i].text, (unsigned long long)r.outcomes[i].count);
      }
    }
    char detail[256];
    snprintf(detail, sizeof detail, "%.200s", r.reason);
    if (r.pass)
      snprintf(r.reason, sizeof r.reason, "every GPU outcome is reachable in the emulator; weak outcome %llu of %llu (%s)",
               (unsigned long long)r.weak_count, (unsigned long long)r.runs, detail);
    else snprintf(r.reason, sizeof r.reason, "%s", why);
    printf("GPU: ");
    gr_litmus_print(stdout, files[k], &r);
    if (rep) {
      fprintf(rep, "| %s | %s | `", r.id, r.where);
      md_escape(rep, r.weak);
      fprintf(rep, "` | %s | ", gr_verdict_name(r.verdict));
      md_outcomes(rep, &r, 1);
      fprintf(rep, " | %llu (%.4f%%) | ", (unsigned long long)r.weak_count, r.runs ? 100.0 * (double)r.weak_count / (double)r.runs : 0.0);
      md_outcomes(rep, &xr, 0);
      fprintf(rep, " | %s |\n", r.pass ? "PASS" : "**FAIL**");
    }
    if (!r.pass) failed++;
    gr_litmus_result_free(&r);
    gr_litmus_result_free(&xr);
    fflush(stdout);
  }
  return litmus_summary(rep, " on the GPU", nfiles, failed, worst);
}

/* --sms or --warps for the commands that keep their own options (litmus,
 * states: gr_litmus_opts), parsed by the registry as every command parses
 * it: 0, or 1 after the usage error. */
static int litmus_config_option(const char *cmd, const char *opt, const char *val, gr_litmus_opts *lo) {
  gr_config c;
  gr_config_default(&c);
  char err[256];
  if (gr_config_option(&c, opt, val, err, sizeof err) < 0) { usage_error(cmd, "%s", err); return 1; }
  if (!strcmp(opt, "--sms")) lo->sms = c.sms;
  else lo->warps = c.warps;
  return 0;
}

/* Under mpirun: this process's share of every search and of the sampled
 * runs (lo's shard), and, on every rank but 0, no output: rank 0 writes
 * what one process would.  -1 where MPI could not start. */
static int ranks_split(ranks *rk, gr_litmus_opts *lo) {
  if (ranks_start(rk)) return -1;
  lo->shard = rk->rank;
  lo->nshards = rk->size;
  lo->alltoall = ranks_alltoall;
  lo->alltoall_user = rk;
  /* every rank ends with the whole result, and would say the same: rank 0 speaks for all */
  if (rk->rank && (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))) { ranks_end(rk); return -1; }
  return 0;
}

/* Rank 0's status on every rank, and MPI ended. */
static int ranks_join(ranks *rk, int rc) {
  rc = ranks_status(rk, rc);
  ranks_end(rk);
  return rc;
}

static int litmus_emulated(char **files, int nfiles, const gr_litmus_opts *lop, const char *report, int axiomatic);

static int cmd_litmus(int argc, char **argv) {
  gr_litmus_opts lo;
  gr_litmus_opts_default(&lo);
  gr_hw_litmus_opts ho;
  gr_hw_litmus_opts_default(&ho);
  int on_gpu = 0, axiomatic = 0;
  const char *report = NULL;
  char **files = argv;   /* file names are compacted in place: nfiles <= i */
  int nfiles = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *val = NULL;
    const char *cmd = "litmus";
    uint64_t n;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) { help_litmus(stdout); return 0; }
    if (!strcmp(a, "--runs")) { NEEDVAL(); if (!parse_u64(val, &n) || n < 1) { return usage_error(cmd, "--runs needs a positive integer, not '%s'", val); } lo.runs = n; continue; }
    if (!strcmp(a, "--seed")) { NEEDVAL(); if (!parse_u64(val, &n)) { return usage_error(cmd, "--seed needs a non-negative integer, not '%s'", val); } lo.seed = n; continue; }
    if (!strcmp(a, "--sms") || !strcmp(a, "--warps")) {
      NEEDVAL();
      if (litmus_config_option(cmd, a, val, &lo)) return 2;
      continue;
    }
    if (!strcmp(a, "--max-states")) { NEEDVAL(); if (!parse_u64(val, &n) || n < 1) { return usage_error(cmd, "--max-states needs a positive integer, not '%s'", val); } lo.max_states = n; continue; }
    if (!strcmp(a, "--exhaustive")) { lo.exhaustive = 1; continue; }
    if (!strcmp(a, "--axiomatic")) { axiomatic = 1; continue; }
    if (!strcmp(a, "--max-seconds")) { NEEDVAL(); if (!parse_u64(val, &n) || n < 1) { return usage_error(cmd, "--max-seconds needs a positive integer, not '%s'", val); } lo.max_seconds = (double)n; continue; }
    if (!strcmp(a, "--report")) { NEEDVAL(); report = val; continue; }
    if (!strcmp(a, "--backend")) {
      NEEDVAL();
      if (!strcmp(val, "cuda")) on_gpu = 1;
      else if (!strcmp(val, "emu")) on_gpu = 0;
      else return usage_error(cmd, "--backend takes emu or cuda, not '%s'", val);
      continue;
    }
    if (!strcmp(a, "--iterations")) { NEEDVAL(); if (!parse_u64(val, &n)) { return usage_error(cmd, "--iterations needs a non-negative integer, not '%s'", val); } ho.iterations = n; continue; }
    if (!strcmp(a, "--stress")) { NEEDVAL(); if (!parse_u64(val, &n) || n > 100000) { return usage_error(cmd, "--stress needs an integer from 0 to 100000, not '%s'", val); } ho.stress = (int)n; continue; }
    if (a[0] == '-' && a[1]) return usage_error(cmd, "unknown option '%s'", a);
    files[nfiles++] = argv[i];
  }
  if (!nfiles) { return usage_error("litmus", "%s", "no FILE given"); }
  if (on_gpu) { ho.seed = lo.seed; return litmus_on_gpu(files, nfiles, &ho, &lo, report); }
  ranks rk;
  if (ranks_split(&rk, &lo)) return 2;
  int rc = litmus_emulated(files, nfiles, &lo, report, axiomatic);
  return ranks_join(&rk, rc);
}

/* The litmus tests on the emulator (cmd_litmus). */
static int litmus_emulated(char **files, int nfiles, const gr_litmus_opts *lop, const char *report, int axiomatic) {
  gr_litmus_opts lo = *lop;
  FILE *rep = NULL;
  if (report) {
    rep = fopen(report, "w");
    if (!rep) { fprintf(stderr, "gpurace litmus: cannot write %s\n", report); return 2; }
    fprintf(rep, "# Litmus conformance of the weak memory model\n\n"
                 "Generated by `gpurace litmus --runs %llu --seed %llu --sms %d --report FILE kernels/litmus/*.cu`.\n"
                 "Each test runs %llu times under weak memory and the random scheduler (run k with seed %llu+k),\n"
                 "then is explored exhaustively: every schedule and every memory-system choice, with the exact\n"
                 "set of reachable outcomes; and the PTX memory model's allowed set is computed axiomatically\n"
                 "(`gpurace litmus --axiomatic`).  *PTX* says whether the file's verdict agrees with the axioms;\n"
                 "*sound* whether every reachable outcome is allowed; *gaps* lists the allowed outcomes the\n"
                 "emulator cannot reach (docs/memory-model.md says why).  Verdicts and hardware notes:\n"
                 "`shared/litmus.md`; the model: `docs/memory-model.md`.  The weak outcome of each test is in bold.\n\n"
                 "| test | pl. | weak outcome | verdict | PTX | sampled | exhaustive | sound | outcome counts (sampled) | reachable set (exhaustive) | allowed set (axiomatic) | gaps | states | file |\n"
                 "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
            (unsigned long long)lo.runs, (unsigned long long)lo.seed, lo.sms, (unsigned long long)lo.runs, (unsigned long long)lo.seed);
  }
  int worst = 0, failed = 0;
  for (int k = 0; k < nfiles; k++) {
    gr_litmus_result r, xr;
    gr_litmus_opts o1 = lo;
    if (rep) o1.exhaustive = 0;
    o1.progress = stderr;
    int rc = axiomatic ? gr_litmus_axiomatic(files[k], &o1, &r) : gr_litmus_run(files[k], &o1, &r);
    if (rc) {   /* a file that does not load or run is a failed test, never a passed one */
      fprintf(stderr, "%s\n", r.reason);
      if (rc > worst) worst = rc;
      failed++;
      gr_litmus_result_free(&r);
      continue;
    }
    gr_litmus_print(stdout, files[k], &r);
    int pass = r.pass;
    if (axiomatic && lo.exhaustive && !rep) {
      /* the operational reachable set must lie inside the allowed set */
      gr_litmus_opts o2 = lo;
      o2.progress = stderr;
      rc = gr_litmus_run(files[k], &o2, &xr);
      if (rc) { fprintf(stderr, "%s\n", xr.reason); if (rc > worst) worst = rc; pass = 0; }
      else {
        gr_litmus_print(stdout, files[k], &xr);
        int beyond = gr_litmus_compare(stdout, &xr, &r);
        if (beyond) printf("FAIL %s: %d outcome%s reachable that the PTX model forbids\n", r.id, beyond, beyond == 1 ? "" : "s");
        pass = pass && xr.pass && !beyond;
      }
      gr_litmus_result_free(&xr);
    }
    if (rep) {
      gr_litmus_opts o2 = lo;
      o2.exhaustive = 1;
      o2.progress = stderr;
      gr_litmus_result ar;
      rc = gr_litmus_run(files[k], &o2, &xr);
      int arc = rc ? rc : gr_litmus_axiomatic(files[k], &o2, &ar);
      if (rc || arc) {
        fprintf(stderr, "%s\n", rc ? xr.reason : ar.reason);
        if ((rc ? rc : arc) > worst) worst = rc ? rc : arc;
        pass = 0;
      } else {
        gr_litmus_print(stdout, files[k], &xr);
        gr_litmus_print(stdout, files[k], &ar);
        int beyond = gr_litmus_compare(stdout, &xr, &ar);
        pass = pass && xr.pass && ar.pass && !beyond;
        report_row(rep, files[k], &r, &xr, &ar);
      }
      if (!rc) gr_litmus_result_free(&ar);
      gr_litmus_result_free(&xr);
    }
    if (!pass) failed++;
    gr_litmus_result_free(&r);
    fflush(stdout);
  }
  return litmus_summary(rep, "", nfiles, failed, worst);
}

/* ------------------------------------------------------------- detectors, table */

static int cmd_detectors(void) {
  for (size_t k = 0; detector_at(k); k++) printf("%-14s %s\n", detector_at(k)->name, detector_at(k)->summary);
  printf("%-14s %s\n", "babycuda", "static (a table column; gpurace check): BabyCUDA's MAP typing and Z3 checker, "
         "a verdict per file without running it");
  return 0;
}

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Appends DIR's *.cu files, sorted, or the FILE itself. */
static int add_inputs(const char *arg, char ***files, size_t *n, size_t *cap) {
  DIR *d = opendir(arg);
  size_t first = *n;
  if (!d) {
    if (errno != ENOTDIR) { fprintf(stderr, "gpurace table: cannot open %s: %s\n", arg, strerror(errno)); return 2; }
    if (*n == *cap) { *cap = *cap ? 2 * *cap : 64; *files = realloc(*files, *cap * sizeof **files); }
    (*files)[(*n)++] = strdup(arg);
    return 0;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t L = strlen(e->d_name);
    if (L < 4 || strcmp(e->d_name + L - 3, ".cu")) continue;
    if (*n == *cap) { *cap = *cap ? 2 * *cap : 64; *files = realloc(*files, *cap * sizeof **files); }
    size_t len = strlen(arg) + L + 2;
    char *p = malloc(len);
    snprintf(p, len, "%s%s%s", arg, arg[strlen(arg) - 1] == '/' ? "" : "/", e->d_name);
    (*files)[(*n)++] = p;
  }
  closedir(d);
  if (*n - first > 1) qsort(*files + first, *n - first, sizeof **files, cmp_cstr);
  if (*n == first) { fprintf(stderr, "gpurace table: no .cu files in %s\n", arg); return 2; }
  return 0;
}

typedef struct {
  table_opts to;
  const char *outbase, *first_dir, *notes;
  char *notes_text;     /* the notes, read once at parse time */
  size_t notes_len;
  const char **defines;
  char **files;
  size_t nfiles, cap;
} table_args;

#define NOTES_MAX (4 << 20)   /* bytes of a --notes file */

static int parse_table_args(int argc, char **argv, table_args *ta) {
  const char *cmd = "table";
  table_opts *to = &ta->to;
  int rc = 0;
  gr_config cfg;   /* the run options, parsed by the library, copied into the table's */
  gr_config_default(&cfg);
  cfg.sms = to->sms;
  cfg.max_steps = to->max_steps;
  cfg.memory = to->memory;
  cfg.sched = to->sched;
  cfg.warps = to->warps;
  cfg.cc = to->cc;
  snprintf(cfg.cc_flags, sizeof cfg.cc_flags, "%s", to->cc_flags);
  for (int i = 0; i < argc && !rc; i++) {
    const char *a = argv[i], *val = NULL;
    uint64_t n;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) { help_table(stdout); exit(0); }
    if (!strcmp(a, "--detect")) { NEEDVAL(); to->detectors = val; continue; }
    if (!strcmp(a, "--seeds")) { NEEDVAL(); if (!parse_u64(val, &n) || n < 1 || n > 100000) return usage_error(cmd, "--seeds needs an integer from 1 to 100000, not '%s'", val); to->seeds = (int)n; continue; }
    if (strcmp(a, "--seed") && lib_option(cmd, argc, argv, &i, &cfg, &to->dopts, &rc)) {   /* the table's seeds are --seeds */
      to->sms = cfg.sms;
      to->max_steps = cfg.max_steps;
      to->memory = cfg.memory;
      to->sched = cfg.sched;
      to->warps = cfg.warps;
      to->cc = cfg.cc;
      snprintf(to->cc_flags, sizeof to->cc_flags, "%s", cfg.cc_flags);
      to->keep_going = cfg.keep_going;
      to->max_code = cfg.max_code;
      to->max_source = cfg.max_source;
      to->max_nesting = cfg.max_nesting;
      if (cfg.backend != GR_BACKEND_EMU) return usage_error(cmd, "%s", "tables run on the emulator: --backend cuda is not for table");
      if (rc) return rc;
      continue;
    }
    if (!strcmp(a, "--out")) { NEEDVAL(); ta->outbase = val; continue; }
    if (!strcmp(a, "--notes")) { NEEDVAL(); ta->notes = val; continue; }
    if (!strcmp(a, "--knobs")) { to->knobs = 1; continue; }
    if (!strncmp(a, "-D", 2)) {
      val = a[2] ? a + 2 : NULL;
      if (!val) NEEDVAL();
      if (!*val || *val == '=') return usage_error(cmd, "bad macro definition '%s'", val);
      ta->defines[to->ndefines++] = val;
      continue;
    }
    if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) { to->progress = 0; continue; }
    if (a[0] == '-' && a[1]) return usage_error(cmd, "unknown option '%s'", a);
    if (!ta->first_dir) ta->first_dir = a;
    rc = add_inputs(a, &ta->files, &ta->nfiles, &ta->cap);
  }
  if (!rc && !ta->nfiles) rc = usage_error(cmd, "%s", "no DIR or FILE given");
  if (!rc && !to->detectors) rc = usage_error(cmd, "%s", "--detect LIST is required");
  if (!rc && ta->notes) {
    /* read now, once and bounded: the notes may be a pipe, or /dev/zero */
    FILE *nf = fopen(ta->notes, "rb");
    if (!nf) return usage_error(cmd, "cannot read the notes file '%s'", ta->notes);
    size_t cap = 1 << 16, n = 0, k;
    char *buf = malloc(cap);
    while (buf && (k = fread(buf + n, 1, cap - n, nf)) > 0) {
      n += k;
      if (n > NOTES_MAX) break;
      if (n == cap) { cap *= 2; buf = realloc(buf, cap); }
    }
    fclose(nf);
    if (!buf) return usage_error(cmd, "%s", "out of memory reading the notes");
    if (n > NOTES_MAX) { free(buf); return usage_error(cmd, "the notes file '%s' is larger than 4 MiB", ta->notes); }
    ta->notes_text = buf;
    ta->notes_len = n;
  }
  return rc;
}

static int cmd_table(int argc, char **argv) {
  table_args ta;
  memset(&ta, 0, sizeof ta);
  table_opts_default(&ta.to);
  ta.defines = calloc((size_t)argc + 1, sizeof *ta.defines);
  ta.to.defines = ta.defines;
  gr_config dflt;
  gr_config_default(&dflt);
  ta.to.memory = dflt.memory;
  ta.to.progress = 1;
  ta.to.detectors = NULL;
  /* the command line as given, for the report's "Generated by" */
  char command[1024] = "gpurace table";
  for (int i = 0; i < argc; i++) {
    if (strlen(command) + strlen(argv[i]) + 2 < sizeof command) { strcat(command, " "); strcat(command, argv[i]); }
  }
  int rc = parse_table_args(argc, argv, &ta);
  table_opts to = ta.to;
  const char *outbase = ta.outbase, *first_dir = ta.first_dir;
  char **files = ta.files;
  size_t nfiles = ta.nfiles;
  table *t = NULL;
  /* under mpirun: this rank's share of the runs; rank 0 gathers and writes */
  ranks rk;
  if (!rc && ranks_start(&rk)) rc = 2;
  else if (!rc) {
    to.shard = rk.rank;
    to.nshards = rk.size;
    if (rk.rank) to.progress = 0;
  } else rk = (ranks){0, 1, 0};
  if (!rc) {
    char err[512];
    if (table_run((const char *const *)files, nfiles, &to, &t, err, sizeof err)) {
      if (rk.rank == 0) fprintf(stderr, "gpurace table: %s\n", err);
      rc = 2;
    } else if (ranks_gather_table(&rk, t, err, sizeof err)) {
      fprintf(stderr, "gpurace table: %s\n", err);
      rc = 2;
    }
  }
  if (!rc && rk.rank == 0) {
    char base[512];
    if (outbase) snprintf(base, sizeof base, "%s", outbase);
    else {
      char tmp[400];
      snprintf(tmp, sizeof tmp, "%s", first_dir);
      size_t L = strlen(tmp);
      while (L > 1 && tmp[L - 1] == '/') tmp[--L] = 0;
      if (L > 3 && !strcmp(tmp + L - 3, ".cu")) tmp[L - 3] = 0;
      for (char *p = tmp; *p; p++) if (*p == '/') *p = '-';
      snprintf(base, sizeof base, "reports/%s", tmp[0] == '.' ? tmp + 1 : tmp);
    }
    char md[600], csv[600];
    snprintf(md, sizeof md, "%s.md", base);
    snprintf(csv, sizeof csv, "%s.csv", base);
    FILE *fm = fopen(md, "w"), *fc = fm ? fopen(csv, "w") : NULL;
    if (!fm || !fc) {
      fprintf(stderr, "gpurace table: cannot write %s: %s\n", fm ? csv : md, strerror(errno));
      if (fm) fclose(fm);
      rc = 2;
    } else {
      char title[512];
      snprintf(title, sizeof title, "Race detector verdicts: %s", first_dir);
      table_write_md(fm, t, title, command);
      if (ta.notes_text) {
        fputs("\n", fm);
        fwrite(ta.notes_text, 1, ta.notes_len, fm);
      }
      table_write_csv(fc, t);
      fclose(fm);
      fclose(fc);
      size_t bad = table_mismatches(t, NULL);
      printf("wrote %s and %s: %zu cell%s differ%s from the expected verdicts\n", md, csv, bad, bad == 1 ? "" : "s", bad == 1 ? "s" : "");
      rc = bad ? 1 : 0;
    }
  }
  rc = ranks_status(&rk, rc);
  ranks_end(&rk);
  table_free(t);
  for (size_t k = 0; k < nfiles; k++) free(files[k]);
  free(files);
  free(ta.notes_text);
  free(ta.defines);
  return rc;
}

/* ------------------------------------------------------------- the CUDA backend */

static int cmd_devices(void) {
  printf("emu    the emulator (always)\n");
  printf("mpi    %s\n", ranks_built() ? "built with MPI: mpirun -np N gpurace table ... splits the runs across ranks"
                                      : "none: no gpurace-mpi beside this gpurace (configure found no Open MPI, or it was not copied): gpurace table runs on one machine");
  if (!gr_cuda_built()) {
    printf("cuda   not built: configure found no CUDA toolkit (--with-cuda=PATH)\n");
    return 1;
  }
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.backend = GR_BACKEND_CUDA;
  gr_context *ctx = gr_context_create(&cfg);
  int rc = gr_context_ok(ctx);
  if (rc) printf("cuda   unavailable: %s\n", gr_error(ctx));
  else printf("cuda   %s\n", gr_context_device(ctx));
  gr_context_destroy(ctx);
  return rc ? 1 : 0;
}

static int nvrtc_one(const char *file, const char **defines, int nd, int arch) {
  char err[4096];
  int rc = gr_cuda_compile_check(file, defines, nd, arch, err, sizeof err);
  printf("%s %s", rc ? "FAIL" : "ok  ", file);
  for (int k = 0; k < nd; k++) printf(" -D%s", defines[k]);
  putchar('\n');
  fflush(stdout);
  if (rc) fprintf(stderr, "%s\n", err);
  return rc;
}

static const char *const compression_name[] = {"plain", "lz4", "zstd", "unknown"};

static int cmd_fatbin(int argc, char **argv) {
  const char *path = NULL;
  int ptx = 0;
  unsigned arch = 100000;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(usage_fatbin, stdout); return 0; }
    if (!strcmp(a, "--ptx")) { ptx = 1; continue; }
    if (!strcmp(a, "--arch")) {
      uint64_t v;
      if (i + 1 >= argc || !parse_u64(argv[i + 1], &v) || v < 10 || v > 10000) return usage_error("fatbin", "%s", "--arch takes an architecture number such as 80");
      arch = (unsigned)v;
      i++;
      continue;
    }
    if (a[0] == '-' && a[1]) return usage_error("fatbin", "unknown option '%s'", a);
    if (path) return usage_error("fatbin", "one PROGRAM only; '%s' is a second", a);
    path = a;
  }
  if (!path) return usage_error("fatbin", "%s", "no PROGRAM given");
  uint8_t *data;
  size_t len;
  int shared;
  char err[512];
  if (fatbin_read_program(path, &data, &len, &shared, NULL, err, sizeof err)) { fprintf(stderr, "error: %s\n", err); return GR_EINPUT; }
  if (!data) {
    fprintf(stderr, "%s: error: no device code (.nv_fatbin): not a program nvcc built with kernels in it\n", path);
    return GR_EINPUT;
  }
  int n = fatbin_entries(data, len, NULL, 0, err, sizeof err);
  fatbin_entry *e = n > 0 ? calloc((size_t)n, sizeof *e) : NULL;
  if (n < 0 || (n > 0 && fatbin_entries(data, len, e, n, err, sizeof err) != n)) {
    fprintf(stderr, "%s: error: %s\n", path, err);
    free(e);
    free(data);
    return GR_EINPUT;
  }
  int pick = fatbin_pick_ptx(e, n, arch), rc = GR_OK;
  if (!ptx) {
    printf("%s: %d device code entr%s\n", path, n, n == 1 ? "y" : "ies");
    for (int k = 0; k < n; k++)
      printf("  %-4s %s_%u  %-5s %zu bytes%s%s\n", e[k].kind == FATBIN_PTX ? "PTX" : e[k].kind == FATBIN_ELF ? "ELF" : "?",
             e[k].kind == FATBIN_PTX ? "compute" : "sm", e[k].arch, compression_name[e[k].compression], e[k].size,
             e[k].compression == FATBIN_PLAIN ? "" : " compressed", k == pick ? "  <- the emulator's" : "");
    printf("runtime: %s\n", shared ? "the shared CUDA runtime (libcudart.so): gpurace's runtime can stand in for it"
                                   : "the static CUDA runtime: " FATBIN_HINT_STATIC);
  }
  if (pick < 0) {
    fprintf(stderr, "%s: error: %s%s\n", path, arch < 100000 ? "for this architecture, " : "", FATBIN_HINT_NO_PTX);
    rc = GR_EINPUT;
  } else if (ptx) {
    size_t tl;
    char *text = fatbin_payload(&e[pick], &tl, err, sizeof err);
    if (!text) { fprintf(stderr, "%s: error: %s\n", path, err); rc = GR_EINPUT; }
    else { fwrite(text, 1, tl, stdout); free(text); }
  }
  if (!shared && rc == GR_OK && !ptx) rc = GR_EINPUT;
  free(e);
  free(data);
  return rc;
}

static int cmd_nvrtc(int argc, char **argv) {
  const char *cmd = "nvrtc";
  const char **defines = calloc((size_t)argc + 2, sizeof(char *));
  char **files = calloc((size_t)argc + 1, sizeof(char *));
  int nd = 0, nfiles = 0, knobs = 0, arch = 90, rc = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *val = NULL;
    uint64_t n;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(usage_nvrtc, stdout); free(defines); free(files); return 0; }
    if (!strncmp(a, "-D", 2)) {
      val = a[2] ? a + 2 : NULL;
      if (!val) { if (i + 1 >= argc) { rc = usage_error(cmd, "option '%s' needs a value", a); break; } val = argv[++i]; }
      if (!*val || *val == '=') { rc = usage_error(cmd, "bad macro definition '%s'", val); break; }
      defines[nd++] = val;
      continue;
    }
    if (!strcmp(a, "--arch")) {
      if (i + 1 >= argc || !parse_u64(argv[i + 1], &n) || n < 50 || n > 1000) { rc = usage_error(cmd, "--arch needs a compute capability such as 90, not '%s'", i + 1 < argc ? argv[i + 1] : ""); break; }
      arch = (int)n; i++;
      continue;
    }
    if (!strcmp(a, "--knobs")) { knobs = 1; continue; }
    if (a[0] == '-' && a[1]) { rc = usage_error(cmd, "unknown option '%s'", a); break; }
    files[nfiles++] = argv[i];
  }
  if (!rc && !nfiles) rc = usage_error(cmd, "%s", "no FILE given");
  if (!rc && !gr_cuda_built()) { fprintf(stderr, "gpurace nvrtc: this gpurace was built without the CUDA backend\n"); rc = 2; }
  int failed = 0;
  for (int k = 0; !rc && k < nfiles; k++) {
    failed |= nvrtc_one(files[k], defines, nd, arch) != 0;
    if (!knobs) continue;
    /* the knobs come from the file's directives, read by the emulator */
    gr_context *ctx = gr_context_create(NULL);
    gr_script *s = NULL;
    if (gr_script_load(ctx, files[k], defines, nd, &s) == GR_OK) {
      for (int j = 0; j < gr_script_knob_count(s); j++) {
        defines[nd] = gr_script_knob(s, j);
        failed |= nvrtc_one(files[k], defines, nd + 1, arch) != 0;
      }
    }   /* a file that is not self-running (an application's kernels) has no knob line to read */
    gr_script_free(s);
    gr_context_destroy(ctx);
  }
  free(defines);
  free(files);
  return rc ? rc : failed ? 2 : 0;
}

static const char usage_states_head[] =
  "usage: gpurace states FILE... [OPTIONS]\n"
  "\n"
  "Explores each kernel file exhaustively (every schedule of the random\n"
  "scheduler and, under weak memory, every memory-system choice) and prints\n"
  "the set of its final memory states, each as its buffers' digests\n"
  "(gpurace run --digest).  With --compare it explores under both memory\n"
  "models and checks the guarantee the weak model gives to well-synchronised\n"
  "kernels (docs/memory-model.md): every final state reachable under weak\n"
  "memory is reachable under sequential consistency.\n"
  "\n"
  "options:\n"
  "  --memory sc|weak  the memory model (default weak)\n"
  "  --compare         both models; fails when weak memory reaches a state sc does not\n"
  ;
static const char *const usage_states_tail =
  "  --max-states N    bound of each search (default 2000000 states)\n"
  "  --max-seconds N   time bound of each search (default 600)\n"
  "  A search that hits a bound fails: its set is incomplete.\n"
  "\n"
  "exit status: 0 complete (and, with --compare, the guarantee holds), 1 a search\n"
  "             was incomplete or the guarantee failed, 2 bad input, 3 emulation error\n";

static void print_states(const char *path, const char *model, const gr_litmus_result *r) {
  printf("%s (%s): %s\n", path, model, r->reason);
  /* an unfinished search's states depend on what its threads reached first: not shown */
  for (size_t k = 0; k < r->noutcomes && r->pass; k++) {
    printf("  state %zu:\n", k + 1);
    for (const char *p = r->outcomes[k].text; *p;) {
      const char *e = strchr(p, '\n');
      int n = e ? (int)(e - p) : (int)strlen(p);
      printf("    %.*s\n", n, p);
      p += n + (e != NULL);
    }
  }
}

static int states_files(char **files, int nfiles, const gr_litmus_opts *lop, gr_memory mem, int compare);

static int cmd_states(int argc, char **argv) {
  gr_litmus_opts lo;
  gr_litmus_opts_default(&lo);
  gr_memory mem = GR_MEMORY_WEAK;
  int compare = 0, nfiles = 0;
  char **files = argv;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *val = NULL;
    const char *cmd = "states";
    uint64_t n;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) { help_states(stdout); return 0; }
    if (!strcmp(a, "--memory")) {
      NEEDVAL();
      if (!strcmp(val, "sc")) mem = GR_MEMORY_SC;
      else if (!strcmp(val, "weak")) mem = GR_MEMORY_WEAK;
      else return usage_error(cmd, "--memory takes sc or weak, not '%s'", val);
      continue;
    }
    if (!strcmp(a, "--compare")) { compare = 1; continue; }
    if (!strcmp(a, "--sms") || !strcmp(a, "--warps")) {
      NEEDVAL();
      if (litmus_config_option(cmd, a, val, &lo)) return 2;
      continue;
    }
    if (!strcmp(a, "--max-states")) { NEEDVAL(); if (!parse_u64(val, &n) || n < 1) { return usage_error(cmd, "--max-states needs a positive integer, not '%s'", val); } lo.max_states = n; continue; }
    if (!strcmp(a, "--max-seconds")) { NEEDVAL(); if (!parse_u64(val, &n) || n < 1) { return usage_error(cmd, "--max-seconds needs a positive integer, not '%s'", val); } lo.max_seconds = (double)n; continue; }
    if (a[0] == '-' && a[1]) return usage_error(cmd, "unknown option '%s'", a);
    files[nfiles++] = argv[i];
  }
  if (!nfiles) return usage_error("states", "%s", "no FILE given");
  ranks rk;
  if (ranks_split(&rk, &lo)) return 2;
  return ranks_join(&rk, states_files(files, nfiles, &lo, mem, compare));
}

/* The final states of each file (cmd_states). */
static int states_files(char **files, int nfiles, const gr_litmus_opts *lop, gr_memory mem, int compare) {
  gr_litmus_opts lo = *lop;
  int worst = 0, failed = 0;
  for (int k = 0; k < nfiles; k++) {
    gr_litmus_result w, s;
    int rc = gr_final_states(files[k], &lo, compare ? GR_MEMORY_WEAK : mem, &w);
    if (rc == GR_OK && compare) {
      rc = gr_final_states(files[k], &lo, GR_MEMORY_SC, &s);
      if (rc) { gr_litmus_result_free(&w); w = s; }
    }
    if (rc) {   /* a file that does not load or run is a failure, never a pass */
      fprintf(stderr, "%s\n", w.reason);
      if (rc > worst) worst = rc;
      failed++;
      gr_litmus_result_free(&w);
      continue;
    }
    if (!compare) {
      print_states(files[k], mem == GR_MEMORY_SC ? "sc" : "weak", &w);
      if (!w.pass) failed++;
      gr_litmus_result_free(&w);
      continue;
    }
    int beyond = 0;
    for (size_t i = 0; i < w.noutcomes; i++) {
      size_t j = 0;
      while (j < s.noutcomes && strcmp(s.outcomes[j].text, w.outcomes[i].text)) j++;
      if (j == s.noutcomes) beyond++;
    }
    print_states(files[k], "weak", &w);
    print_states(files[k], "sc", &s);
    int pass = w.pass && s.pass && !beyond;
    printf("%s %s: %s\n", pass ? "PASS" : "FAIL", files[k],
           !w.pass || !s.pass ? "a search was incomplete: no verdict"
           : beyond ? "weak memory reaches a final state that sequential consistency does not"
                    : "every final state under weak memory is reachable under sequential consistency");
    if (!pass) failed++;
    gr_litmus_result_free(&w);
    gr_litmus_result_free(&s);
  }
  if (compare) printf("%d files, %d passed, %d failed\n", nfiles, nfiles - failed, failed);
  if (worst) return worst;
  return failed ? 1 : 0;
}

/* ---------------------------------------------------------------- commands */

static int run_detectors(int argc, char **argv) { (void)argc, (void)argv; return cmd_detectors(); }
static int run_devices(int argc, char **argv) { (void)argc, (void)argv; return cmd_devices(); }
/* The registry's --sms and --warps, which litmus and states take too. */
static void print_sms_warps(FILE *out) {
  for (size_t k = 0; gr_option_at(k); k++)
    if (!strcmp(gr_option_at(k)->name, "--sms") || !strcmp(gr_option_at(k)->name, "--warps")) print_option(out, gr_option_at(k));
}
static void help_litmus(FILE *out) { fputs(usage_litmus_head, out); print_sms_warps(out); fputs(usage_litmus_tail, out); }
static void help_states(FILE *out) { fputs(usage_states_head, out); print_sms_warps(out); fputs(usage_states_tail, out); }
static void help_check(FILE *out) { fputs(usage_check, out); }
static void help_babycuda(FILE *out) { fputs(usage_babycuda, out); }
static void help_nvrtc(FILE *out) { fputs(usage_nvrtc, out); }
static void help_fatbin(FILE *out) { fputs(usage_fatbin, out); }
static void help_exec(FILE *out) {
  fputs(usage_exec_head, out);
  print_registry(out, SCOPE(GR_OPT_RUN) | SCOPE(GR_OPT_FRONT), exec_skipped_options());
  fputs(usage_exec_own, out);
  print_registry(out, SCOPE(GR_OPT_DETECTOR), NULL);
  print_environment(out);
  fputs(usage_exec_tail, out);
}
static int run_exec(int argc, char **argv) { return cmd_exec(argc, argv, help_exec); }
static void help_devices(FILE *out) { fputs(usage_devices, out); }

/* The commands, each once: its name, what it does (gpurace help), how it
 * runs and its help (NULL: none beyond this line). */
static const struct {
  const char *name, *summary;
  int (*run)(int argc, char **argv);
  void (*help)(FILE *out);
} commands[] = {
  {"exec", "run a CUDA program as it is, its GPU the emulator (gpurace's CUDA runtime)", run_exec, help_exec},
  {"run", "run a kernel file's //@ launch, print dumps and check results", cmd_run, help_run},
  {"ir", "print the file's kernels as KIR, the SIMT bytecode", cmd_ir, help_ir},
  {"litmus", "run litmus tests under weak memory: outcome histograms and verdicts", cmd_litmus, help_litmus},
  {"states", "every final memory state of a kernel file, explored exhaustively (--compare: weak against sc)", cmd_states, help_states},
  {"table", "run a suite under race detectors over seeds: verdict tables (Markdown, CSV)", cmd_table, help_table},
  {"check", "decide data-race freedom statically (BabyCUDA: MAP typing and Z3), no run", cmd_check, help_check},
  {"babycuda", "the core calculus: eval (access-history semantics), print, cuda, prop", cmd_babycuda, help_babycuda},
  {"detectors", "list the race detectors", run_detectors, NULL},
  {"devices", "the backends and the GPU the CUDA backend would use", run_devices, help_devices},
  {"nvrtc", "compile kernel files with NVRTC as the CUDA backend does (no GPU needed)", cmd_nvrtc, help_nvrtc},
  {"fatbin", "the device code a CUDA program carries, and the PTX gpurace would run of it", cmd_fatbin, help_fatbin},
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

/* gpurace help options: the registry, an option a line (name, value, the
 * variable of its default, what reads it), tab-separated, for scripts. */
static void list_options(FILE *out) {
  static const char *const scope[] = {"run", "front", "detector"};
  for (int pass = 0; pass < 2; pass++)
    for (size_t k = 0;; k++) {
      const gr_option *o = pass ? det_option_at(k) : gr_option_at(k);
      if (!o) break;
      fprintf(out, "%s\t%s\t%s\t%s\n", o->name, o->arg ? o->arg : "-", o->env ? o->env : "-", scope[o->scope]);
    }
}

static void help_main(FILE *out) {
  fputs(usage_main_head, out);
  for (size_t k = 0; k < NCOMMANDS; k++) fprintf(out, "  %-10s %s\n", commands[k].name, commands[k].summary);
  fprintf(out, "  %-10s %s\n", "help", "show help for a command (gpurace help run; gpurace help options lists the options)");
  fputs(usage_main_tail, out);
}

int main(int argc, char **argv) {
  if (argc < 2) { help_main(stderr); return 2; }
  ranks_handoff(argv);
  /* a variable of the options with a bad value stops every command, never a silent default */
  char err[256];
  if (gr_config_env(err, sizeof err)) {
    fprintf(stderr, "gpurace: %s\n", err);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) { help_main(stdout); return 0; }
  if (!strcmp(cmd, "--version")) { puts("gpurace " PACKAGE_VERSION); return 0; }
  if (!strcmp(cmd, "help")) {
    if (argc < 3) { help_main(stdout); return 0; }
    if (!strcmp(argv[2], "options")) { list_options(stdout); return 0; }
    for (size_t k = 0; k < NCOMMANDS; k++)
      if (!strcmp(argv[2], commands[k].name) && commands[k].help) { commands[k].help(stdout); return 0; }
    return usage_error(NULL, "no help for '%s'", argv[2]);
  }
  for (size_t k = 0; k < NCOMMANDS; k++)
    if (!strcmp(cmd, commands[k].name)) return commands[k].run(argc - 2, argv + 2);
  return usage_error(NULL, "unknown command '%s'", cmd);
}
