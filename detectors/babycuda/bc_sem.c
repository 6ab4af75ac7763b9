/* BabyCUDA's access-history semantics (Figure 5), executable.
 *
 * Each thread is a small machine with an explicit stack, so that it can stop
 * at a `sync` and go on in the next phase.  A block runs phase by phase: every
 * thread runs its segment (rule par: it sees its own writes of the phase and
 * the history before it, never another thread's writes of the phase), then
 * the phase is merged.  lastwrite is then exact: the thread's own write of
 * the phase (lastwrite-curr on {i:(R,W)}::H), else the newest earlier phase
 * that wrote the index (lastwrite-prev), else the array's initial value,
 * else undefined (lastwrite-undef).  There the paper's read rule does not
 * apply; this semantics binds an undefined value instead, which may flow
 * into payloads (a racy read of uninitialised shared memory goes on to its
 * race) but makes the run stuck where an index, a condition or a loop bound
 * depends on it: on every program the paper's rules do not leave stuck, the
 * two agree.  In a racy phase several threads may write an index;
 * the rule's "there is an i" is then resolved by the lowest thread.
 *
 * Grids: blocks are independent programs over their own history (a block's
 * threads never see another block's writes, as par hides other threads'
 * writes); two blocks' accesses to a global array conflict in any phases. */
#include "babycuda.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const bc_sem_verdict_name[5] = {"DRF", "racy", "stuck", "barrier divergence", "step bound"};

/* ---------------------------------------------------------------- a table keyed by (array, index) */

#define NONE INT64_MIN

typedef struct {
  int used;
  int array;
  int64_t index;
  int64_t value;           /* own/committed: the value; phase: the first writer's last value */
  int undef;               /* the value was read where nothing had written (see bc_eval) */
  int64_t id[3][2];        /* per kind of access (BC_READ, BC_WRITE, BC_ATOMIC): distinct accessors (thread or block ids), NONE if absent */
  int64_t th[3], phase[3]; /* grid table: per kind, the first accessor's thread and phase */
} entry;

typedef struct { entry *e; size_t cap, n; } table;

static uint64_t key_hash(int array, int64_t index) {
  uint64_t h = (uint64_t)index * 0x9e3779b97f4a7c15u ^ (uint64_t)array * 0xc2b2ae3d27d4eb4fu;
  return h ^ (h >> 29);
}

static void table_clear(table *t) {
  if (t->n) memset(t->e, 0, t->cap * sizeof *t->e);
  t->n = 0;
}

static entry *table_find(table *t, int array, int64_t index) {
  if (!t->cap) return NULL;
  for (size_t i = key_hash(array, index) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    entry *e = &t->e[i];
    if (!e->used) return NULL;
    if (e->array == array && e->index == index) return e;
  }
}

static entry *table_get(table *t, int array, int64_t index) {
  if ((t->n + 1) * 2 > t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    entry *old = t->e;
    size_t ocap = t->cap;
    t->e = xcalloc(cap, sizeof *t->e);
    t->cap = cap;
    t->n = 0;
    for (size_t k = 0; k < ocap; k++)
      if (old[k].used) *table_get(t, old[k].array, old[k].index) = old[k];
    free(old);
  }
  for (size_t i = key_hash(array, index) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    entry *e = &t->e[i];
    if (e->used && e->array == array && e->index == index) return e;
    if (!e->used) {
      e->used = 1;
      e->array = array;
      e->index = index;
      for (int k = 0; k < 3; k++) e->id[k][0] = e->id[k][1] = e->th[k] = NONE;
      t->n++;
      return e;
    }
  }
}

static void table_free(table *t) { free(t->e); memset(t, 0, sizeof *t); }

/* Adds who to a set of at most two distinct members. */
static void add2(int64_t s[2], int64_t who) {
  if (s[0] == NONE) s[0] = who;
  else if (s[0] != who && s[1] == NONE) s[1] = who;
}

/* ---------------------------------------------------------------- threads */

typedef struct { const bc_stmt *s; int state; int64_t x, hi; } frame;
typedef struct { const char *name; int64_t v; int undef; } binding;

typedef struct {
  vec frames;              /* frame */
  vec env;                 /* binding: loop variables and lets, innermost last */
  bc_thread id;
  int64_t linear;          /* within its block */
  int done;
  int64_t syncs;
  srcpos at_sync;
} thread;

typedef struct {
  const bc_program *p;
  int array;               /* the verdict's array, -1 all */
  bc_sem_result *r;
  FILE *hist;
  uint64_t max_steps;
  table own, committed, phase, grid;
  int64_t block, phase_no;
  int failed;              /* stuck, bound: stops everything */
  int undef;               /* the expression just evaluated used an undefined value */
  vec log;                 /* logged accesses of the current phase, for the history */
} sem;

typedef struct { int64_t thread; int array; int64_t index, value; int write, undef; } logged;

static void sem_fail(sem *S, bc_sem_verdict v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void sem_fail(sem *S, bc_sem_verdict v, const char *fmt, ...) {
  if (S->failed) return;
  S->failed = 1;
  S->r->verdict = v;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(S->r->why, sizeof S->r->why, fmt, ap);
  va_end(ap);
}

static int lookup(sem *S, thread *t, const char *v, int64_t *out) {
  for (size_t k = t->env.len; k-- > 0;) {
    binding *b = vec_at(&t->env, k);
    if (!strcmp(b->name, v)) { *out = b->v; S->undef |= b->undef; return 1; }
  }
  int c = bc_thread_var(v);
  if (c >= 0) { *out = c < 3 ? t->id.tid[c] : t->id.bid[c - 3]; return 1; }
  for (int k = 0; k < S->p->nparams; k++)
    if (!strcmp(S->p->params[k].name, v)) {
      if (!S->p->params[k].has_value) return 0;
      *out = S->p->params[k].value;
      return 1;
    }
  return 0;
}

/* Wrapping arithmetic (no undefined behaviour); C's truncating / and %. */
static int eval(sem *S, thread *t, const bc_expr *e, srcpos at, int64_t *out) {
  int64_t a = 0, b = 0;
  if (e->k == BX_NUM) { *out = e->num; return 1; }
  if (e->k == BX_VAR) {
    if (lookup(S, t, e->var, out)) return 1;
    sem_fail(S, BC_SEM_STUCK, "%s:%d:%d: '%s' has no value (give parameters one: `param %s = V;` or --param)",
             at.file, at.line, at.col, e->var, e->var);
    return 0;
  }
  if (e->k == BX_TRUE || e->k == BX_FALSE) { *out = e->k == BX_TRUE; return 1; }
  if (!eval(S, t, e->a, at, &a)) return 0;
  /* && and || need both sides only where the first does not decide */
  if (e->k == BX_AND && !a) { *out = 0; return 1; }
  if (e->k == BX_OR && a) { *out = 1; return 1; }
  if (e->b && !eval(S, t, e->b, at, &b)) return 0;
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch (e->k) {
  case BX_ADD: *out = (int64_t)(ua + ub); return 1;
  case BX_SUB: *out = (int64_t)(ua - ub); return 1;
  case BX_MUL: *out = (int64_t)(ua * ub); return 1;
  case BX_NEG: *out = (int64_t)(0 - ua); return 1;
  case BX_DIV: case BX_REM:
    if (!b || (a == INT64_MIN && b == -1)) {
      sem_fail(S, BC_SEM_STUCK, "%s:%d:%d: thread %" PRId64 " divides %" PRId64 " by %" PRId64, at.file, at.line,
               at.col, t->linear, a, b);
      return 0;
    }
    *out = e->k == BX_DIV ? a / b : a % b;
    return 1;
  case BX_EQ: *out = a == b; return 1;
  case BX_NE: *out = a != b; return 1;
  case BX_LT: *out = a < b; return 1;
  case BX_LE: *out = a <= b; return 1;
  case BX_GT: *out = a > b; return 1;
  case BX_GE: *out = a >= b; return 1;
  case BX_AND: case BX_OR: *out = b != 0; return 1;
  case BX_NOT: *out = !a; return 1;
  default: return 0;
  }
}

/* An index, condition or bound: it must not depend on an undefined read. */
static int eval_defined(sem *S, thread *t, const bc_expr *e, srcpos at, int64_t *out, const char *what) {
  S->undef = 0;
  if (!eval(S, t, e, at, out)) return 0;
  if (!S->undef) return 1;
  sem_fail(S, BC_SEM_STUCK, "%s:%d:%d: thread %" PRId64 " of block %" PRId64 ": %s depends on a read of an index "
           "nothing wrote (lastwrite is undefined: the read rule does not apply)", at.file, at.line, at.col, t->linear,
           S->block, what);
  return 0;
}

static int in_bounds(sem *S, thread *t, int array, int64_t j, srcpos at) {
  const bc_array *A = &S->p->arrays[array];
  if (!A->size || (j >= 0 && j < A->size)) return 1;
  sem_fail(S, BC_SEM_STUCK, "%s:%d:%d: thread %" PRId64 " of block %" PRId64 " accesses %s[%" PRId64
           "], outside its %" PRId64 " elements", at.file, at.line, at.col, t->linear, S->block, A->name, j, A->size);
  return 0;
}

static void note_race(sem *S, int array, int64_t index, int64_t th1, int w1, int64_t ph1, int64_t th2, int w2,
                      int64_t ph2, int64_t b1, int64_t b2) {
  if (S->r->verdict == BC_SEM_RACY || S->failed) return;
  if (S->array >= 0 && array != S->array) return;
  S->r->verdict = BC_SEM_RACY;
  bc_race *r = &S->r->race;
  r->array = array;
  r->index = index;
  const int64_t *bl = S->p->block, *gr = S->p->grid;
  int64_t th[2] = {th1, th2}, bb[2] = {b1, b2};
  bc_thread *out[2] = {&r->t1, &r->t2};
  for (int k = 0; k < 2; k++) {
    out[k]->tid[0] = th[k] % bl[0];
    out[k]->tid[1] = th[k] / bl[0] % bl[1];
    out[k]->tid[2] = th[k] / (bl[0] * bl[1]);
    out[k]->bid[0] = bb[k] % gr[0];
    out[k]->bid[1] = bb[k] / gr[0] % gr[1];
    out[k]->bid[2] = bb[k] / (gr[0] * gr[1]);
  }
  r->write1 = w1;
  r->write2 = w2;
  r->phase1 = ph1;
  r->phase2 = ph2;
}

/* Whether accesses of kinds a and b of two threads race: one writes, and
 * not both are atomic. */
static int conflict(int a, int b) { return (a != BC_READ || b != BC_READ) && !(a == BC_ATOMIC && b == BC_ATOMIC); }

/* Of the distinct ids s (two kept), one other than me, or NONE. */
static int64_t other(const int64_t s[2], int64_t me) {
  return s[0] != NONE && s[0] != me ? s[0] : s[1] != NONE && s[1] != me ? s[1] : NONE;
}

/* Records an access (kind: BC_READ, BC_WRITE, BC_ATOMIC) in the phase
 * (and, for a global array, in the grid's table), and notes the first race
 * it makes: a write and another thread's access, where not both are
 * atomic (atomics do not race with atomics; the calculus's are of device
 * scope). */
static void record(sem *S, thread *t, int array, int64_t j, int64_t value, int undef, int kind) {
  S->r->accesses++;
  int write = kind != BC_READ;
  if (S->hist) {
    logged *l = vec_push(&S->log);
    l->thread = t->linear;
    l->array = array;
    l->index = j;
    l->value = value;
    l->write = write;
    l->undef = undef;
  }
  entry *e = table_get(&S->phase, array, j);
  int64_t me = t->linear, b = S->block;
  /* a race in the phase: another thread's access of a kind that conflicts
   * (writes first, then atomics, then reads, as the first race noted) */
  for (int o = 0; o < 3; o++) {
    int other_kind = (int[3]){BC_WRITE, BC_ATOMIC, BC_READ}[o];
    int64_t who = conflict(kind, other_kind) ? other(e->id[other_kind], me) : NONE;
    if (who == NONE) continue;
    note_race(S, array, j, who, other_kind != BC_READ, S->phase_no, me, write, S->phase_no, b, b);
    break;
  }
  if (write) {
    int64_t first = e->id[BC_WRITE][0] != NONE ? e->id[BC_WRITE][0] : e->id[BC_ATOMIC][0];
    if (first == NONE || first == me) { e->value = value; e->undef = undef; }
  }
  add2(e->id[kind], me);
  if (S->p->arrays[array].space != BC_GLOBAL || bc_blocks(S->p) < 2) return;
  entry *g = table_get(&S->grid, array, j);
  /* blocks run one after another: an earlier block's conflicting access */
  for (int o = 0; o < 3; o++) {
    int other_kind = (int[3]){BC_WRITE, BC_ATOMIC, BC_READ}[o];
    int64_t blk = g->id[other_kind][0];
    if (!conflict(kind, other_kind) || blk == NONE || blk == b) continue;
    note_race(S, array, j, g->th[other_kind], other_kind != BC_READ, g->phase[other_kind], me, write, S->phase_no, blk, b);
    break;
  }
  if (g->id[kind][0] == NONE) { g->th[kind] = me; g->phase[kind] = S->phase_no; }
  add2(g->id[kind], b);
}

static int lastwrite(sem *S, int array, int64_t j, int64_t *v, int *undef) {
  entry *e = table_find(&S->own, array, j);
  if (!e) e = table_find(&S->committed, array, j);
  *undef = 0;
  if (e) { *v = e->value; *undef = e->undef; return 1; }
  const bc_array *A = &S->p->arrays[array];
  if (A->init && j >= 0 && j < A->size) { *v = A->init[j]; return 1; }
  return 0;
}

static void push(thread *t, const bc_stmt *s) {
  frame *f = vec_push(&t->frames);
  f->s = s;
}

static void bind(thread *t, const char *name, int64_t v, int undef) {
  binding *b = vec_push(&t->env);
  b->name = name;
  b->v = v;
  b->undef = undef;
}

/* Runs the thread until it finishes, stops at a sync, or the run fails. */
static void run_segment(sem *S, thread *t) {
  while (!S->failed && t->frames.len) {
    if (++S->r->steps > S->max_steps) {
      sem_fail(S, BC_SEM_BOUND, "the step bound (%" PRIu64 " statement steps) was reached: no verdict", S->max_steps);
      return;
    }
    frame *f = vec_at(&t->frames, t->frames.len - 1);
    const bc_stmt *s = f->s;
    int64_t j, v;
    switch (s->k) {
    case BS_SKIP:
      t->frames.len--;
      break;
    case BS_SYNC:
      t->frames.len--;
      t->syncs++;
      t->at_sync = s->pos;
      return;
    case BS_SEQ:
      if (f->state < s->n) push(t, s->items[f->state++]);
      else t->frames.len--;
      break;
    case BS_WRITE:
      t->frames.len--;
      if (!eval_defined(S, t, s->idx, s->pos, &j, "the index") || !in_bounds(S, t, s->array, j, s->pos)) return;
      S->undef = 0;
      if (!eval(S, t, s->val, s->pos, &v)) return;
      {
        entry *o = table_get(&S->own, s->array, j);
        o->value = v;
        o->undef = S->undef;
      }
      record(S, t, s->array, j, v, S->undef, s->atomic ? BC_ATOMIC : BC_WRITE);
      break;
    case BS_READ:
      if (f->state == 0) {
        if (!eval_defined(S, t, s->idx, s->pos, &j, "the index") || !in_bounds(S, t, s->array, j, s->pos)) return;
        int u;
        if (!lastwrite(S, s->array, j, &v, &u)) { v = 0; u = 1; }   /* lastwrite = ⊥: see bc_eval */
        record(S, t, s->array, j, v, u, BC_READ);
        bind(t, s->var, v, u);
        f->state = 1;
        push(t, s->body);
      } else {
        t->env.len--;
        t->frames.len--;
      }
      break;
    case BS_IF:
      if (f->state == 0) {
        if (!eval_defined(S, t, s->cond, s->pos, &v, "the condition")) return;
        f->state = 1;
        push(t, v ? s->body : s->els);
      } else {
        t->frames.len--;
      }
      break;
    case BS_FOR:
      if (f->state == 0) {
        if (!eval_defined(S, t, s->lo, s->pos, &f->x, "the loop's lower bound") ||
            !eval_defined(S, t, s->hi, s->pos, &f->hi, "the loop's upper bound"))
          return;
        f->state = 1;
      } else if (f->state == 2) {
        t->env.len--;
        f->x++;
        f->state = 1;
      }
      if (f->x >= f->hi) {
        t->frames.len--;   /* for-1 */
      } else {             /* for-2: b[x := n], then the loop from n+1 */
        bind(t, s->var, f->x, 0);
        f->state = 2;
        push(t, s->body);
      }
      break;
    }
  }
  if (!t->frames.len) t->done = 1;
}

static void print_phase(sem *S) {
  if (!S->hist) return;
  fprintf(S->hist, "block %" PRId64 " phase %" PRId64 ":\n", S->block, S->phase_no);
  logged *l = S->log.data;
  size_t n = S->log.len;
  for (size_t a = 0; a < n;) {
    size_t b = a;
    while (b < n && l[b].thread == l[a].thread) b++;
    fprintf(S->hist, "  t%" PRId64 ": R{", l[a].thread);
    int first = 1;
    for (size_t k = a; k < b; k++) {
      if (l[k].write) continue;
      int dup = 0;
      for (size_t m = a; m < k && !dup; m++) dup = !l[m].write && l[m].array == l[k].array && l[m].index == l[k].index;
      if (dup) continue;
      fprintf(S->hist, "%s%s[%" PRId64 "]", first ? "" : ", ", S->p->arrays[l[k].array].name, l[k].index);
      first = 0;
    }
    fputs("} W{", S->hist);
    first = 1;
    for (size_t k = a; k < b; k++) {
      if (!l[k].write) continue;
      int later = 0;   /* W is a map: the thread's last write to the index */
      for (size_t m = k + 1; m < b && !later; m++) later = l[m].write && l[m].array == l[k].array && l[m].index == l[k].index;
      if (later) continue;
      if (l[k].undef)
        fprintf(S->hist, "%s%s[%" PRId64 "]=undef", first ? "" : ", ", S->p->arrays[l[k].array].name, l[k].index);
      else
        fprintf(S->hist, "%s%s[%" PRId64 "]=%" PRId64, first ? "" : ", ", S->p->arrays[l[k].array].name, l[k].index,
                l[k].value);
      first = 0;
    }
    fputs("}\n", S->hist);
    a = b;
  }
  S->log.len = 0;
}

/* Merges the phase into the history: its writes are what later phases read. */
static void close_phase(sem *S) {
  print_phase(S);
  for (size_t k = 0; k < S->phase.cap; k++) {
    entry *e = &S->phase.e[k];
    if (e->used && (e->id[BC_WRITE][0] != NONE || e->id[BC_ATOMIC][0] != NONE)) {
      entry *c = table_get(&S->committed, e->array, e->index);
      c->value = e->value;
      c->undef = e->undef;
    }
  }
  table_clear(&S->phase);
  S->phase_no++;
}

static void run_block(sem *S, int64_t b) {
  const bc_program *p = S->p;
  int64_t nt = bc_threads_per_block(p);
  thread *th = xcalloc((size_t)nt, sizeof *th);
  S->block = b;
  S->phase_no = 0;
  table_clear(&S->committed);
  table_clear(&S->phase);
  for (int64_t k = 0; k < nt; k++) {
    thread *t = &th[k];
    vec_init(&t->frames, sizeof(frame));
    vec_init(&t->env, sizeof(binding));
    t->linear = k;
    t->id.tid[0] = k % p->block[0];
    t->id.tid[1] = k / p->block[0] % p->block[1];
    t->id.tid[2] = k / (p->block[0] * p->block[1]);
    t->id.bid[0] = b % p->grid[0];
    t->id.bid[1] = b / p->grid[0] % p->grid[1];
    t->id.bid[2] = b / (p->grid[0] * p->grid[1]);
    push(t, p->body);
  }
  for (;;) {
    for (int64_t k = 0; k < nt && !S->failed; k++) {
      if (th[k].done) continue;
      table_clear(&S->own);
      run_segment(S, &th[k]);
    }
    if (S->failed) break;
    int64_t done = 0;
    for (int64_t k = 0; k < nt; k++) done += th[k].done;
    close_phase(S);
    if (done == nt) break;
    if (done) {
      int64_t d = 0, w = 0;
      while (!th[d].done) d++;
      while (th[w].done) w++;
      sem_fail(S, BC_SEM_DIVERGENT, "block %" PRId64 ": thread %" PRId64 " ended after %" PRId64
               " syncs while thread %" PRId64 " waits at the sync at %s:%d:%d", b, d, th[d].syncs, w,
               th[w].at_sync.file, th[w].at_sync.line, th[w].at_sync.col);
      break;
    }
  }
  if (b == 0) S->r->phases = S->phase_no;
  for (int64_t k = 0; k < nt; k++) { vec_free(&th[k].frames); vec_free(&th[k].env); }
  free(th);
}

void bc_eval(const bc_program *p, int array, uint64_t max_steps, FILE *history, bc_sem_result *r) {
  memset(r, 0, sizeof *r);
  r->verdict = BC_SEM_DRF;
  sem S;
  memset(&S, 0, sizeof S);
  S.p = p;
  S.array = array;
  S.r = r;
  S.hist = history;
  S.max_steps = max_steps ? max_steps : 100000000u;
  vec_init(&S.log, sizeof(logged));
  for (int k = 0; k < p->nparams; k++)
    if (!p->params[k].has_value) {
      sem_fail(&S, BC_SEM_STUCK, "parameter '%s' has no value (`param %s = V;` or --param %s=V)", p->params[k].name,
               p->params[k].name, p->params[k].name);
      break;
    }
  for (int k = 0; k < p->nassume && !S.failed; k++) {
    thread t0;
    memset(&t0, 0, sizeof t0);
    vec_init(&t0.env, sizeof(binding));
    int64_t v;
    if (eval(&S, &t0, p->assume[k], p->assume_pos[k], &v) && !v)
      sem_fail(&S, BC_SEM_STUCK, "%s:%d:%d: the parameters' values do not satisfy this assumption",
               p->assume_pos[k].file, p->assume_pos[k].line, p->assume_pos[k].col);
  }
  for (int64_t b = 0; b < bc_blocks(p) && !S.failed; b++) {
    /* a racy verdict is final, but the history goes on for the printout */
    run_block(&S, b);
  }
  table_free(&S.own);
  table_free(&S.committed);
  table_free(&S.phase);
  table_free(&S.grid);
  vec_free(&S.log);
}
