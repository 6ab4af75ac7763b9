/* Extraction: the BabyCUDA program of a kernel, from its KIR.
 *
 * A symbolic walk of the kernel's code, once per path region: registers
 * hold expressions over the thread's coordinates, the kernel's integer
 * parameters, loop variables and values read from memory.  Structure comes
 * back from KIR's own: a conditional branch and its reconvergence point (the
 * immediate post-dominator) make `if c {..} else {..}`, both sides walked to
 * that point; a branch whose condition folds to a constant (the launch's
 * blockDim, a constant loop counter) follows its one side; a backward jump
 * closes a loop, which is
 *   - `for x in lo..hi`, when its only loop-carried register starts at lo,
 *     is tested against hi (x < hi, x <= hi - 1, ...) at the top and grows
 *     by exactly 1 (the calculus's loops have stride 1), or
 *   - unrolled, when every loop-carried register starts as a constant (a
 *     tree reduction's `s >>= 1` over the launch's block size);
 * anything else is outside the calculus.  A load is `let y = A[n] in` the
 * rest of its sequence (reads hoisted out of conditions as the paper asks:
 * KIR computes them before the branch anyway), a store `A[n] := m`, a
 * barrier `sync`; fences are dropped (no order the calculus can see).
 * Payloads the calculus cannot compute (floating point, math functions)
 * become the sum of the read values they depend on: the MAP ignores
 * payloads, and in a well-typed program no access depends on them, so no
 * verdict changes (only the values in `babycuda eval`'s history).  Integer
 * arithmetic is the calculus's (mathematical), conversions between integer
 * types the identity, shifts by constants products and (floor) quotients
 * of powers of two, `& (2^k - 1)` the remainder modulo 2^k (Euclidean where
 * the operand is signed): each exact where no result leaves its C type's
 * range.  So each value carries that condition (sv.obl: every intermediate
 * result, and every narrowing or sign-changing conversion, in range), and a
 * statement the conditions of the values it uses (bc_stmt.obl), which
 * bc_exact_check proves or refutes: CUDA's integers wrap, the calculus's do
 * not, and a proof must hold for CUDA's. */
#include "babycuda.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef enum { SV_NONE, SV_NUM, SV_BOOL, SV_PTR, SV_OPAQUE, SV_BAD } sv_kind;
typedef struct {
  sv_kind k;
  bc_expr *e;              /* NUM, BOOL: the value; PTR: the byte offset; OPAQUE: the payload standing for it */
  int array;               /* PTR */
  int elem;                /* PTR: the array's element bytes; local memory (array -1): 1 where e is the
                            * offset, -1 where the offset is unknown and e an address of the same object */
  srcpos pos;              /* OPAQUE, BAD: where the value came from */
  const char *why;         /* OPAQUE, BAD: what it is */
  bc_expr *obl;            /* NUM, BOOL, PTR: what makes e the machine's value (no wrap on the way), or NULL */
} sv;

typedef enum { SRC_SHARED, SRC_PARAM, SRC_GLOBAL, SRC_LEAF, SRC_DYNAMIC } src_kind;
typedef struct { src_kind k; int idx, leaf; } arr_src;   /* LEAF: a pointer field (leaf) of struct parameter idx */

/* A struct passed by value: the thread's copy in local memory, [base, base + size). */
typedef struct { int64_t base, size; int param; } sregion;

typedef struct {
  const kir_module *m;
  const kir_func *f;
  bc_program *p;
  int n, R;
  size_t W;
  uint64_t *live;          /* live-in per instruction, W words each; index n: after the end */
  int *loop_end;           /* per pc: the last backward jump to it, or -1 */
  arr_src *src;            /* per program array */
  int *unit;               /* per program array: the bytes of its accesses (0: none yet) */
  vec sregions;            /* sregion: the struct parameters' copies */
  int nvars, nloops;
  vec used;                /* const char *: the names fresh() gave, so that no two kinds of name meet */
  const char **pname;      /* per kernel parameter: its name in the program (one that is a thread variable's is renamed) */
  size_t budget;           /* statements and expressions left */
  arena scratch;           /* the walk's statement lists: freed at the end, whatever happened */
  vec tmps;                /* void *: register states and bitsets alive now, freed on bail-out too */
  jmp_buf bail;
  char *err;
  size_t errlen;
  const char *file;
} X;

static _Noreturn void outside(X *x, srcpos at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static _Noreturn void outside(X *x, srcpos at, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(x->err, x->errlen, "%s:%d:%d: outside the calculus: %s", at.file ? at.file : x->file, at.line, at.col, msg);
  longjmp(x->bail, 1);
}

static void *tmp_alloc(X *x, size_t n) {
  void *p = xcalloc(1, n ? n : 1);
  *(void **)vec_push(&x->tmps) = p;
  return p;
}

static void tmp_free(X *x, void *p) {
  for (size_t k = x->tmps.len; k-- > 0;)
    if (*(void **)vec_at(&x->tmps, k) == p) {
      *(void **)vec_at(&x->tmps, k) = *(void **)vec_at(&x->tmps, x->tmps.len - 1);
      x->tmps.len--;
      break;
    }
  free(p);
}

static srcpos pos_of(X *x, int pc) { return x->f->pos[pc < x->n ? pc : x->n - 1]; }

static void spend(X *x, int pc) {
  if (!x->budget--) outside(x, pos_of(x, pc), "the program grows past %d nodes (unrolled loops too long)", 1 << 20);
}

/* ---------------------------------------------------------------- expressions */

static int expr_eq(const bc_expr *a, const bc_expr *b) {
  if (a == b) return 1;
  if (!a || !b || a->k != b->k) return 0;
  if (a->k == BX_NUM) return a->num == b->num;
  if (a->k == BX_VAR) return !strcmp(a->var, b->var);
  return expr_eq(a->a, b->a) && expr_eq(a->b, b->b);
}

static int is_num(const bc_expr *e, int64_t v) { return e->k == BX_NUM && e->num == v; }

/* Builds a op b, folding constants and the identities of 0 and 1. */
static bc_expr *mk(X *x, bc_expr_kind k, bc_expr *a, bc_expr *b) {
  bc_program *p = x->p;
  if (a && b && a->k == BX_NUM && b->k == BX_NUM) {
    int64_t u = a->num, v = b->num;
    switch (k) {
    case BX_ADD: return bc_num(p, (int64_t)((uint64_t)u + (uint64_t)v));
    case BX_SUB: return bc_num(p, (int64_t)((uint64_t)u - (uint64_t)v));
    case BX_MUL: return bc_num(p, (int64_t)((uint64_t)u * (uint64_t)v));
    case BX_DIV: if (v && !(u == INT64_MIN && v == -1)) return bc_num(p, u / v); break;
    case BX_REM: if (v && !(u == INT64_MIN && v == -1)) return bc_num(p, u % v); break;
    case BX_EQ: return bc_bin(p, u == v ? BX_TRUE : BX_FALSE, NULL, NULL);
    case BX_NE: return bc_bin(p, u != v ? BX_TRUE : BX_FALSE, NULL, NULL);
    case BX_LT: return bc_bin(p, u < v ? BX_TRUE : BX_FALSE, NULL, NULL);
    case BX_LE: return bc_bin(p, u <= v ? BX_TRUE : BX_FALSE, NULL, NULL);
    case BX_GT: return bc_bin(p, u > v ? BX_TRUE : BX_FALSE, NULL, NULL);
    case BX_GE: return bc_bin(p, u >= v ? BX_TRUE : BX_FALSE, NULL, NULL);
    default: break;
    }
  }
  switch (k) {
  case BX_ADD:
    if (is_num(a, 0)) return b;
    if (is_num(b, 0)) return a;
    break;
  case BX_SUB:
    if (is_num(b, 0)) return a;
    break;
  case BX_MUL:
    if (is_num(a, 1)) return b;
    if (is_num(b, 1)) return a;
    if (is_num(a, 0) || is_num(b, 0)) return bc_num(p, 0);
    break;
  case BX_DIV:
    if (is_num(b, 1)) return a;
    break;
  case BX_AND:
    if (a->k == BX_FALSE || b->k == BX_FALSE) return bc_bin(p, BX_FALSE, NULL, NULL);
    if (a->k == BX_TRUE) return b;
    if (b->k == BX_TRUE) return a;
    break;
  case BX_OR:
    if (a->k == BX_TRUE || b->k == BX_TRUE) return bc_bin(p, BX_TRUE, NULL, NULL);
    if (a->k == BX_FALSE) return b;
    if (b->k == BX_FALSE) return a;
    break;
  case BX_NOT:
    if (a->k == BX_TRUE) return bc_bin(p, BX_FALSE, NULL, NULL);
    if (a->k == BX_FALSE) return bc_bin(p, BX_TRUE, NULL, NULL);
    if (a->k == BX_NOT) return a->a;
    break;
  case BX_NEG:
    if (a->k == BX_NUM && a->num != INT64_MIN) return bc_num(p, -a->num);
    break;
  default: break;
  }
  return bc_bin(p, k, a, b);
}

/* e with every occurrence of the condition c replaced by v (true or false). */
static bc_expr *assume_cond(X *x, bc_expr *e, const bc_expr *c, int v) {
  if (!BC_IS_BOOL(e->k)) return e;
  if (expr_eq(e, c)) return bc_bin(x->p, v ? BX_TRUE : BX_FALSE, NULL, NULL);
  if (e->k == BX_AND || e->k == BX_OR)
    return mk(x, e->k, assume_cond(x, e->a, c, v), assume_cond(x, e->b, c, v));
  if (e->k == BX_NOT) return mk(x, BX_NOT, assume_cond(x, e->a, c, v), NULL);
  return e;
}

/* ---------------------------------------------------------------- machine integers */

int bc_sk_range(int sk, int64_t *lo, int64_t *hi) {
  switch (sk) {
  case SK_I8: *lo = INT8_MIN; *hi = INT8_MAX; return 1;
  case SK_U8: *lo = 0; *hi = UINT8_MAX; return 1;
  case SK_I16: *lo = INT16_MIN; *hi = INT16_MAX; return 1;
  case SK_U16: *lo = 0; *hi = UINT16_MAX; return 1;
  case SK_I32: *lo = INT32_MIN; *hi = INT32_MAX; return 1;
  case SK_U32: *lo = 0; *hi = UINT32_MAX; return 1;
  case SK_I64: *lo = INT64_MIN; *hi = INT64_MAX; return 1;
  case SK_U64: *lo = 0; *hi = INT64_MAX; return 1;
  default: return 0;
  }
}

static int vt_sk(int vt) { return vt == VT_I32 ? SK_I32 : vt == VT_U32 ? SK_U32 : vt == VT_I64 ? SK_I64 : SK_U64; }

static bc_expr *obl_and(X *x, bc_expr *a, bc_expr *b) {
  if (!a) return b;
  if (!b || expr_eq(a, b)) return a;
  return mk(x, BX_AND, a, b);
}

/* e lies in the values of kind sk (NULL: it always does). */
static bc_expr *in_range(X *x, bc_expr *e, int sk) {
  int64_t lo, hi;
  if (!bc_sk_range(sk, &lo, &hi)) return NULL;
  if (e->k == BX_NUM) return e->num >= lo && e->num <= hi ? NULL : bc_bin(x->p, BX_FALSE, NULL, NULL);
  return obl_and(x, mk(x, BX_LE, bc_num(x->p, lo), e), mk(x, BX_LE, e, bc_num(x->p, hi)));
}

/* ---------------------------------------------------------------- values */

static sv num_sv(bc_expr *e) { sv v; memset(&v, 0, sizeof v); v.k = BC_IS_BOOL(e->k) ? SV_BOOL : SV_NUM; v.e = e; return v; }
static sv num_sv_obl(bc_expr *e, bc_expr *obl) { sv v = num_sv(e); v.obl = obl; return v; }
static sv bad_sv(srcpos pos, const char *why) { sv v; memset(&v, 0, sizeof v); v.k = SV_BAD; v.pos = pos; v.why = why; return v; }
static sv opaque_sv(X *x, srcpos pos, const char *why, const sv *a, const sv *b) {
  sv v;
  memset(&v, 0, sizeof v);
  v.k = SV_OPAQUE;
  v.pos = pos;
  v.why = why;
  /* a payload that depends on the same reads: the sum of the operands' stand-ins */
  bc_expr *e = bc_num(x->p, 0);
  const sv *ops[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    const sv *o = ops[k];
    if (!o) continue;
    if (o->k == SV_OPAQUE || o->k == SV_NUM) e = mk(x, BX_ADD, e, o->e);
    if (o->k == SV_OPAQUE && !o->why) v.why = why;
  }
  v.e = e;
  return v;
}

static const char *describe(const sv *v) {
  switch (v->k) {
  case SV_NONE: return "a register nothing wrote";
  case SV_PTR: return "a pointer";
  case SV_OPAQUE: case SV_BAD: return v->why;
  default: return "a value";
  }
}

/* The value as a number for an index, a bound or an operand. */
static bc_expr *need_num(X *x, const sv *v, int pc, const char *use) {
  if (v->k == SV_NUM) return v->e;
  if (v->k == SV_BOOL) return NULL;
  if (v->k == SV_OPAQUE || v->k == SV_BAD)
    outside(x, pos_of(x, pc), "%s is %s (from %d:%d)", use, describe(v), v->pos.line, v->pos.col);
  outside(x, pos_of(x, pc), "%s is %s", use, describe(v));
}

static bc_expr *need_bool(X *x, const sv *v, int pc, const char *use) {
  if (v->k == SV_BOOL) return v->e;
  if (v->k == SV_NUM) return mk(x, BX_NE, v->e, bc_num(x->p, 0));
  need_num(x, v, pc, use);
  return NULL;
}

/* A payload: anything that is a number or stands for one. */
static bc_expr *payload(X *x, const sv *v, int pc) {
  if (v->k == SV_NUM || v->k == SV_OPAQUE) return v->e;
  if (v->k == SV_BOOL) return bc_num(x->p, 0);   /* a stored flag: its value does not matter to a MAP */
  outside(x, pos_of(x, pc), "the value stored is %s", describe(v));
}

/* a mod m, Euclidean (in [0, m) for m > 0), from C's truncating '%' */
static bc_expr *emod(X *x, bc_expr *a, bc_expr *m) { return mk(x, BX_REM, mk(x, BX_ADD, mk(x, BX_REM, a, m), m), m); }

static int pow2_shift(int64_t v) {
  for (int k = 0; k < 63; k++)
    if (v == (int64_t)1 << k) return k;
  return -1;
}

/* ---------------------------------------------------------------- arrays */

/* A leaf of a struct parameter by name: "f.x", "f.in.y", "f.a.2" (the
 * subset front end's fields), else "f.at8" (its byte offset).  C's field
 * names are unique in their struct and '.' is in no C name, so no other
 * name of the program is one of these. */
static const char *leaf_name(X *x, int param, int leaf) {
  const kir_param *q = &x->f->params[param];
  if (q->leaf_name && q->leaf_name[leaf][0]) return arena_printf(&x->p->ar, "%s.%s", x->pname[param], q->leaf_name[leaf]);
  return arena_printf(&x->p->ar, "%s.at%u", x->pname[param], q->leaf_off[leaf]);
}

static kir_sk elem_kind(X *x, int a) {
  arr_src s = x->src[a];
  if (s.k == SRC_SHARED) return x->m->shared[s.idx].elem;
  if (s.k == SRC_GLOBAL) return x->m->globals[s.idx].elem;
  if (s.k == SRC_DYNAMIC) return SK_U8;   /* bytes, until its accesses say (access_unit) */
  if (s.k == SRC_LEAF) {
    const kir_param *q = &x->f->params[s.idx];
    return q->leaf_pointee ? (kir_sk)q->leaf_pointee[s.leaf] : SK_U8;
  }
  return x->f->params[s.idx].pointee;
}

static int elem_bytes(X *x, int a) { return kir_sk_size[elem_kind(x, a)]; }

static int array_for(X *x, src_kind k, int idx, int leaf, int pc) {
  for (int a = 0; a < x->p->narrays; a++)
    if (x->src[a].k == k && x->src[a].idx == idx && (k != SRC_LEAF || x->src[a].leaf == leaf)) return a;
  const char *name;
  bc_space sp;
  int64_t size = 0;
  srcpos decl = pos_of(x, pc);
  if (k == SRC_SHARED) {
    const kir_shared *v = &x->m->shared[idx];
    name = v->name;
    sp = BC_SHARED;
    size = v->size / (kir_sk_size[v->elem] ? kir_sk_size[v->elem] : 1);
    decl = v->decl;
  } else if (k == SRC_PARAM) {
    name = x->f->params[idx].name;
    sp = BC_GLOBAL;
  } else if (k == SRC_LEAF) {
    name = leaf_name(x, idx, leaf);
    sp = BC_GLOBAL;
  } else if (k == SRC_DYNAMIC) {
    /* every extern __shared__ array of the kernel: one region, whatever
     * their names and types (they alias); '.' keeps it from any C name */
    name = "dynamic.shared";
    sp = BC_SHARED;
  } else {
    const kir_global *g = &x->m->globals[idx];
    name = g->name;
    sp = BC_GLOBAL;
    size = g->size / (kir_sk_size[g->elem] ? kir_sk_size[g->elem] : 1);
    decl = g->decl;
  }
  int a = bc_add_array(x->p, name, sp, size, decl);
  x->src = xrealloc(x->src, (size_t)x->p->narrays * sizeof *x->src);
  x->unit = xrealloc(x->unit, (size_t)x->p->narrays * sizeof *x->unit);
  x->src[a].k = k;
  x->src[a].idx = idx;
  x->src[a].leaf = leaf;
  x->unit[a] = 0;
  x->p->arrays[a].sk = elem_kind(x, a);
  if (k == SRC_GLOBAL) {
    const kir_global *g = &x->m->globals[idx];
    int es = kir_sk_size[g->elem];
    if (g->init && size && (g->elem <= SK_U64)) {
      int64_t *init = arena_alloc(&x->p->ar, (size_t)size * sizeof *init);
      for (int64_t j = 0; j < size; j++) {
        int64_t v = 0;
        memcpy(&v, g->init + j * es, (size_t)es);
        init[j] = v;
      }
      x->p->arrays[a].init = init;
    }
  }
  return a;
}


/* byte offset / element size, exactly where the offset is a multiple of it */
static bc_expr *div_exact(X *x, bc_expr *e, int64_t es) {
  if (es == 1) return e;
  if (e->k == BX_NUM && e->num % es == 0) return bc_num(x->p, e->num / es);
  if (e->k == BX_MUL) {
    if (e->b->k == BX_NUM && e->b->num % es == 0) return mk(x, BX_MUL, e->a, bc_num(x->p, e->b->num / es));
    if (e->a->k == BX_NUM && e->a->num % es == 0) return mk(x, BX_MUL, bc_num(x->p, e->a->num / es), e->b);
  }
  if (e->k == BX_ADD || e->k == BX_SUB) {
    bc_expr *a = div_exact(x, e->a, es), *b = div_exact(x, e->b, es);
    if (a && b) return mk(x, e->k, a, b);
  }
  return NULL;
}

/* ---------------------------------------------------------------- the walk */

static int live_at(X *x, int pc, int r) {
  if (pc < 0 || pc > x->n) return 0;
  return (int)(x->live[(size_t)pc * x->W + (size_t)r / 64] >> (r % 64) & 1);
}

static void compute_liveness(X *x) {
  int n = x->n;
  const kir_ins *code = x->f->code;
  x->live = xcalloc((size_t)(n + 1) * x->W, sizeof(uint64_t));
  uint64_t *out = xcalloc(x->W, sizeof(uint64_t));
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = n - 1; i >= 0; i--) {
      int s[2];
      kir_successors(&code[i], i, &s[0], &s[1]);
      memset(out, 0, x->W * sizeof(uint64_t));
      for (int k = 0; k < 2; k++)
        if (s[k] >= 0 && s[k] <= n)
          for (size_t w = 0; w < x->W; w++) out[w] |= x->live[(size_t)s[k] * x->W + w];
      if (code[i].dst >= 0) out[code[i].dst / 64] &= ~((uint64_t)1 << (code[i].dst % 64));
      int u[4], nu = kir_ins_reads(&code[i], u);
      for (int k = 0; k < nu; k++) out[u[k] / 64] |= (uint64_t)1 << (u[k] % 64);
      uint64_t *li = &x->live[(size_t)i * x->W];
      if (memcmp(li, out, x->W * sizeof(uint64_t))) { memcpy(li, out, x->W * sizeof(uint64_t)); changed = 1; }
    }
  }
  free(out);
}

#define EXITED (-1)

static int walk(X *x, int pc, int lo, int stop, sv *R, vec *out);

static bc_stmt *seq_of(X *x, vec *v, srcpos pos) {
  return bc_seq(x->p, (bc_stmt **)v->data, (int)v->len, pos);
}

static void push_stmt(vec *out, bc_stmt *s) { *(bc_stmt **)vec_push(out) = s; }

/* A name no other name of the program has, nor will have: not a thread
 * variable, nor a name of the kernel's parameters, shared or __device__
 * arrays (each may become an array or parameter later in the walk), nor a
 * name fresh() gave before, whatever its base (a read of array x and a
 * loop variable both count from x1: one captured the other). */
static const char *fresh(X *x, const char *base, int *counter) {
  for (;;) {
    char name[80];
    snprintf(name, sizeof name, "%s%d", base, ++*counter);
    int clash = bc_find_array(x->p, name) >= 0 || bc_thread_var(name) >= 0;
    for (int k = 0; k < x->p->nparams && !clash; k++) clash = !strcmp(x->p->params[k].name, name);
    for (int k = 0; k < x->f->nparams && !clash; k++) clash = x->f->params[k].name && !strcmp(x->f->params[k].name, name);
    for (int k = 0; k < x->m->nshared && !clash; k++) clash = x->m->shared[k].name && !strcmp(x->m->shared[k].name, name);
    for (int k = 0; k < x->m->nglobals && !clash; k++) clash = x->m->globals[k].name && !strcmp(x->m->globals[k].name, name);
    for (size_t k = 0; k < x->used.len && !clash; k++) clash = !strcmp(*(const char **)vec_at(&x->used, k), name);
    if (!clash) {
      const char *n = arena_strndup(&x->p->ar, name, strlen(name));
      *(const char **)vec_push(&x->used) = n;
      return n;
    }
  }
}

static int find_param(const bc_program *p, const char *name) {
  for (int k = 0; k < p->nparams; k++)
    if (!strcmp(p->params[k].name, name)) return k;
  return -1;
}

/* The struct parameter whose copy holds local bytes [off, off + n), or NULL. */
static const sregion *sregion_at(X *x, int64_t off, int64_t n) {
  for (size_t k = 0; k < x->sregions.len; k++) {
    const sregion *g = vec_at(&x->sregions, k);
    if (off < g->base + g->size && off + n > g->base) return g;
  }
  return NULL;
}

/* A load from local memory: a leaf of a struct parameter where it reads
 * one whole, else a payload the calculus does not compute (an index or
 * condition cannot use it). */
static sv local_load(X *x, const sv *a, int64_t imm, int sk, srcpos at) {
  const sregion *g = a->elem == 1 ? sregion_at(x, a->e->num + imm, kir_sk_size[sk]) : NULL;
  if (g) {
    const kir_param *q = &x->f->params[g->param];
    int64_t off = a->e->num + imm - g->base;
    for (int j = 0; j < q->nleaves; j++) {
      if (q->leaf_off[j] != off || kir_sk_size[q->leaf_sk[j]] != kir_sk_size[sk]) continue;
      int lsk = q->leaf_sk[j];
      if (lsk == SK_PTR) {
        sv r;
        memset(&r, 0, sizeof r);
        r.k = SV_PTR;
        r.array = array_for(x, SRC_LEAF, g->param, j, 0);
        r.elem = elem_bytes(x, r.array);
        r.e = bc_num(x->p, 0);
        return r;
      }
      if (lsk == SK_F32 || lsk == SK_F64 || lsk != sk) break;
      const char *name = leaf_name(x, g->param, j);
      if (find_param(x->p, name) < 0) {
        int q = bc_add_param(x->p, name);   /* it may move the parameters */
        bc_param *bp = &x->p->params[q];
        bp->ranged = bc_sk_range(lsk, &bp->lo, &bp->hi);
      }
      return num_sv(bc_var(x->p, name));
    }
  }
  return opaque_sv(x, at, "a value read from local memory", NULL, NULL);
}

/* A store to local memory: nothing to the calculus, unless it may change a
 * struct parameter's copy, whose loads are the launch's values. */
static void local_store(X *x, const sv *a, int64_t imm, int es, srcpos at) {
  if (!x->sregions.len) return;
  const sregion *g = a->elem == 1 ? sregion_at(x, a->e->num + imm, es) : sregion_at(x, a->e->num, 1);
  if (g) outside(x, at, "a store into the struct parameter '%s' (the calculus has no mutable variables)", x->pname[g->param]);
}

/* The elements of an array are what its accesses read and write: its
 * declared element, or, where every access is of one other size (the
 * fields of an array of structs, a reinterpreted buffer), that size
 * (CUDA's accesses are naturally aligned, so two overlap only where their
 * indices are equal). */
static void access_unit(X *x, const sv *a, int es, srcpos at) {
  bc_array *A = &x->p->arrays[a->array];
  int *u = &x->unit[a->array];
  if (!*u && es != a->elem) {
    if (A->init) outside(x, at, "'%s' accessed as %d-byte elements, declared with %d", A->name, es, a->elem);
    A->size = A->size * a->elem / es;
  }
  if (*u && *u != es) outside(x, at, "'%s' accessed as %d-byte and as %d-byte elements", A->name, *u, es);
  *u = es;
}

/* One instruction that is neither control flow nor a loop. */
static void step(X *x, int pc, sv *R, vec *out) {
  const kir_ins *in = &x->f->code[pc];
  srcpos at = pos_of(x, pc);
  bc_program *p = x->p;
  int op = in->op;
  spend(x, pc);
  if (op < OP_CONST) {
    int vt = KIR_VT_OF(op), base = op - vt;
    sv *a = in->a >= 0 ? &R[in->a] : NULL, *b = in->b >= 0 ? &R[in->b] : NULL;
    int is_float = vt == VT_F32 || vt == VT_F64;
    int unary = base == OP_NEG_I32 || base == OP_NOT_I32 || base == OP_LNOT_I32;
    if (is_float || (a && a->k == SV_OPAQUE) || (b && !unary && b->k == SV_OPAQUE)) {
      R[in->dst] = opaque_sv(x, at, is_float ? "a floating-point value" : a && a->k == SV_OPAQUE ? a->why : b->why, a,
                             unary ? NULL : b);
      return;
    }
    if (a && (a->k == SV_BAD || a->k == SV_NONE || a->k == SV_PTR)) need_num(x, a, pc, "an operand");
    if (b && !unary && (b->k == SV_BAD || b->k == SV_NONE || b->k == SV_PTR)) need_num(x, b, pc, "an operand");
    bc_expr *ea = a ? a->e : NULL, *eb = b && !unary ? b->e : NULL;
    /* the operands' conditions hold for the result's; an arithmetic result
     * must also stay in its type's range */
    bc_expr *ob = obl_and(x, a ? a->obl : NULL, b && !unary ? b->obl : NULL);
    int rsk = vt_sk(vt), is_signed = vt == VT_I32 || vt == VT_I64;
    /* booleans compared with 0: the front end's `if (flag)` and `!flag` */
    if ((base == OP_NE_I32 || base == OP_EQ_I32) && a && b) {
      const sv *f = a->k == SV_BOOL ? a : b->k == SV_BOOL ? b : NULL, *z = f == a ? b : a;
      if (f && z->k == SV_NUM && is_num(z->e, 0)) {
        R[in->dst] = num_sv_obl(base == OP_NE_I32 ? f->e : mk(x, BX_NOT, f->e, NULL), ob);
        return;
      }
    }
    if (base == OP_LNOT_I32) { R[in->dst] = num_sv_obl(mk(x, BX_NOT, need_bool(x, a, pc, "the operand of '!'"), NULL), ob); return; }
    if ((a && a->k == SV_BOOL) || (b && !unary && b->k == SV_BOOL))
      outside(x, at, "a comparison's result used as a number");
    bc_expr_kind k;
    switch (base) {
    case OP_ADD_I32: k = BX_ADD; break;
    case OP_SUB_I32: k = BX_SUB; break;
    case OP_MUL_I32: k = BX_MUL; break;
    case OP_DIV_I32: k = BX_DIV; break;
    case OP_REM_I32: k = BX_REM; break;
    case OP_EQ_I32: k = BX_EQ; break;
    case OP_NE_I32: k = BX_NE; break;
    case OP_LT_I32: k = BX_LT; break;
    case OP_LE_I32: k = BX_LE; break;
    case OP_GT_I32: k = BX_GT; break;
    case OP_GE_I32: k = BX_GE; break;
    case OP_NEG_I32: {
      bc_expr *r = mk(x, BX_NEG, ea, NULL);
      R[in->dst] = num_sv_obl(r, obl_and(x, ob, in_range(x, r, rsk)));
      return;
    }
    case OP_SHL_I32:
      if (eb->k == BX_NUM && eb->num >= 0 && eb->num < 62) {
        bc_expr *r = mk(x, BX_MUL, ea, bc_num(p, (int64_t)1 << eb->num));
        R[in->dst] = num_sv_obl(r, obl_and(x, ob, in_range(x, r, rsk)));
        return;
      }
      outside(x, at, "a shift by a variable amount");
    case OP_SHR_I32:
      if (eb->k == BX_NUM && eb->num >= 0 && eb->num < 62) {
        /* an arithmetic shift of a signed value rounds down, C's '/' toward 0 */
        bc_expr *m = bc_num(p, (int64_t)1 << eb->num);
        R[in->dst] = num_sv_obl(is_signed ? mk(x, BX_DIV, mk(x, BX_SUB, ea, emod(x, ea, m)), m) : mk(x, BX_DIV, ea, m), ob);
        return;
      }
      outside(x, at, "a shift by a variable amount");
    case OP_AND_I32: {
      /* a mask 2^k - 1 keeps the value modulo 2^k, in [0, 2^k) whatever its sign */
      const sv *v = eb->k == BX_NUM && pow2_shift(eb->num + 1) >= 0 ? a : ea->k == BX_NUM && pow2_shift(ea->num + 1) >= 0 ? b : NULL;
      if (v) {
        bc_expr *m = bc_num(p, (v == a ? eb->num : ea->num) + 1);
        R[in->dst] = num_sv_obl(is_signed ? emod(x, v->e, m) : mk(x, BX_REM, v->e, m), ob);
        return;
      }
      outside(x, at, "a bitwise '&' other than a mask 2^k - 1");
    }
    default:
      outside(x, at, "the operation '%s'", base == OP_OR_I32 ? "|" : base == OP_XOR_I32 ? "^" : base == OP_NOT_I32 ? "~"
                                           : base == OP_MIN_I32 ? "min" : base == OP_MAX_I32 ? "max" : "?");
    }
    bc_expr *r = mk(x, k, ea, eb);
    if (!BC_IS_BOOL(k)) ob = obl_and(x, ob, in_range(x, r, rsk));   /* comparisons cannot leave a range */
    R[in->dst] = num_sv_obl(r, ob);
    return;
  }
  switch (op) {
  case OP_CONST: {
    if (in->flags & KIR_CONST_DYNSHARED) {
      sv r;
      memset(&r, 0, sizeof r);
      r.k = SV_PTR;
      r.array = array_for(x, SRC_DYNAMIC, 0, 0, pc);
      r.elem = 1;
      r.e = bc_num(p, 0);
      R[in->dst] = r;
      return;
    }
    uint64_t v = (uint64_t)in->imm;
    /* an address constant has the top byte of KIR_ADDR; a negative number has not */
    unsigned top = (unsigned)(v >> KIR_SPACE_SHIFT);
    int space = (top & 3) == KIR_INSIDE && top >> 2 && top >> 2 <= SPACE_LOCAL ? (int)(top >> 2) : SPACE_NONE;
    if (space == SPACE_SHARED) {
      uint64_t off = v & KIR_OFFSET_MASK(SPACE_SHARED);
      for (int k = 0; k < x->m->nshared; k++) {
        const kir_shared *s = &x->m->shared[k];
        if (off >= s->offset && off < (uint64_t)s->offset + s->size) {
          sv r;
          memset(&r, 0, sizeof r);
          r.k = SV_PTR;
          r.array = array_for(x, SRC_SHARED, k, 0, pc);
          r.elem = elem_bytes(x, r.array);
          r.e = bc_num(p, (int64_t)(off - s->offset));
          R[in->dst] = r;
          return;
        }
      }
      R[in->dst] = bad_sv(at, "shared memory the checker cannot name");
      return;
    }
    if (space == SPACE_LOCAL) {   /* the thread's own memory: a pointer into it, array -1 */
      sv r;
      memset(&r, 0, sizeof r);
      r.k = SV_PTR;
      r.array = -1;
      r.elem = 1;
      r.e = bc_num(p, (int64_t)(v & KIR_OFFSET_MASK(SPACE_LOCAL)));
      R[in->dst] = r;
      return;
    }
    if (space != SPACE_NONE) { R[in->dst] = bad_sv(at, "an address"); return; }
    R[in->dst] = num_sv(bc_num(p, in->imm));
    return;
  }
  case OP_MOV: R[in->dst] = R[in->a]; return;
  case OP_CVT: {
    int from = (int)(in->imm & 0xff), to = (int)(in->imm >> 8 & 0xff);
    int ff = from == SK_F32 || from == SK_F64, tf = to == SK_F32 || to == SK_F64;
    sv *a = &R[in->a];
    if (ff || tf || a->k == SV_OPAQUE) {
      R[in->dst] = opaque_sv(x, at, ff || tf ? "a floating-point value" : a->why, a, NULL);
      if (!ff && !tf) R[in->dst].pos = a->pos;
    }
    else if (to == SK_BOOL && a->k == SV_NUM) R[in->dst] = num_sv_obl(mk(x, BX_NE, a->e, bc_num(p, 0)), a->obl);
    else {
      /* integer to integer: the identity where the value fits the new type,
       * which a widening conversion guarantees */
      R[in->dst] = *a;
      int64_t flo, fhi, tlo, thi;
      if (a->k == SV_NUM && bc_sk_range(from, &flo, &fhi) && bc_sk_range(to, &tlo, &thi) && (flo < tlo || fhi > thi))
        R[in->dst].obl = obl_and(x, a->obl, in_range(x, a->e, to));
    }
    return;
  }
  case OP_SREG: {
    bc_expr *e;
    const int64_t *blk = p->block, *grd = p->grid;
    switch (in->imm) {
    case SR_TID_X: e = blk[0] == 1 ? bc_num(p, 0) : bc_var(p, "tid"); break;
    case SR_TID_Y: e = blk[1] == 1 ? bc_num(p, 0) : bc_var(p, "tid.y"); break;
    case SR_TID_Z: e = blk[2] == 1 ? bc_num(p, 0) : bc_var(p, "tid.z"); break;
    case SR_CTAID_X: e = grd[0] == 1 ? bc_num(p, 0) : bc_var(p, "bid"); break;
    case SR_CTAID_Y: e = grd[1] == 1 ? bc_num(p, 0) : bc_var(p, "bid.y"); break;
    case SR_CTAID_Z: e = grd[2] == 1 ? bc_num(p, 0) : bc_var(p, "bid.z"); break;
    case SR_NTID_X: case SR_NTID_Y: case SR_NTID_Z: e = bc_num(p, blk[in->imm - SR_NTID_X]); break;
    case SR_NCTAID_X: case SR_NCTAID_Y: case SR_NCTAID_Z: e = bc_num(p, grd[in->imm - SR_NCTAID_X]); break;
    case SR_WARPSIZE: e = bc_num(p, 32); break;
    case SR_LANEID: {
      bc_expr *lin = bc_var(p, "tid");
      if (blk[1] > 1) lin = mk(x, BX_ADD, lin, mk(x, BX_MUL, bc_var(p, "tid.y"), bc_num(p, blk[0])));
      if (blk[2] > 1) lin = mk(x, BX_ADD, lin, mk(x, BX_MUL, bc_var(p, "tid.z"), bc_num(p, blk[0] * blk[1])));
      e = blk[0] * blk[1] * blk[2] == 1 ? bc_num(p, 0) : mk(x, BX_REM, lin, bc_num(p, 32));
      break;
    }
    default: R[in->dst] = bad_sv(at, "the clock"); return;
    }
    R[in->dst] = num_sv(e);
    return;
  }
  case OP_PARAM: {
    if (in->dst < 0) {
      /* a struct passed by value, copied to the thread's local memory: its
       * loads there read the struct's leaves (parameters, and arrays for
       * its pointers), as long as nothing stores into the copy */
      const sv *a = &R[in->a];
      if (a->k != SV_PTR || a->array >= 0 || a->elem != 1 || a->e->k != BX_NUM) outside(x, at, "a struct passed by value");
      sregion *g = vec_push(&x->sregions);
      g->base = a->e->num;
      g->size = x->f->params[in->imm].size;
      g->param = (int)in->imm;
      return;
    }
    const kir_param *q = &x->f->params[in->imm];
    if (q->sk == SK_PTR) {
      sv r;
      memset(&r, 0, sizeof r);
      r.k = SV_PTR;
      r.array = array_for(x, SRC_PARAM, (int)in->imm, 0, pc);
      r.elem = elem_bytes(x, r.array);
      r.e = bc_num(p, 0);
      R[in->dst] = r;
    } else if (q->sk == SK_F32 || q->sk == SK_F64) {
      R[in->dst] = opaque_sv(x, at, "a floating-point parameter", NULL, NULL);
    } else {
      const char *name = x->pname[in->imm];
      int known = 0;
      for (int k = 0; k < p->nparams; k++) known |= !strcmp(p->params[k].name, name);
      if (!known) bc_add_param(p, name);
      R[in->dst] = num_sv(bc_var(p, name));
    }
    return;
  }
  case OP_GADDR: {
    sv r;
    memset(&r, 0, sizeof r);
    r.k = SV_PTR;
    r.array = array_for(x, SRC_GLOBAL, (int)in->imm, 0, pc);
    r.elem = elem_bytes(x, r.array);
    r.e = bc_num(p, 0);
    R[in->dst] = r;
    return;
  }
  case OP_PADD: {
    sv *a = &R[in->a], *b = &R[in->b];
    if (a->k != SV_PTR && in->imm <= 1) { sv *t = a; a = b; b = t; }
    if (a->k != SV_PTR) outside(x, at, "pointer arithmetic on %s", describe(a));
    if (a->array < 0) {   /* local memory: no other thread reaches it; where in it matters only to a struct's copy */
      sv r = *a;
      if (r.elem == 1 && b->k == SV_NUM && b->e->k == BX_NUM)
        r.e = bc_num(p, (int64_t)((uint64_t)a->e->num + (uint64_t)b->e->num * (uint64_t)(in->imm > 1 ? in->imm : 1)));
      else
        r.elem = -1;   /* somewhere in the object e is in: C's pointer arithmetic does not leave it */
      R[in->dst] = r;
      return;
    }
    sv r = *a;
    bc_expr *off = need_num(x, b, pc, "a pointer's offset");
    if (in->imm > 1) off = mk(x, BX_MUL, off, bc_num(p, in->imm));   /* an index scaled to bytes */
    r.e = mk(x, BX_ADD, a->e, off);
    r.obl = obl_and(x, a->obl, b->obl);
    R[in->dst] = r;
    return;
  }
  case OP_LD: case OP_ST: case OP_ATOM: {
    /* an atomic read-modify-write is a write that races with other
     * threads' plain accesses, not with their atomics (hb's rule, of device
     * scope); what it returns is a payload the calculus does not compute */
    int atom = op == OP_ATOM;
    sv *a = &R[in->a];
    if (a->k != SV_PTR)
      outside(x, at, "%s through %s", atom ? "an atomic" : "an access", a->k == SV_BAD ? describe(a) : "a pointer the calculus cannot follow");
    int sk = in->flags & 0x7f;
    int es = kir_sk_size[sk];
    int64_t imm = atom ? 0 : in->imm;   /* an atomic's address has no offset */
    if (atom && in->dst >= 0) R[in->dst] = opaque_sv(x, at, "the value an atomic returns", NULL, NULL);
    if (a->array < 0) {
      /* local memory (a local array, a variable whose address is taken, a
       * struct parameter's copy): no other thread reaches it, so it races
       * with nothing and is in no MAP */
      if (op == OP_LD) R[in->dst] = local_load(x, a, imm, sk, at);
      else local_store(x, a, imm, es, at);
      return;
    }
    if (atom && KIR_MF_SCOPE(in->flags) == SCOPE_BLOCK && p->arrays[a->array].space == BC_GLOBAL && bc_blocks(p) > 1)
      outside(x, at, "a block-scope atomic on global memory (it races with another block's atomics)");
    access_unit(x, a, es, at);
    bc_expr *off = mk(x, BX_ADD, a->e, bc_num(p, imm));
    bc_expr *idx = div_exact(x, off, es);
    if (!idx) idx = mk(x, BX_DIV, off, bc_num(p, es));
    bc_stmt *s = bc_stmt_new(p, op == OP_LD ? BS_READ : BS_WRITE, at);
    s->array = a->array;
    s->idx = idx;
    s->obl = a->obl;
    push_stmt(out, s);
    if (op != OP_LD) {
      s->val = payload(x, &R[in->b], pc);
      s->atomic = atom;
      return;
    }
    s->var = fresh(x, p->arrays[a->array].name, &x->nvars);
    s->body = bc_stmt_new(p, BS_SKIP, at);
    sv r = num_sv(bc_var(p, s->var));
    if (sk == SK_F32 || sk == SK_F64) { r.k = SV_OPAQUE; r.pos = at; r.why = "a floating-point value"; }
    else if (sk == SK_PTR) r = bad_sv(at, "a pointer read from memory");
    R[in->dst] = r;
    return;
  }
  case OP_BAR:
    if (in->imm != BAR_SYNC) outside(x, at, "__syncthreads_count/and/or");
    push_stmt(out, bc_stmt_new(p, BS_SYNC, at));
    return;
  case OP_FENCE: case OP_NOP: return;
  case OP_SYNCWARP: outside(x, at, "__syncwarp (the calculus has block barriers only)");
  case OP_VOTE: outside(x, at, "a warp vote");
  case OP_SHFL: outside(x, at, "a warp shuffle");
  case OP_TRAP: outside(x, at, "__trap or a failing assert");
  case OP_MATH: case OP_SEL: case OP_PDIFF: {
    sv *a = in->a >= 0 ? &R[in->a] : NULL, *b = in->b >= 0 ? &R[in->b] : NULL;
    R[in->dst] = opaque_sv(x, at, op == OP_MATH ? "a math function's result" : op == OP_SEL ? "a selection (?:)"
                                                                                   : "a pointer difference", a, b);
    return;
  }
  default: outside(x, at, "the instruction '%d'", op);
  }
}

/* The registers a loop [h, e] writes. */
static void loop_writes(X *x, int h, int e, uint8_t *w) {
  memset(w, 0, (size_t)x->R);
  for (int i = h; i <= e; i++)
    if (x->f->code[i].dst >= 0) w[x->f->code[i].dst] = 1;
}

/* Of the registers a loop [h, e] carries (w, live at h), the one its exit
 * test reads (through the header's straight-line code), where exactly one
 * does; else -1. */
static int exit_counter(X *x, int h, int e, const uint8_t *w) {
  const kir_ins *code = x->f->code;
  int br = h;
  while (br < e && code[br].op != OP_BRT && code[br].op != OP_BRF && code[br].op != OP_JMP) br++;
  if (br >= e || code[br].op == OP_JMP || code[br].b < 0) return -1;
  uint8_t *d = tmp_alloc(x, (size_t)x->R);
  d[code[br].b] = 1;
  for (int i = br - 1; i >= h; i--) {
    const kir_ins *in = &code[i];
    if (in->dst < 0 || !d[in->dst]) continue;
    if (in->a >= 0) d[in->a] = 1;
    if (in->b >= 0) d[in->b] = 1;
    if (in->c >= 0) d[in->c] = 1;
  }
  int found = -1, n = 0;
  for (int r = 0; r < x->R; r++)
    if (w[r] && live_at(x, h, r) && d[r]) { found = r; n++; }
  tmp_free(x, d);
  return n == 1 ? found : -1;
}

/* Whether the first exit test of the loop [h, e] folds to a constant from
 * the registers R (the bound is a constant too): where it can unroll. */
static int exit_folds(X *x, int h, int e, const sv *R) {
  sv *S = tmp_alloc(x, (size_t)x->R * sizeof *S);
  memcpy(S, R, (size_t)x->R * sizeof *S);
  vec scratch;
  vec_init_arena(&scratch, sizeof(bc_stmt *), &x->scratch);
  int pc = h;
  while (pc < e && x->f->code[pc].op != OP_BRT && x->f->code[pc].op != OP_BRF && x->f->code[pc].op != OP_JMP &&
         x->f->code[pc].op != OP_LD)
    step(x, pc, S, &scratch), pc++;
  const kir_ins *br = &x->f->code[pc];
  int folds = (br->op == OP_BRT || br->op == OP_BRF) && (S[br->b].k == SV_BOOL || S[br->b].k == SV_NUM) &&
              (S[br->b].e->k == BX_TRUE || S[br->b].e->k == BX_FALSE || S[br->b].e->k == BX_NUM);
  vec_free(&scratch);
  tmp_free(x, S);
  return folds;
}

/* The bound a condition c puts on e (b not mentioning var): upper, the
 * exclusive upper one (e < b, e <= b - 1, b > e, ...); else the exclusive
 * lower one (e > b, e >= b + 1, b < e, ...); NULL where c is not one. */
static bc_expr *bound(X *x, const bc_expr *c, const bc_expr *e, const char *var, int upper) {
  bc_expr_kind lt = upper ? BX_LT : BX_GT, le = upper ? BX_LE : BX_GE, gt = upper ? BX_GT : BX_LT, ge = upper ? BX_GE : BX_LE;
  bc_expr *b = NULL;
  int strict = 0;
  if ((c->k == lt || c->k == le) && expr_eq(c->a, e)) b = c->b, strict = c->k == lt;
  else if ((c->k == gt || c->k == ge) && expr_eq(c->b, e)) b = c->a, strict = c->k == gt;
  if (!b || bc_expr_mentions(b, var)) return NULL;
  return strict ? b : mk(x, BX_ADD, b, bc_num(x->p, upper ? 1 : -1));
}

/* Whether e is base + d (or base - (-d)). */
static int is_plus(const bc_expr *e, const bc_expr *base, int64_t d) {
  if (e->k == BX_ADD) return (expr_eq(e->a, base) && is_num(e->b, d)) || (expr_eq(e->b, base) && is_num(e->a, d));
  return e->k == BX_SUB && expr_eq(e->a, base) && is_num(e->b, -d);
}

/* A loop at header h: a `for` of the calculus, or unrolled.  Returns the
 * pc after it.  Registers it carries beside its counter (accumulators) are
 * payloads: opaque in the body, as a floating-point value is, so that the
 * calculus never computes one and an index or condition using one puts
 * the kernel outside. */
static int loop(X *x, int h, sv *R, vec *out) {
  int e = x->loop_end[h];
  srcpos at = pos_of(x, h);
  uint8_t *w = tmp_alloc(x, (size_t)x->R);
  loop_writes(x, h, e, w);
  int carried = -1, ncarried = 0, all_const = 1;
  for (int r = 0; r < x->R; r++)
    if (w[r] && live_at(x, h, r)) {
      ncarried++;
      carried = r;
      if (R[r].k != SV_NUM || R[r].e->k != BX_NUM) all_const = 0;
    }
  /* unrolled only where the first exit test folds (the bound is a constant too) */
  if (all_const && ncarried > 1 && !exit_folds(x, h, e, R)) all_const = 0;
  int payloads = 0;   /* carried beside the counter */
  if (ncarried > 1 && !all_const) {   /* an unrolled loop keeps its accumulator an expression */
    int counter = exit_counter(x, h, e, w);
    if (counter >= 0) { carried = counter; payloads = ncarried - 1; }
  }
  if (ncarried != 1 && !payloads && !(ncarried && all_const)) {
    tmp_free(x, w);
    outside(x, at, ncarried ? "a loop that carries %d values (its counter and an accumulator?): the calculus's loops "
                              "carry their variable only" : "a loop that carries no counter%.0d (a spin or data-dependent loop)", ncarried);
  }
  /* a `for` of the calculus: x from lo while x < hi, x + 1 at the back edge */
  const char *why = NULL;
  int whypc = h, exit_pc = -1;
  bc_expr *hi = NULL, *cobl = NULL;
  vec body;
  vec_init_arena(&body, sizeof(bc_stmt *), &x->scratch);
  sv *L = tmp_alloc(x, (size_t)x->R * sizeof *L);
  memcpy(L, R, (size_t)x->R * sizeof *L);
  sv lo = ncarried == 1 || payloads ? R[carried] : R[0];
  const char *var = NULL;
  char whybuf[160];
  if (ncarried != 1 && !payloads) {
    snprintf(whybuf, sizeof whybuf, "a loop that carries %d values (its counter and an accumulator?): the calculus's "
             "loops carry their variable only", ncarried);
    why = whybuf;
  }
  else if (lo.k != SV_NUM) why = "a loop whose start is not a number of the calculus";
  if (!why) {
    int saved = x->nloops;
    size_t saved_used = x->used.len;
    var = fresh(x, "x", &x->nloops);
    bc_expr *v = bc_var(x->p, var), *c = NULL, *cnt = v;
    /* the header, straight-line code up to the exit test, with the counter
     * j = cnt: first j = x (a loop that grows), then, where the test is a
     * lower bound, j = lo - x (one that shrinks: the same values in the same
     * order, as the calculus's x from 0) */
    int pc = h;
    for (int dir = 0; dir < 2 && !why; dir++) {
      memcpy(L, R, (size_t)x->R * sizeof *L);
      cnt = dir ? mk(x, BX_SUB, lo.e, v) : v;
      L[carried] = num_sv(cnt);
      for (int r = 0; r < x->R && payloads; r++)
        if (r != carried && w[r] && live_at(x, h, r)) L[r] = opaque_sv(x, at, "a value the loop carries beside its counter (an accumulator)", NULL, NULL);
      pc = h;
      body.len = 0;
      while (pc < e && x->f->code[pc].op != OP_BRT && x->f->code[pc].op != OP_BRF && x->f->code[pc].op != OP_JMP) {
        step(x, pc, L, &body);
        pc++;
      }
      const kir_ins *br = &x->f->code[pc];
      if (body.len) why = "a loop whose condition reads memory (a loop bound of the calculus is an expression)";
      else if ((br->op != OP_BRT && br->op != OP_BRF) || br->a <= e)
        why = "a loop whose exit is not a test at its top (do-while, or an exit in the middle)";
      else if (L[br->b].k != SV_BOOL && L[br->b].k != SV_NUM)
        why = "a loop condition the calculus cannot compute";
      if (why) break;
      c = need_bool(x, &L[br->b], pc, "the loop's condition");
      cobl = L[br->b].obl;
      exit_pc = br->a;
      if (br->op == OP_BRT) c = mk(x, BX_NOT, c, NULL);
      if (!dir) {
        hi = bound(x, c, v, var, 1);
        if (!hi && c->k == BX_NE) {
          /* x != hi (or x - hi != 0, as `for (j = 1; j - n; j++)` reads): a
           * for from lo to hi where lo <= hi; from above, the counter would
           * pass its type's end first, so lo <= hi is the loop's obligation */
          bc_expr *a = c->a, *b = c->b;
          if (a->k == BX_SUB && is_num(b, 0)) b = a->b, a = a->a;
          if (expr_eq(b, v)) { bc_expr *t = a; a = b; b = t; }
          if (expr_eq(a, v) && !bc_expr_mentions(b, var)) {
            hi = b;
            cobl = obl_and(x, cobl, mk(x, BX_LE, lo.e, b));
          }
        }
        if (hi) break;
        if (bound(x, c, v, var, 0)) continue;   /* a lower bound: try the counter that shrinks */
      } else {
        /* j = lo - x > m: x < lo - m */
        bc_expr *m = bound(x, c, cnt, var, 0);
        if (m) { hi = mk(x, BX_SUB, lo.e, m); break; }
      }
      why = "a loop condition that is not `x < hi`, `x != hi` or `x > lo` with the bound invariant";
      whypc = pc;
    }
    if (!why) {
      int r = walk(x, pc + 1, pc + 1, e, L, &body);
      const sv *next = &L[carried];
      bc_expr *ne = next->k == SV_NUM ? next->e : NULL;
      int step1 = ne && is_plus(ne, cnt, cnt == v ? 1 : -1);   /* x + 1, or (lo - x) - 1 */
      if (r != e) { why = "a loop left by break or return"; whypc = pc; }
      else if (!step1) {
        why = "a loop whose variable does not change by 1 (the calculus's loops have stride 1)";
        whypc = e;
      }
    }
    if (why) x->nloops = saved, x->used.len = saved_used;
    else if (cnt != v) lo = num_sv_obl(bc_num(x->p, 0), lo.obl);   /* x from 0; the bound above speaks of lo */
  }
  if (why && all_const && ncarried == 1 && !exit_folds(x, h, e, R)) all_const = 0;
  if (why && all_const) {
    /* unroll: every iteration's exit test folds */
    vec_free(&body);
    tmp_free(x, L);
    tmp_free(x, w);
    for (int iter = 0;; iter++) {
      if (iter > 4096) outside(x, at, "a loop of more than 4096 iterations to unroll");
      int r = walk(x, h, h, e, R, out);
      if (r != e) return r;   /* left through the exit test */
    }
  }
  if (why) {
    vec_free(&body);
    tmp_free(x, L);
    tmp_free(x, w);
    outside(x, pos_of(x, whypc), "%s", why);
  }
  bc_stmt *f = bc_stmt_new(x->p, BS_FOR, at);
  f->var = var;
  f->lo = lo.e;
  /* the bounds' conditions, outside the loop; x + 1 cannot wrap, being at
   * most hi, a value of the comparison's type */
  f->obl = obl_and(x, lo.obl, cobl);
  f->hi = hi;
  f->body = seq_of(x, &body, at);
  vec_free(&body);
  push_stmt(out, f);
  /* after the loop, what it computed is not a value of the calculus; an
   * accumulator it carried stays a payload */
  for (int q = 0; q < x->R; q++)
    if (w[q]) R[q] = payloads && q != carried && L[q].k == SV_OPAQUE ? opaque_sv(x, at, "a value a loop accumulated", NULL, NULL)
                                                                      : bad_sv(at, "a value a loop left behind");
  tmp_free(x, L);
  tmp_free(x, w);
  return exit_pc;
}

/* Walks from pc while it stays in [lo, stop): returns stop, the pc a jump
 * left the region for, or EXITED. */
static int walk(X *x, int pc, int lo, int stop, sv *R, vec *out) {
  const kir_ins *code = x->f->code;
  while (pc != stop) {
    if (pc < lo || pc > stop || pc >= x->n) return pc;
    if (x->loop_end[pc] >= 0 && !(pc == lo && stop == x->loop_end[pc])) {
      pc = loop(x, pc, R, out);
      continue;
    }
    const kir_ins *in = &code[pc];
    srcpos at = pos_of(x, pc);
    switch (in->op) {
    case OP_EXIT: return EXITED;
    case OP_JMP:
      if (in->a <= pc) outside(x, at, "a backward jump that closes no loop the calculus has");
      pc = in->a;
      continue;
    case OP_BRT: case OP_BRF: {
      if (in->a <= pc) outside(x, at, "a loop whose test is at its bottom (do-while)");
      bc_expr *b = need_bool(x, &R[in->b], pc, "the branch's condition");
      bc_expr *c = in->op == OP_BRF ? b : mk(x, BX_NOT, b, NULL);   /* c: the fall-through side runs */
      if (c->k == BX_TRUE) { pc++; continue; }
      if (c->k == BX_FALSE) { pc = in->a; continue; }
      int join = in->c < 0 || in->c >= x->n ? x->n : in->c;
      if (join > stop || in->a > join) outside(x, at, "a branch that leaves its loop or region (break, continue or goto)");
      sv *R1 = tmp_alloc(x, (size_t)x->R * sizeof *R1), *R2 = tmp_alloc(x, (size_t)x->R * sizeof *R2);
      memcpy(R1, R, (size_t)x->R * sizeof *R1);
      memcpy(R2, R, (size_t)x->R * sizeof *R2);
      vec t, f;
      vec_init_arena(&t, sizeof(bc_stmt *), &x->scratch);
      vec_init_arena(&f, sizeof(bc_stmt *), &x->scratch);
      int rt = walk(x, pc + 1, pc + 1, join, R1, &t);
      int rf = walk(x, in->a, in->a, join, R2, &f);
      int ok = (rt == join || rt == EXITED) && (rf == join || rf == EXITED);
      bc_stmt *s = bc_stmt_new(x->p, BS_IF, at);
      s->cond = c;
      s->obl = R[in->b].obl;
      s->body = seq_of(x, &t, at);
      s->els = seq_of(x, &f, at);
      vec_free(&t);
      vec_free(&f);
      if (!ok) { tmp_free(x, R1); tmp_free(x, R2); outside(x, at, "a branch whose sides do not meet again (break, continue or goto)"); }
      if (s->body->k != BS_SKIP || s->els->k != BS_SKIP) push_stmt(out, s);   /* && and || leave empty ones */
      if (join == x->n || (rt == EXITED && rf == EXITED)) { tmp_free(x, R1); tmp_free(x, R2); return EXITED; }
      if (rt == EXITED || rf == EXITED) {
        /* one side returned: the code after the join belongs to the other side alone */
        tmp_free(x, R1); tmp_free(x, R2);
        outside(x, at, "a return inside a branch whose other side goes on (write the rest in its else)");
      }
      for (int r = 0; r < x->R; r++) {
        if (R1[r].k == R2[r].k && (R1[r].k == SV_NONE || expr_eq(R1[r].e, R2[r].e)) && R1[r].array == R2[r].array) {
          R[r] = R1[r];
        } else if (R1[r].k == SV_BOOL && R2[r].k == SV_BOOL) {
          bc_expr *a = assume_cond(x, R1[r].e, c, 1), *bb = assume_cond(x, R2[r].e, c, 0);
          R[r] = num_sv_obl(mk(x, BX_OR, mk(x, BX_AND, c, a), mk(x, BX_AND, mk(x, BX_NOT, c, NULL), bb)), obl_and(x, R1[r].obl, R2[r].obl));
        } else {
          R[r] = bad_sv(at, "a value the branch here chooses (the calculus has no mutable variables)");
        }
      }
      tmp_free(x, R1);
      tmp_free(x, R2);
      pc = join;
      continue;
    }
    default:
      step(x, pc, R, out);
      pc++;
    }
  }
  return stop;
}

bc_program *bc_extract(const kir_module *m, const kir_func *f, const int64_t block[3], const int64_t grid[3],
                       const char *file, char *err, size_t errlen) {
  X x;
  memset(&x, 0, sizeof x);
  x.m = m;
  x.f = f;
  x.n = f->ncode;
  x.R = f->nregs > 0 ? f->nregs : 1;
  x.W = ((size_t)x.R + 63) / 64;
  x.err = err;
  x.errlen = errlen;
  x.file = file;
  x.budget = (size_t)1 << 20;
  x.p = bc_program_new(file);
  vec_init(&x.used, sizeof(const char *));
  vec_init(&x.sregions, sizeof(sregion));
  x.p->kernel = arena_strndup(&x.p->ar, f->name, strlen(f->name));
  for (int k = 0; k < 3; k++) { x.p->block[k] = block[k]; x.p->grid[k] = grid[k]; }
  /* every integer parameter, used or not, so that //@ assume may speak of
   * any; one named as a thread variable (an int parameter `tid`) is
   * renamed, else tid would stand for both */
  x.pname = xcalloc((size_t)f->nparams + 1, sizeof *x.pname);
  for (int k = 0; k < f->nparams; k++) {
    x.pname[k] = f->params[k].name;
    if (f->params[k].name && bc_thread_var(f->params[k].name) >= 0) {
      int n = 0;
      char base[80];
      snprintf(base, sizeof base, "%s_param", f->params[k].name);
      x.pname[k] = fresh(&x, base, &n);
    }
    kir_sk sk = f->params[k].sk;
    if (sk == SK_COUNT) {   /* a struct's integer fields too */
      for (int j = 0; j < f->params[k].nleaves; j++) {
        int lsk = f->params[k].leaf_sk[j];
        if (lsk == SK_PTR || lsk == SK_F32 || lsk == SK_F64) continue;
        int q = bc_add_param(x.p, leaf_name(&x, k, j));
        bc_param *bp = &x.p->params[q];
        bp->ranged = bc_sk_range(lsk, &bp->lo, &bp->hi);
      }
    }
    if (sk != SK_PTR && sk != SK_F32 && sk != SK_F64 && sk != SK_COUNT) {
      int q = bc_add_param(x.p, x.pname[k]);
      bc_param *bp = &x.p->params[q];
      bp->ranged = bc_sk_range(sk, &bp->lo, &bp->hi);
      if (f->params[k].ranged) { bp->lo = f->params[k].lo; bp->hi = f->params[k].hi; }
    }
  }
  sv *R = xcalloc((size_t)x.R, sizeof *R);
  x.loop_end = xmalloc((size_t)(x.n + 1) * sizeof *x.loop_end);
  for (int i = 0; i <= x.n; i++) x.loop_end[i] = -1;
  vec out;
  vec_init(&out, sizeof(bc_stmt *));
  vec_init(&x.tmps, sizeof(void *));
  if (setjmp(x.bail)) {
    bc_program_free(x.p);
    x.p = NULL;
  } else {
    if (!x.n) outside(&x, f->decl, "an empty kernel");
    for (int i = 0; i < x.n; i++)
      if (f->code[i].op == OP_JMP && f->code[i].a <= i && f->code[i].a >= 0) x.loop_end[f->code[i].a] = i;
    compute_liveness(&x);
    int r = walk(&x, 0, 0, x.n, R, &out);
    (void)r;
    x.p->body = seq_of(&x, &out, f->decl);
  }
  vec_free(&out);
  for (size_t k = 0; k < x.tmps.len; k++) free(*(void **)vec_at(&x.tmps, k));
  vec_free(&x.tmps);
  vec_free(&x.used);
  arena_free(&x.scratch);
  free(R);
  free(x.loop_end);
  free(x.pname);
  free(x.live);
  free(x.src);
  free(x.unit);
  vec_free(&x.sregions);
  return x.p;
}
