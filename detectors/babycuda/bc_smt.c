/* The MAP checker: DRF of a memory access protocol for every pair of
 * threads of the launch and every parameter value the assumptions allow,
 * decided by Z3 (quantifier-free integer arithmetic, one query per pair of
 * access sites, as Faial's SMT encoding of CAV'21 does for two threads).
 *
 * Two accesses conflict when two distinct threads reach them, at least one
 * writes, their indices are equal, and they are in the same phase of one
 * block (or, on a global array, in two blocks).  A site's phase is the
 * number of syncs its thread executed before it: a sum over the protocol,
 * k·(x − lo) inside a loop whose iterations each hold k syncs.  That count
 * is exact when syncs are uniform: a sync under a condition or a loop bound
 * that two threads of a block can see differently is barrier divergence,
 * its own verdict.  Each side has its own copy of the loop variables and of
 * the values read from memory (any number: Faial's abstraction, exact for
 * a well-typed program, whose indices and conditions never mention them).
 * Integers are mathematical; `/` and `%` are C's (truncating), and a
 * divisor must be non-zero for the access to happen. */
#include "babycuda.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"

#define MAX_UNROLL 256   /* iterations summed where a loop's syncs per iteration vary */

/* ---------------------------------------------------------------- sites */

typedef enum { CX_COND, CX_LOOP } ctx_kind;
typedef struct ctx {
  ctx_kind k;
  const bc_expr *e;          /* COND: the condition; LOOP: unused */
  int pol;                   /* COND: 1 it holds, 0 it does not */
  const char *var;           /* LOOP */
  const bc_expr *lo, *hi;
  int depth;                 /* loops enclosing this entry, itself included: names its copy of the variable */
  const struct ctx *up;
} ctx;

/* Phase counts: sums, products, choices and max(0, ·) of expressions. */
/* PH_AT: a with the loop of `at` at iteration n (the sum over the
 * iterations of a loop whose syncs per iteration vary, with constant bounds). */
typedef enum { PH_NUM, PH_EXPR, PH_ADD, PH_MUL, PH_ITE, PH_MAX0, PH_AT } ph_kind;
typedef struct ph {
  ph_kind k;
  int64_t n;
  const bc_expr *e;          /* EXPR: numeric; ITE: the condition */
  const ctx *at;             /* EXPR, ITE: the scope its variables are read in */
  const struct ph *a, *b;
} ph;

typedef struct {
  int write, atomic;         /* access sites */
  const bc_expr *idx;
  srcpos pos;
  const ctx *c;
  const ph *phase;
} site;

typedef struct {
  const bc_expr *cond;       /* a sync under an if: its condition; under a loop: NULL */
  const bc_expr *lo, *hi;
  srcpos pos;
  const ctx *c;              /* the context of the if or loop */
} barrier;

typedef struct {
  const bc_program *p;
  arena *ar;
  vec sites, barriers;
  char why[512];             /* a protocol the encoding cannot count */
} flat;

static const ph *ph_new(flat *F, ph_kind k, int64_t n, const bc_expr *e, const ctx *at, const ph *a, const ph *b) {
  ph *x = arena_alloc(F->ar, sizeof *x);
  x->k = k; x->n = n; x->e = e; x->at = at; x->a = a; x->b = b;
  return x;
}
static int ph_is(const ph *x, int64_t n) { return x->k == PH_NUM && x->n == n; }
static const ph *ph_add(flat *F, const ph *a, const ph *b) {
  if (ph_is(a, 0)) return b;
  if (ph_is(b, 0)) return a;
  if (a->k == PH_NUM && b->k == PH_NUM) return ph_new(F, PH_NUM, a->n + b->n, NULL, NULL, NULL, NULL);
  return ph_new(F, PH_ADD, 0, NULL, NULL, a, b);
}
static int ph_equal(const ph *a, const ph *b) { return a == b || (a->k == PH_NUM && b->k == PH_NUM && a->n == b->n); }

/* Does a count mention a variable bound at or below `depth` loops (one the
 * enclosing iteration binds)? */
static int ph_mentions(const ph *x, const char *var) {
  if (!x) return 0;
  if (x->k == PH_AT && !strcmp(x->at->var, var)) return 0;   /* fixed there */
  if ((x->k == PH_EXPR || x->k == PH_ITE) && bc_expr_mentions(x->e, var)) return 1;
  return ph_mentions(x->a, var) || ph_mentions(x->b, var);
}

/* A loop bound's value where it is a constant, or a parameter an
 * assumption pins (M = 4). */
static int const_value(const flat *F, const bc_expr *e, int64_t *v) {
  if (e->k == BX_NUM) { *v = e->num; return 1; }
  if (e->k != BX_VAR) return 0;
  for (int k = 0; k < F->p->nassume; k++) {
    const bc_expr *a = F->p->assume[k];
    if (a->k != BX_EQ) continue;
    if (a->a->k == BX_VAR && !strcmp(a->a->var, e->var) && a->b->k == BX_NUM) { *v = a->b->num; return 1; }
    if (a->b->k == BX_VAR && !strcmp(a->b->var, e->var) && a->a->k == BX_NUM) { *v = a->a->num; return 1; }
  }
  return 0;
}

static int const_trip(const flat *F, const bc_map *m, int64_t *lo, int64_t *hi) {
  return const_value(F, m->lo, lo) && const_value(F, m->hi, hi) && *hi - *lo <= MAX_UNROLL;
}

static const ctx *ctx_new(flat *F, ctx_kind k, const ctx *up) {
  ctx *c = arena_alloc(F->ar, sizeof *c);
  c->k = k;
  c->up = up;
  c->depth = up ? up->depth : 0;
  return c;
}

/* The syncs one execution of m holds. */
static const ph *syncs(flat *F, const bc_map *m, const ctx *c) {
  switch (m->k) {
  case BM_SYNC: return ph_new(F, PH_NUM, 1, NULL, NULL, NULL, NULL);
  case BM_SEQ: {
    const ph *s = ph_new(F, PH_NUM, 0, NULL, NULL, NULL, NULL);
    for (int k = 0; k < m->n; k++) s = ph_add(F, s, syncs(F, m->items[k], c));
    return s;
  }
  case BM_IF: {
    const ph *a = syncs(F, m->body, c), *b = syncs(F, m->els, c);
    if (ph_equal(a, b)) return a;
    return ph_new(F, PH_ITE, 0, m->cond, c, a, b);
  }
  case BM_FOR: {
    ctx *lc = (ctx *)ctx_new(F, CX_LOOP, c);
    lc->var = m->var; lc->lo = m->lo; lc->hi = m->hi; lc->depth++;
    const ph *k = syncs(F, m->body, lc);
    if (ph_is(k, 0)) return k;
    if (ph_mentions(k, m->var)) {
      /* varying syncs per iteration: a sum over the iterations, where the bounds are constants */
      int64_t lo, hi;
      if (const_trip(F, m, &lo, &hi)) {
        const ph *sum = ph_new(F, PH_NUM, 0, NULL, NULL, NULL, NULL);
        for (int64_t j = lo; j < hi; j++) sum = ph_add(F, sum, ph_new(F, PH_AT, j, NULL, lc, k, NULL));
        return sum;
      }
      if (!F->why[0])
        snprintf(F->why, sizeof F->why, "the syncs of one iteration of the loop at %d:%d depend on '%s' and its bounds "
                 "are not constants (nor parameters an assumption pins; at most %d iterations): the phase of an access has no closed form", m->pos.line,
                 m->pos.col, m->var, MAX_UNROLL);
    }
    bc_expr *trip = arena_alloc(F->ar, sizeof *trip);
    trip->k = BX_SUB; trip->a = (bc_expr *)m->hi; trip->b = (bc_expr *)m->lo;
    const ph *n = ph_new(F, PH_MAX0, 0, NULL, NULL, ph_new(F, PH_EXPR, 0, trip, c, NULL, NULL), NULL);
    return ph_new(F, PH_MUL, 0, NULL, NULL, k, n);
  }
  default: return ph_new(F, PH_NUM, 0, NULL, NULL, NULL, NULL);
  }
}

/* Walks the protocol: every access with its context and phase; every if or
 * loop that holds a sync. */
static const ph *walk(flat *F, const bc_map *m, const ctx *c, const ph *phase) {
  switch (m->k) {
  case BM_RD: case BM_WR: {
    site *s = vec_push(&F->sites);
    s->write = m->k == BM_WR;
    s->atomic = m->atomic;
    s->idx = m->idx;
    s->pos = m->pos;
    s->c = c;
    s->phase = phase;
    return phase;
  }
  case BM_SYNC: return ph_add(F, phase, ph_new(F, PH_NUM, 1, NULL, NULL, NULL, NULL));
  case BM_SEQ:
    for (int k = 0; k < m->n; k++) phase = walk(F, m->items[k], c, phase);
    return phase;
  case BM_IF: {
    const ph *s1 = syncs(F, m->body, c), *s2 = syncs(F, m->els, c);
    if (!ph_is(s1, 0) || !ph_is(s2, 0)) {
      barrier *b = vec_push(&F->barriers);
      b->cond = m->cond; b->pos = m->pos; b->c = c;
    }
    ctx *t = (ctx *)ctx_new(F, CX_COND, c), *e = (ctx *)ctx_new(F, CX_COND, c);
    t->e = e->e = m->cond;
    t->pol = 1;
    walk(F, m->body, t, phase);
    walk(F, m->els, e, phase);
    if (ph_equal(s1, s2)) return ph_add(F, phase, s1);
    return ph_add(F, phase, ph_new(F, PH_ITE, 0, m->cond, c, s1, s2));
  }
  case BM_FOR: {
    ctx *lc = (ctx *)ctx_new(F, CX_LOOP, c);
    lc->var = m->var; lc->lo = m->lo; lc->hi = m->hi; lc->depth++;
    const ph *k = syncs(F, m->body, lc);
    const ph *entry = phase;
    int64_t lo, hi;
    if (ph_mentions(k, m->var) && const_trip(F, m, &lo, &hi)) {
      barrier *b = vec_push(&F->barriers);
      b->lo = m->lo; b->hi = m->hi; b->pos = m->pos; b->c = c;
      /* the syncs of the iterations before x */
      for (int64_t j = lo; j < hi; j++) {
        bc_expr *x = arena_alloc(F->ar, sizeof *x), *jn = arena_alloc(F->ar, sizeof *jn), *lt = arena_alloc(F->ar, sizeof *lt);
        x->k = BX_VAR; x->var = m->var;
        jn->k = BX_NUM; jn->num = j;
        lt->k = BX_LT; lt->a = jn; lt->b = x;
        entry = ph_add(F, entry, ph_new(F, PH_ITE, 0, lt, lc, ph_new(F, PH_AT, j, NULL, lc, k, NULL),
                                        ph_new(F, PH_NUM, 0, NULL, NULL, NULL, NULL)));
      }
    } else if (!ph_is(k, 0)) {
      barrier *b = vec_push(&F->barriers);
      b->lo = m->lo; b->hi = m->hi; b->pos = m->pos; b->c = c;
      bc_expr *x = arena_alloc(F->ar, sizeof *x), *d = arena_alloc(F->ar, sizeof *d);
      x->k = BX_VAR; x->var = m->var;
      d->k = BX_SUB; d->a = x; d->b = (bc_expr *)m->lo;
      entry = ph_add(F, phase, ph_new(F, PH_MUL, 0, NULL, NULL, k, ph_new(F, PH_EXPR, 0, d, lc, NULL, NULL)));
    }
    walk(F, m->body, lc, entry);
    return ph_add(F, phase, syncs(F, m, c));
  }
  default: return phase;
  }
}

/* What a verdict says where no solver answers: the integers are not proved
 * not to wrap, and no protocol is proved */
static int any_obl(const bc_stmt *s) {
  if (!s) return 0;
  if (s->obl) return 1;
  if (s->k == BS_SEQ) {
    for (int k = 0; k < s->n; k++) if (any_obl(s->items[k])) return 1;
    return 0;
  }
  return any_obl(s->body) || any_obl(s->els);
}

static void exact_without(const bc_program *p, const char *why, bc_exact *r) {
  memset(r, 0, sizeof *r);
  r->exact = !any_obl(p->body);
  if (!r->exact) snprintf(r->why, sizeof r->why, "%s: the kernel's integers are not proved not to wrap", why);
}

static void map_without(const char *why, const char *hint, bc_map_result *r) {
  memset(r, 0, sizeof *r);
  r->verdict = BC_MAP_UNKNOWN;
  snprintf(r->why, sizeof r->why, "%s%s", why, hint);
}

#ifndef GR_HAVE_Z3

int bc_have_solver(void) { return 0; }
const char *bc_solver_problem(void) { return "gpurace was built without Z3"; }
void bc_solver_test_fallback(int on) { (void)on; }

void bc_exact_check(const bc_program *p, int array, unsigned timeout_ms, bc_exact *r) {
  (void)timeout_ms; (void)array;
  exact_without(p, bc_solver_problem(), r);
}

void bc_map_check(const bc_program *p, int array, const bc_map *m, unsigned timeout_ms, bc_map_result *r) {
  (void)p; (void)array; (void)m; (void)timeout_ms;
  map_without(bc_solver_problem(), " (apt-get install libz3-dev, then ./configure)", r);
}

#else

#include <dlfcn.h>
#include <pthread.h>
#include <z3.h>

/* Z3 is opened at the first question (dlopen), not linked: loading it and
 * the libstdc++ it needs took ~1 ms of every gpurace process, for the few
 * that ask it anything (`gpurace check`, `babycuda prop`).  Its functions
 * are called through z3.NAME, each with its declared type. */
#define Z3_USED(X) \
  X(del_config) X(del_context) X(get_numeral_int64) X(mk_add) X(mk_and) X(mk_config) X(mk_const) \
  X(mk_context) X(mk_div) X(mk_eq) X(mk_false) X(mk_ge) X(mk_gt) X(mk_implies) X(mk_int64) X(mk_int_sort) \
  X(mk_ite) X(mk_le) X(mk_lt) X(mk_mul) X(mk_not) X(mk_or) X(mk_params) X(mk_simple_solver) X(mk_solver) \
  X(mk_string_symbol) X(mk_sub) X(mk_true) X(mk_unary_minus) X(model_dec_ref) X(model_eval) X(model_inc_ref) \
  X(params_dec_ref) X(params_inc_ref) X(params_set_uint) X(set_error_handler) X(solver_assert) X(solver_check) \
  X(solver_dec_ref) X(solver_get_assertions) X(solver_get_model) X(solver_get_reason_unknown) X(solver_inc_ref) \
  X(solver_pop) X(solver_push) X(solver_set_params) X(ast_vector_dec_ref) X(ast_vector_get) X(ast_vector_inc_ref) \
  X(ast_vector_size)

static struct {
#define Z3_FIELD(f) __typeof__(&Z3_##f) f;
  Z3_USED(Z3_FIELD)
#undef Z3_FIELD
} z3;

static char z3_why[256];   /* why Z3 could not be loaded, or empty */

static void z3_open(void) {
  void *h = dlopen(GR_Z3_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(z3_why, sizeof z3_why, "Z3 could not be loaded (%s)", dlerror());
    return;
  }
#define Z3_LOAD(f) \
  if (!(*(void **)&z3.f = dlsym(h, "Z3_" #f))) { \
    snprintf(z3_why, sizeof z3_why, "Z3 could not be loaded (%s has no Z3_" #f ")", GR_Z3_SONAME); \
    return; \
  }
  Z3_USED(Z3_LOAD)
#undef Z3_LOAD
}

/* NULL once Z3 is loaded; else why it could not be.  Once per process,
 * whichever of `gpurace table`'s threads asks first (the others wait). */
static const char *z3_load(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, z3_open);
  return z3_why[0] ? z3_why : NULL;
}

int bc_have_solver(void) { return !z3_load(); }
const char *bc_solver_problem(void) { return z3_load(); }

static _Atomic int test_fallback;
void bc_solver_test_fallback(int on) { test_fallback = on; }

typedef struct {
  Z3_context z;
  Z3_solver s;
  Z3_solver tactics;         /* the last query's default solver (enc_check), or NULL */
  Z3_solver ans;             /* whose model and reason answer the last query: s or tactics */
  unsigned timeout_ms;
  const bc_program *p;
  int copy;                  /* 1 or 2: whose variables */
  const ctx *sub_c[64];      /* loops fixed at an iteration (PH_AT) */
  int64_t sub_v[64];
  int nsub;
  vec side;                  /* Z3_ast: divisors that must not be 0 */
  int z3_error;
} enc;

static void on_z3_error(Z3_context z, Z3_error_code e) { (void)z; (void)e; }

/* A solver of E's context with a time limit of ms per query. */
static Z3_solver solver_new(enc *E, Z3_solver s, unsigned ms) {
  z3.solver_inc_ref(E->z, s);
  Z3_params prm = z3.mk_params(E->z);
  z3.params_inc_ref(E->z, prm);
  z3.params_set_uint(E->z, prm, z3.mk_string_symbol(E->z, "timeout"), ms);
  z3.solver_set_params(E->z, s, prm);
  z3.params_dec_ref(E->z, prm);
  return s;
}

/* A context and solver for p's queries, each at most timeout_ms (0: 10 s). */
static void enc_open(enc *E, const bc_program *p, unsigned timeout_ms) {
  Z3_config cfg = z3.mk_config();
  E->z = z3.mk_context(cfg);
  z3.del_config(cfg);
  z3.set_error_handler(E->z, on_z3_error);
  E->timeout_ms = timeout_ms ? timeout_ms : 10000;
  /* Z3's SMT core alone: see enc_check */
  E->s = E->ans = solver_new(E, z3.mk_simple_solver(E->z), E->timeout_ms);
  E->tactics = NULL;
  E->p = p;
  vec_init(&E->side, sizeof(Z3_ast));
}

static void enc_close(enc *E) {
  vec_free(&E->side);
  if (E->tactics) z3.solver_dec_ref(E->z, E->tactics);
  z3.solver_dec_ref(E->z, E->s);
  z3.del_context(E->z);
}

static double enc_ms(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) * 1e-6;
}

/* Whether Z3 stopped for want of time or memory (api_solver.cpp's and
 * the solvers' reasons), not because its procedure is incomplete. */
static int stopped_by_limit(const char *why) {
  return strstr(why, "timeout") || strstr(why, "cancel") || strstr(why, "interrupt") || strstr(why, "exceeded");
}

/* sat, unsat or unknown of the assertions of E->s; the model and the
 * reason are E->ans's.  Z3's default solver (Z3_mk_solver), once pushed
 * to, answers with its incremental SMT core, and runs its tactics on the
 * same assertions only where the core gives up for another reason than a
 * limit (combined_solver.cpp).  That core alone (Z3_mk_simple_solver)
 * answers the same, with the same model, but costs 1 ms where the
 * default's making costs 4 (test_babycuda took twice as long); so the
 * tactics run here in that one case, a default solver given the query's
 * assertions and the time left. */
static Z3_lbool enc_check(enc *E) {
  if (E->tactics) z3.solver_dec_ref(E->z, E->tactics);
  E->tactics = NULL;
  E->ans = E->s;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  Z3_lbool res = test_fallback ? Z3_L_UNDEF : z3.solver_check(E->z, E->s);
  if (!test_fallback && (res != Z3_L_UNDEF || stopped_by_limit(z3.solver_get_reason_unknown(E->z, E->s)))) return res;
  double left = (double)E->timeout_ms - enc_ms(&t0);
  if (left < 1) return res;
  E->ans = E->tactics = solver_new(E, z3.mk_solver(E->z), (unsigned)left);
  Z3_ast_vector a = z3.solver_get_assertions(E->z, E->s);
  z3.ast_vector_inc_ref(E->z, a);
  for (unsigned i = 0; i < z3.ast_vector_size(E->z, a); i++) z3.solver_assert(E->z, E->tactics, z3.ast_vector_get(E->z, a, i));
  z3.ast_vector_dec_ref(E->z, a);
  return z3.solver_check(E->z, E->tactics);
}

static Z3_ast int_const(enc *E, const char *name) {
  return z3.mk_const(E->z, z3.mk_string_symbol(E->z, name), z3.mk_int_sort(E->z));
}

static Z3_ast num(enc *E, int64_t v) { return z3.mk_int64(E->z, v, z3.mk_int_sort(E->z)); }

/* A variable as seen from a context: a loop variable of the chain (its
 * depth names the copy), a thread coordinate or a read value of this side,
 * or a parameter (one for both sides). */
static Z3_ast var_ast(enc *E, const char *v, const ctx *c) {
  char name[160];
  for (; c; c = c->up)
    if (c->k == CX_LOOP && !strcmp(c->var, v)) {
      for (int s = E->nsub; s-- > 0;)
        if (E->sub_c[s] == c) return num(E, E->sub_v[s]);
      snprintf(name, sizeof name, "%s#%d@%d", v, c->depth, E->copy);
      return int_const(E, name);
    }
  for (int k = 0; k < E->p->nparams; k++)
    if (!strcmp(E->p->params[k].name, v)) return int_const(E, v);
  snprintf(name, sizeof name, "%s@%d", v, E->copy);
  return int_const(E, name);
}

static Z3_ast ast(enc *E, const bc_expr *e, const ctx *c);

static Z3_ast cdiv(enc *E, Z3_ast a, Z3_ast b) {
  Z3_context z = E->z;
  Z3_ast zero = num(E, 0);
  *(Z3_ast *)vec_push(&E->side) = z3.mk_not(z, z3.mk_eq(z, b, zero));
  Z3_ast na = z3.mk_unary_minus(z, a), nb = z3.mk_unary_minus(z, b);
  Z3_ast apos = z3.mk_ge(z, a, zero), bpos = z3.mk_gt(z, b, zero);
  /* truncation toward zero from Euclidean division of magnitudes */
  Z3_ast pp = z3.mk_div(z, a, b), pn = z3.mk_unary_minus(z, z3.mk_div(z, a, nb));
  Z3_ast np = z3.mk_unary_minus(z, z3.mk_div(z, na, b)), nn = z3.mk_div(z, na, nb);
  return z3.mk_ite(z, apos, z3.mk_ite(z, bpos, pp, pn), z3.mk_ite(z, bpos, np, nn));
}

static Z3_ast ast(enc *E, const bc_expr *e, const ctx *c) {
  Z3_context z = E->z;
  Z3_ast a, b, args[2];
  switch (e->k) {
  case BX_NUM: return num(E, e->num);
  case BX_VAR: {
    int t = bc_thread_var(e->var);
    if (t >= 0) {
      char name[32];
      snprintf(name, sizeof name, "%s@%d", bc_thread_var_name[t], E->copy);
      return int_const(E, name);
    }
    return var_ast(E, e->var, c);
  }
  case BX_TRUE: return z3.mk_true(z);
  case BX_FALSE: return z3.mk_false(z);
  case BX_NEG: return z3.mk_unary_minus(z, ast(E, e->a, c));
  case BX_NOT: return z3.mk_not(z, ast(E, e->a, c));
  default: break;
  }
  a = ast(E, e->a, c);
  b = ast(E, e->b, c);
  args[0] = a;
  args[1] = b;
  switch (e->k) {
  case BX_ADD: return z3.mk_add(z, 2, args);
  case BX_SUB: return z3.mk_sub(z, 2, args);
  case BX_MUL: return z3.mk_mul(z, 2, args);
  case BX_DIV: return cdiv(E, a, b);
  case BX_REM: { Z3_ast q = cdiv(E, a, b), m[2] = {b, q}, s[2] = {a, z3.mk_mul(z, 2, m)}; return z3.mk_sub(z, 2, s); }
  case BX_EQ: return z3.mk_eq(z, a, b);
  case BX_NE: return z3.mk_not(z, z3.mk_eq(z, a, b));
  case BX_LT: return z3.mk_lt(z, a, b);
  case BX_LE: return z3.mk_le(z, a, b);
  case BX_GT: return z3.mk_gt(z, a, b);
  case BX_GE: return z3.mk_ge(z, a, b);
  case BX_AND: return z3.mk_and(z, 2, args);
  case BX_OR: return z3.mk_or(z, 2, args);
  default: return num(E, 0);
  }
}

static Z3_ast ph_ast(enc *E, const ph *x) {
  Z3_context z = E->z;
  switch (x->k) {
  case PH_NUM: return num(E, x->n);
  case PH_EXPR: return ast(E, x->e, x->at);
  case PH_ADD: { Z3_ast a[2] = {ph_ast(E, x->a), ph_ast(E, x->b)}; return z3.mk_add(z, 2, a); }
  case PH_MUL: { Z3_ast a[2] = {ph_ast(E, x->a), ph_ast(E, x->b)}; return z3.mk_mul(z, 2, a); }
  case PH_ITE: return z3.mk_ite(z, ast(E, x->e, x->at), ph_ast(E, x->a), ph_ast(E, x->b));
  case PH_MAX0: { Z3_ast v = ph_ast(E, x->a); return z3.mk_ite(z, z3.mk_gt(z, v, num(E, 0)), v, num(E, 0)); }
  case PH_AT: {
    if (E->nsub == 64) return num(E, 0);
    E->sub_c[E->nsub] = x->at;
    E->sub_v[E->nsub++] = x->n;
    Z3_ast v = ph_ast(E, x->a);
    E->nsub--;
    return v;
  }
  }
  return num(E, 0);
}

static void assert_ctx(enc *E, const ctx *c) {
  Z3_context z = E->z;
  for (; c; c = c->up) {
    if (c->k == CX_COND) {
      Z3_ast b = ast(E, c->e, c->up);
      z3.solver_assert(z, E->s, c->pol ? b : z3.mk_not(z, b));
    } else {
      char name[160];
      snprintf(name, sizeof name, "%s#%d@%d", c->var, c->depth, E->copy);
      Z3_ast x = int_const(E, name);
      z3.solver_assert(z, E->s, z3.mk_ge(z, x, ast(E, c->lo, c->up)));
      z3.solver_assert(z, E->s, z3.mk_lt(z, x, ast(E, c->hi, c->up)));
    }
  }
}

static void assert_side(enc *E) {
  for (size_t k = 0; k < E->side.len; k++) z3.solver_assert(E->z, E->s, *(Z3_ast *)vec_at(&E->side, k));
  E->side.len = 0;
}

static Z3_ast coord(enc *E, int t, int copy) {
  char name[32];
  snprintf(name, sizeof name, "%s@%d", bc_thread_var_name[t], copy);
  return int_const(E, name);
}

/* The values a parameter's C type allows (an enumeration's: its values). */
static void assert_params(enc *E) {
  Z3_context z = E->z;
  for (int k = 0; k < E->p->nparams; k++) {
    const bc_param *q = &E->p->params[k];
    if (!q->ranged) continue;
    Z3_ast v = int_const(E, q->name);
    z3.solver_assert(z, E->s, z3.mk_ge(z, v, num(E, q->lo)));
    z3.solver_assert(z, E->s, z3.mk_le(z, v, num(E, q->hi)));
  }
}

/* Both threads in the launch, the assumptions; same_block: one block. */
static void assert_threads(enc *E, int same_block) {
  Z3_context z = E->z;
  Z3_ast differ[6];
  int nd = 0;
  for (int c = 1; c <= 2; c++)
    for (int t = 0; t < 6; t++) {
      int64_t n = t < 3 ? E->p->block[t] : E->p->grid[t - 3];
      Z3_ast v = coord(E, t, c);
      z3.solver_assert(z, E->s, z3.mk_ge(z, v, num(E, 0)));
      z3.solver_assert(z, E->s, z3.mk_lt(z, v, num(E, n)));
    }
  for (int t = 0; t < 6; t++) {
    Z3_ast eq = z3.mk_eq(z, coord(E, t, 1), coord(E, t, 2));
    if (t >= 3 && same_block) z3.solver_assert(z, E->s, eq);
    differ[nd++] = z3.mk_not(z, eq);
  }
  z3.solver_assert(z, E->s, z3.mk_or(z, nd, differ));
  E->copy = 1;
  for (int k = 0; k < E->p->nassume; k++) z3.solver_assert(z, E->s, ast(E, E->p->assume[k], NULL));
  assert_params(E);
  assert_side(E);
}

static int64_t model_int(enc *E, Z3_model m, Z3_ast a) {
  Z3_ast v;
  int64_t out = 0;
  if (z3.model_eval(E->z, m, a, 1, &v)) z3.get_numeral_int64(E->z, v, &out);
  return out;
}

static void fill_threads(enc *E, Z3_model m, bc_witness *w) {
  for (int c = 0; c < 2; c++)
    for (int t = 0; t < 6; t++) {
      int64_t v = model_int(E, m, coord(E, t, c + 1));
      if (t < 3) w->t[c].tid[t] = v;
      else w->t[c].bid[t - 3] = v;
    }
  size_t n = 0;
  w->params[0] = 0;
  for (int k = 0; k < E->p->nparams && n < sizeof w->params; k++)
    n += (size_t)snprintf(w->params + n, sizeof w->params - n, "%s%s=%" PRId64, k ? ", " : "", E->p->params[k].name,
                          model_int(E, m, int_const(E, E->p->params[k].name)));
}

static void fill_loops(enc *E, Z3_model m, const ctx *c, char *out, size_t len) {
  /* outermost first */
  const ctx *chain[64];
  int n = 0;
  for (; c && n < 64; c = c->up)
    if (c->k == CX_LOOP) chain[n++] = c;
  size_t used = 0;
  out[0] = 0;
  for (int k = n - 1; k >= 0 && used < len; k--) {
    char name[160];
    snprintf(name, sizeof name, "%s#%d@%d", chain[k]->var, chain[k]->depth, E->copy);
    used += (size_t)snprintf(out + used, len - used, "%s%s=%" PRId64, k == n - 1 ? "" : ", ", chain[k]->var,
                             model_int(E, m, int_const(E, name)));
  }
}

/* sat, unsat or unknown, with a model for sat. */
static Z3_lbool solve(enc *E, bc_map_result *r, Z3_model *model) {
  r->queries++;
  Z3_lbool res = enc_check(E);
  if (res == Z3_L_TRUE) {
    *model = z3.solver_get_model(E->z, E->ans);
    z3.model_inc_ref(E->z, *model);
  }
  return res;
}

static int query_barrier(enc *E, const barrier *b, bc_map_result *r, char *unknown, size_t ulen) {
  Z3_context z = E->z;
  z3.solver_push(z, E->s);
  assert_threads(E, 1);
  /* the same iteration of every enclosing loop: copy 2's loop variables equal copy 1's */
  for (int c = 1; c <= 2; c++) {
    E->copy = c;
    assert_ctx(E, b->c);
  }
  for (const ctx *c = b->c; c; c = c->up)
    if (c->k == CX_LOOP) {
      char n1[160], n2[160];
      snprintf(n1, sizeof n1, "%s#%d@1", c->var, c->depth);
      snprintf(n2, sizeof n2, "%s#%d@2", c->var, c->depth);
      z3.solver_assert(z, E->s, z3.mk_eq(z, int_const(E, n1), int_const(E, n2)));
    }
  Z3_ast d;
  if (b->cond) {
    E->copy = 1;
    Z3_ast c1 = ast(E, b->cond, b->c);
    E->copy = 2;
    Z3_ast c2 = ast(E, b->cond, b->c);
    d = z3.mk_not(z, z3.mk_eq(z, c1, c2));
  } else {
    E->copy = 1;
    Z3_ast l1 = ast(E, b->lo, b->c), h1 = ast(E, b->hi, b->c);
    E->copy = 2;
    Z3_ast l2 = ast(E, b->lo, b->c), h2 = ast(E, b->hi, b->c);
    Z3_ast o[2] = {z3.mk_not(z, z3.mk_eq(z, l1, l2)), z3.mk_not(z, z3.mk_eq(z, h1, h2))};
    d = z3.mk_or(z, 2, o);
  }
  z3.solver_assert(z, E->s, d);
  assert_side(E);
  Z3_model m = NULL;
  Z3_lbool res = solve(E, r, &m);
  int found = 0;
  if (res == Z3_L_TRUE) {
    r->verdict = BC_MAP_DIVERGENT;
    fill_threads(E, m, &r->w);
    r->w.pos[0] = b->pos;
    snprintf(r->why, sizeof r->why, "the %s at %d:%d holds a sync, and threads of one block can see it differently",
             b->cond ? "condition" : "loop bounds", b->pos.line, b->pos.col);
    z3.model_dec_ref(z, m);
    found = 1;
  } else if (res == Z3_L_UNDEF && !unknown[0]) {
    snprintf(unknown, ulen, "the solver gave up on the sync at %d:%d (%s)", b->pos.line, b->pos.col,
             z3.solver_get_reason_unknown(z, E->ans));
  }
  z3.solver_pop(z, E->s, 1);
  return found;
}

static int query_sites(enc *E, bc_space space, const site *a, const site *b, bc_map_result *r, char *unknown,
                       size_t ulen) {
  Z3_context z = E->z;
  z3.solver_push(z, E->s);
  assert_threads(E, space == BC_SHARED || bc_blocks(E->p) == 1);
  E->copy = 1;
  assert_ctx(E, a->c);
  Z3_ast i1 = ast(E, a->idx, a->c), p1 = ph_ast(E, a->phase);
  E->copy = 2;
  assert_ctx(E, b->c);
  Z3_ast i2 = ast(E, b->idx, b->c), p2 = ph_ast(E, b->phase);
  z3.solver_assert(z, E->s, z3.mk_eq(z, i1, i2));
  Z3_ast same_phase = z3.mk_eq(z, p1, p2);
  if (space == BC_SHARED || bc_blocks(E->p) == 1) {
    z3.solver_assert(z, E->s, same_phase);
  } else {
    Z3_ast eqs[3];
    for (int t = 0; t < 3; t++) eqs[t] = z3.mk_eq(z, coord(E, t + 3, 1), coord(E, t + 3, 2));
    Z3_ast same_block = z3.mk_and(z, 3, eqs);
    z3.solver_assert(z, E->s, z3.mk_implies(z, same_block, same_phase));
  }
  assert_side(E);
  Z3_model m = NULL;
  Z3_lbool res = solve(E, r, &m);
  int found = 0;
  if (res == Z3_L_TRUE) {
    r->verdict = BC_MAP_RACY;
    bc_witness *w = &r->w;
    fill_threads(E, m, w);
    E->copy = 1;
    w->index = model_int(E, m, i1);
    w->phase = model_int(E, m, p1);
    fill_loops(E, m, a->c, w->loops[0], sizeof w->loops[0]);
    E->copy = 2;
    fill_loops(E, m, b->c, w->loops[1], sizeof w->loops[1]);
    w->write[0] = a->write;
    w->write[1] = b->write;
    w->pos[0] = a->pos;
    w->pos[1] = b->pos;
    z3.model_dec_ref(z, m);
    found = 1;
  } else if (res == Z3_L_UNDEF && !unknown[0]) {
    snprintf(unknown, ulen, "the solver gave up on the accesses at %d:%d and %d:%d (%s)", a->pos.line, a->pos.col,
             b->pos.line, b->pos.col, z3.solver_get_reason_unknown(z, E->ans));
  }
  z3.solver_pop(z, E->s, 1);
  return found;
}

/* ---------------------------------------------------------------- machine integers */

/* The exactness walk: the statements with their contexts, and the values
 * read in scope with their element types' ranges. */
typedef struct {
  enc E;
  bc_exact *r;
  int array;                 /* whose accesses count, -1 all */
  const char *rvar[64];
  int64_t rlo[64], rhi[64];
  int nr;
} xwalk;

static Z3_context xz(xwalk *W) { return W->E.z; }

/* Whether s's obligation can fail where it runs (context c): 1 and why in
 * W->r where it can, or where the solver cannot tell. */
static int exact_query(xwalk *W, const bc_stmt *s, const ctx *c, const char *what) {
  enc *E = &W->E;
  Z3_context z = xz(W);
  z3.solver_push(z, E->s);
  E->copy = 1;
  for (int t = 0; t < 6; t++) {
    int64_t n = t < 3 ? E->p->block[t] : E->p->grid[t - 3];
    Z3_ast v = coord(E, t, 1);
    z3.solver_assert(z, E->s, z3.mk_ge(z, v, num(E, 0)));
    z3.solver_assert(z, E->s, z3.mk_lt(z, v, num(E, n)));
  }
  for (int k = 0; k < E->p->nassume; k++) z3.solver_assert(z, E->s, ast(E, E->p->assume[k], NULL));
  assert_params(E);
  for (int k = 0; k < W->nr; k++) {
    Z3_ast v = var_ast(E, W->rvar[k], c);
    z3.solver_assert(z, E->s, z3.mk_ge(z, v, num(E, W->rlo[k])));
    z3.solver_assert(z, E->s, z3.mk_le(z, v, num(E, W->rhi[k])));
  }
  assert_ctx(E, c);
  Z3_ast o = ast(E, s->obl, c);
  assert_side(E);
  z3.solver_assert(z, E->s, z3.mk_not(z, o));
  Z3_lbool res = enc_check(E);
  int bad = res != Z3_L_FALSE;
  if (res == Z3_L_TRUE) {
    Z3_model m = z3.solver_get_model(z, E->ans);
    z3.model_inc_ref(z, m);
    char who[160] = "";
    size_t n = (size_t)snprintf(who, sizeof who, "tid %" PRId64, model_int(E, m, coord(E, 0, 1)));
    if (E->p->grid[0] * E->p->grid[1] * E->p->grid[2] > 1)
      snprintf(who + n, sizeof who - n, " of block %" PRId64, model_int(E, m, coord(E, 3, 1)));
    z3.model_dec_ref(z, m);
    snprintf(W->r->why, sizeof W->r->why, "the integers of the %s at %d:%d leave their C type's range for %s: CUDA's wrap, the calculus's do not, so no verdict over them holds for the kernel",
             what, s->pos.line, s->pos.col, who);
  } else if (bad) {
    snprintf(W->r->why, sizeof W->r->why, "the solver could not tell whether the integers of the %s at %d:%d stay in their C type's range (%s)",
             what, s->pos.line, s->pos.col, z3.solver_get_reason_unknown(z, E->ans));
  }
  z3.solver_pop(z, E->s, 1);
  return bad;
}

static int exact_walk(xwalk *W, const bc_stmt *s, const ctx *c, int depth) {
  if (!s) return 0;
  static const char *const what[] = {[BS_READ] = "read's index", [BS_WRITE] = "write's index", [BS_IF] = "condition",
                                     [BS_FOR] = "loop's bounds"};
  int mine = (s->k != BS_READ && s->k != BS_WRITE) || W->array < 0 || s->array == W->array;
  if (s->obl && mine && s->k <= BS_FOR && exact_query(W, s, c, what[s->k] ? what[s->k] : "statement")) return 1;
  switch (s->k) {
  case BS_SEQ:
    for (int k = 0; k < s->n; k++) if (exact_walk(W, s->items[k], c, depth)) return 1;
    return 0;
  case BS_READ: {
    int pushed = 0;
    const bc_array *a = &W->E.p->arrays[s->array];
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    bc_sk_range(a->sk, &lo, &hi);   /* a float's read is a payload: no range */
    if (W->nr < 64 && s->var) {
      W->rvar[W->nr] = s->var;
      W->rlo[W->nr] = lo;
      W->rhi[W->nr++] = hi;
      pushed = 1;
    }
    int bad = exact_walk(W, s->body, c, depth);
    W->nr -= pushed;
    return bad;
  }
  case BS_IF: {
    ctx t = {CX_COND, s->cond, 1, NULL, NULL, NULL, depth, c}, f = t;
    f.pol = 0;
    return exact_walk(W, s->body, &t, depth) || exact_walk(W, s->els, &f, depth);
  }
  case BS_FOR: {
    ctx l = {CX_LOOP, NULL, 0, s->var, s->lo, s->hi, depth + 1, c};
    return exact_walk(W, s->body, &l, depth + 1);
  }
  default: return 0;
  }
}

void bc_exact_check(const bc_program *p, int array, unsigned timeout_ms, bc_exact *r) {
  const char *why = z3_load();
  if (why) {
    exact_without(p, why, r);
    return;
  }
  memset(r, 0, sizeof *r);
  r->exact = 1;
  xwalk W;
  memset(&W, 0, sizeof W);
  W.r = r;
  W.array = array;
  enc_open(&W.E, p, timeout_ms);
  if (exact_walk(&W, p->body, NULL, 0)) r->exact = 0;
  enc_close(&W.E);
}

void bc_map_check(const bc_program *p, int array, const bc_map *m, unsigned timeout_ms, bc_map_result *r) {
  const char *why = z3_load();
  if (why) {
    map_without(why, "", r);
    return;
  }
  memset(r, 0, sizeof *r);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  flat F;
  memset(&F, 0, sizeof F);
  F.p = p;
  arena ar = {0};
  F.ar = &ar;
  vec_init(&F.sites, sizeof(site));
  vec_init(&F.barriers, sizeof(barrier));
  walk(&F, m, NULL, ph_new(&F, PH_NUM, 0, NULL, NULL, NULL, NULL));
  if (F.why[0]) {
    r->verdict = BC_MAP_UNKNOWN;
    snprintf(r->why, sizeof r->why, "%s", F.why);
  } else {
    enc E;
    memset(&E, 0, sizeof E);
    enc_open(&E, p, timeout_ms);
    char unknown[512] = "";
    int found = 0;
    for (size_t k = 0; k < F.barriers.len && !found; k++)
      found = query_barrier(&E, vec_at(&F.barriers, k), r, unknown, sizeof unknown);
    /* a shared array has a copy per block: only threads of one block meet on it */
    bc_space space = p->arrays[array].space;
    for (size_t i = 0; i < F.sites.len && !found; i++)
      for (size_t j = i; j < F.sites.len && !found; j++) {
        const site *a = vec_at(&F.sites, i), *b = vec_at(&F.sites, j);
        if ((!a->write && !b->write) || (a->atomic && b->atomic)) continue;   /* atomics do not race with atomics */
        found = query_sites(&E, space, a, b, r, unknown, sizeof unknown);
      }
    if (!found) {
      r->verdict = unknown[0] ? BC_MAP_UNKNOWN : BC_MAP_DRF;
      snprintf(r->why, sizeof r->why, "%s", unknown);
    }
    enc_close(&E);
  }
  vec_free(&F.sites);
  vec_free(&F.barriers);
  arena_free(&ar);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

#endif
