/* gpurace check FILE...: BabyCUDA's static verdicts; gpurace babycuda
 * eval|print|cuda FILE: the calculus's semantics, its programs and MAPs,
 * and a program as a CUDA kernel. */
#include "check.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "babycuda/babycuda.h"
#include "gpurace.h"

const char *const usage_check =
  "usage: gpurace check FILE... [--json] [--time] [--array NAME] [--timeout MS] [-D NAME[=VALUE]]...\n"
  "\n"
  "Decides data-race freedom statically, without running the kernel: BabyCUDA's\n"
  "program of each FILE (a .bc file, or a .cu kernel file's first //@ launch, its\n"
  "buffers, args and //@ assume lines), typed per array (Figure 6 of the paper),\n"
  "its memory access protocol checked by Z3 for every thread of the launch and\n"
  "every parameter value the assumptions allow.  Per array:\n"
  "  DRF (proved)\n"
  "  racy (true alarm: well-typed), with a witness: two threads, the index, the\n"
  "       phase and the loop variables\n"
  "  racy (possible false alarm: not well-typed, because ...)\n"
  "  barrier divergence, unknown (the solver gave up), or the file is\n"
  "  outside the calculus (the construct and its position)\n"
  "\n"
  "options:\n"
  "  --json            one JSON object per file\n"
  "  --time            the solver queries and seconds of each array (otherwise the\n"
  "                    output of the same file is the same byte for byte)\n"
  "  --array NAME      check only this array\n"
  "  --timeout MS      per solver query (default 10000); a time-out is 'unknown'\n"
  "  -D NAME[=VALUE]   define a preprocessor macro (.cu files)\n"
  "\n"
  "exit status: 0 every array DRF, 4 a racy array (or barrier divergence),\n"
  "             5 no verdict (outside the calculus, unknown), 2 bad input\n";

const char *const usage_babycuda =
  "usage: gpurace babycuda eval FILE [--threads X[,Y[,Z]]] [--blocks X[,Y[,Z]]] [--param NAME=V]...\n"
  "                              [--array NAME] [--max-steps N] [-q]\n"
  "       gpurace babycuda print FILE     the program, and per array its typing and MAP\n"
  "       gpurace babycuda cuda FILE      the program as a CUDA kernel file for gpurace run\n"
  "       gpurace babycuda prop [--seed S] [--first I] [--count N] [--ill N] [--emulate-every K] [--print|--print-ill]\n"
  "       gpurace babycuda prop --cuda [--seed S] [--first I] [--count N] [--print]   (extraction against hb on generated CUDA)\n"
  "                                       Theorem 1 as a property on generated programs\n"
  "\n"
  "eval runs the access-history semantics (Figure 5 of the paper, with sync\n"
  "closing a phase) for every thread, prints the history (-q: not) and judges\n"
  "it by Definition 1.  FILE is a .bc file or a .cu kernel file (its program as\n"
  "gpurace check extracts it).\n"
  "\n"
  "exit status: 0 DRF, 4 racy (or barrier divergence), 5 stuck or step bound, 2 bad input\n";

static int usage_err(const char *cmd, const char *msg, const char *arg) {
  fprintf(stderr, "gpurace %s: ", cmd);
  fprintf(stderr, msg, arg);
  fprintf(stderr, "\n(see 'gpurace help %s')\n", cmd);
  return 2;
}

static int parse_i64(const char *s, int64_t *v) {
  if (!s || !*s) return 0;
  char *e;
  errno = 0;
  long long x = strtoll(s, &e, 10);
  if (errno || *e) return 0;
  *v = x;
  return 1;
}

static int parse_dims(const char *s, int64_t out[3], int64_t max) {
  out[0] = out[1] = out[2] = 1;
  char buf[64];
  if (strlen(s) >= sizeof buf) return 0;
  strcpy(buf, s);
  char *save, *tok = strtok_r(buf, ",", &save);
  for (int k = 0; k < 3 && tok; k++, tok = strtok_r(NULL, ",", &save))
    if (!parse_i64(tok, &out[k]) || out[k] < 1 || out[k] > max) return 0;
  return !tok && out[0] * out[1] * out[2] <= (max == 1024 ? 1024 : INT64_MAX);
}

int cmd_check(int argc, char **argv) {
  bc_check_opts o;
  memset(&o, 0, sizeof o);
  const char *defs[64];
  int json = 0, timing = 0, nfiles = 0;
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(usage_check, stdout); free(files); return 0; }
    if (!strcmp(a, "--json")) json = 1;
    else if (!strcmp(a, "--time")) timing = 1;
    else if (!strcmp(a, "--array") && i + 1 < argc) o.array = argv[++i];
    else if (!strcmp(a, "--timeout") && i + 1 < argc) {
      int64_t v;
      if (!parse_i64(argv[++i], &v) || v < 1 || v > 3600000) { free(files); return usage_err("check", "bad --timeout '%s' (1..3600000 ms)", argv[i]); }
      o.timeout_ms = (unsigned)v;
    } else if (!strncmp(a, "-D", 2)) {
      const char *d = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
      if (!d || !*d || *d == '=' || o.ndefines == 64) { free(files); return usage_err("check", "bad macro definition '%s'", d ? d : ""); }
      defs[o.ndefines++] = d;
    } else if (a[0] == '-' && a[1]) { free(files); return usage_err("check", "unknown option or missing value '%s'", a); }
    else files[nfiles++] = a;
  }
  o.defines = defs;
  if (!nfiles) { free(files); return usage_err("check", "%s", "no FILE given"); }
  if (!bc_have_solver()) fprintf(stderr, "gpurace check: %s: every protocol verdict is 'unknown'\n", bc_solver_problem());
  int status = 0;
  for (int k = 0; k < nfiles; k++) {
    bc_check_result r;
    char err[1200];
    if (bc_check_file(files[k], &o, &r, err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      status = 2;
      continue;
    }
    if (json) bc_check_print_json(stdout, files[k], &r, timing);
    else bc_check_print(stdout, files[k], &r, timing);
    int s = bc_check_status(&r);
    /* bad input wins, then a race, then no verdict */
    if (status != 2 && (s == 4 || (s == 5 && status == 0))) status = s;
    bc_check_result_free(&r);
  }
  free(files);
  return status;
}

static int cmd_eval(int argc, char **argv, const char *file) {
  int64_t threads[3] = {0, 0, 0}, blocks[3] = {0, 0, 0}, steps = 0;
  const char *array = NULL;
  int quiet = 0;
  const char *params[64];
  int nparams = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
    else if (!strcmp(a, "--threads") && v) { if (!parse_dims(argv[++i], threads, 1024)) return usage_err("babycuda", "bad --threads '%s' (X[,Y[,Z]], at most 1024 in all)", v); }
    else if (!strcmp(a, "--blocks") && v) { if (!parse_dims(argv[++i], blocks, 65535)) return usage_err("babycuda", "bad --blocks '%s' (X[,Y[,Z]], each 1..65535)", v); }
    else if (!strcmp(a, "--array") && v) array = argv[++i];
    else if (!strcmp(a, "--max-steps") && v) { if (!parse_i64(argv[++i], &steps) || steps < 1) return usage_err("babycuda", "bad --max-steps '%s'", v); }
    else if (!strcmp(a, "--param") && v) { if (nparams == 64) return usage_err("babycuda", "%s", "too many --param"); params[nparams++] = argv[++i]; }
    else return usage_err("babycuda", "unknown option or missing value '%s'", a);
  }
  char err[1200];
  int outside;
  bc_program *p = bc_load(file, NULL, &outside, err, sizeof err);
  if (!p) { fprintf(stderr, "%s\n", err); return outside ? 5 : 2; }
  if (threads[0]) memcpy(p->block, threads, sizeof threads);
  if (blocks[0]) memcpy(p->grid, blocks, sizeof blocks);
  for (int k = 0; k < nparams; k++) {
    const char *eq = strchr(params[k], '=');
    int64_t v;
    int q = -1;
    if (eq)
      for (int j = 0; j < p->nparams; j++)
        if (strlen(p->params[j].name) == (size_t)(eq - params[k]) && !strncmp(p->params[j].name, params[k], (size_t)(eq - params[k]))) q = j;
    if (!eq || !parse_i64(eq + 1, &v)) { bc_program_free(p); return usage_err("babycuda", "bad --param '%s' (NAME=INTEGER)", params[k]); }
    if (q < 0) { bc_program_free(p); return usage_err("babycuda", "--param '%s': the program has no such parameter", params[k]); }
    p->params[q].value = v;
    p->params[q].has_value = 1;
  }
  int ai = -1;
  if (array && (ai = bc_find_array(p, array)) < 0) { bc_program_free(p); return usage_err("babycuda", "no array '%s'", array); }
  bc_sem_result r;
  bc_eval(p, ai, (uint64_t)steps, quiet ? NULL : stdout, &r);
  printf("%s: %s", file, bc_sem_verdict_name[r.verdict]);
  if (r.verdict == BC_SEM_RACY) {
    const bc_race *c = &r.race;
    printf(": t%" PRId64 " of block %" PRId64 " %s %s[%" PRId64 "] in phase %" PRId64 ", t%" PRId64 " of block %" PRId64
           " %s it in phase %" PRId64,
           c->t1.tid[0] + c->t1.tid[1] * p->block[0] + c->t1.tid[2] * p->block[0] * p->block[1], c->t1.bid[0],
           c->write1 ? "writes" : "reads", p->arrays[c->array].name, c->index, c->phase1,
           c->t2.tid[0] + c->t2.tid[1] * p->block[0] + c->t2.tid[2] * p->block[0] * p->block[1], c->t2.bid[0],
           c->write2 ? "writes" : "reads", c->phase2);
  } else if (r.why[0]) {
    printf(": %s", r.why);
  }
  printf(" (%" PRId64 " phases, %" PRIu64 " accesses)\n", r.phases, r.accesses);
  bc_program_free(p);
  switch (r.verdict) {
  case BC_SEM_DRF: return 0;
  case BC_SEM_RACY: case BC_SEM_DIVERGENT: return 4;
  default: return 5;
  }
}

static int cmd_prop(int argc, char **argv) {
  bc_prop_opts o = {1, 0, 1000, 1000, 4, 0};
  int print = 0, ill = 0, cuda = 0;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--print")) { print = 1; continue; }
    if (!strcmp(argv[i], "--print-ill")) { print = ill = 1; continue; }
    if (!strcmp(argv[i], "--cuda")) { cuda = 1; continue; }
    int64_t v;
    const char *a = argv[i];
    if (i + 1 >= argc || !parse_i64(argv[i + 1], &v) || v < 0) return usage_err("babycuda", "option '%s' needs a number", a);
    i++;
    if (!strcmp(a, "--seed")) o.seed = (uint64_t)v;
    else if (!strcmp(a, "--first")) o.first = (uint64_t)v;
    else if (!strcmp(a, "--count") && v <= 10000000) o.count = (int)v;
    else if (!strcmp(a, "--ill") && v <= 10000000) o.ill_count = (int)v;
    else if (!strcmp(a, "--emulate-every") && v <= 10000000) o.emulate_every = (int)v;
    else return usage_err("babycuda", "unknown option or bad value '%s'", a);
  }
  if (print && cuda) {
    for (uint64_t i = o.first; i < o.first + (uint64_t)o.count; i++) {
      char *t = bc_prop_cuda_kernel(o.seed, i);
      fputs(t, stdout);
      free(t);
    }
    return 0;
  }
  if (cuda) {
    if (!bc_have_solver()) { fprintf(stderr, "gpurace babycuda prop: %s: nothing to test\n", bc_solver_problem()); return 5; }
    bc_prop_cuda_result *r = calloc(1, sizeof *r);
    int rc = bc_prop_cuda_run(o.seed, o.count, 0, r);
    printf("extraction: %d CUDA kernels (wrapping and masked arithmetic, names that meet, accumulators, local arrays, structs, atomics): %d DRF (proved), %d true alarms, %d other verdicts, each against hb on the emulator; %d failed\n",
           r->kernels, r->proved, r->true_alarms, r->other, r->failures);
    if (rc) printf("FAILED: %s", r->failure);
    free(r);
    return rc ? 1 : 0;
  }
  if (print) {
    for (uint64_t i = o.first; i < o.first + (uint64_t)o.count; i++) {
      bc_program *p = bc_prop_program(o.seed, i, ill);
      printf("// program %" PRIu64 " of seed %" PRIu64 "%s\n", i, o.seed, ill ? " (ill-typed)" : "");
      bc_print(stdout, p);
      bc_program_free(p);
    }
    return 0;
  }
  if (!bc_have_solver()) { fprintf(stderr, "gpurace babycuda prop: %s: nothing to test\n", bc_solver_problem()); return 5; }
  bc_prop_result *r = calloc(1, sizeof *r);
  int rc = bc_prop_run(&o, r);
  printf("well-typed: %d programs, %d agree (semantics = MAP), %d unknown; hb on the emulator %d runs, %d witnesses replayed\n",
         r->programs, r->agreed, r->unknown, r->hb_runs, r->replays);
  printf("ill-typed: %d programs, %d stuck (an index out of bounds), %d false alarms (MAP racy, program DRF)\n",
         r->ill_programs, r->ill_stuck, r->false_alarms);
  if (r->false_alarms) printf("first false alarm (program %" PRIu64 ", shrunk):\n%s", r->false_alarm_at, r->false_alarm);
  if (rc) printf("FAILED: %s", r->failure);
  else printf("Theorem 1 held on every program\n");
  free(r);
  return rc ? 1 : 0;
}

int cmd_babycuda(int argc, char **argv) {
  if (argc < 1 || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
    fputs(usage_babycuda, argc < 1 ? stderr : stdout);
    return argc < 1 ? 2 : 0;
  }
  const char *sub = argv[0];
  if (!strcmp(sub, "prop")) return cmd_prop(argc - 1, argv + 1);
  if (argc < 2) return usage_err("babycuda", "'%s' needs a FILE", sub);
  const char *file = argv[1];
  if (!strcmp(sub, "eval")) return cmd_eval(argc - 2, argv + 2, file);
  if (strcmp(sub, "print") && strcmp(sub, "cuda")) return usage_err("babycuda", "unknown subcommand '%s' (eval, print, cuda)", sub);
  if (argc > 2) return usage_err("babycuda", "unexpected argument '%s'", argv[2]);
  char err[1200];
  int outside;
  bc_program *p = bc_load(file, NULL, &outside, err, sizeof err);
  if (!p) { fprintf(stderr, "%s\n", err); return outside ? 5 : 2; }
  if (!strcmp(sub, "cuda")) {
    char *c = bc_to_cuda(p, NULL);
    fputs(c, stdout);
    free(c);
  } else {
    bc_print(stdout, p);
    for (int a = 0; a < p->narrays; a++) {
      bc_typing t;
      bc_map *m = bc_type(p, a, &t);
      printf("\n// MAP of %s: %s%s\n", p->arrays[a].name, t.well_typed ? "well-typed" : "not well-typed: ", t.why);
      bc_print_map(stdout, m, 0);
      putchar('\n');
    }
  }
  bc_program_free(p);
  return 0;
}
