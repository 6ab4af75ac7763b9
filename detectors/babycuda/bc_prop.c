/* Theorem 1, tested as a property on generated programs.
 *
 * Program i of seed s comes from its own generator state (s, i), so any one
 * program is replayed alone.  A well-typed program (indices and conditions
 * over the thread, the parameter and loop variables; syncs only under
 * conditions and loops every thread of a block sees alike) must get the
 * same verdict, per array, from
 *   - the semantics (Definition 1 on the history of Figure 5's rules),
 *   - its MAP, decided by Z3 (exact: Theorem 1),
 *   - the emulator's happens-before oracle `hb` (threads as agents:
 *     --warps its) on the program translated to CUDA,
 * and each racy verdict's witness, replayed on the emulator with its two
 * threads alone, must show the race at its index.  An ill-typed program
 * (indices and conditions may use values read from memory) must still be
 * sound (a racy program has a racy MAP); where its MAP is racy and the
 * program is not, that is a false alarm, and one is kept (shrunk) to show
 * the typing condition is needed.  A failure is shrunk to a smallest
 * program that still fails, and printed. */
#define _DEFAULT_SOURCE 1   /* mkstemps */
#include "babycuda.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "detectors.h"
#include "gpurace.h"

/* ---------------------------------------------------------------- the generator */

typedef struct {
  bc_program *p;
  rng r;
  int ill;                 /* may index and branch on read values */
  const char *vars[32];    /* usable in indices: loop variables */
  int nvars;
  const char *data[64];    /* read values in scope */
  int ndata;
  int nlet, nloop, budget;
  int has_param;
} gen;

static int pick(gen *G, int n) { return (int)rng_below(&G->r, (uint32_t)n); }

/* A non-negative expression over the thread, loop variables, the parameter
 * and (ill-typed, or a payload) read values. */
static bc_expr *atom(gen *G, int uniform, int with_data) {
  bc_program *p = G->p;
  for (;;) {
    switch (pick(G, 6)) {
    case 0: case 1: if (!uniform) return bc_var(p, "tid"); break;
    case 2: if (G->nvars) return bc_var(p, G->vars[pick(G, G->nvars)]); break;
    case 3: if (G->has_param) return bc_var(p, "M"); break;
    case 4: if (with_data && G->ndata) return bc_var(p, G->data[pick(G, G->ndata)]); break;
    default: return bc_num(p, pick(G, 4));
    }
  }
}

static bc_expr *term(gen *G, int uniform, int with_data, int depth) {
  if (depth <= 0 || pick(G, 3) == 0) return atom(G, uniform, with_data);
  bc_expr_kind k = pick(G, 3) ? BX_ADD : BX_MUL;
  bc_expr *b = k == BX_MUL && pick(G, 2) ? bc_num(G->p, 1 + pick(G, 3)) : term(G, uniform, with_data, depth - 1);
  return bc_bin(G->p, k, term(G, uniform, with_data, depth - 1), b);
}

static bc_expr *index_expr(gen *G, int array) {
  bc_program *p = G->p;
  bc_expr *size = bc_num(p, p->arrays[array].size);
  if (G->ill && G->ndata && pick(G, 4)) {
    /* a read value offset by the thread: the false alarms of the paper's equation 2 live here */
    bc_expr *d = bc_var(p, G->data[pick(G, G->ndata)]);
    return bc_bin(p, BX_REM, bc_bin(p, BX_ADD, d, pick(G, 2) ? bc_var(p, "tid") : term(G, 0, 0, 1)), size);
  }
  return bc_bin(p, BX_REM, term(G, 0, 0, 2), size);
}

static bc_expr *cond(gen *G, int uniform) {
  static const bc_expr_kind cmp[] = {BX_LT, BX_LE, BX_EQ, BX_NE, BX_GT, BX_GE};
  int with_data = G->ill && !uniform && G->ndata && pick(G, 2);
  bc_expr *a = term(G, uniform, with_data, 1);
  bc_expr *b = pick(G, 2) ? bc_num(G->p, pick(G, 5)) : term(G, uniform, 0, 1);
  bc_expr *c = bc_bin(G->p, cmp[pick(G, 6)], a, b);
  if (pick(G, 5) == 0) c = bc_bin(G->p, pick(G, 2) ? BX_AND : BX_OR, c, bc_bin(G->p, BX_LT, atom(G, uniform, 0), bc_num(G->p, 2)));
  return c;
}

static bc_stmt *stmts(gen *G, int depth, int uniform);

static bc_stmt *one(gen *G, int depth, int uniform, int *bound) {
  bc_program *p = G->p;
  srcpos at = {p->file, 0, 0};
  int array = pick(G, p->narrays);
  G->budget--;
  for (;;) {
    int c = pick(G, 20);
    if (c < 7) {
      bc_stmt *s = bc_stmt_new(p, BS_WRITE, at);
      s->array = array;
      s->idx = index_expr(G, array);
      s->val = term(G, 0, 1, 1);
      s->atomic = c < 2;   /* atomics race with plain accesses only */
      return s;
    }
    if (c < 12) {
      if (G->ndata == 64) continue;
      bc_stmt *s = bc_stmt_new(p, BS_READ, at);
      s->array = array;
      s->idx = index_expr(G, array);
      char name[16];
      snprintf(name, sizeof name, "y%d", ++G->nlet);
      s->var = arena_strndup(&p->ar, name, strlen(name));
      s->body = bc_stmt_new(p, BS_SKIP, at);
      G->data[G->ndata++] = s->var;   /* in scope for the rest of the sequence */
      (*bound)++;
      return s;
    }
    if (c < 15 && depth > 0 && G->budget > 0) {
      int u = uniform && pick(G, 2);
      bc_stmt *s = bc_stmt_new(p, BS_IF, at);
      s->cond = cond(G, u);
      s->body = stmts(G, depth - 1, u);
      s->els = pick(G, 2) ? stmts(G, depth - 1, u) : bc_stmt_new(p, BS_SKIP, at);
      return s;
    }
    if (c < 18 && depth > 0 && G->budget > 0 && G->nvars < 32) {
      int u = uniform && pick(G, 3);
      bc_stmt *s = bc_stmt_new(p, BS_FOR, at);
      char name[16];
      snprintf(name, sizeof name, "x%d", ++G->nloop);
      s->var = arena_strndup(&p->ar, name, strlen(name));
      int lo = pick(G, 2);
      s->lo = bc_num(p, lo);
      s->hi = pick(G, 3) == 0 && G->has_param ? bc_var(p, "M")
              : !u && pick(G, 2) ? bc_bin(p, BX_ADD, bc_var(p, "tid"), bc_num(p, lo)) : bc_num(p, lo + pick(G, 4));
      G->vars[G->nvars++] = s->var;
      s->body = stmts(G, depth - 1, u);
      G->nvars--;
      return s;
    }
    if (c >= 18 && uniform) return bc_stmt_new(p, BS_SYNC, at);
  }
}

static bc_stmt *stmts(gen *G, int depth, int uniform) {
  int n = 1 + pick(G, 3), bound = 0;
  bc_stmt *items[8];
  for (int k = 0; k < n; k++) items[k] = one(G, depth, uniform, &bound);
  G->ndata -= bound;
  return bc_seq(G->p, items, n, items[0]->pos);
}

bc_program *bc_prop_program(uint64_t seed, uint64_t i, int ill) {
  gen G;
  memset(&G, 0, sizeof G);
  rng_seed(&G.r, seed * 0x9e3779b97f4a7c15u + i * 2 + (uint64_t)ill);
  char file[64];
  snprintf(file, sizeof file, "gen-%" PRIu64 "-%" PRIu64 "%s.bc", seed, i, ill ? "-ill" : "");
  G.p = bc_program_new(file);
  G.ill = ill;
  bc_program *p = G.p;
  srcpos at = {p->file, 0, 0};
  p->block[0] = 2 + pick(&G, 5);
  if (pick(&G, 5) == 0) p->grid[0] = 2;
  int na = 1 + (pick(&G, 3) == 0);
  for (int a = 0; a < na; a++) {
    char name[8];
    snprintf(name, sizeof name, "%c", 'A' + a);
    int k = bc_add_array(p, name, pick(&G, 2) ? BC_SHARED : BC_GLOBAL, 4 + pick(&G, 9), at);
    int64_t *init = arena_alloc(&p->ar, (size_t)p->arrays[k].size * sizeof *init);
    for (int64_t j = 0; j < p->arrays[k].size; j++) init[j] = pick(&G, 5);
    p->arrays[k].init = init;
  }
  if (pick(&G, 2)) {
    G.has_param = 1;
    int q = bc_add_param(p, "M");
    p->params[q].value = 1 + pick(&G, 4);
    p->params[q].has_value = 1;
    p->assume = xmalloc(sizeof *p->assume);
    p->assume_pos = xmalloc(sizeof *p->assume_pos);
    p->assume[0] = bc_bin(p, BX_EQ, bc_var(p, "M"), bc_num(p, p->params[q].value));
    p->assume_pos[0] = at;
    p->nassume = 1;
  }
  G.budget = 8;
  p->body = stmts(&G, 3, 1);
  return p;
}

/* ---------------------------------------------------------------- the emulator */

/* Runs kernel file path under hb with threads as agents (--warps its),
 * its reports into log: 0, or -1 with the error in err (a run that failed,
 * or that hb stopped watching). */
static int hb_run_file(const char *path, race_log *log, char *err, size_t errlen) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.warps = GR_WARPS_ITS;
  cfg.memory = GR_MEMORY_SC;
  cfg.cc = GR_CC_SUBSET;
  gr_context *ctx = gr_context_create(&cfg);
  gr_script *s = NULL;
  detector_set *set = NULL;
  det_options dopts;
  det_options_default(&dopts);
  int rc = gr_script_load(ctx, path, NULL, 0, &s);
  if (!rc) rc = detectors_attach(ctx, "hb", &dopts, log, &set, err, errlen);
  else snprintf(err, errlen, "%s", gr_error(ctx));
  if (!rc) {
    rc = gr_script_run(s);
    if (rc) snprintf(err, errlen, "%s", gr_error(ctx));
    else if (race_log_unwatched_why(log, "hb")) { snprintf(err, errlen, "hb stopped watching: %s", race_log_unwatched_why(log, "hb")); rc = -1; }
  }
  if (set) detectors_detach(set);
  gr_script_free(s);
  gr_context_destroy(ctx);
  return rc ? -1 : 0;
}

/* Runs the CUDA translation under hb with threads as agents: per array,
 * whether hb reported a race, and whether one was at byte offset `at` of
 * array `want` (-1: none asked).  0, or -1 with the error in err. */
static int run_hb(const bc_program *p, const bc_thread *pair, int *racy, int want, uint64_t at, int *found, char *err,
                  size_t errlen) {
  char *text = bc_to_cuda(p, pair);
  char path[] = "/tmp/gpurace-bc-XXXXXX.cu";
  int fd = mkstemps(path, 3);
  if (fd < 0) { snprintf(err, errlen, "cannot create a temporary file"); free(text); return -1; }
  size_t len = strlen(text);
  int ok = write(fd, text, len) == (ssize_t)len;
  close(fd);
  free(text);
  if (!ok) { unlink(path); snprintf(err, errlen, "cannot write %s", path); return -1; }
  race_log *log = race_log_new();
  int rc = hb_run_file(path, log, err, errlen);
  if (!rc) {
    size_t n;
    const gr_race *races = race_log_reports(log, &n);
    for (int a = 0; a < p->narrays; a++) racy[a] = 0;
    if (found) *found = 0;
    for (size_t k = 0; k < n; k++) {
      int a = races[k].buffer ? bc_cuda_array(p, races[k].buffer) : -1;
      if (a < 0) continue;
      racy[a] = 1;
      /* the log keeps one report per source pair, with its first offset:
       * where the pair raced at several, the witness's index may be folded
       * into a report that names another */
      if (found && a == want && (races[k].offset == at || races[k].count > 1)) *found = 1;
    }
  }
  race_log_free(log);
  unlink(path);
  return rc ? -1 : 0;
}

/* ---------------------------------------------------------------- one program */

typedef struct {
  const bc_prop_opts *o;
  int emulate;
  /* what the last check saw, for the counts */
  int unknown, stuck, hb_runs, replays, false_alarm;
  char why[2048];
} judge;

/* The property; 0 holds, 1 fails (why in J->why). */
static int check_program(judge *J, bc_program *p, int ill) {

  J->unknown = J->stuck = J->false_alarm = 0;
  J->why[0] = 0;
  int racy_sem[8] = {0}, racy_map[8] = {0};
  bc_map_result mr[8];
  for (int a = 0; a < p->narrays && a < 8; a++) {
    bc_typing t;
    bc_map *m = bc_type(p, a, &t);
    if (!ill && !t.well_typed) { snprintf(J->why, sizeof J->why, "the generator made an ill-typed program: %s", t.why); return 1; }
    bc_sem_result sr;
    bc_eval(p, a, 1000000, NULL, &sr);
    if (sr.verdict == BC_SEM_STUCK || sr.verdict == BC_SEM_BOUND) {
      if (!ill) { snprintf(J->why, sizeof J->why, "the semantics got stuck on a well-typed program: %s", sr.why); return 1; }
      J->stuck = 1;
      return 0;
    }
    if (sr.verdict == BC_SEM_DIVERGENT) { snprintf(J->why, sizeof J->why, "barrier divergence: %s", sr.why); return 1; }
    bc_map_check(p, a, m, J->o->timeout_ms, &mr[a]);
    if (mr[a].verdict == BC_MAP_UNKNOWN) { J->unknown = 1; return 0; }
    if (mr[a].verdict == BC_MAP_DIVERGENT) { snprintf(J->why, sizeof J->why, "the checker saw barrier divergence: %s", mr[a].why); return 1; }
    racy_sem[a] = sr.verdict == BC_SEM_RACY;
    racy_map[a] = mr[a].verdict == BC_MAP_RACY;
    if (racy_sem[a] && !racy_map[a]) {
      snprintf(J->why, sizeof J->why, "array %s: the semantics is racy (t%" PRId64 " and t%" PRId64 " on index %" PRId64
               ") and the MAP is DRF: the checker is unsound", p->arrays[a].name, sr.race.t1.tid[0], sr.race.t2.tid[0],
               sr.race.index);
      return 1;
    }
    if (!racy_sem[a] && racy_map[a]) {
      if (ill) { J->false_alarm = 1; continue; }
      snprintf(J->why, sizeof J->why, "array %s: the MAP is racy (witness tid %" PRId64 " and %" PRId64 " on index %" PRId64
               ") and the semantics DRF, on a well-typed program", p->arrays[a].name, mr[a].w.t[0].tid[0],
               mr[a].w.t[1].tid[0], mr[a].w.index);
      return 1;
    }
  }
  if (ill || !J->emulate) return 0;
  int racy_hb[8];
  char err[1024];
  J->hb_runs++;
  if (run_hb(p, NULL, racy_hb, -1, 0, NULL, err, sizeof err)) { snprintf(J->why, sizeof J->why, "the emulator: %s", err); return 1; }
  for (int a = 0; a < p->narrays && a < 8; a++) {
    if (racy_hb[a] != racy_map[a]) {
      snprintf(J->why, sizeof J->why, "array %s: hb on the emulator says %s, the MAP %s", p->arrays[a].name,
               racy_hb[a] ? "racy" : "DRF", racy_map[a] ? "racy" : "DRF");
      return 1;
    }
    if (!racy_map[a]) continue;
    /* the witness, replayed with its two threads alone */
    const bc_witness *w = &mr[a].w;
    const bc_array *A = &p->arrays[a];
    uint64_t blk = (uint64_t)(w->t[0].bid[0] + w->t[0].bid[1] * p->grid[0] + w->t[0].bid[2] * p->grid[0] * p->grid[1]);
    uint64_t off = (uint64_t)w->index * 8;
    if (A->space == BC_SHARED && bc_blocks(p) > 1) off += blk * (uint64_t)A->size * 8;
    int found = 0;
    J->replays++;
    int racy_pair[8];
    if (run_hb(p, w->t, racy_pair, a, off, &found, err, sizeof err)) { snprintf(J->why, sizeof J->why, "the witness replay: %s", err); return 1; }
    if (!found) {
      snprintf(J->why, sizeof J->why, "array %s: the witness (tid %" PRId64 " and %" PRId64 ", index %" PRId64
               ") replayed alone shows no race there", A->name, w->t[0].tid[0], w->t[1].tid[0], w->index);
      return 1;
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- shrinking */

static void slots(bc_stmt **s, vec *out) {
  *(bc_stmt ***)vec_push(out) = s;
  bc_stmt *t = *s;
  switch (t->k) {
  case BS_SEQ: for (int k = 0; k < t->n; k++) slots(&t->items[k], out); break;
  case BS_READ: case BS_FOR: slots(&t->body, out); break;
  case BS_IF: slots(&t->body, out); slots(&t->els, out); break;
  default: break;
  }
}

typedef int (*pred_fn)(judge *J, bc_program *p, int ill);

/* A program that still fails, as small as replacing statements by skip or
 * by one of their branches, and taking threads away, makes it. */
static void shrink(judge *J, bc_program *p, int ill, pred_fn still) {
  srcpos at = {p->file, 0, 0};
  bc_stmt *skip = bc_stmt_new(p, BS_SKIP, at);
  for (int round = 0, progress = 1; progress && round < 200; round++) {
    progress = 0;
    while (p->block[0] > 2) {
      p->block[0]--;
      if (still(J, p, ill)) progress = 1;
      else { p->block[0]++; break; }
    }
    vec v;
    vec_init(&v, sizeof(bc_stmt **));
    slots(&p->body, &v);
    for (size_t k = 0; k < v.len && !progress; k++) {
      bc_stmt **s = *(bc_stmt ***)vec_at(&v, k), *old = *s;
      bc_stmt *cand[3] = {skip, old->k == BS_IF ? old->body : NULL, old->k == BS_IF ? old->els : NULL};
      if (old->k == BS_SKIP) continue;
      for (int c = 0; c < 3 && !progress; c++) {
        if (!cand[c]) continue;
        *s = cand[c];
        if (still(J, p, ill)) progress = 1;
        else *s = old;
      }
    }
    vec_free(&v);
  }
  still(J, p, ill);   /* leaves J->why of the program kept */
}

static int fails(judge *J, bc_program *p, int ill) { return check_program(J, p, ill); }
static int is_false_alarm(judge *J, bc_program *p, int ill) { return !check_program(J, p, ill) && J->false_alarm; }

static void program_text(char *out, size_t n, const bc_program *p) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) { snprintf(out, n, "(no memory)"); return; }
  bc_print(f, p);
  fclose(f);
  snprintf(out, n, "%s", buf);
  free(buf);
}

/* What one program gave: 0 agreed, 1 failed, 2 unknown; ill-typed: 3
 * stuck, 4 false alarm. */
static int judge_one(judge *J, const bc_prop_opts *o, uint64_t i, int ill) {
  bc_program *p = bc_prop_program(o->seed, i, ill);
  J->emulate = !ill && o->emulate_every > 0 && i % (uint64_t)o->emulate_every == 0;
  int v = check_program(J, p, ill) ? 1 : J->stuck ? 3 : J->unknown ? 2 : J->false_alarm ? 4 : 0;
  bc_program_free(p);
  return v;
}

/* Program i again, shrunk while pred holds, into out: why and the text. */
static void shrunk(const bc_prop_opts *o, uint64_t i, int ill, pred_fn pred, const char *what, char *out, size_t n) {
  judge J;
  memset(&J, 0, sizeof J);
  J.o = o;
  J.emulate = !ill && o->emulate_every > 0 && i % (uint64_t)o->emulate_every == 0;   /* as judge_one ran it */
  bc_program *p = bc_prop_program(o->seed, i, ill);
  shrink(&J, p, ill, pred);
  size_t k = 0;
  if (what) k = (size_t)snprintf(out, n, "%sprogram %" PRIu64 " of seed %" PRIu64 " (shrunk): %s\n", what, i, o->seed, J.why);
  if (k < n) program_text(out + k, n - k, p);
  bc_program_free(p);
}

/* Programs are independent: both cores share them, and what is printed
 * (counts; the first failure and the first false alarm, by number, shrunk
 * afterwards) is the same whatever the number of threads. */
int bc_prop_run(const bc_prop_opts *o, bc_prop_result *r) {
  memset(r, 0, sizeof *r);
  long total = (long)o->count + (long)o->ill_count;
  uint64_t first_fail[2] = {UINT64_MAX, UINT64_MAX}, first_alarm = UINT64_MAX;
  int agreed = 0, unknown = 0, failures = 0, hb_runs = 0, replays = 0, stuck = 0, ill_unknown = 0, alarms = 0;
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : agreed, unknown, failures, hb_runs, replays, stuck, ill_unknown, alarms)
  for (long t = 0; t < total; t++) {
    int ill = t >= o->count;
    uint64_t i = o->first + (uint64_t)(ill ? t - o->count : t);
    judge J;
    memset(&J, 0, sizeof J);
    J.o = o;
    int v = judge_one(&J, o, i, ill);
    hb_runs += J.hb_runs;
    replays += J.replays;
    if (v == 1) {
      failures++;
#pragma omp critical(bc_prop_first)
      if (i < first_fail[ill]) first_fail[ill] = i;
    } else if (v == 2) {
      if (ill) ill_unknown++;
      else unknown++;
    } else if (v == 3) {
      stuck++;
    } else if (v == 4) {
      alarms++;
#pragma omp critical(bc_prop_first)
      if (i < first_alarm) first_alarm = i;
    } else if (!ill) {
      agreed++;
    }
  }
  r->programs = o->count;
  r->ill_programs = o->ill_count;
  r->agreed = agreed;
  r->unknown = unknown;
  r->failures = failures;
  r->hb_runs = hb_runs;
  r->replays = replays;
  r->ill_stuck = stuck;
  r->ill_unknown = ill_unknown;
  r->false_alarms = alarms;
  int ill = first_fail[0] == UINT64_MAX;
  if (failures) {
    r->failed_at = first_fail[ill];
    shrunk(o, r->failed_at, ill, fails, ill ? "ill-typed " : "", r->failure, sizeof r->failure);
  }
  if (alarms) {
    r->false_alarm_at = first_alarm;
    shrunk(o, first_alarm, 1, is_false_alarm, NULL, r->false_alarm, sizeof r->false_alarm);
  }
  return failures ? 1 : 0;
}

/* ---------------------------------------------------------------- extraction, on generated CUDA */

/* Theorem 1 speaks of the calculus; a verdict on a CUDA kernel also rests
 * on its extraction, whose integers must be CUDA's.  Kernel i of a seed is
 * CUDA with the traps of machine integers: unsigned products that wrap
 * (t * 4294967295u + t), masks on signed values ((t - 31) & 31), shifts of
 * negative numbers, narrowing and sign-changing conversions, and names
 * that meet (an array `x` whose reads and a loop variable both count from
 * x1, an int parameter called `tid`), register accumulators, local
 * arrays, loops that shrink or test !=, a struct passed by value, atomics
 * beside plain accesses and an array viewed as pairs (4-byte fields of 8-byte structs).  The property: `gpurace check`'s
 * "DRF (proved)" never meets a race of hb on the emulator (threads as
 * agents), and its "true alarm" always does. */

/* An integer expression of the kernel, as C text, over the thread (t:
 * unsigned; s: int), the loop variable, the parameter and a value read. */
static void cexpr(gen *G, strbuf *b, int depth, int loopvar, int param, int readv) {
  static const char *const big[] = {"4294967295u", "2147483647", "65536u", "0x80000000u", "3u", "7", "31", "1"};
  if (depth <= 0 || !pick(G, 3)) {
    for (;;) {
      switch (pick(G, 8)) {
      case 0: case 1: strbuf_printf(b, "t"); return;
      case 2: strbuf_printf(b, "s"); return;
      case 3: if (loopvar) { strbuf_printf(b, "i"); return; } break;
      case 4: if (param & 1) { strbuf_printf(b, "tid"); return; } break;
      case 5: if (readv) { strbuf_printf(b, "v"); return; } break;
      case 6: if (param & 2) { strbuf_printf(b, pick(G, 2) ? "g.k" : "g.n"); return; } break;
      default: strbuf_printf(b, "%s", big[pick(G, 8)]); return;
      }
    }
  }
  switch (pick(G, 9)) {
  case 0: case 1: strbuf_printf(b, "("); cexpr(G, b, depth - 1, loopvar, param, readv); strbuf_printf(b, " + "); cexpr(G, b, depth - 1, loopvar, param, readv); strbuf_printf(b, ")"); return;
  case 2: strbuf_printf(b, "("); cexpr(G, b, depth - 1, loopvar, param, readv); strbuf_printf(b, " - "); cexpr(G, b, depth - 1, loopvar, param, readv); strbuf_printf(b, ")"); return;
  /* products by constants only: a product of two variables is non-linear,
   * where Z3 may time out, and a timed-out query in one thread of several
   * has corrupted Z3 4.8's heap here */
  case 3: case 4: {
    static const char *const k[] = {"4294967295u", "2147483647", "65536u", "3u", "7", "31", "2", "16"};
    strbuf_printf(b, "(");
    cexpr(G, b, depth - 1, loopvar, param, readv);
    strbuf_printf(b, " * %s)", k[pick(G, 8)]);
    return;
  }
  case 5: strbuf_printf(b, "("); cexpr(G, b, depth - 1, loopvar, param, readv); strbuf_printf(b, " & %d)", (1 << (1 + pick(G, 6))) - 1); return;
  case 6: strbuf_printf(b, "("); cexpr(G, b, depth - 1, loopvar, param, readv); strbuf_printf(b, " >> %d)", pick(G, 4)); return;
  case 7: strbuf_printf(b, "(int)("); cexpr(G, b, depth - 1, loopvar, param, readv); strbuf_printf(b, ")"); return;
  default: strbuf_printf(b, "(unsigned)("); cexpr(G, b, depth - 1, loopvar, param, readv); strbuf_printf(b, ")"); return;
  }
}

char *bc_prop_cuda_kernel(uint64_t seed, uint64_t i) {
  gen G;
  memset(&G, 0, sizeof G);
  rng_seed(&G.r, seed * 0x9e3779b97f4a7c15u + i * 7 + 3);
  strbuf b = {0};
  int threads = 2 + pick(&G, 70), blocks = 1 + (pick(&G, 4) == 0), n = 2 * (4 + pick(&G, 30));
  int param = pick(&G, 3) == 0, loop = pick(&G, 2), readx = pick(&G, 2);
  int strct = pick(&G, 3) == 0;   /* a struct passed by value: its fields g.k and g.n are parameters */
  int accum = loop && pick(&G, 2), bound = 1 + pick(&G, 3);   /* an accumulator, the bound a parameter m */
  strbuf_printf(&b, "// extraction property: kernel %" PRIu64 " of seed %" PRIu64 "\n", i, seed);
  strbuf_printf(&b, "//@ launch k grid(%d) block(%d)\n//@ buffer x i32[%d] = iota\n//@ buffer A i32[%d]\n", blocks, threads, threads * blocks, n);
  if (param) strbuf_printf(&b, "//@ arg tid = %d\n", pick(&G, 5));
  if (accum) strbuf_printf(&b, "//@ arg m = %d\n//@ assume m >= 0 && m <= 4\n", bound);
  if (strct) {   /* pinned by //@ assume: a true alarm's witness is then the launch's own values */
    int gk = pick(&G, 9) - 4, gn = pick(&G, 9);
    strbuf_printf(&b, "//@ arg g = {%d, %d}\n//@ assume g.k == %d && g.n == %d\nstruct cfg { int k; unsigned n; };\n", gk, gn, gk, gn);
  }
  /* half the buffer as pairs: accesses of 4 bytes to an array of 8-byte structs */
  strbuf_printf(&b, "struct pr { int a, b; };\n");
  strbuf_printf(&b, "__global__ void k(const int *x, int *A%s%s%s) {\n", param ? ", int tid" : "", accum ? ", int m" : "",
                strct ? ", cfg g" : "");
  if (strct) param |= 2;
  if (accum) strbuf_printf(&b, "  int acc = 0;\n");
  strbuf_printf(&b, "  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;\n  int s = (int)threadIdx.x;\n");
  if (readx) strbuf_printf(&b, "  int v = x[t];\n");
  int local = pick(&G, 3) == 0;   /* a local array: the thread's own, its values payloads */
  if (local) strbuf_printf(&b, "  int loc[4];\n  loc[t & 3u] = (int)t;\n  loc[(t + 1u) & 3u] = loc[t & 3u] + 1;\n");
  if (accum) strbuf_printf(&b, "  for (int i = 0; i < m; i++) {\n    acc += x[(t + (unsigned)i) %% %uu];\n", (unsigned)(threads * blocks));
  else if (loop) {   /* a loop that grows, or one that shrinks, or one whose test is != */
    static const char *const form[] = {"int i = 0; i < %d; i++", "int i = %d; i > 0; i--", "int i = 0; i != %d; i++",
                                       "unsigned i = %du; i > 0u; i--"};
    strbuf_printf(&b, "  for (");
    strbuf_printf(&b, form[pick(&G, 4)], bound);
    strbuf_printf(&b, ") {\n");
  }
  int nst = 1 + pick(&G, 2);
  for (int k = 0; k < nst; k++) {
    strbuf_printf(&b, "%s  ", loop ? "  " : "");
    int kind = pick(&G, 8);   /* 0, 1 a read of A; 2 an atomic; 3 a field of a pair; else a store */
    if (kind == 2) {
      strbuf_printf(&b, "atomicAdd(&A[(unsigned)(");
      cexpr(&G, &b, 3, loop, param, readx && pick(&G, 4) == 0);
      strbuf_printf(&b, ") %% %du], 1);\n", (unsigned)n);
      continue;
    }
    if (kind == 3) {
      strbuf_printf(&b, "reinterpret_cast<pr *>(A)[(unsigned)(");
      cexpr(&G, &b, 3, loop, param, readx && pick(&G, 4) == 0);
      strbuf_printf(&b, ") %% %du].%s = (int)t;\n", (unsigned)n / 2, pick(&G, 2) ? "a" : "b");
      continue;
    }
    int rd = kind < 2;
    if (rd) strbuf_printf(&b, "A[t %% %du] = A[(unsigned)(", (unsigned)n);
    else strbuf_printf(&b, "A[(unsigned)(");
    cexpr(&G, &b, 3, loop, param, readx && pick(&G, 4) == 0);
    strbuf_printf(&b, ") %% %du]%s;\n", (unsigned)n, rd ? "" : " = (int)t");
  }
  if (loop) strbuf_printf(&b, "  }\n");
  if (accum) strbuf_printf(&b, "  A[(t + %du) %% %du] = acc;\n", pick(&G, 4), (unsigned)n);
  if (local) strbuf_printf(&b, "  A[(t * %du) %% %du] = loc[(t + 1u) & 3u];\n", 1 + pick(&G, 3), (unsigned)n);
  strbuf_printf(&b, "}\n");
  return b.p;
}

/* hb on the emulator (--warps its): whether it reported a race on buffer A. */
static int hb_races_on_A(const char *path, int *racy, char *err, size_t errlen) {
  race_log *log = race_log_new();
  int rc = hb_run_file(path, log, err, errlen);
  *racy = 0;
  if (!rc) {
    size_t n;
    const gr_race *races = race_log_reports(log, &n);
    for (size_t k = 0; k < n; k++) if (races[k].buffer && !strcmp(races[k].buffer, "A")) *racy = 1;
  }
  race_log_free(log);
  return rc;
}

int bc_prop_cuda_run(uint64_t seed, int count, unsigned timeout_ms, bc_prop_cuda_result *r) {
  memset(r, 0, sizeof *r);
  r->kernels = count;
  r->failed_at = UINT64_MAX;
  int proved = 0, alarms = 0, other = 0, failures = 0, errors = 0;
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : proved, alarms, other, failures, errors)
  for (int i = 0; i < count; i++) {
    char *text = bc_prop_cuda_kernel(seed, (uint64_t)i);
    char path[] = "/tmp/gpurace-bcx-XXXXXX.cu";
    int fd = mkstemps(path, 3);
    size_t len = strlen(text);
    int ok = fd >= 0 && write(fd, text, len) == (ssize_t)len;
    if (fd >= 0) close(fd);
    char err[1024] = "", why[1200] = "";
    int bad = 0;
    bc_check_opts o;
    memset(&o, 0, sizeof o);
    o.array = "A";
    o.timeout_ms = timeout_ms;
    bc_check_result cr;
    int racy = 0;
    if (!ok || bc_check_file(path, &o, &cr, err, sizeof err) || hb_races_on_A(path, &racy, err, sizeof err)) {
      errors++;
      bad = 1;
      snprintf(why, sizeof why, "the run failed: %s", err);
      if (ok) bc_check_result_free(&cr);
    } else {
      bc_check_verdict v = cr.narrays ? cr.arrays[0].verdict : cr.verdict;
      if (v == BC_CHECK_DRF && racy) { bad = 1; snprintf(why, sizeof why, "check says DRF (proved), hb on the emulator finds a race on A"); }
      else if (v == BC_CHECK_RACY && !racy) { bad = 1; snprintf(why, sizeof why, "check says racy (true alarm), hb on the emulator finds none"); }
      if (v == BC_CHECK_DRF) proved++;
      else if (v == BC_CHECK_RACY) alarms++;
      else other++;
      bc_check_result_free(&cr);
    }
    if (fd >= 0) unlink(path);
    if (bad) {
      failures++;
#pragma omp critical(bc_prop_cuda_first)
      if ((uint64_t)i < r->failed_at) {
        r->failed_at = (uint64_t)i;
        snprintf(r->failure, sizeof r->failure, "kernel %d of seed %" PRIu64 ": %s\n%s", i, seed, why, text);
      }
    }
    free(text);
  }
  r->proved = proved;
  r->true_alarms = alarms;
  r->other = other;
  r->failures = failures;
  r->errors = errors;
  return failures ? 1 : 0;
}
