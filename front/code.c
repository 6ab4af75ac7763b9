/* code: the CUDA subset's code generator (code.h). */
#include "code.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kir_sem.h"

/* ---------------------------------------------------------------- types */
type ty_void = {TY_VOID, SK_U8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
/* Constant after initialisation, so that contexts can compile in parallel threads. */
#define SCALAR(sk) {TY_SCALAR, sk, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
static type ty_sk[SK_COUNT] = {
  SCALAR(SK_BOOL), SCALAR(SK_I8), SCALAR(SK_U8), SCALAR(SK_I16), SCALAR(SK_U16), SCALAR(SK_I32),
  SCALAR(SK_U32), SCALAR(SK_I64), SCALAR(SK_U64), SCALAR(SK_F32), SCALAR(SK_F64), {TY_PTR, SK_PTR, &ty_void, 0, 0, 0, 0, 0, 0, 0, 0, 0},
};
#undef SCALAR

type *ty_of_sk(kir_sk sk) { return &ty_sk[sk]; }

_Noreturn void front_fail(P *p, srcpos pos, const char *fmt, ...) {
  char buf[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  diag_fail(p->d, pos, "%s", buf);
}


uint64_t ty_size(P *p, type *t, srcpos pos) {
  switch (t->k) {
  case TY_VOID: front_fail(p, pos, "invalid use of void type");
  case TY_SCALAR: return (uint64_t)kir_sk_size[t->sk];
  case TY_PTR: return 8;
  case TY_ARRAY: {
    uint64_t es = ty_size(p, t->base, pos);
    if (es && t->n > MAX_OBJECT / es) front_fail(p, pos, "array too large (2^40 bytes or more)");
    return t->n * es;
  }
  case TY_STRUCT:
    if (!t->s->complete) {
      /* an object of a type never defined is ill-formed C++, on the host
       * too (nvcc rejects the file); one whose definition the subset
       * skipped is the subset's limit */
      p->d->ill_formed = !t->s->skipped;
      front_fail(p, pos, "incomplete type 'struct %s'", t->s->name);
    }
    return t->s->size;
  case TY_REF: front_fail(p, pos, "unsupported: the size of a reference");
  }
  return 0;
}
uint32_t ty_align(P *p, type *t) {
  uint32_t a = 1;
  switch (t->k) {
  case TY_SCALAR: a = (uint32_t)kir_sk_size[t->sk]; break;
  case TY_PTR: a = 8; break;
  case TY_ARRAY: a = ty_align(p, t->base); break;
  case TY_STRUCT: a = t->s->align ? t->s->align : 1; break;
  default: break;
  }
  return t->align > a ? t->align : a;   /* __align__ / aligned(N) only raise it */
}

/* A static __shared__ variable, named for static analyses (BabyCUDA's
 * checker speaks of arrays by name). */
void code_note_shared(P *p, const char *name, type *t, uint64_t off, uint64_t size, srcpos pos) {
  kir_shared *v = vec_push(&p->shared_vars);
  v->name = name;
  v->offset = (uint32_t)off;
  v->size = (uint32_t)size;
  type *e = t;
  while (e->k == TY_ARRAY) e = e->base;
  v->elem = e->k == TY_SCALAR ? e->sk : e->k == TY_PTR ? SK_PTR : SK_U8;
  v->decl = pos;
}

type *ty_new(P *p, tyk k) { type *t = arena_alloc(p->a, sizeof *t); t->k = k; return t; }
type *ty_ptr(P *p, type *base) { type *t = ty_new(p, TY_PTR); t->base = base; return t; }
type *ty_qual(P *p, type *t, int vol, int cnst) {
  if ((!vol || t->vol) && (!cnst || t->cnst)) return t;
  type *q = ty_new(p, t->k);
  *q = *t;
  q->vol |= vol; q->cnst |= cnst;
  return q;
}
type *ty_unqual(P *p, type *t) {
  if (!t->vol && !t->cnst) return t;
  type *u = ty_new(p, t->k);
  *u = *t;
  u->vol = u->cnst = 0;
  return u;
}
int ty_is_int(type *t) { return t->k == TY_SCALAR && !sem_sk_is_float(t->sk); }
int ty_is_arith(type *t) { return t->k == TY_SCALAR; }
int ty_is_scalar(type *t) { return t->k == TY_SCALAR || t->k == TY_PTR; }
kir_sk ty_reg_sk(type *t) { return t->k == TY_PTR ? SK_U64 : t->sk; }

const char *ty_name(P *p, type *t) {
  switch (t->k) {
  case TY_VOID: return "void";
  case TY_SCALAR: return kir_sk_name[t->sk];
  case TY_PTR: return arena_printf(p->a, "%s%s*", ty_name(p, t->base), t->base->vol ? " volatile" : "");
  case TY_ARRAY: return arena_printf(p->a, "%s[%llu]", ty_name(p, t->base), (unsigned long long)t->n);
  case TY_STRUCT: return arena_printf(p->a, "struct %s", t->s->name);
  case TY_REF: return arena_printf(p->a, "%s&", ty_name(p, t->base));
  }
  return "?";
}

/* Integer promotion then the usual arithmetic conversions, on scalar kinds. */
kir_sk ty_promote(kir_sk s) {
  return (s == SK_BOOL || s == SK_I8 || s == SK_U8 || s == SK_I16 || s == SK_U16) ? SK_I32 : s;
}
kir_sk ty_usual(kir_sk a, kir_sk b) {
  if (a == SK_F64 || b == SK_F64) return SK_F64;
  if (a == SK_F32 || b == SK_F32) return SK_F32;
  a = ty_promote(a); b = ty_promote(b);
  if (a == b) return a;
  int ra = (a == SK_I64 || a == SK_U64), rb = (b == SK_I64 || b == SK_U64);
  int ua = (a == SK_U32 || a == SK_U64), ub = (b == SK_U32 || b == SK_U64);
  if (ua == ub) return ra >= rb ? a : b;
  kir_sk u = ua ? a : b, s = ua ? b : a;
  int ru = ua ? ra : rb, rs = ua ? rb : ra;
  if (ru >= rs) return u;
  return s;  /* i64 represents every u32 */
}
kir_vt ty_vt(kir_sk s) {
  switch (ty_promote(s)) {
  case SK_I32: return VT_I32;
  case SK_U32: return VT_U32;
  case SK_I64: return VT_I64;
  case SK_F32: return VT_F32;
  case SK_F64: return VT_F64;
  default: return VT_U64;
  }
}

/* ------------------------------------------------------------- emission */

int code_emit(P *p, int op, int dst, int a, int b, int c, int64_t imm, int flags, srcpos pos) {
  fstate *fs = p->fs;
  if (!fs) front_fail(p, pos, "expression is not constant");
  if (fs->code.len >= p->max_code)
    front_fail(p, pos, "kernel code exceeds %zu KIR instructions (inlining or large struct copies; raise with --max-code)", p->max_code);
  kir_ins *in = vec_push(&fs->code);
  in->op = (uint16_t)op; in->dst = dst; in->a = a; in->b = b; in->c = c; in->imm = imm; in->flags = (uint16_t)flags;
  *(srcpos *)vec_push(&fs->pos) = pos;
  return (int)fs->code.len - 1;
}
int code_reg_new(P *p, srcpos pos) {
  fstate *fs = p->fs;
  if (!fs) front_fail(p, pos, "expression is not constant");
  if (fs->nreg >= 60000) front_fail(p, pos, "kernel needs too many registers");
  int r = fs->nreg++;
  if (fs->nreg > fs->maxreg) fs->maxreg = fs->nreg;
  return r;
}
int code_label_new(P *p) { int *l = vec_push(&p->fs->labels); *l = -1; return (int)p->fs->labels.len - 1; }
void code_label_here(P *p, int l) {
  *(int *)vec_at(&p->fs->labels, (size_t)l) = (int)p->fs->code.len;
  p->fs->last_label_pc = p->fs->code.len;
}
void code_jump(P *p, int l, srcpos pos) { code_emit(p, OP_JMP, -1, l, -1, -1, 0, 0, pos); }
void code_branch(P *p, int op, int cond, int l, srcpos pos) { code_emit(p, op, -1, l, cond, -1, 0, 0, pos); }


uint64_t code_local_alloc(P *p, type *ty, srcpos pos) {
  fstate *fs = p->fs;
  uint32_t al = ty_align(p, ty);
  uint64_t size = ty_size(p, ty, pos);
  uint64_t off = ((uint64_t)fs->frame + al - 1) / al * al;
  if (size > (1u << 20) || off + size > (1u << 20)) front_fail(p, pos, "local memory of a thread exceeds 1 MiB");
  fs->frame = (uint32_t)(off + size);
  return KIR_ADDR(SPACE_LOCAL, off);
}

/* ------------------------------------------------------------- rvalues */


int code_const_reg(P *p, uint64_t bits, srcpos pos) {
  fstate *fs = p->fs;
  if (!fs) front_fail(p, pos, "expression is not constant");
  for (size_t k = 0; k < fs->kconst.len; k++) if (*(uint64_t *)vec_at(&fs->kconst, k) == bits) return KREG + (int)k;
  if (fs->kconst.len >= 4096) front_fail(p, pos, "kernel has too many distinct constants");
  *(uint64_t *)vec_push(&fs->kconst) = bits;
  return KREG + (int)fs->kconst.len - 1;
}

int code_to_reg(P *p, expr *e, srcpos pos) {
  code_to_rvalue(p, e, pos);
  if (e->k == E_CONST) { e->reg = code_const_reg(p, e->bits, pos); e->k = E_REG; }
  if (e->k != E_REG) front_fail(p, pos, "expression has no value");
  return e->reg;
}

int code_mem_base(P *p, expr *e, srcpos pos) {
  if (e->off == 0) return e->reg;
  int r = code_reg_new(p, pos), c = code_const_reg(p, (uint64_t)e->off, pos);
  code_emit(p, OP_PADD, r, e->reg, c, -1, 0, 0, pos);
  return r;
}

void code_to_rvalue(P *p, expr *e, srcpos pos) {
  switch (e->k) {
  case E_VOID: front_fail(p, pos, "void value not ignored as it ought to be");
  case E_CONST: case E_REG: return;
  case E_VAR: e->k = E_REG; return;
  case E_MEM:
    if (e->ty->k == TY_ARRAY) {   /* decay */
      int r = code_mem_base(p, e, pos);
      *e = e_reg(ty_ptr(p, e->ty->base), r);
      return;
    }
    if (e->ty->k == TY_STRUCT) return;   /* struct rvalues stay in memory; copied by assignment */
    if (!ty_is_scalar(e->ty)) front_fail(p, pos, "cannot load a value of type %s", ty_name(p, e->ty));
    {
      int r = code_reg_new(p, pos);
      kir_sk sk = e->ty->k == TY_PTR ? SK_PTR : e->ty->sk;
      code_emit(p, OP_LD, r, e->reg, -1, -1, e->off, KIR_MF_ACCESS(sk, e->ty->vol), pos);
      *e = e_reg(ty_unqual(p, e->ty), r);
    }
    return;
  }
}

void code_cast(P *p, expr *e, type *to, srcpos pos) {
  if (to->k == TY_VOID) { if (e->k == E_MEM && e->ty->k != TY_STRUCT) code_to_rvalue(p, e, pos); e->k = E_VOID; e->ty = to; return; }
  code_to_rvalue(p, e, pos);
  type *from = e->ty;
  if (to->k == TY_STRUCT || from->k == TY_STRUCT) {
    if (to->k == TY_STRUCT && from->k == TY_STRUCT && to->s == from->s) return;
    front_fail(p, pos, "cannot convert %s to %s", ty_name(p, from), ty_name(p, to));
  }
  if (!ty_is_scalar(to) || !ty_is_scalar(from)) front_fail(p, pos, "cannot convert %s to %s", ty_name(p, from), ty_name(p, to));
  kir_sk fs = from->k == TY_PTR ? SK_U64 : from->sk, ts = to->k == TY_PTR ? SK_U64 : to->sk;
  if ((from->k == TY_PTR || to->k == TY_PTR) && (sem_sk_is_float(fs) || sem_sk_is_float(ts)))
    front_fail(p, pos, "cannot convert %s to %s", ty_name(p, from), ty_name(p, to));
  int both64 = (fs == SK_I64 || fs == SK_U64) && (ts == SK_I64 || ts == SK_U64);
  if (fs == ts || both64 || (from->k == TY_PTR && to->k == TY_PTR)) { e->ty = to; return; }
  if (e->k == E_CONST) { e->bits = sem_cvt(fs, ts, e->bits); e->ty = to; return; }
  int r = code_reg_new(p, pos);
  code_emit(p, OP_CVT, r, e->reg, -1, -1, fs | (ts << 8), 0, pos);
  *e = e_reg(to, r);
}

int code_truth(P *p, expr *e, srcpos pos) {
  /* a register holding non-zero for true; pointer and float truth included */
  code_to_rvalue(p, e, pos);
  if (!ty_is_scalar(e->ty)) front_fail(p, pos, "used %s where a scalar is required", ty_name(p, e->ty));
  if (e->ty->k == TY_SCALAR && (sem_sk_is_float(e->ty->sk) || e->ty->sk == SK_BOOL || kir_sk_size[e->ty->sk] < 4)) code_cast(p, e, ty_of_sk(SK_BOOL), pos);
  return code_to_reg(p, e, pos);
}

/* ------------------------------------------------------------- operators and stores */

expr code_arith(P *p, int opbase, expr l, expr r, kir_sk sk, srcpos pos) {
  code_cast(p, &l, ty_of_sk(sk), pos);
  code_cast(p, &r, ty_of_sk(sk), pos);
  int opc = opbase + ty_vt(sk);
  int is_cmp = opbase >= OP_EQ_I32 && opbase <= OP_GE_I32;
  type *rt = is_cmp ? ty_of_sk(SK_I32) : ty_of_sk(sk);
  if (l.k == E_CONST && r.k == E_CONST) return e_const(rt, sem_bin(opc, l.bits, r.bits));
  int a = code_to_reg(p, &l, pos), b = code_to_reg(p, &r, pos), d = code_reg_new(p, pos);
  code_emit(p, opc, d, a, b, -1, 0, 0, pos);
  return e_reg(rt, d);
}

expr code_binop(P *p, const char *op, expr l, expr r, srcpos pos) {
  code_to_rvalue(p, &l, pos);
  code_to_rvalue(p, &r, pos);
  static const struct { const char *s; int base; } ops[] = {
    {"+", OP_ADD_I32}, {"-", OP_SUB_I32}, {"*", OP_MUL_I32}, {"/", OP_DIV_I32}, {"%", OP_REM_I32},
    {"&", OP_AND_I32}, {"|", OP_OR_I32}, {"^", OP_XOR_I32}, {"<<", OP_SHL_I32}, {">>", OP_SHR_I32},
    {"==", OP_EQ_I32}, {"!=", OP_NE_I32}, {"<", OP_LT_I32}, {"<=", OP_LE_I32}, {">", OP_GT_I32}, {">=", OP_GE_I32}};
  int base = -1;
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) if (!strcmp(ops[k].s, op)) base = ops[k].base;
  int is_cmp = base >= OP_EQ_I32 && base <= OP_GE_I32;
  if (!ty_is_scalar(l.ty) || !ty_is_scalar(r.ty)) front_fail(p, pos, "invalid operands to binary %s (have '%s' and '%s')", op, ty_name(p, l.ty), ty_name(p, r.ty));
  if (l.ty->k == TY_PTR || r.ty->k == TY_PTR) {
    if (is_cmp) {
      if (l.ty->k != TY_PTR && !(l.k == E_CONST && l.bits == 0)) front_fail(p, pos, "comparison between pointer and integer");
      if (r.ty->k != TY_PTR && !(r.k == E_CONST && r.bits == 0)) front_fail(p, pos, "comparison between pointer and integer");
      l.ty = ty_of_sk(SK_U64); r.ty = ty_of_sk(SK_U64);
      return code_arith(p, base, l, r, SK_U64, pos);
    }
    if ((base == OP_ADD_I32 || base == OP_SUB_I32) && l.ty->k == TY_PTR && ty_is_int(r.ty)) {
      type *pt = l.ty;
      uint64_t es = pt->base->k == TY_VOID ? 1 : ty_size(p, pt->base, pos);
      /* p + i with i in a register: one scaled padd (a 32- or 64-bit
       * integer register holds its value as an i64 already, so no cvt) */
      code_to_rvalue(p, &r, pos);
      kir_sk isk = r.ty->sk;
      if (base == OP_ADD_I32 && r.k != E_CONST && (isk == SK_I32 || isk == SK_U32 || isk == SK_I64 || isk == SK_U64) &&
          es > 0 && es < ((uint64_t)1 << 32)) {
        l.ty = ty_of_sk(SK_U64);
        int a = code_to_reg(p, &l, pos), b = code_to_reg(p, &r, pos), dreg = code_reg_new(p, pos);
        code_emit(p, OP_PADD, dreg, a, b, -1, (int64_t)es, 0, pos);
        return e_reg(pt, dreg);
      }
      expr idx = r;
      code_cast(p, &idx, ty_of_sk(SK_I64), pos);
      expr scaled = code_arith(p, OP_MUL_I32, idx, e_const(ty_of_sk(SK_I64), es), SK_I64, pos);
      if (base == OP_SUB_I32) scaled = code_arith(p, OP_SUB_I32, e_const(ty_of_sk(SK_I64), 0), scaled, SK_I64, pos);
      l.ty = ty_of_sk(SK_U64);
      if (l.k == E_CONST && scaled.k == E_CONST) {
        expr s = code_arith(p, OP_ADD_I32, l, scaled, SK_U64, pos);
        s.ty = pt;
        return s;
      }
      /* pointer arithmetic stays inside its object (kir_ptr_add) */
      int a = code_to_reg(p, &l, pos), b = code_to_reg(p, &scaled, pos), dreg = code_reg_new(p, pos);
      code_emit(p, OP_PADD, dreg, a, b, -1, 0, 0, pos);
      return e_reg(pt, dreg);
    }
    if (base == OP_ADD_I32 && r.ty->k == TY_PTR && ty_is_int(l.ty)) return code_binop(p, op, r, l, pos);
    if (base == OP_SUB_I32 && l.ty->k == TY_PTR && r.ty->k == TY_PTR) {
      uint64_t es = l.ty->base->k == TY_VOID ? 1 : ty_size(p, l.ty->base, pos);
      l.ty = ty_of_sk(SK_I64); r.ty = ty_of_sk(SK_I64);
      expr d;
      if (l.k == E_CONST && r.k == E_CONST) d = code_arith(p, OP_SUB_I32, l, r, SK_I64, pos);
      else {   /* in bytes, as flat addresses would give it, wild pointers included */
        int a = code_to_reg(p, &l, pos), b = code_to_reg(p, &r, pos), dr = code_reg_new(p, pos);
        code_emit(p, OP_PDIFF, dr, a, b, -1, 0, 0, pos);
        d = e_reg(ty_of_sk(SK_I64), dr);
      }
      return code_arith(p, OP_DIV_I32, d, e_const(ty_of_sk(SK_I64), es), SK_I64, pos);
    }
    front_fail(p, pos, "invalid operands to binary %s (have '%s' and '%s')", op, ty_name(p, l.ty), ty_name(p, r.ty));
  }
  if (base >= OP_REM_I32 && base <= OP_SHR_I32 && (!ty_is_int(l.ty) || !ty_is_int(r.ty)))
    front_fail(p, pos, "invalid operands to binary %s (have '%s' and '%s')", op, ty_name(p, l.ty), ty_name(p, r.ty));
  if (base == OP_SHL_I32 || base == OP_SHR_I32) {
    kir_sk sk = ty_promote(l.ty->sk);
    code_cast(p, &r, ty_of_sk(sk), pos);  /* the shift count takes the left operand's type */
    return code_arith(p, base, l, r, sk, pos);
  }
  return code_arith(p, base, l, r, ty_usual(l.ty->sk, r.ty->sk), pos);
}

void code_check_lvalue(P *p, expr *e, srcpos pos, const char *what) {
  if (e->k != E_VAR && e->k != E_MEM) front_fail(p, pos, "lvalue required as %s", what);
  if (e->ty->cnst) front_fail(p, pos, "assignment of read-only location");
  if (e->ty->k == TY_ARRAY) front_fail(p, pos, "assignment to expression with array type");
}

void code_store(P *p, expr *lv, expr v, srcpos pos) {
  /* v already converted to lv's type */
  if (lv->ty->k == TY_STRUCT) {
    if (v.k != E_MEM || v.ty->k != TY_STRUCT || v.ty->s != lv->ty->s) front_fail(p, pos, "incompatible types in struct assignment");
    uint64_t size = lv->ty->s->size, al = lv->ty->s->align, step = al >= 8 ? 8 : al >= 4 ? 4 : al >= 2 ? 2 : 1;
    kir_sk sk = step == 8 ? SK_U64 : step == 4 ? SK_U32 : step == 2 ? SK_U16 : SK_U8;
    for (uint64_t o = 0; o < size; o += step) {
      int t = code_reg_new(p, pos);
      code_emit(p, OP_LD, t, v.reg, -1, -1, v.off + (int64_t)o, KIR_MF_ACCESS(sk, v.ty->vol), pos);
      code_emit(p, OP_ST, -1, lv->reg, t, -1, lv->off + (int64_t)o, KIR_MF_ACCESS(sk, lv->ty->vol), pos);
    }
    return;
  }
  int r = code_to_reg(p, &v, pos);
  if (lv->k == E_VAR) { if (r != lv->reg) code_emit(p, OP_MOV, lv->reg, r, -1, -1, 0, 0, pos); }
  else {
    kir_sk sk = lv->ty->k == TY_PTR ? SK_PTR : lv->ty->sk;
    code_emit(p, OP_ST, -1, lv->reg, r, -1, lv->off, KIR_MF_ACCESS(sk, lv->ty->vol), pos);
  }
}

/* Assignment to a register variable of a value computed into a temporary
 * (allocated at or above `mark`, while evaluating the right side) by the
 * last instruction: compute it into the variable instead of adding a move.
 * Not across a label: a join's value has more than one producer. */
void code_store_var(P *p, expr *lv, int r, int mark, srcpos pos) {
  fstate *fs = p->fs;
  kir_ins *last = fs->code.len ? vec_at(&fs->code, fs->code.len - 1) : NULL;
  if (last && r != lv->reg && last->dst == r && r >= mark && r < KREG && fs->last_label_pc != fs->code.len)
    last->dst = lv->reg;
  else code_store(p, lv, e_reg(lv->ty, r), pos);
}

expr code_value_copy(P *p, expr lv, srcpos pos) {
  /* the current value of an lvalue, in a fresh register */
  expr v = lv;
  code_to_rvalue(p, &v, pos);
  if (lv.k == E_VAR) {
    int r = code_reg_new(p, pos);
    code_emit(p, OP_MOV, r, lv.reg, -1, -1, 0, 0, pos);
    v = e_reg(lv.ty, r);
  }
  return v;
}

void code_incdec(P *p, expr *e, int delta, int post, srcpos pos, expr *out) {
  code_check_lvalue(p, e, pos, delta > 0 ? "increment operand" : "decrement operand");
  if (!ty_is_scalar(e->ty)) front_fail(p, pos, "wrong type argument to %s", delta > 0 ? "increment" : "decrement");
  if (!p->fs) front_fail(p, pos, "expression is not constant");
  int mark = p->fs->nreg;
  expr old = post ? code_value_copy(p, *e, pos) : *e;
  if (!post) code_to_rvalue(p, &old, pos);
  expr nv = code_binop(p, delta > 0 ? "+" : "-", old, e_const(ty_of_sk(SK_I32), 1), pos);
  code_cast(p, &nv, e->ty, pos);
  int r = code_to_reg(p, &nv, pos);
  if (e->k == E_VAR) code_store_var(p, e, r, post ? old.reg + 1 : mark, pos);
  else code_store(p, e, e_reg(e->ty, r), pos);
  *out = post ? old : e->k == E_VAR ? e_reg(e->ty, e->reg) : e_reg(e->ty, r);
}

type *code_common_type(P *p, expr *a, expr *b, srcpos pos) {
  code_to_rvalue(p, a, pos); code_to_rvalue(p, b, pos);
  if (ty_is_arith(a->ty) && ty_is_arith(b->ty)) return ty_of_sk(ty_usual(a->ty->sk, b->ty->sk));
  if (a->ty->k == TY_PTR && b->ty->k == TY_PTR) return a->ty;
  if (a->ty->k == TY_PTR && b->k == E_CONST && b->bits == 0) return a->ty;
  if (b->ty->k == TY_PTR && a->k == E_CONST && a->bits == 0) return b->ty;
  if (a->ty->k == TY_VOID && b->ty->k == TY_VOID) return &ty_void;
  if (a->ty->k == TY_STRUCT && b->ty->k == TY_STRUCT && a->ty->s == b->ty->s) front_fail(p, pos, "unsupported: conditional expression of struct type");
  front_fail(p, pos, "type mismatch in conditional expression ('%s' and '%s')", ty_name(p, a->ty), ty_name(p, b->ty));
}
