/* Where global addresses come from, and the accesses a launch's weak
 * memory system performs at once (prov.h). */
#include "prov.h"

#include <stdlib.h>
#include <string.h>

/* Roots are numbered parameters first, then module globals; past 63, unknown. */
static uint64_t param_root(int64_t k) { return k < 63 ? (uint64_t)1 << k : PROV_UNKNOWN; }
static uint64_t global_root(const kir_func *f, int64_t g) {
  int64_t b = f->nparams + g;
  return b < 63 ? (uint64_t)1 << b : PROV_UNKNOWN;
}

/* The roots of the value an instruction writes, given its operands'. */
static uint64_t value_roots(const kir_func *f, const kir_ins *in, const uint64_t *reg) {
  switch (in->op) {
  case OP_PARAM: return param_root(in->imm);
  case OP_GADDR: return global_root(f, in->imm);
  case OP_CONST: return KIR_SPACE_OF((uint64_t)in->imm) == SPACE_GLOBAL && in->imm ? PROV_UNKNOWN : 0;
  case OP_SREG: case OP_VOTE: case OP_BAR: return 0;
  case OP_LD: case OP_ATOM: return kir_sk_size[in->flags & 0x7f] >= 8 ? PROV_UNKNOWN : 0;
  case OP_MALLOC: return PROV_UNKNOWN;
  default: {
    int u[4], n = kir_ins_reads(in, u);
    uint64_t r = 0;
    for (int k = 0; k < n; k++) r |= reg[u[k]];
    return r;
  }
  }
}

/* ------------------------------------------------------------- one writer per address */

/* A register's value as k_tid * threadIdx.x + k_cta * blockIdx.x + c +
 * k_it * n for some n >= 0 (a loop's induction variable: a grid-stride
 * loop's index has k_it the grid's size), plus a root's address (affine);
 * else top.  Launch values (block and grid sizes, scalar parameters) are
 * constants.  Kept small enough that no 32-bit operation wraps at n = 0;
 * past it, an index that wrapped would address below its allocation or
 * gigabytes past it, which faults or leaves the address's roots
 * (prov_check). */
enum { AFF_UNSET, AFF_AFFINE, AFF_TOP };
typedef struct { int state; int64_t kt, kc, c, ki; } aff;

typedef struct { const kir_func *f; const uint64_t *args; uint64_t B, G; } launch_shape;

static aff aff_top(void) { return (aff){AFF_TOP, 0, 0, 0, 0}; }
static aff aff_const(int64_t c) { return (aff){AFF_AFFINE, 0, 0, c, 0}; }
static int aff_same(aff a, aff b) {
  return a.state == b.state && a.kt == b.kt && a.kc == b.kc && a.c == b.c && a.ki == b.ki;
}

#define AFF_K_MAX ((int64_t)1 << 31)
#define AFF_C_MAX ((int64_t)1 << 61)

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

/* x as a value of kind vt (VT_*): top where some thread's value would not fit */
static aff aff_fit(aff x, const launch_shape *s, int vt) {
  if (x.state != AFF_AFFINE) return x;
  if (abs64(x.kt) >= AFF_K_MAX || abs64(x.kc) >= AFF_K_MAX || abs64(x.ki) >= AFF_K_MAX || abs64(x.c) >= AFF_C_MAX)
    return aff_top();
  int64_t t = x.kt * (int64_t)(s->B - 1), b = x.kc * (int64_t)(s->G - 1);
  int64_t lo = x.c + (t < 0 ? t : 0) + (b < 0 ? b : 0), hi = x.c + (t > 0 ? t : 0) + (b > 0 ? b : 0);
  switch (vt) {
  case VT_I32: return lo >= INT32_MIN && hi <= INT32_MAX ? x : aff_top();
  case VT_U32: return lo >= 0 && hi <= (int64_t)UINT32_MAX ? x : aff_top();
  case VT_I64: case VT_U64: return x;
  default: return aff_top();
  }
}

/* a + b * mul; two induction steps (perhaps of two loops) make top */
static aff aff_add(aff a, aff b, int64_t mul) {
  if (a.state != AFF_AFFINE || b.state != AFF_AFFINE)
    return a.state == AFF_TOP || b.state == AFF_TOP ? aff_top() : (aff){AFF_UNSET, 0, 0, 0, 0};
  if (abs64(mul) >= AFF_K_MAX || (a.ki && b.ki)) return aff_top();
  aff r = {AFF_AFFINE, 0, 0, 0, 0};
  int64_t t;
  /* a wrap is top (aff_fit then bounds what is left) */
  if (__builtin_mul_overflow(b.kt, mul, &t) || __builtin_add_overflow(a.kt, t, &r.kt) ||
      __builtin_mul_overflow(b.kc, mul, &t) || __builtin_add_overflow(a.kc, t, &r.kc) ||
      __builtin_mul_overflow(b.c, mul, &t) || __builtin_add_overflow(a.c, t, &r.c) ||
      __builtin_mul_overflow(b.ki, mul, &t) || __builtin_add_overflow(a.ki, t, &r.ki))
    return aff_top();
  return r;
}

/* A form that holds every value of x and of y, where they meet (a loop's
 * header): the same thread part, and starts a whole number of steps apart
 * (two starts make the step) */
static aff aff_join(aff x, aff y) {
  if (x.state == AFF_UNSET) return y;
  if (y.state == AFF_UNSET) return x;
  if (x.state == AFF_TOP || y.state == AFF_TOP || x.kt != y.kt || x.kc != y.kc) return aff_top();
  if (aff_same(x, y)) return x;
  if (x.ki && y.ki && x.ki != y.ki) return aff_top();
  int64_t k = x.ki ? x.ki : y.ki ? y.ki : y.c - x.c;
  /* the start: the one from which the other lies k * n away, n >= 0 */
  aff r = x;
  r.ki = k;
  if ((y.c - x.c) % k == 0 && (y.c - x.c) / k >= 0) r.c = x.c;
  else if (x.ki) return aff_top();   /* widening: a progression whose start moves again (a loop that counts down) would
                                        move it on every pass of the fixed point, 2^61 / k times */
  else if ((x.c - y.c) % k == 0 && (x.c - y.c) / k >= 0) r.c = y.c;
  else return aff_top();
  return abs64(k) < AFF_K_MAX ? r : aff_top();
}

static int is_int_vt(int vt) { return vt == VT_I32 || vt == VT_U32 || vt == VT_I64 || vt == VT_U64; }

/* The form of the value an instruction writes, given its operands'. */
static aff aff_of(const kir_ins *in, const aff *reg, const launch_shape *s) {
  aff unset = {AFF_UNSET, 0, 0, 0, 0};
  int vt = KIR_VT_OF(in->op);
  switch (in->op) {
  case OP_CONST: return KIR_SPACE_OF((uint64_t)in->imm) == SPACE_GLOBAL && in->imm ? aff_top() : aff_const(in->imm);
  case OP_MOV: return reg[in->a];
  case OP_GADDR: return aff_const(0);
  case OP_PARAM: {
    int sk = s->f->params[in->imm].sk;
    if (sk == SK_PTR) return aff_const(0);
    if (sk == SK_COUNT || sk == SK_F32 || sk == SK_F64 || sk == SK_BOOL) return aff_top();
    return aff_fit(aff_const((int64_t)s->args[in->imm]), s, VT_I64);
  }
  case OP_SREG:
    switch (in->imm) {
    case SR_TID_X: return (aff){AFF_AFFINE, 1, 0, 0, 0};
    case SR_CTAID_X: return (aff){AFF_AFFINE, 0, 1, 0, 0};
    case SR_NTID_X: return aff_const((int64_t)s->B);
    case SR_NCTAID_X: return aff_const((int64_t)s->G);
    case SR_WARPSIZE: return aff_const(32);
    default: return aff_top();
    }
  case OP_CVT: {
    int from = (int)(in->imm & 0xff), to = (int)(in->imm >> 8 & 0xff);
    int vto = to == SK_I32 ? VT_I32 : to == SK_U32 ? VT_U32 : to == SK_I64 ? VT_I64 : to == SK_U64 ? VT_U64 : -1;
    if (vto < 0 || !(from == SK_I32 || from == SK_U32 || from == SK_I64 || from == SK_U64)) return aff_top();
    return aff_fit(reg[in->a], s, vto);
  }
  case OP_PADD: return aff_fit(aff_add(reg[in->a], reg[in->b], in->imm ? in->imm : 1), s, VT_I64);
  case OP_MATH: case OP_PDIFF: case OP_SEL: case OP_NOP: return aff_top();
  default: break;
  }
  if (!is_int_vt(vt)) return aff_top();
  int op = in->op - vt;
  aff a = in->a >= 0 ? reg[in->a] : unset, b = in->b >= 0 ? reg[in->b] : unset;
  if (a.state == AFF_TOP || b.state == AFF_TOP) return aff_top();
  if (a.state == AFF_UNSET || b.state == AFF_UNSET) return unset;
  int bk = !b.kt && !b.kc && !b.ki, ak = !a.kt && !a.kc && !a.ki;   /* a constant operand */
  aff r;
  if (op == OP_ADD_I32) r = aff_add(a, b, 1);
  else if (op == OP_SUB_I32) r = aff_add(a, b, -1);
  else if (op == OP_MUL_I32 && bk) r = aff_add(aff_const(0), a, b.c);
  else if (op == OP_MUL_I32 && ak) r = aff_add(aff_const(0), b, a.c);
  else if (op == OP_SHL_I32 && bk && b.c >= 0 && b.c < 31) r = aff_add(aff_const(0), a, (int64_t)1 << b.c);
  else return aff_top();
  return aff_fit(r, s, vt);
}

/* Whether a store of size bytes at form x (from its root) gives every
 * thread addresses no other thread's store of that form reaches, in a
 * launch of one dimension: the threads' addresses size bytes apart, and
 * each step of a loop past all of them. */
static int one_writer_per_address(aff x, const launch_shape *s, int size) {
  if (x.state != AFF_AFFINE) return 0;
  int64_t kt = abs64(x.kt), kc = abs64(x.kc), ki = abs64(x.ki);
  if (s->B > 1 && kt < size) return 0;
  if (s->G > 1 && kc < kt * (int64_t)(s->B - 1) + size) return 0;
  if (x.ki && ki < kt * (int64_t)(s->B - 1) + kc * (int64_t)(s->G - 1) + size) return 0;
  return 1;
}

/* What the launch's accesses do to one allocation (or, for the unknown
 * root, to any). */
typedef struct {
  uint8_t ld, st, at;
  uint8_t red;          /* every atomic is a red of one kind (below) */
  int kind, sk;         /* that kind and value kind, once an atomic is seen */
  aff form;             /* the form all its stores share (top: not one), */
  int size;             /* and their size (write-only asks for one writer per address) */
} uses;

/* An atomic whose result nobody reads, of a commutative integer
 * operation, relaxed, of device scope or wider. */
static int is_red(const kir_ins *in, uint8_t result_dead) {
  int sk = in->flags & 0x7f, kind = in->flags >> 8 & 0xf;
  if (in->dst >= 0 && !result_dead) return 0;
  if (sk == SK_F32 || sk == SK_F64) return 0;
  if (KIR_MF_SCOPE(in->flags) == SCOPE_BLOCK || KIR_MF_ORDER(in->flags) != MO_RELAXED) return 0;
  return kind == AT_ADD || kind == AT_AND || kind == AT_OR || kind == AT_XOR || kind == AT_MIN || kind == AT_MAX;
}

static void merge_uses(uses *into, const uses *u) {
  if (u->at) {
    if (!into->at) { into->red = u->red; into->kind = u->kind; into->sk = u->sk; }
    else if (!u->red || u->kind != into->kind || u->sk != into->sk) into->red = 0;
  }
  if (u->st) {
    if (!into->st) { into->form = u->form; into->size = u->size; }
    else if (!aff_same(u->form, into->form) || u->size != into->size) into->form = aff_top();
  }
  into->ld |= u->ld;
  into->st |= u->st;
  into->at |= u->at;
}

/* The access at pc, its store's address of form `form`. */
static void note_use(uses *u, const kir_ins *in, uint8_t result_dead, aff form) {
  uses one = {0};
  if (in->op == OP_LD || in->op == OP_CPASYNC) one.ld = 1;   /* (a copy reads its global source) */
  else if (in->op == OP_ST) { one.st = 1; one.form = form; one.size = kir_sk_size[in->flags & 0x7f]; }
  else { one.at = 1; one.red = (uint8_t)is_red(in, result_dead); one.kind = in->flags >> 8 & 0xf; one.sk = in->flags & 0x7f; }
  merge_uses(u, &one);
}

/* ------------------------------------------------------------- the analysis */

/* A forward analysis over the control flow graph (a register's roots and
 * form at each pc: front ends reuse registers for unrelated values),
 * with states kept at the starts of basic blocks.  Fills roots (per pc of
 * an access: its address's roots) and form (per pc of a store: its
 * address's form).  0 where the function is too large for it. */
#define FLOW_MAX_CELLS ((size_t)1 << 18)
static int flow(const launch_shape *s, uint64_t *roots, aff *form) {
  const kir_func *f = s->f;
  int n = f->ncode, nr = f->nregs > 0 ? f->nregs : 1;
  /* basic blocks: a leader at 0, at every branch target and after every branch or end */
  int *bid = xcalloc((size_t)n + 1, sizeof *bid);
  uint8_t *lead = xcalloc((size_t)n + 1, 1);
  lead[0] = 1;
  for (int pc = 0; pc < n; pc++) {
    int op = f->code[pc].op, s0, s1;
    if (op == OP_JMP || op == OP_BRT || op == OP_BRF || op == OP_EXIT || op == OP_TRAP) lead[pc + 1] = 1;
    kir_successors(&f->code[pc], pc, &s0, &s1);
    if (s0 >= 0 && s0 <= n && s0 != pc + 1) lead[s0] = 1;
    if (s1 >= 0 && s1 <= n && s1 != pc + 1) lead[s1] = 1;
  }
  int nb = 0;
  for (int pc = 0; pc <= n; pc++) bid[pc] = lead[pc] ? nb++ : nb - 1;
  if ((size_t)nb * (size_t)nr > FLOW_MAX_CELLS) {
    free(bid);
    free(lead);
    return 0;
  }
  uint64_t *bR = xcalloc((size_t)nb * (size_t)nr, sizeof *bR), *R = xmalloc((size_t)nr * sizeof *R);
  aff *bA = xcalloc((size_t)nb * (size_t)nr, sizeof *bA), *A = xmalloc((size_t)nr * sizeof *A);
  uint8_t *seen = xcalloc((size_t)nb, 1), *dirty = xcalloc((size_t)nb, 1);
  int *start = xcalloc((size_t)nb, sizeof *start);
  for (int pc = n; pc >= 0; pc--) if (lead[pc]) start[bid[pc]] = pc;
  seen[0] = dirty[0] = 1;
  for (int again = 1; again;) {
    again = 0;
    for (int b = 0; b < nb; b++) {
      if (!dirty[b]) continue;
      dirty[b] = 0;
      memcpy(R, bR + (size_t)b * nr, (size_t)nr * sizeof *R);
      memcpy(A, bA + (size_t)b * nr, (size_t)nr * sizeof *A);
      int pc = start[b];
      for (; pc < n; pc++) {
        const kir_ins *in = &f->code[pc];
        if (in->op == OP_CPASYNC) roots[pc] |= R[in->b];   /* its global source: a load's */
        if (in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM) {
          roots[pc] |= R[in->a];
          if (in->op == OP_ST) {
            form[pc] = aff_join(form[pc], aff_add(A[in->a], aff_const(in->imm), 1));
          }
        }
        int d = kir_ins_writes(in);
        if (d >= 0) {
          uint64_t r = value_roots(f, in, R);
          aff v = kir_is_alu(in->op) ? aff_of(in, A, s) : aff_top();
          R[d] = r;
          A[d] = v;
        }
        int s0, s1;
        kir_successors(in, pc, &s0, &s1);
        int ends = pc + 1 > n || lead[pc + 1] || s0 != pc + 1 || s1 >= 0;
        if (!ends) continue;
        int succ[2] = {s0, s1};
        for (int k = 0; k < 2; k++) {
          if (succ[k] < 0 || succ[k] >= n) continue;
          int t = bid[succ[k]];
          uint64_t *tR = bR + (size_t)t * nr;
          aff *tA = bA + (size_t)t * nr;
          int changed = !seen[t];
          for (int r = 0; r < nr; r++) {
            uint64_t u = tR[r] | R[r];
            if (u != tR[r]) { tR[r] = u; changed = 1; }
            aff j = aff_join(tA[r], A[r]);
            if (aff_same(j, tA[r])) continue;
            tA[r] = j;
            changed = 1;
          }
          seen[t] = 1;
          if (changed) { dirty[t] = 1; again = 1; }
        }
        break;
      }
    }
  }
  free(bid); free(lead); free(bR); free(R); free(bA); free(A); free(seen); free(dirty); free(start);
  return 1;
}

/* A kernel's analysis for one launch shape: what flow depends on. */
struct prov_flow {
  const kir_func *f;
  uint64_t B, G;
  uint64_t *args;          /* the scalar parameters' values (a pointer's is not read) */
  uint64_t *roots;         /* NULL: too large to analyse */
  aff *form;
  uint8_t *dead;           /* per pc: 1 where the register it writes is not live after it */
  /* the classes of the last launch, for the next with the same allocations */
  uint32_t last_src[63];
  int last_flat;
  uint8_t *last_cls;       /* NULL: none yet */
  int last_any;
  struct prov_flow *next;
};

void prov_flows_free(struct prov_flow *fl) {
  while (fl) {
    struct prov_flow *next = fl->next;
    free(fl->args); free(fl->roots); free(fl->form); free(fl->dead); free(fl->last_cls); free(fl);
    fl = next;
  }
}

static int same_shape(const struct prov_flow *fl, const kir_func *f, const uint64_t *args, uint64_t B, uint64_t G) {
  if (fl->f != f || fl->B != B || fl->G != G) return 0;
  for (int k = 0; k < f->nparams; k++)
    if (f->params[k].sk != SK_PTR && fl->args[k] != args[k]) return 0;
  return 1;
}

#define PROV_FLOWS_KEPT 8
static struct prov_flow *flow_of(emu_module *mod, const kir_func *f, const uint64_t *args, uint64_t B, uint64_t G) {
  int n = 0;
  for (struct prov_flow **at = &mod->flows; *at; at = &(*at)->next, n++) {
    struct prov_flow *fl = *at;
    if (!same_shape(fl, f, args, B, G)) continue;
    *at = fl->next;   /* to the front */
    fl->next = mod->flows;
    mod->flows = fl;
    return fl;
  }
  struct prov_flow *fl = xcalloc(1, sizeof *fl);
  fl->f = f; fl->B = B; fl->G = G;
  fl->args = xcalloc((size_t)f->nparams + 1, sizeof *fl->args);
  memcpy(fl->args, args, (size_t)f->nparams * sizeof *args);
  fl->roots = xcalloc((size_t)(f->ncode > 0 ? f->ncode : 1), sizeof *fl->roots);
  fl->form = xcalloc((size_t)(f->ncode > 0 ? f->ncode : 1), sizeof *fl->form);
  launch_shape shape = {f, args, B, G};
  size_t W = (size_t)(f->nregs > 0 ? (f->nregs + 63) / 64 : 1);
  if (((size_t)f->ncode + 1) * W > FLOW_MAX_CELLS || !flow(&shape, fl->roots, fl->form)) {
    free(fl->roots);
    fl->roots = NULL;
  } else {
    /* an atomic whose result is dead is a red (front ends reuse its register) */
    fl->dead = xcalloc((size_t)f->ncode + 1, 1);
    uint64_t *live = kir_liveness(f->code, f->ncode, W), *out = xcalloc(W, sizeof *out);
    for (int pc = 0; pc < f->ncode; pc++) {
      int d = kir_ins_writes(&f->code[pc]);
      if (d < 0) continue;
      kir_live_after(f->code, pc, f->ncode, live, W, out);
      fl->dead[pc] = !(out[d / 64] >> (d % 64) & 1);
    }
    free(live);
    free(out);
  }
  fl->next = mod->flows;
  mod->flows = fl;
  /* keep the newest few */
  if (n + 1 > PROV_FLOWS_KEPT) {
    struct prov_flow *q = mod->flows;
    for (int k = 1; k < PROV_FLOWS_KEPT; k++) q = q->next;
    prov_flows_free(q->next);
    q->next = NULL;
  }
  return fl;
}

prov *prov_new(emu_module *mod, const kir_func *f, const uint64_t *args, gr_dim3 grid, gr_dim3 bdim) {
  emu_dev *ctx = mod->ctx;
  const gr_ptr *gaddr = mod->gaddr;
  struct prov_flow *fl = flow_of(mod, f, args, bdim.x, grid.x);
  if (!fl->roots) return NULL;
  prov *p = xcalloc(1, sizeof *p);
  p->roots = fl->roots;
  /* each root's value: a parameter's, or the address of a module global the code takes */
  uint64_t val[63] = {0};
  for (int b = 0; b < f->nparams && b < 63; b++) val[b] = args[b];
  for (int pc = 0; pc < f->ncode && gaddr; pc++)
    if (f->code[pc].op == OP_GADDR && f->nparams + f->code[pc].imm < 63) val[f->nparams + f->code[pc].imm] = gaddr[f->code[pc].imm];
  /* the roots some access uses: the loops below go no further */
  uint64_t used = 0;
  for (int pc = 0; pc < f->ncode; pc++) used |= p->roots[pc];
  used &= ~PROV_UNKNOWN;
  int nroot = used ? 64 - __builtin_clzll(used) : 0;
  for (int b = 0; b < nroot; b++)
    p->src_alloc[b] = val[b] && emu_alloc_of(ctx, val[b]) ? (uint32_t)((val[b] >> 32) & 0xffffff) : 0;
  /* one-dimensional launches only: the thread's index is then threadIdx.x and blockIdx.x */
  int flat = grid.y == 1 && grid.z == 1 && bdim.y == 1 && bdim.z == 1;
  size_t ncls = (size_t)(f->ncode > 0 ? f->ncode : 1);
  if (fl->last_cls && fl->last_flat == flat && !memcmp(fl->last_src, p->src_alloc, sizeof p->src_alloc)) {
    /* the same allocations as the last launch (a sampled litmus test's runs) */
    if (!fl->last_any) {
      free(p);
      return NULL;
    }
    p->cls = fl->last_cls;
    return p;
  }
  /* per root, then per allocation (two roots may point into one); an
   * unknown address's store may write any word: no one form */
  uses root[64], alloc[63];
  memset(root, 0, sizeof root);
  for (int pc = 0; pc < f->ncode; pc++) {
    const kir_ins *in = &f->code[pc];
    if (in->op != OP_LD && in->op != OP_ST && in->op != OP_ATOM && in->op != OP_CPASYNC) continue;
    for (uint64_t r = p->roots[pc]; r; r &= r - 1) {
      int b = __builtin_ctzll(r);
      note_use(&root[b], in, fl->dead[pc], b == 63 ? aff_top() : fl->form[pc]);
    }
  }
  for (int b = 0; b < nroot; b++) {
    alloc[b] = root[63];   /* what unknown addresses may do, to every allocation */
    if (!p->src_alloc[b]) continue;
    for (int c = 0; c < nroot; c++)
      if (p->src_alloc[c] == p->src_alloc[b]) merge_uses(&alloc[b], &root[c]);
  }
  if (!fl->last_cls) fl->last_cls = xmalloc(ncls);
  uint8_t *cls = fl->last_cls;
  memset(cls, PROV_NONE, ncls);
  launch_shape shape = {f, args, bdim.x, grid.x};
  int any = 0;
  for (int pc = 0; pc < f->ncode; pc++) {
    const kir_ins *in = &f->code[pc];
    uint64_t r = p->roots[pc];
    if ((in->op != OP_LD && in->op != OP_ST && in->op != OP_ATOM) || !r || (r & PROV_UNKNOWN)) continue;
    int ro = in->op == OP_LD && KIR_MF_ORDER(in->flags) == MO_RELAXED;
    int wo = in->op == OP_ST && !(in->flags & MF_VOLATILE) && KIR_MF_ORDER(in->flags) == MO_RELAXED && flat;
    int red = in->op == OP_ATOM && is_red(in, fl->dead[pc]);
    int some = 0;
    for (; r; r &= r - 1) {
      int b = __builtin_ctzll(r);
      const uses *u = &alloc[b];
      if (!p->src_alloc[b]) continue;   /* an integer (an index, a size) that the address adds */
      some = 1;
      ro &= !u->st && !u->at;
      wo &= !u->ld && !u->at && u->form.state == AFF_AFFINE;
      red &= !u->ld && !u->st && u->red;
    }
    if (!some) continue;
    if (wo) wo = one_writer_per_address(fl->form[pc], &shape, kir_sk_size[in->flags & 0x7f]);
    cls[pc] = ro ? PROV_RO : wo ? PROV_WO : red ? PROV_RED : PROV_NONE;
    any |= cls[pc] != PROV_NONE;
  }
  memcpy(fl->last_src, p->src_alloc, sizeof p->src_alloc);
  fl->last_flat = flat;
  fl->last_any = any;
  if (!any) {
    free(p);
    return NULL;
  }
  p->cls = cls;
  return p;
}

void prov_free(prov *p) { free(p); }
