/* ptx_lower: ptx_module into KIR.
 *
 * Registers.  A PTX register becomes one KIR register per inlined instance
 * of its function.  KIR keeps a 32-bit integer sign- or zero-extended as
 * its op's type says; PTX's .b32 registers do not say, so a 32-bit value is
 * made canonical (extended as the consuming instruction's type says)
 * wherever 64 bits of it are read: cvt, mul.wide, 32-bit shared and local
 * addresses, atomics' operands, and 8- and 16-bit operands.
 *
 * Addresses.  KIR pointers are generic and carry their space.  A global
 * address is the same in both (cvta.to.global is a move); a shared or
 * local window address is the plain offset, and cvta.shared / cvta.local
 * and every ld/st/atom in those spaces add the space's tag.
 *
 * Control.  bra becomes jmp or brt/brf, a guarded instruction is branched
 * around, and once a kernel is whole every conditional branch gets its
 * immediate post-dominator as reconvergence point, computed on KIR's own
 * control-flow graph (so inlined functions and their returns count). */
#define _XOPEN_SOURCE 700   /* realpath */
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "kir_sem.h"
#include "front.h"
#include "ptx_int.h"

typedef struct { const ptx_var *var; int reg; int64_t frame; } slot;   /* reg >= 0, or a frame offset */
typedef struct { const char *name; int pc; } label;
typedef struct { int pc; const char *name; int line, col; } patch;

typedef struct inst {
  const ptx_func *f;
  int regbase;
  vec slots;          /* slot: parameters and call-site .param variables */
  vec locals;         /* slot with frame offsets: the function's .local variables */
  vec labels, patches;
  vec rets;           /* pcs of jumps to the end (ret in a device function) */
  struct inst *up;
  srcpos at;          /* a call's user position: where code of CUDA's headers in it is reported (-G calls) */
} inst;

typedef struct {
  arena *ar;
  diag *d;
  ptx_module *pm;
  vec code, pos;
  int nregs;
  uint32_t frame;
  size_t max_code;
  vec shared_at;      /* per module .shared variable: its offset, or -1 */
  vec fshared;        /* (var, offset) of function-scope .shared variables */
  vec globals;        /* kir_global: the .global and .const variables, in order of first use */
  uint32_t shared_off;
  int64_t reserved_off;    /* the block's reserved shared memory (%reserved_smem_offset_*), placed on first use; -1 */
  int uses_dyn;
  const ptx_ins *cur;
  inst *in;
  int depth;
  int pmax, ntemp, tmax;   /* the register pools: see persistent(), tmp(), kconst() */
  uint64_t *ckey;
  int *cslot;
  size_t ccap;
  int nconst;
  vec cvals;
} L;

typedef struct { const ptx_var *var; uint32_t off; } fsh;

/* ------------------------------------------------------------- errors and emission */

static _Noreturn void fail_at(L *l, const ptx_ins *in, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static _Noreturn void fail_at(L *l, const ptx_ins *in, const char *fmt, ...) {
  char body[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  srcpos p = {l->pm->path, in ? in->line : 1, in ? in->col : 1};
  diag_fail(l->d, p, "%s", body);
}

/* The instruction as written, for messages: "ld.global.nc.v4.u32". */
static const char *ins_name(L *l, const ptx_ins *in) {
  size_t n = strlen(in->op) + 1;
  for (int k = 0; k < in->nmods; k++) n += strlen(in->mods[k]) + 1;
  char *s = arena_alloc(l->ar, n + 1), *q = s;
  q += sprintf(q, "%s", in->op);
  for (int k = 0; k < in->nmods; k++) q += sprintf(q, ".%s", in->mods[k]);
  return s;
}

#define UNSUP(l, in, what) fail_at((l), (in), "unsupported %s in '%s'", (what), ins_name((l), (in)))

static int emit(L *l, int op, int dst, int a, int b, int c, int64_t imm, int flags) {
  if (l->code.len >= l->max_code) fail_at(l, l->cur, "kernel too large: more than %zu KIR instructions after inlining", l->max_code);
  kir_ins *k = vec_push(&l->code);
  k->op = (uint16_t)op;
  k->flags = (uint16_t)flags;
  k->dst = dst, k->a = a, k->b = b, k->c = c;
  k->imm = imm;
  srcpos pos = l->cur ? l->cur->pos : (srcpos){l->pm->path, 1, 1};
  /* a function of CUDA's headers called (not inlined, as at -G): its code at the user's call */
  if (l->in && l->in->at.file && pos.file && ptx_cuda_header(pos.file)) pos = l->in->at;
  *(srcpos *)vec_push(&l->pos) = pos;
  return (int)l->code.len - 1;
}
/* Registers come from three pools, numbered apart while lowering and laid
 * out when the kernel is whole (finish_registers): persistent ones (PTX
 * registers of each inlined instance, call-site parameters; a callee's are
 * reused by the next call once it has returned), temporaries that live
 * within the lowering of one PTX instruction (the pool starts again at each
 * instruction), and constants, one register per value, set once at entry. */
#define TEMP_BASE (1 << 28)
#define CONST_BASE (1 << 29)
static int persistent(L *l) { int r = l->nregs++; if (l->nregs > l->pmax) l->pmax = l->nregs; return r; }
static int tmp(L *l) {
  if (l->ntemp >= (1 << 27)) fail_at(l, l->cur, "too many temporaries");
  int r = TEMP_BASE + l->ntemp++;
  if (l->ntemp > l->tmax) l->tmax = l->ntemp;
  return r;
}
static int kconst(L *l, uint64_t v) {
  /* open addressing over the kernel's constants */
  if (2 * (size_t)(l->nconst + 1) > l->ccap) {
    size_t cap = l->ccap ? l->ccap * 2 : 256;
    /* in the arena: an error longjmps out, and the arena's release is the clean-up */
    uint64_t *keys = arena_alloc(l->ar, cap * sizeof *keys);
    int *slots = arena_alloc(l->ar, cap * sizeof *slots);
    for (size_t k = 0; k < cap; k++) slots[k] = -1;
    for (size_t k = 0; k < l->ccap; k++) {
      if (l->cslot[k] < 0) continue;
      size_t h = (size_t)(l->ckey[k] * 0x9e3779b97f4a7c15ull) & (cap - 1);
      while (slots[h] >= 0) h = (h + 1) & (cap - 1);
      keys[h] = l->ckey[k];
      slots[h] = l->cslot[k];
    }
    l->ckey = keys;
    l->cslot = slots;
    l->ccap = cap;
  }
  size_t h = (size_t)(v * 0x9e3779b97f4a7c15ull) & (l->ccap - 1);
  while (l->cslot[h] >= 0) {
    if (l->ckey[h] == v) return CONST_BASE + l->cslot[h];
    h = (h + 1) & (l->ccap - 1);
  }
  l->ckey[h] = v;
  l->cslot[h] = l->nconst;
  *(uint64_t *)vec_push(&l->cvals) = v;
  return CONST_BASE + l->nconst++;
}
static int pc_now(L *l) { return (int)l->code.len; }
static kir_ins *at(L *l, int pc) { return vec_at(&l->code, (size_t)pc); }

/* ------------------------------------------------------------- modifiers and types */

static int has(const ptx_ins *in, const char *m) {
  for (int k = 0; k < in->nmods; k++) if (!strcmp(in->mods[k], m)) return 1;
  return 0;
}
static ptx_type mod_type(const char *s) {
  for (int k = 1; k < PT_COUNT; k++) if (!strcmp(s, ptx_type_name[k])) return (ptx_type)k;
  return PT_NONE;
}
/* The instruction's k-th type modifier (cvt has two). */
static ptx_type type_n(const ptx_ins *in, int n) {
  for (int k = 0; k < in->nmods; k++) {
    ptx_type t = mod_type(in->mods[k]);
    if (t && n-- == 0) return t;
  }
  return PT_NONE;
}
static ptx_type need_type(L *l, const ptx_ins *in) {
  ptx_type t = type_n(in, 0);
  if (!t) fail_at(l, in, "'%s' has no type", ins_name(l, in));
  if (t == PT_B128) UNSUP(l, in, "type");
  return t;
}
/* Every modifier must be one the lowering of this opcode knows. */
static void only_mods(L *l, const ptx_ins *in, const char *const *ok) {
  for (int k = 0; k < in->nmods; k++) {
    if (mod_type(in->mods[k])) continue;
    int found = 0;
    for (const char *const *o = ok; *o; o++) if (!strcmp(*o, in->mods[k])) { found = 1; break; }
    if (!found) fail_at(l, in, "unsupported modifier '.%s' in '%s'", in->mods[k], ins_name(l, in));
  }
}

static int is_float(ptx_type t) { return t == PT_F32 || t == PT_F64; }
/* Half precision: 0 for f16, 1 for bf16 (x2: two in a 32-bit register), -1 for the rest. */
static int half_kind(ptx_type t) { return t == PT_F16 || t == PT_F16X2 ? 0 : t == PT_BF16 || t == PT_BF16X2 ? 1 : -1; }
static int is_pair(ptx_type t) { return t == PT_F16X2 || t == PT_BF16X2; }
static int is_signed(ptx_type t) { return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64; }
static int is_wide(ptx_type t) { return ptx_type_size(t) == 8; }

static int vt_of(ptx_type t) {
  switch (t) {
  case PT_S8: case PT_S16: case PT_S32: return VT_I32;
  case PT_S64: return VT_I64;
  case PT_U64: case PT_B64: return VT_U64;
  case PT_F32: return VT_F32;
  case PT_F64: return VT_F64;
  default: return VT_U32;
  }
}
static kir_sk sk_of(ptx_type t) {
  switch (t) {
  case PT_PRED: return SK_BOOL;
  case PT_B8: case PT_U8: return SK_U8;
  case PT_S8: return SK_I8;
  case PT_B16: case PT_U16: case PT_F16: case PT_BF16: return SK_U16;
  case PT_S16: return SK_I16;
  case PT_B32: case PT_U32: case PT_F16X2: case PT_BF16X2: return SK_U32;
  case PT_S32: return SK_I32;
  case PT_B64: case PT_U64: return SK_U64;
  case PT_S64: return SK_I64;
  case PT_F32: return SK_F32;
  case PT_F64: return SK_F64;
  default: return SK_U64;
  }
}
#define OPV(base, t) ((int)(base) + vt_of(t))

/* ------------------------------------------------------------- operands */

static int reg_of(L *l, int r) { return l->in->regbase + r; }

/* x (a register of any width) canonical as kind sk: extended from its low
 * bits.  A float is its bits already (cvt would convert the value). */
static int canon(L *l, int x, kir_sk sk) {
  if (sk == SK_F32 || sk == SK_F64) return x;
  /* a constant: the constant it converts to (no cvt at each use) */
  if (x >= CONST_BASE) return kconst(l, sem_cvt(SK_U64, sk, *(uint64_t *)vec_at(&l->cvals, (size_t)(x - CONST_BASE))));
  int r = tmp(l);
  emit(l, OP_CVT, r, x, -1, -1, SK_U64 | (int64_t)sk << 8, 0);
  return r;
}

static uint64_t float_bits(const ptx_opnd *o, ptx_type t) {
  double d;
  if (o->fbits == 32) { uint32_t u = (uint32_t)o->imm; float f; memcpy(&f, &u, 4); d = f; if (t == PT_F32 || !is_float(t)) return u; }
  else if (o->fbits == 64) { uint64_t u = (uint64_t)o->imm; memcpy(&d, &u, 8); if (t == PT_F64 || !is_float(t)) return u; }
  else d = o->f;
  if (t == PT_F32) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); return u; }
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

static uint32_t align_up(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

static int sreg_value(L *l, int s);
static int var_addr(L *l, const ptx_var *v, int generic);

/* The register holding operand o read as type t. */
static int val(L *l, const ptx_opnd *o, ptx_type t) {
  switch (o->kind) {
  case PO_REG: {
    int r = reg_of(l, o->reg);
    if (o->neg) { int q = tmp(l); emit(l, OP_LNOT_U32, q, r, -1, -1, 0, 0); return q; }
    if (ptx_type_size(t) < 4 && t != PT_PRED) return canon(l, r, sk_of(t));
    return r;
  }
  case PO_IMM: {
    uint64_t v = (uint64_t)o->imm;
    if (is_float(t)) {
      double d = (double)o->imm;
      if (t == PT_F32) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); v = u; }
      else memcpy(&v, &d, 8);
    } else if (t != PT_NONE && t != PT_PRED) {
      kir_sk sk = sk_of(t);
      if (ptx_type_size(t) < 8) v = sem_canon(sk, v);
    }
    return kconst(l, v);
  }
  case PO_FIMM: return kconst(l, float_bits(o, t));
  case PO_SREG: return sreg_value(l, o->sreg);
  case PO_SYM: {
    int r = var_addr(l, o->var, 0);
    if (o->imm) { int c = kconst(l, (uint64_t)o->imm), q = tmp(l); emit(l, OP_PADD, q, r, c, -1, 0, 0); r = q; }
    return r;
  }
  case PO_SINK: fail_at(l, l->cur, "'_' cannot be read");
  default: fail_at(l, l->cur, "unsupported operand in '%s'", ins_name(l, l->cur));
  }
}

static int dst_reg(L *l, const ptx_opnd *o) {
  if (o->kind == PO_SINK) return tmp(l);
  if (o->kind != PO_REG || o->neg) fail_at(l, l->cur, "'%s' needs a register as destination", ins_name(l, l->cur));
  return reg_of(l, o->reg);
}

static void nops(L *l, const ptx_ins *in, int n) {
  if (in->nops != n) fail_at(l, in, "'%s' takes %d operands, %d given", ins_name(l, in), n, in->nops);
}

static int sreg_value(L *l, int s) {
  static const int map[] = {SR_TID_X, SR_TID_Y, SR_TID_Z, SR_NTID_X, SR_NTID_Y, SR_NTID_Z, SR_CTAID_X, SR_CTAID_Y,
                            SR_CTAID_Z, SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z, SR_LANEID, SR_CLOCK, SR_CLOCK};
  int r = tmp(l);
  if (s <= PSR_CLOCK64) { emit(l, OP_SREG, r, -1, -1, -1, map[s], 0); return r; }
  if (s >= PSR_RSMEM_BEGIN && s <= PSR_RSMEM_1) {
    /* sm_80+ reserves 1 KiB of each block's shared memory for the system
     * (cooperative groups keeps its scratch there): a region of the
     * block's static shared memory here, its offsets shared-window offsets */
    if (l->reserved_off < 0) {
      l->shared_off = align_up(l->shared_off, 16);
      l->reserved_off = l->shared_off;
      l->shared_off += 1024;
    }
    uint64_t v = s == PSR_RSMEM_CAP ? 1024 : s == PSR_RSMEM_END ? (uint64_t)l->reserved_off + 1024 : (uint64_t)l->reserved_off;
    emit(l, OP_CONST, r, -1, -1, -1, (int64_t)v, 0);
    return r;
  }
  if (s == PSR_ENVREG1 || s == PSR_ENVREG2) { emit(l, OP_SREG, r, -1, -1, -1, s == PSR_ENVREG1 ? SR_GRIDWS_HI : SR_GRIDWS_LO, 0); return r; }
  if (s >= PSR_GLOBALTIMER && s <= PSR_GLOBALTIMER_HI) {   /* deterministic time: the clock of %clock64 */
    emit(l, OP_SREG, r, -1, -1, -1, SR_CLOCK, 0);
    if (s == PSR_GLOBALTIMER) return r;
    int h = tmp(l);
    if (s == PSR_GLOBALTIMER_HI) emit(l, OP_SHR_U64, h, r, kconst(l, 32), -1, 0, 0);
    else emit(l, OP_AND_U64, h, r, kconst(l, 0xffffffffu), -1, 0, 0);
    return h;
  }
  /* lane masks from the lane id */
  emit(l, OP_SREG, r, -1, -1, -1, SR_LANEID, 0);
  int one = kconst(l, 1), bit = tmp(l);
  emit(l, OP_SHL_U32, bit, one, r, -1, 0, 0);
  int q = tmp(l);
  switch (s) {
  case PSR_LANEMASK_EQ: return bit;
  case PSR_LANEMASK_LT: emit(l, OP_SUB_U32, q, bit, one, -1, 0, 0); return q;
  case PSR_LANEMASK_GE: emit(l, OP_SUB_U32, q, bit, one, -1, 0, 0); { int n = tmp(l); emit(l, OP_NOT_U32, n, q, -1, -1, 0, 0); return n; }
  default: {   /* le, gt: (bit << 1) - 1, gt its complement; lane 31 shifts out to 0 */
    int b2 = tmp(l);
    emit(l, OP_SHL_U32, b2, bit, one, -1, 0, 0);
    emit(l, OP_SUB_U32, q, b2, one, -1, 0, 0);
    if (s == PSR_LANEMASK_LE) return q;
    int n = tmp(l);
    emit(l, OP_NOT_U32, n, q, -1, -1, 0, 0);
    return n;
  }
  }
}

/* ------------------------------------------------------------- variables and addresses */

static uint64_t tag_of(ptx_space sp) { return sp == PS_SHARED ? KIR_ADDR(SPACE_SHARED, 0) : KIR_ADDR(SPACE_LOCAL, 0); }


static uint32_t shared_offset(L *l, const ptx_var *v) {
  if (v->is_extern) {   /* dynamic shared memory: its base is known once all static shared is placed */
    l->uses_dyn = 1;
    return UINT32_MAX;
  }
  if (v->owner < 0) {
    int64_t *o = vec_at(&l->shared_at, (size_t)v->index);
    if (*o < 0) { l->shared_off = align_up(l->shared_off, v->align); *o = l->shared_off; l->shared_off += v->size; }
    return (uint32_t)*o;
  }
  for (size_t k = 0; k < l->fshared.len; k++) { fsh *e = vec_at(&l->fshared, k); if (e->var == v) return e->off; }
  fsh *e = vec_push(&l->fshared);
  e->var = v;
  l->shared_off = align_up(l->shared_off, v->align);
  e->off = l->shared_off;
  l->shared_off += v->size;
  return e->off;
}

static slot *find_slot(vec *s, const ptx_var *v) {
  for (size_t k = 0; k < s->len; k++) { slot *e = vec_at(s, k); if (e->var == v) return e; }
  return NULL;
}

static int64_t local_offset(L *l, const ptx_var *v) {
  slot *s = find_slot(&l->in->locals, v);
  if (s) return s->frame;
  s = vec_push(&l->in->locals);
  s->var = v;
  s->reg = -1;
  l->frame = align_up(l->frame, v->align ? v->align : 1);
  s->frame = l->frame;
  l->frame += v->size ? v->size : 1;
  return s->frame;
}

/* A .global or .const variable as a module global. */
static void add_global(L *l, ptx_var *v) {
  if (v->is_extern) fail_at(l, l->cur, "external variable '%s': gpurace runs whole programs", v->name);
  kir_global *g = vec_push(&l->globals);
  const char *sig = NULL;
  g->name = ptx_names_display(l->ar, v->name, &sig);
  g->sym = v->name;
  g->size = v->size;
  g->align = v->align;
  g->elem = sk_of(v->type);
  g->init = v->init;
  g->decl = (srcpos){l->pm->path, v->line, 1};
  g->internal = v->name[0] == '$' || !strncmp(v->name, "__unnamed_", 10);
  v->index = (int)l->globals.len - 1;
}

/* A variable's address: generic (tagged) or in its own space's window. */
static int var_addr(L *l, const ptx_var *v, int generic) {
  switch (v->space) {
  case PS_GLOBAL: case PS_CONST: {
    if (v->index < 0) fail_at(l, l->cur, "internal error: variable '%s' has no global", v->name);
    int r = tmp(l);
    emit(l, OP_GADDR, r, -1, -1, -1, v->index, 0);
    return r;
  }
  case PS_SHARED: {
    uint32_t off = shared_offset(l, v);
    int r = tmp(l);
    emit(l, OP_CONST, r, -1, -1, -1, (int64_t)((generic ? tag_of(PS_SHARED) : 0) | (off == UINT32_MAX ? 0 : off)),
         off == UINT32_MAX ? KIR_CONST_DYNSHARED : 0);
    return r;
  }
  case PS_LOCAL:
    return kconst(l, (generic ? tag_of(PS_LOCAL) : 0) | (uint64_t)local_offset(l, v));
  default:
    fail_at(l, l->cur, "the address of parameter '%s' is not supported (taken by '%s')", v->name, ins_name(l, l->cur));
  }
}

/* The generic address an ld/st/atom in space sp reads through operand o
 * (a PO_ADDR), with the constant offset left in *off for the op's imm. */
static int mem_addr(L *l, const ptx_opnd *o, ptx_space sp, int64_t *off) {
  if (o->kind != PO_ADDR) fail_at(l, l->cur, "'%s' needs an address operand [..]", ins_name(l, l->cur));
  *off = o->imm;
  if (o->var) {
    const ptx_var *v = o->var;
    if (sp != PS_NONE && v->space != sp && !(sp == PS_CONST && v->space == PS_GLOBAL))
      fail_at(l, l->cur, "'%s' names %s variable '%s'", ins_name(l, l->cur), ptx_space_name[v->space], v->name);
    return var_addr(l, v, 1);
  }
  if (o->reg < 0) {
    if (sp == PS_SHARED || sp == PS_LOCAL) { *off = 0; return kconst(l, tag_of(sp) | (uint64_t)o->imm); }
    fail_at(l, l->cur, "absolute address %lld in '%s'", (long long)o->imm, ins_name(l, l->cur));
  }
  int r = reg_of(l, o->reg);
  if (sp == PS_SHARED || sp == PS_LOCAL) {
    ptx_type rt = l->in->f->regs[o->reg];
    int x = ptx_type_size(rt) < 8 ? canon(l, r, SK_U32) : r;
    int t = kconst(l, tag_of(sp)), q = tmp(l);
    emit(l, OP_OR_U64, q, x, t, -1, 0, 0);
    return q;
  }
  return r;
}

static ptx_space space_of(const ptx_ins *in) {
  if (has(in, "global")) return PS_GLOBAL;
  if (has(in, "shared") || has(in, "shared::cta")) return PS_SHARED;
  if (has(in, "local")) return PS_LOCAL;
  if (has(in, "const")) return PS_CONST;
  if (has(in, "param")) return PS_PARAM;
  return PS_NONE;
}

static int scope_of(L *l, const ptx_ins *in, int dflt) {
  if (has(in, "cta")) return SCOPE_BLOCK;
  if (has(in, "gpu")) return SCOPE_DEVICE;
  if (has(in, "sys")) return SCOPE_SYSTEM;
  if (has(in, "cluster")) UNSUP(l, in, "scope (.cluster)");
  return dflt;
}

/* ------------------------------------------------------------- parameters */

/* The slot of a .param variable as this instance sees it. */
static slot *param_slot(L *l, const ptx_var *v) {
  slot *s = find_slot(&l->in->slots, v);
  if (s) return s;
  /* a call-site parameter of this function: a register when scalar, else frame memory */
  s = vec_push(&l->in->slots);
  s->var = v;
  if (!v->is_array && v->size <= 8) { s->reg = persistent(l); s->frame = -1; }
  else {
    s->reg = -1;
    l->frame = align_up(l->frame, v->align ? v->align : 1);
    s->frame = l->frame;
    l->frame += v->size ? v->size : 1;
  }
  return s;
}

static void ld_st_param(L *l, const ptx_ins *in, int is_ld, ptx_type t, int vreg_or_dst, const ptx_opnd *addr, int64_t extra) {
  if (addr->kind != PO_ADDR || !addr->var || addr->var->space != PS_PARAM)
    fail_at(l, in, "'%s' must name a .param variable", ins_name(l, in));
  const ptx_var *v = addr->var;
  int64_t off = addr->imm + extra;
  if (v->is_fparam && !l->in->up && l->in->f->is_entry) {
    /* a kernel parameter */
    if (!is_ld) fail_at(l, in, "'%s' writes kernel parameter '%s'", ins_name(l, in), v->name);
    if (v->is_array) {   /* a struct by value: the thread's copy in its frame (copied at entry) */
      slot *s = find_slot(&l->in->slots, v);
      if (!s) fail_at(l, in, "internal error: struct parameter '%s' has no copy", v->name);
      if (off < 0 || off + ptx_type_size(t) > (int64_t)v->size) fail_at(l, in, "access outside parameter '%s'", v->name);
      int a = kconst(l, tag_of(PS_LOCAL) | (uint64_t)(s->frame + off));
      emit(l, OP_LD, vreg_or_dst, a, -1, -1, 0, sk_of(t));
      return;
    }
    if (off) fail_at(l, in, "offset %lld into scalar kernel parameter '%s'", (long long)off, v->name);
    int r = tmp(l);
    emit(l, OP_PARAM, r, -1, -1, -1, v->index, 0);
    emit(l, OP_MOV, vreg_or_dst, r, -1, -1, 0, 0);
    return;
  }
  slot *s = param_slot(l, v);
  if (s->reg >= 0) {
    if (off) fail_at(l, in, "offset %lld into scalar parameter '%s'", (long long)off, v->name);
    if (is_ld && !is_float(t) && ptx_type_size(t) < 8) emit(l, OP_CVT, vreg_or_dst, s->reg, -1, -1, SK_U64 | (int64_t)sk_of(t) << 8, 0);
    else if (is_ld) emit(l, OP_MOV, vreg_or_dst, s->reg, -1, -1, 0, 0);
    else emit(l, OP_MOV, s->reg, vreg_or_dst, -1, -1, 0, 0);
    return;
  }
  if (off < 0 || off + ptx_type_size(t) > (int64_t)v->size) fail_at(l, in, "access outside parameter '%s'", v->name);
  int a = kconst(l, tag_of(PS_LOCAL) | (uint64_t)(s->frame + off));
  if (is_ld) emit(l, OP_LD, vreg_or_dst, a, -1, -1, 0, sk_of(t));
  else emit(l, OP_ST, -1, a, vreg_or_dst, -1, 0, sk_of(t));
}

/* ------------------------------------------------------------- instructions */

static int ordered_flags(L *l, const ptx_ins *in, kir_sk sk, int is_ld) {
  int vol = has(in, "volatile"), rel = has(in, "relaxed"), acq = has(in, "acquire"), rls = has(in, "release");
  if (vol + rel + acq + rls > 1) fail_at(l, in, "'%s' has more than one memory order", ins_name(l, in));
  if (vol) return KIR_MF_STRONG(sk, SCOPE_SYSTEM, MO_RELAXED);
  if (acq && !is_ld) fail_at(l, in, "a store cannot be .acquire");
  if (rls && is_ld) fail_at(l, in, "a load cannot be .release");
  if (rel || acq || rls) {
    int scope = scope_of(l, in, -1);
    if (scope < 0) fail_at(l, in, "'%s' needs a scope (.cta, .gpu or .sys)", ins_name(l, in));
    return KIR_MF_STRONG(sk, scope, rel ? MO_RELAXED : acq ? MO_ACQUIRE : MO_RELEASE);
  }
  return sk;
}

static const char *const ldst_mods[] = {"global", "shared", "shared::cta", "local", "const", "param", "volatile",
  "weak", "relaxed", "acquire", "release", "cta", "gpu", "sys", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc",
  "v2", "v4", NULL};

static void lower_ldst(L *l, const ptx_ins *in, int is_ld) {
  only_mods(l, in, ldst_mods);
  nops(l, in, 2);
  ptx_type t = need_type(l, in);
  ptx_space sp = space_of(in);
  int nv = has(in, "v4") ? 4 : has(in, "v2") ? 2 : 1;
  const ptx_opnd *data = is_ld ? &in->ops[0] : &in->ops[1], *addr = is_ld ? &in->ops[1] : &in->ops[0];
  if (nv > 1 && (data->kind != PO_VEC || data->nvec != nv)) fail_at(l, in, "'%s' needs a vector of %d registers", ins_name(l, in), nv);
  if (nv == 1 && data->kind == PO_VEC) fail_at(l, in, "a vector operand needs .v2 or .v4 in '%s'", ins_name(l, in));
  int es = ptx_type_size(t);
  if (sp == PS_PARAM) {
    for (int k = 0; k < nv; k++) {
      const ptx_opnd *e = nv > 1 ? &data->vec[k] : data;
      if (e->kind == PO_SINK) continue;
      int r = is_ld ? dst_reg(l, e) : val(l, e, t);
      ld_st_param(l, in, is_ld, t, r, addr, (int64_t)k * es);
    }
    return;
  }
  kir_sk sk = sk_of(t);
  int flags = ordered_flags(l, in, sk, is_ld);
  if (has(in, "nc") && !is_ld) fail_at(l, in, "a store cannot be .nc");
  int64_t off;
  int a = mem_addr(l, addr, sp, &off);
  for (int k = 0; k < nv; k++) {
    const ptx_opnd *e = nv > 1 ? &data->vec[k] : data;
    if (is_ld) {
      int d = dst_reg(l, e);
      emit(l, OP_LD, d, a, -1, -1, off + (int64_t)k * es, flags);
    } else {
      int v = val(l, e, t);
      emit(l, OP_ST, -1, a, v, -1, off + (int64_t)k * es, flags);
    }
  }
}

static void lower_atom(L *l, const ptx_ins *in, int is_red) {
  static const char *const ok[] = {"global", "shared", "shared::cta", "relaxed", "acquire", "release", "acq_rel", "cta",
    "gpu", "sys", "add", "sub", "exch", "min", "max", "inc", "dec", "cas", "and", "or", "xor", "noftz", NULL};
  only_mods(l, in, ok);
  static const struct { const char *n; int k; } ops[] = {{"add", AT_ADD}, {"exch", AT_EXCH}, {"min", AT_MIN}, {"max", AT_MAX},
    {"inc", AT_INC}, {"dec", AT_DEC}, {"cas", AT_CAS}, {"and", AT_AND}, {"or", AT_OR}, {"xor", AT_XOR}};
  int kind = -1;
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) if (has(in, ops[k].n)) kind = ops[k].k;
  if (kind < 0) fail_at(l, in, "'%s' names no atomic operation", ins_name(l, in));
  ptx_type t = need_type(l, in);
  if (ptx_type_size(t) < 4) UNSUP(l, in, "operand size");
  if (is_float(t) && kind != AT_ADD && kind != AT_EXCH && kind != AT_CAS && kind != AT_MIN && kind != AT_MAX) UNSUP(l, in, "floating-point operation");
  if (is_float(t) && (kind == AT_MIN || kind == AT_MAX)) UNSUP(l, in, "floating-point min/max");
  int order = has(in, "acquire") ? MO_ACQUIRE : has(in, "release") ? MO_RELEASE : has(in, "acq_rel") ? MO_ACQ_REL : MO_RELAXED;
  int scope = scope_of(l, in, SCOPE_DEVICE);
  kir_sk sk = sk_of(t);
  if (kind == AT_INC || kind == AT_DEC) sk = SK_U32;
  int first = is_red ? 0 : 1;
  nops(l, in, first + (kind == AT_CAS ? 3 : 2));
  int64_t off;
  int a = mem_addr(l, &in->ops[first], space_of(in), &off);
  if (off) { int c = kconst(l, (uint64_t)off), q = tmp(l); emit(l, OP_PADD, q, a, c, -1, 0, 0); a = q; }
  int b = val(l, &in->ops[first + 1], t);
  if (ptx_type_size(t) == 4 && in->ops[first + 1].kind == PO_REG) b = canon(l, b, sk);
  int c = -1;
  if (kind == AT_CAS) {
    c = val(l, &in->ops[first + 2], t);
    if (ptx_type_size(t) == 4 && in->ops[first + 2].kind == PO_REG) c = canon(l, c, sk);
  }
  int d = is_red || in->ops[0].kind == PO_SINK ? -1 : dst_reg(l, &in->ops[0]);
  emit(l, OP_ATOM, d, a, b, c, 0, sk | kind << 8 | scope << MF_SCOPE_SHIFT | order << MF_ORDER_SHIFT);
}

/* The register a binary op's b operand is in; shifts read it as u32. */
static void lower_arith(L *l, const ptx_ins *in, int base) {
  ptx_type t = need_type(l, in);
  nops(l, in, 3);
  int vt = vt_of(t);
  int d = dst_reg(l, &in->ops[0]);
  int a = val(l, &in->ops[1], t);
  int is_shift = base == OP_SHL_I32 || base == OP_SHR_I32;
  int b;
  if (is_shift) {
    b = val(l, &in->ops[2], PT_U32);
    if (in->ops[2].kind == PO_REG && is_wide(t)) b = canon(l, b, SK_U32);
    if (base == OP_SHL_I32) vt = is_wide(t) ? VT_U64 : VT_U32;
  } else b = val(l, &in->ops[2], t);
  emit(l, base + vt, d, a, b, -1, 0, 0);
}

static void lower_mul(L *l, const ptx_ins *in, int is_mad) {
  ptx_type t = need_type(l, in);
  nops(l, in, is_mad ? 4 : 3);
  int d = dst_reg(l, &in->ops[0]);
  int vt = vt_of(t), r = tmp(l);
  if (is_float(t)) {
    if (!has(in, "rn") && (has(in, "rz") || has(in, "rm") || has(in, "rp"))) UNSUP(l, in, "rounding mode");
    if (has(in, "sat")) UNSUP(l, in, "saturation");
    int a = val(l, &in->ops[1], t), b = val(l, &in->ops[2], t);
    if (is_mad) {
      int c = val(l, &in->ops[3], t);
      emit(l, OP_MATH, d, a, b, c, t == PT_F32 ? MATH_FMAF : MATH_FMA, 0);   /* mad.rn.f32 is a fused multiply-add */
    } else emit(l, OP_MUL_F32 + (vt - VT_F32), d, a, b, -1, 0, 0);
    return;
  }
  if (has(in, "sat") || has(in, "cc")) UNSUP(l, in, "modifier");
  if (has(in, "wide")) {
    if (is_wide(t)) fail_at(l, in, "'.wide' takes a 16- or 32-bit type");
    int wide64 = ptx_type_size(t) == 4;
    kir_sk from = sk_of(t);
    int a = canon(l, val(l, &in->ops[1], t), from), b = canon(l, val(l, &in->ops[2], t), from);
    int op = wide64 ? (is_signed(t) ? OP_MUL_I64 : OP_MUL_U64) : (is_signed(t) ? OP_MUL_I32 : OP_MUL_U32);
    emit(l, op, is_mad ? r : d, a, b, -1, 0, 0);
    if (is_mad) {
      ptx_type wt = wide64 ? (is_signed(t) ? PT_S64 : PT_U64) : (is_signed(t) ? PT_S32 : PT_U32);
      int c = val(l, &in->ops[3], wt);
      emit(l, op - OP_MUL_I32 + OP_ADD_I32, d, r, c, -1, 0, 0);
    }
    return;
  }
  int a = val(l, &in->ops[1], t), b = val(l, &in->ops[2], t);
  int out = is_mad ? r : d;
  if (has(in, "hi")) {
    int fn = ptx_type_size(t) == 8 ? (is_signed(t) ? MATH_MUL64HI : MATH_UMUL64HI) : (is_signed(t) ? MATH_MULHI : MATH_UMULHI);
    if (ptx_type_size(t) < 4) UNSUP(l, in, "type");
    emit(l, OP_MATH, out, a, b, -1, fn, 0);
  } else {
    if (!has(in, "lo")) fail_at(l, in, "integer '%s' needs .lo, .hi or .wide", ins_name(l, in));
    emit(l, OP_MUL_I32 + vt, out, a, b, -1, 0, 0);
  }
  if (is_mad) {
    int c = val(l, &in->ops[3], t);
    emit(l, OP_ADD_I32 + vt, d, r, c, -1, 0, 0);
  }
}

/* setp's comparison of a and b, as a 0/1 register. */
static int compare(L *l, const ptx_ins *in, const char *cmp, ptx_type t, int a, int b) {
  int vt = vt_of(t), r = tmp(l);
  if (!is_float(t)) {
    if (!strcmp(cmp, "lo") || !strcmp(cmp, "ls") || !strcmp(cmp, "hi") || !strcmp(cmp, "hs"))
      vt = is_wide(t) ? VT_U64 : VT_U32;
    static const struct { const char *n; int op; } c[] = {{"eq", OP_EQ_I32}, {"ne", OP_NE_I32}, {"lt", OP_LT_I32},
      {"le", OP_LE_I32}, {"gt", OP_GT_I32}, {"ge", OP_GE_I32}, {"lo", OP_LT_I32}, {"ls", OP_LE_I32}, {"hi", OP_GT_I32}, {"hs", OP_GE_I32}};
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
      if (!strcmp(cmp, c[k].n)) { emit(l, c[k].op + vt, r, a, b, -1, 0, 0); return r; }
    fail_at(l, in, "unknown integer comparison '.%s'", cmp);
  }
  /* ordered comparisons are false with a NaN; the u forms are true */
  static const struct { const char *n; int op; int unord; } c[] = {{"eq", OP_EQ_I32, 0}, {"lt", OP_LT_I32, 0},
    {"le", OP_LE_I32, 0}, {"gt", OP_GT_I32, 0}, {"ge", OP_GE_I32, 0}, {"ltu", OP_GE_I32, 1}, {"leu", OP_GT_I32, 1},
    {"gtu", OP_LE_I32, 1}, {"geu", OP_LT_I32, 1}, {"neu", OP_NE_I32, 0}};
  for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
    if (strcmp(cmp, c[k].n)) continue;
    emit(l, c[k].op + vt, r, a, b, -1, 0, 0);
    if (!c[k].unord) return r;
    int q = tmp(l);
    emit(l, OP_LNOT_U32, q, r, -1, -1, 0, 0);
    return q;
  }
  int lt = tmp(l), gt = tmp(l);
  if (!strcmp(cmp, "ne") || !strcmp(cmp, "equ")) {   /* ne: ordered and unequal; equ: its negation */
    emit(l, OP_LT_I32 + vt, lt, a, b, -1, 0, 0);
    emit(l, OP_GT_I32 + vt, gt, a, b, -1, 0, 0);
    emit(l, OP_OR_U32, r, lt, gt, -1, 0, 0);
    if (cmp[1] == 'e') return r;
    int q = tmp(l);
    emit(l, OP_LNOT_U32, q, r, -1, -1, 0, 0);
    return q;
  }
  if (!strcmp(cmp, "num") || !strcmp(cmp, "nan")) {
    emit(l, OP_EQ_I32 + vt, lt, a, a, -1, 0, 0);
    emit(l, OP_EQ_I32 + vt, gt, b, b, -1, 0, 0);
    emit(l, OP_AND_U32, r, lt, gt, -1, 0, 0);
    if (cmp[1] == 'u') return r;
    int q = tmp(l);
    emit(l, OP_LNOT_U32, q, r, -1, -1, 0, 0);
    return q;
  }
  fail_at(l, in, "unknown floating-point comparison '.%s'", cmp);
}

static void lower_setp(L *l, const ptx_ins *in) {
  ptx_type t = need_type(l, in);
  if (in->nmods < 2) fail_at(l, in, "'%s' needs a comparison", ins_name(l, in));
  const char *cmp = in->mods[0];
  const char *bop = NULL;
  for (int k = 1; k < in->nmods; k++) {
    if (!strcmp(in->mods[k], "and") || !strcmp(in->mods[k], "or") || !strcmp(in->mods[k], "xor")) bop = in->mods[k];
    else if (!strcmp(in->mods[k], "ftz")) continue;   /* flushing subnormal inputs to zero: see docs/ptx.md */
    else if (!mod_type(in->mods[k])) fail_at(l, in, "unsupported modifier '.%s' in '%s'", in->mods[k], ins_name(l, in));
  }
  nops(l, in, bop ? 4 : 3);
  int a = val(l, &in->ops[1], t), b = val(l, &in->ops[2], t);
  int r = compare(l, in, cmp, t, a, b);
  int p = dst_reg(l, &in->ops[0]), q = in->ops[0].reg2 >= 0 ? reg_of(l, in->ops[0].reg2) : -1;
  int nr = -1;
  if (q >= 0) { nr = tmp(l); emit(l, OP_LNOT_U32, nr, r, -1, -1, 0, 0); }
  if (!bop) {
    emit(l, OP_MOV, p, r, -1, -1, 0, 0);
    if (q >= 0) emit(l, OP_MOV, q, nr, -1, -1, 0, 0);
    return;
  }
  int c = val(l, &in->ops[3], PT_PRED);
  int op = bop[0] == 'a' ? OP_AND_U32 : bop[0] == 'o' ? OP_OR_U32 : OP_XOR_U32;
  if (q >= 0) emit(l, op, q, nr, c, -1, 0, 0);
  emit(l, op, p, r, c, -1, 0, 0);
}

/* ------------------------------------------------------------- half precision */

static int kir_mode(const ptx_ins *in) { return has(in, "rz") ? KIR_RZ : has(in, "rm") ? KIR_RM : has(in, "rp") ? KIR_RP : KIR_RN; }

/* A half in the low 16 bits of x as f32 bits (exact). */
static int half_widen(L *l, int x, int bf) {
  int r = tmp(l);
  emit(l, OP_MATH, r, x, -1, -1, bf ? MATH_BF2F : MATH_H2F, 0);
  return r;
}
/* f64 bits rounded to a half by mode. */
static int half_round(L *l, int d64, int bf, int mode) {
  int r = tmp(l);
  emit(l, OP_MATH, r, d64, kconst(l, (uint64_t)mode), -1, bf ? MATH_D2BF : MATH_D2H, 0);
  return r;
}
/* f32 bits to f64 bits (exact). */
static int f32_to_f64(L *l, int x) {
  int r = tmp(l);
  emit(l, OP_CVT, r, x, -1, -1, SK_F32 | (int64_t)SK_F64 << 8, 0);
  return r;
}
/* The low (k 0) or high (k 1) half of a 32-bit pair. */
static int half_at(L *l, int x, int k) {
  int r = tmp(l);
  if (k) emit(l, OP_SHR_U32, r, x, kconst(l, 16), -1, 0, 0);
  else emit(l, OP_AND_U32, r, x, kconst(l, 0xffff), -1, 0, 0);
  return r;
}
static int half_pack(L *l, int lo, int hi) {
  int s = tmp(l), r = tmp(l);
  emit(l, OP_SHL_U32, s, hi, kconst(l, 16), -1, 0, 0);
  emit(l, OP_OR_U32, r, lo, s, -1, 0, 0);
  return r;
}

/* cvt with a half on either side: to f32/f64 exactly, from them rounded
 * once by the mode; integers by way of f32 (exact for 8- to 32-bit
 * integers and halves); cvt.f16x2.f32 d, a, b packs a high, b low. */
static void lower_cvt_half(L *l, const ptx_ins *in, ptx_type dt, ptx_type st) {
  static const char *const ok[] = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "ftz", NULL};
  only_mods(l, in, ok);
  int dh = half_kind(dt), sh = half_kind(st), mode = kir_mode(in);
  if (is_pair(st) || (is_pair(dt) && st != PT_F32)) UNSUP(l, in, "half-precision conversion");
  if ((dh >= 0 && sh < 0 && !is_float(st) && ptx_type_size(st) == 8) || (sh >= 0 && dh < 0 && !is_float(dt) && ptx_type_size(dt) == 8))
    UNSUP(l, in, "conversion between a half and a 64-bit integer");
  if (is_pair(dt)) {
    nops(l, in, 3);
    int a = half_round(l, f32_to_f64(l, val(l, &in->ops[1], PT_F32)), dh, mode);
    int b = half_round(l, f32_to_f64(l, val(l, &in->ops[2], PT_F32)), dh, mode);
    emit(l, OP_MOV, dst_reg(l, &in->ops[0]), half_pack(l, b, a), -1, -1, 0, 0);
    return;
  }
  nops(l, in, 2);
  int d = dst_reg(l, &in->ops[0]);
  int x = val(l, &in->ops[1], st);
  if (sh >= 0) {   /* from a half: f32 first */
    int f = half_widen(l, x, sh);
    if (dh >= 0) { emit(l, OP_MOV, d, half_round(l, f32_to_f64(l, f), dh, mode), -1, -1, 0, 0); return; }
    if (dt == PT_F32) { emit(l, OP_MOV, d, f, -1, -1, 0, 0); return; }
    if (dt == PT_F64) { emit(l, OP_CVT, d, f, -1, -1, SK_F32 | (int64_t)SK_F64 << 8, 0); return; }
    int fn = has(in, "rni") ? MATH_RINTF : has(in, "rmi") ? MATH_FLOORF : has(in, "rpi") ? MATH_CEILF : has(in, "rzi") ? MATH_TRUNCF : -1;
    if (fn < 0) fail_at(l, in, "'%s' needs an integer rounding (.rni, .rzi, .rmi, .rpi)", ins_name(l, in));
    int r = tmp(l);
    emit(l, OP_MATH, r, f, -1, -1, fn, 0);
    emit(l, OP_CVT, d, r, -1, -1, SK_F32 | (int64_t)sk_of(dt) << 8, 0);
    return;
  }
  /* to a half */
  int d64;
  if (st == PT_F64) d64 = x;
  else if (st == PT_F32) d64 = f32_to_f64(l, x);
  else {
    if (in->ops[1].kind == PO_REG && ptx_type_size(st) < 8) x = canon(l, x, sk_of(st));
    d64 = tmp(l);
    emit(l, OP_CVT, d64, x, -1, -1, sk_of(st) | (int64_t)SK_F64 << 8, 0);
  }
  emit(l, OP_MOV, d, half_round(l, d64, dh, mode), -1, -1, 0, 0);
}

/* One half's arithmetic (f16 or bf16, in the low 16 bits): add, sub and mul
 * are a fused multiply-add with 1 or -0, rounded once; neg and abs touch
 * the sign bit; min and max and the approximate functions go by way of
 * f32 (exact for min and max). */
static int half_op(L *l, const char *op, int bf, int a, int b, int c) {
  int one = kconst(l, bf ? 0x3f80 : 0x3c00), nz = kconst(l, 0x8000), r = tmp(l);
  int fma = bf ? MATH_BFFMA : MATH_HFMA;
  if (!strcmp(op, "add")) emit(l, OP_MATH, r, a, one, b, fma, 0);
  else if (!strcmp(op, "sub")) { int nb = tmp(l); emit(l, OP_XOR_U32, nb, b, nz, -1, 0, 0); emit(l, OP_MATH, r, a, one, nb, fma, 0); }
  else if (!strcmp(op, "mul")) emit(l, OP_MATH, r, a, b, nz, fma, 0);
  else if (!strcmp(op, "fma")) emit(l, OP_MATH, r, a, b, c, fma, 0);
  else if (!strcmp(op, "neg")) emit(l, OP_XOR_U32, r, a, nz, -1, 0, 0);
  else if (!strcmp(op, "abs")) emit(l, OP_AND_U32, r, a, kconst(l, 0x7fff), -1, 0, 0);
  else if (!strcmp(op, "min") || !strcmp(op, "max")) {
    int m = tmp(l);
    emit(l, op[1] == 'i' ? OP_MIN_F32 : OP_MAX_F32, m, half_widen(l, a, bf), half_widen(l, b, bf), -1, 0, 0);
    r = half_round(l, f32_to_f64(l, m), bf, KIR_RN);
  } else {
    int fn = !strcmp(op, "ex2") ? MATH_EXP2F : !strcmp(op, "tanh") ? MATH_TANHF : !strcmp(op, "sqrt") ? MATH_SQRTF
           : !strcmp(op, "rsqrt") ? MATH_RSQRTF : !strcmp(op, "sin") ? MATH_SINF : !strcmp(op, "cos") ? MATH_COSF
           : !strcmp(op, "lg2") ? MATH_LOG2F : -1;
    if (fn < 0 && strcmp(op, "rcp")) fail_at(l, l->cur, "'%s' is not supported on half precision", ins_name(l, l->cur));
    int m = tmp(l), w = half_widen(l, a, bf);
    if (fn >= 0) emit(l, OP_MATH, m, w, -1, -1, fn, 0);
    else emit(l, OP_DIV_F32, m, kconst(l, 0x3f800000u), w, -1, 0, 0);
    r = half_round(l, f32_to_f64(l, m), bf, KIR_RN);
  }
  return r;
}

/* Arithmetic and comparisons on .f16, .bf16 and their pairs. */
static void lower_half(L *l, const ptx_ins *in) {
  static const char *const ok[] = {"rn", "ftz", "approx", NULL};
  const char *op = in->op;
  if (strcmp(op, "setp")) only_mods(l, in, ok);
  ptx_type t = type_n(in, 0);
  int bf = half_kind(t), pair = is_pair(t);
  if (!strcmp(op, "setp")) {   /* setp.cmp.f16[x2] p[|q], a, b */
    nops(l, in, 3);
    const char *cmp = NULL;
    for (int k = 0; k < in->nmods; k++) if (!mod_type(in->mods[k]) && strcmp(in->mods[k], "ftz")) cmp = in->mods[k];
    if (!cmp) fail_at(l, in, "'%s' needs a comparison", ins_name(l, in));
    int a = val(l, &in->ops[1], pair ? PT_B32 : PT_B16), b = val(l, &in->ops[2], pair ? PT_B32 : PT_B16);
    for (int k = 0; k < (pair ? 2 : 1); k++) {
      int ak = pair ? half_at(l, a, k) : a, bk = pair ? half_at(l, b, k) : b;
      int r = compare(l, in, cmp, PT_F32, half_widen(l, ak, bf), half_widen(l, bk, bf));
      int dr = k == 0 ? in->ops[0].reg : in->ops[0].reg2;
      if (k == 1 && dr < 0) fail_at(l, in, "'%s' on a pair needs two predicates (p|q)", ins_name(l, in));
      if (in->ops[0].kind != PO_REG) fail_at(l, in, "'%s' needs a predicate register", ins_name(l, in));
      emit(l, OP_MOV, reg_of(l, dr), r, -1, -1, 0, 0);
    }
    return;
  }
  int n = !strcmp(op, "fma") ? 4 : !strcmp(op, "neg") || !strcmp(op, "abs") || !strcmp(op, "ex2") || !strcmp(op, "tanh") ||
          !strcmp(op, "rcp") || !strcmp(op, "sqrt") || !strcmp(op, "rsqrt") || !strcmp(op, "sin") || !strcmp(op, "cos") ||
          !strcmp(op, "lg2") ? 2 : 3;
  nops(l, in, n);
  int v[3] = {-1, -1, -1};
  for (int k = 1; k < n; k++) v[k - 1] = val(l, &in->ops[k], pair ? PT_B32 : PT_B16);
  int d = dst_reg(l, &in->ops[0]);
  if (!pair) { emit(l, OP_MOV, d, half_op(l, op, bf, v[0], v[1], v[2]), -1, -1, 0, 0); return; }
  int r[2];
  for (int k = 0; k < 2; k++)
    r[k] = half_op(l, op, bf, half_at(l, v[0], k), v[1] >= 0 ? half_at(l, v[1], k) : -1, v[2] >= 0 ? half_at(l, v[2], k) : -1);
  emit(l, OP_MOV, d, half_pack(l, r[0], r[1]), -1, -1, 0, 0);
}

static void lower_cvt(L *l, const ptx_ins *in) {
  static const char *const ok[] = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "sat", "ftz", NULL};
  only_mods(l, in, ok);
  nops(l, in, 2);
  ptx_type dt = type_n(in, 0), st = type_n(in, 1);
  if (!dt || !st) fail_at(l, in, "'%s' needs two types", ins_name(l, in));
  if (half_kind(dt) >= 0 || half_kind(st) >= 0) { lower_cvt_half(l, in, dt, st); return; }
  int sat = has(in, "sat");
  if (sat && is_float(dt) && !is_float(st)) UNSUP(l, in, "saturation of an integer converted to floating point");
  int d = dst_reg(l, &in->ops[0]);
  int x = val(l, &in->ops[1], st);
  kir_sk ssk = sk_of(st), dsk = sk_of(dt);
  if (!is_float(st) && ptx_type_size(st) < 8 && in->ops[1].kind == PO_REG) x = canon(l, x, ssk);
  int rz = has(in, "rz"), rm = has(in, "rm"), rp = has(in, "rp");
  int fn = -1;
  if (has(in, "rni")) fn = st == PT_F32 ? MATH_RINTF : MATH_RINT;
  else if (has(in, "rmi")) fn = st == PT_F32 ? MATH_FLOORF : MATH_FLOOR;
  else if (has(in, "rpi")) fn = st == PT_F32 ? MATH_CEILF : MATH_CEIL;
  else if (has(in, "rzi")) fn = st == PT_F32 ? MATH_TRUNCF : MATH_TRUNC;
  if (fn >= 0 && !is_float(st)) fail_at(l, in, "integer rounding of an integer in '%s'", ins_name(l, in));
  if ((rz || rm || rp) && !(is_float(st) && is_float(dt) && ptx_type_size(dt) >= ptx_type_size(st))) UNSUP(l, in, "rounding mode");
  if (is_float(st) && !is_float(dt) && fn < 0) fail_at(l, in, "'%s' needs an integer rounding (.rni, .rzi, .rmi, .rpi)", ins_name(l, in));
  if (fn >= 0) { int r = tmp(l); emit(l, OP_MATH, r, x, -1, -1, fn, 0); x = r; }
  if (sat && !is_float(st) && !is_float(dt)) {
    /* integer to integer, clamped to the destination's range: compare as 64-bit */
    int wide = tmp(l);
    emit(l, OP_CVT, wide, x, -1, -1, ssk | (int64_t)(is_signed(st) ? SK_I64 : SK_U64) << 8, 0);
    int bits = ptx_type_size(dt) * 8;
    uint64_t hi = is_signed(dt) ? (bits == 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (bits - 1)) - 1) : (bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1);
    int64_t lo = is_signed(dt) ? (bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1))) : 0;
    int r = wide;
    if (is_signed(st)) {   /* a signed source: both bounds, as signed 64-bit (an unsigned 64-bit bound above INT64_MAX holds anyway) */
      int kl = kconst(l, (uint64_t)lo), q = tmp(l);
      emit(l, OP_MAX_I64, q, r, kl, -1, 0, 0);
      r = q;
      if (hi <= (uint64_t)INT64_MAX) { int kh = kconst(l, hi), q2 = tmp(l); emit(l, OP_MIN_I64, q2, r, kh, -1, 0, 0); r = q2; }
    } else {   /* unsigned: only the upper bound */
      int kh = kconst(l, hi), q = tmp(l);
      emit(l, OP_MIN_U64, q, r, kh, -1, 0, 0);
      r = q;
    }
    emit(l, OP_CVT, d, r, -1, -1, SK_U64 | (int64_t)dsk << 8, 0);
    return;
  }
  if (ssk != dsk) { int r = tmp(l); emit(l, OP_CVT, r, x, -1, -1, ssk | (int64_t)dsk << 8, 0); x = r; }
  if (sat && is_float(dt)) {   /* clamped to [0, 1], NaN to 0 */
    int w = dt == PT_F64;
    int zero = kconst(l, 0), one = kconst(l, w ? 0x3ff0000000000000ull : 0x3f800000u), a = tmp(l);
    emit(l, w ? OP_MAX_F64 : OP_MAX_F32, a, x, zero, -1, 0, 0);   /* fmax(NaN, 0) is 0 */
    emit(l, w ? OP_MIN_F64 : OP_MIN_F32, d, a, one, -1, 0, 0);
    return;
  }
  emit(l, OP_MOV, d, x, -1, -1, 0, 0);
}

static void lower_cvta(L *l, const ptx_ins *in) {
  nops(l, in, 2);
  int to = has(in, "to");
  ptx_space sp = space_of(in);
  int d = dst_reg(l, &in->ops[0]);
  if (in->ops[1].kind == PO_SYM && !to) {   /* cvta.shared d, sym: the generic address at once */
    int r = var_addr(l, in->ops[1].var, 1);
    if (in->ops[1].imm) { int c = kconst(l, (uint64_t)in->ops[1].imm), q = tmp(l); emit(l, OP_PADD, q, r, c, -1, 0, 0); r = q; }
    emit(l, OP_MOV, d, r, -1, -1, 0, 0);
    return;
  }
  int a = val(l, &in->ops[1], PT_U64);
  switch (sp) {
  case PS_GLOBAL: case PS_CONST: emit(l, OP_MOV, d, a, -1, -1, 0, 0); return;
  case PS_SHARED: case PS_LOCAL: {
    if (to) {
      int m = kconst(l, KIR_OFFSET_MASK(SPACE_SHARED));
      emit(l, OP_AND_U64, d, a, m, -1, 0, 0);
    } else {
      ptx_type t = need_type(l, in);
      int x = t == PT_U32 && in->ops[1].kind == PO_REG ? canon(l, a, SK_U32) : a;
      int tg = kconst(l, tag_of(sp));
      emit(l, OP_OR_U64, d, x, tg, -1, 0, 0);
    }
    return;
  }
  default: UNSUP(l, in, "state space");
  }
}

static void lower_mov(L *l, const ptx_ins *in) {
  nops(l, in, 2);
  ptx_type t = need_type(l, in);
  const ptx_opnd *d = &in->ops[0], *s = &in->ops[1];
  if (s->kind == PO_VEC) {   /* pack: mov.b64 d, {lo, hi} */
    int n = s->nvec, w = ptx_type_size(t) * 8 / n;
    if (n < 2 || (w != 8 && w != 16 && w != 32)) fail_at(l, in, "bad vector in '%s'", ins_name(l, in));
    int acc = kconst(l, 0);
    for (int k = 0; k < n; k++) {
      if (s->vec[k].kind != PO_REG && s->vec[k].kind != PO_IMM) fail_at(l, in, "bad vector element in '%s'", ins_name(l, in));
      int e = val(l, &s->vec[k], PT_U64);
      int z = canon(l, e, w == 32 ? SK_U32 : w == 16 ? SK_U16 : SK_U8);
      int sh = kconst(l, (uint64_t)(k * w)), q = tmp(l), o = tmp(l);
      emit(l, OP_SHL_U64, q, z, sh, -1, 0, 0);
      emit(l, OP_OR_U64, o, acc, q, -1, 0, 0);
      acc = o;
    }
    emit(l, OP_MOV, dst_reg(l, d), acc, -1, -1, 0, 0);
    return;
  }
  if (d->kind == PO_VEC) {   /* unpack: mov.b64 {lo, hi}, s */
    int n = d->nvec, w = ptx_type_size(t) * 8 / n;
    if (n < 2 || (w != 8 && w != 16 && w != 32)) fail_at(l, in, "bad vector in '%s'", ins_name(l, in));
    int x = val(l, s, PT_U64);
    for (int k = 0; k < n; k++) {
      if (d->vec[k].kind == PO_SINK) continue;
      int sh = kconst(l, (uint64_t)(k * w)), q = tmp(l);
      emit(l, OP_SHR_U64, q, x, sh, -1, 0, 0);
      emit(l, OP_CVT, dst_reg(l, &d->vec[k]), q, -1, -1, SK_U64 | (int64_t)(w == 32 ? SK_U32 : w == 16 ? SK_U16 : SK_U8) << 8, 0);
    }
    return;
  }
  int r = s->kind == PO_SYM ? var_addr(l, s->var, 0) : val(l, s, t);
  if (s->kind == PO_SYM && s->imm) { int c = kconst(l, (uint64_t)s->imm), q = tmp(l); emit(l, OP_ADD_U64, q, r, c, -1, 0, 0); r = q; }
  emit(l, OP_MOV, dst_reg(l, d), r, -1, -1, 0, 0);
}

static void lower_math1(L *l, const ptx_ins *in, int f32fn, int f64fn) {
  nops(l, in, 2);
  ptx_type t = need_type(l, in);
  if (!is_float(t) || (t == PT_F64 && f64fn < 0)) UNSUP(l, in, "type");
  int a = val(l, &in->ops[1], t);
  emit(l, OP_MATH, dst_reg(l, &in->ops[0]), a, -1, -1, t == PT_F32 ? f32fn : f64fn, 0);
}

/* bfe.u32/u64: (a >> pos) & ((1 << len) - 1), with pos and len as PTX clamps them (0..255). */
static void lower_bfe(L *l, const ptx_ins *in) {
  nops(l, in, 4);
  ptx_type t = need_type(l, in);
  if (is_signed(t)) UNSUP(l, in, "signed field extraction");
  int w = ptx_type_size(t) * 8;
  int a = val(l, &in->ops[1], t);
  if (w == 32 && in->ops[1].kind == PO_REG) a = canon(l, a, SK_U32);
  int pos = canon(l, val(l, &in->ops[2], PT_U32), SK_U8), len = canon(l, val(l, &in->ops[3], PT_U32), SK_U8);
  int sh = tmp(l), one = kconst(l, 1), m = tmp(l), m1 = tmp(l), r = tmp(l);
  emit(l, OP_SHR_U64, sh, a, pos, -1, 0, 0);
  emit(l, OP_SHL_U64, m, one, len, -1, 0, 0);
  emit(l, OP_SUB_U64, m1, m, one, -1, 0, 0);
  emit(l, OP_AND_U64, r, sh, m1, -1, 0, 0);
  emit(l, OP_MOV, dst_reg(l, &in->ops[0]), r, -1, -1, 0, 0);
}

/* bfi d, f, b, pos, len: b with len bits at pos replaced by f's low bits. */
static void lower_bfi(L *l, const ptx_ins *in) {
  nops(l, in, 5);
  ptx_type t = need_type(l, in);
  int vt = is_wide(t) ? VT_U64 : VT_U32;
  int f = val(l, &in->ops[1], t), b = val(l, &in->ops[2], t);
  int pos = canon(l, val(l, &in->ops[3], PT_U32), SK_U8), len = canon(l, val(l, &in->ops[4], PT_U32), SK_U8);
  int one = kconst(l, 1), m = tmp(l), m1 = tmp(l), mk = tmp(l), nm = tmp(l), fs = tmp(l), fm = tmp(l), bm = tmp(l);
  emit(l, OP_SHL_U64, m, one, len, -1, 0, 0);
  emit(l, OP_SUB_U64, m1, m, one, -1, 0, 0);
  emit(l, OP_SHL_I32 + vt, mk, m1, pos, -1, 0, 0);
  emit(l, OP_NOT_I32 + vt, nm, mk, -1, -1, 0, 0);
  emit(l, OP_SHL_I32 + vt, fs, f, pos, -1, 0, 0);
  emit(l, OP_AND_I32 + vt, fm, fs, mk, -1, 0, 0);
  emit(l, OP_AND_I32 + vt, bm, b, nm, -1, 0, 0);
  emit(l, OP_OR_I32 + vt, dst_reg(l, &in->ops[0]), fm, bm, -1, 0, 0);
}

/* lop3.b32 d, a, b, c, lut: the sum of the lut's minterms. */
static void lower_lop3(L *l, const ptx_ins *in) {
  nops(l, in, 5);
  if (in->ops[4].kind != PO_IMM) fail_at(l, in, "lop3's table must be a constant");
  unsigned lut = (unsigned)in->ops[4].imm & 0xff;
  int x[3], nx[3];
  for (int k = 0; k < 3; k++) {
    x[k] = val(l, &in->ops[1 + k], PT_B32);
    nx[k] = tmp(l);
    emit(l, OP_NOT_U32, nx[k], x[k], -1, -1, 0, 0);
  }
  int acc = kconst(l, 0);
  /* bit i of the table is the result for a = i>>2&1 ... with a's pattern 0xF0, b's 0xCC, c's 0xAA */
  for (int i = 0; i < 8; i++) {
    if (!(lut >> i & 1)) continue;
    int t1 = tmp(l), t2 = tmp(l), o = tmp(l);
    emit(l, OP_AND_U32, t1, (i & 4) ? x[0] : nx[0], (i & 2) ? x[1] : nx[1], -1, 0, 0);
    emit(l, OP_AND_U32, t2, t1, (i & 1) ? x[2] : nx[2], -1, 0, 0);
    emit(l, OP_OR_U32, o, acc, t2, -1, 0, 0);
    acc = o;
  }
  emit(l, OP_MOV, dst_reg(l, &in->ops[0]), acc, -1, -1, 0, 0);
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: a funnel shift of b:a. */
static void lower_shf(L *l, const ptx_ins *in) {
  nops(l, in, 4);
  int left = has(in, "l"), clamp = has(in, "clamp");
  if (!left && !has(in, "r")) fail_at(l, in, "'%s' needs .l or .r", ins_name(l, in));
  int a = canon(l, val(l, &in->ops[1], PT_B32), SK_U32), b = canon(l, val(l, &in->ops[2], PT_B32), SK_U32);
  int n = canon(l, val(l, &in->ops[3], PT_U32), SK_U32);
  if (clamp) { int k32 = kconst(l, 32), q = tmp(l); emit(l, OP_MIN_U32, q, n, k32, -1, 0, 0); n = q; }
  else { int k31 = kconst(l, 31), q = tmp(l); emit(l, OP_AND_U32, q, n, k31, -1, 0, 0); n = q; }
  int k32 = kconst(l, 32), hi = tmp(l), x = tmp(l), s = tmp(l);
  emit(l, OP_SHL_U64, hi, b, k32, -1, 0, 0);
  emit(l, OP_OR_U64, x, hi, a, -1, 0, 0);
  if (left) {
    int y = tmp(l);
    emit(l, OP_SHL_U64, s, x, n, -1, 0, 0);
    emit(l, OP_SHR_U64, y, s, k32, -1, 0, 0);
    emit(l, OP_CVT, dst_reg(l, &in->ops[0]), y, -1, -1, SK_U64 | (int64_t)SK_U32 << 8, 0);
  } else {
    emit(l, OP_SHR_U64, s, x, n, -1, 0, 0);
    emit(l, OP_CVT, dst_reg(l, &in->ops[0]), s, -1, -1, SK_U64 | (int64_t)SK_U32 << 8, 0);
  }
}

/* prmt.b32 d, a, b, c: each byte of d picks one of the eight bytes of b:a
 * (c's nibble: bits 0-2 the byte, bit 3 to replicate its sign bit), in the
 * default mode (__byte_perm); the other modes (.f4e, .b4e, .rc8, .ecl, .ecr,
 * .rc16) are refused. */
static void lower_prmt(L *l, const ptx_ins *in) {
  static const char *const ok[] = {NULL};
  only_mods(l, in, ok);
  nops(l, in, 4);
  int a = canon(l, val(l, &in->ops[1], PT_B32), SK_U32), b = canon(l, val(l, &in->ops[2], PT_B32), SK_U32);
  int c = canon(l, val(l, &in->ops[3], PT_B32), SK_U32);
  int k32 = kconst(l, 32), hi = tmp(l), x = tmp(l), ff = kconst(l, 0xff), k7 = kconst(l, 7), k3 = kconst(l, 3);
  int k8 = kconst(l, 8), acc = kconst(l, 0);
  emit(l, OP_SHL_U64, hi, b, k32, -1, 0, 0);
  emit(l, OP_OR_U64, x, hi, a, -1, 0, 0);
  for (int i = 0; i < 4; i++) {
    int nib = tmp(l), idx = tmp(l), bits = tmp(l), sh = tmp(l), byte = tmp(l), s7 = tmp(l), neg = tmp(l), sb = tmp(l);
    int sflag = tmp(l), one = kconst(l, 1), pick = tmp(l), pos = tmp(l), o = tmp(l), nibs = tmp(l);
    emit(l, OP_SHR_U32, nibs, c, kconst(l, 4 * (unsigned)i), -1, 0, 0);
    emit(l, OP_AND_U32, nib, nibs, kconst(l, 0xf), -1, 0, 0);
    emit(l, OP_AND_U32, idx, nib, k7, -1, 0, 0);
    emit(l, OP_MUL_U32, bits, idx, k8, -1, 0, 0);
    emit(l, OP_SHR_U64, sh, x, bits, -1, 0, 0);
    emit(l, OP_AND_U64, byte, sh, ff, -1, 0, 0);
    emit(l, OP_SHR_U64, s7, byte, k7, -1, 0, 0);             /* the byte's sign, replicated: 0xff or 0 */
    emit(l, OP_NEG_U64, neg, s7, -1, -1, 0, 0);
    emit(l, OP_AND_U64, sb, neg, ff, -1, 0, 0);
    int sf = tmp(l);
    emit(l, OP_SHR_U32, sf, nib, k3, -1, 0, 0);
    emit(l, OP_AND_U32, sflag, sf, one, -1, 0, 0);
    emit(l, OP_SEL, pick, sb, byte, sflag, 0, 0);
    emit(l, OP_SHL_U64, pos, pick, kconst(l, 8 * (unsigned)i), -1, 0, 0);
    emit(l, OP_OR_U64, o, acc, pos, -1, 0, 0);
    acc = o;
  }
  emit(l, OP_CVT, dst_reg(l, &in->ops[0]), acc, -1, -1, SK_U64 | (int64_t)SK_U32 << 8, 0);
}

static int mask_operand(L *l, const ptx_opnd *o) {
  int m = val(l, o, PT_B32);
  return o->kind == PO_REG ? canon(l, m, SK_U32) : m;
}

/* shfl.sync's predicate result: whether the source lane j was inside the
 * lane's segment, as the PTX ISA computes it (maxLane, minLane from the
 * segment mask and clamp in c); where it was not, the lane reads its own
 * value, which the KIR shuffle does too. */
static void shfl_in_range(L *l, const ptx_ins *in, int kind, int b, int p) {
  int c = val(l, &in->ops[3], PT_B32), k31 = kconst(l, 31), k8 = kconst(l, 8);
  int lane = tmp(l), bval = tmp(l), cval = tmp(l), s8 = tmp(l), seg = tmp(l), nseg = tmp(l);
  emit(l, OP_SREG, lane, -1, -1, -1, SR_LANEID, 0);
  emit(l, OP_AND_U32, bval, b, k31, -1, 0, 0);
  emit(l, OP_AND_U32, cval, c, k31, -1, 0, 0);
  emit(l, OP_SHR_U32, s8, c, k8, -1, 0, 0);
  emit(l, OP_AND_U32, seg, s8, k31, -1, 0, 0);
  emit(l, OP_NOT_U32, nseg, seg, -1, -1, 0, 0);
  int lo = tmp(l), hi = tmp(l), maxl = tmp(l), j = tmp(l);
  emit(l, OP_AND_U32, lo, lane, seg, -1, 0, 0);       /* minLane */
  emit(l, OP_AND_U32, hi, cval, nseg, -1, 0, 0);
  emit(l, OP_OR_U32, maxl, lo, hi, -1, 0, 0);         /* maxLane */
  switch (kind) {
  case SHFL_UP: emit(l, OP_SUB_I32, j, lane, bval, -1, 0, 0); emit(l, OP_GE_I32, p, j, maxl, -1, 0, 0); return;
  case SHFL_DOWN: emit(l, OP_ADD_U32, j, lane, bval, -1, 0, 0); break;
  case SHFL_XOR: emit(l, OP_XOR_U32, j, lane, bval, -1, 0, 0); break;
  default: { int m = tmp(l); emit(l, OP_AND_U32, m, bval, nseg, -1, 0, 0); emit(l, OP_OR_U32, j, lo, m, -1, 0, 0); break; }
  }
  emit(l, OP_LE_U32, p, j, maxl, -1, 0, 0);
}

static void lower_shfl(L *l, const ptx_ins *in) {
  if (!has(in, "sync")) UNSUP(l, in, "form (shfl without .sync, removed in sm_70)");
  nops(l, in, 5);
  int kind = has(in, "up") ? SHFL_UP : has(in, "down") ? SHFL_DOWN : has(in, "bfly") ? SHFL_XOR : has(in, "idx") ? SHFL_IDX : -1;
  if (kind < 0) fail_at(l, in, "'%s' needs .up, .down, .bfly or .idx", ins_name(l, in));
  int a = val(l, &in->ops[1], PT_B32), b = val(l, &in->ops[2], PT_B32);
  int mask = mask_operand(l, &in->ops[4]);
  if (in->ops[0].reg2 >= 0) shfl_in_range(l, in, kind, b, reg_of(l, in->ops[0].reg2));
  /* c packs the segment mask (32 - width) << 8 and the clamp; KIR takes the width */
  int width;
  if (in->ops[3].kind == PO_IMM) {
    uint32_t c = (uint32_t)in->ops[3].imm, seg = c >> 8 & 0x1f, clampv = c & 0x1f;
    uint32_t w = 32 - seg;
    if ((w & (w - 1)) || clampv != (kind == SHFL_UP ? 0 : w - 1))
      fail_at(l, in, "shuffle control 0x%x is not one __shfl*_sync produces (segment mask %u, clamp %u)", c, seg, clampv);
    width = kconst(l, w);
  } else {
    int c = val(l, &in->ops[3], PT_B32), k8 = kconst(l, 8), k31 = kconst(l, 31), k32 = kconst(l, 32);
    int s = tmp(l), m = tmp(l);
    width = tmp(l);
    emit(l, OP_SHR_U32, s, c, k8, -1, 0, 0);
    emit(l, OP_AND_U32, m, s, k31, -1, 0, 0);
    emit(l, OP_SUB_U32, width, k32, m, -1, 0, 0);
  }
  emit(l, OP_SHFL, dst_reg(l, &in->ops[0]), a, b, width, kind | (int64_t)(mask + 1) << 8, 0);
}

/* match.{any,all}.sync.b32/b64 d[|p], a, membermask: the lanes of the
 * mask whose a equals this lane's.  KIR has no op for it; 32 shuffles from
 * each lane of the mask give the same answer (a lane outside the mask or
 * its value unequal contributes no bit), so it runs under both warp models
 * with the member-mask checks of shfl.sync. */
static void lower_match(L *l, const ptx_ins *in) {
  if (!has(in, "sync")) UNSUP(l, in, "form");
  int all = has(in, "all");
  if (!all && !has(in, "any")) fail_at(l, in, "'%s' needs .any or .all", ins_name(l, in));
  nops(l, in, 3);
  ptx_type t = need_type(l, in);
  int wide = ptx_type_size(t) == 8;
  if (ptx_type_size(t) != 4 && !wide) UNSUP(l, in, "type");
  if (!all && in->ops[0].reg2 >= 0) fail_at(l, in, "match.any has no predicate result");
  int a = val(l, &in->ops[1], t);
  if (!wide) a = canon(l, a, SK_U32);
  int mask = mask_operand(l, &in->ops[2]);
  int k32 = kconst(l, 32), acc = kconst(l, 0);
  int lo = wide ? tmp(l) : a, hi = -1;
  if (wide) {
    emit(l, OP_CVT, lo, a, -1, -1, SK_U64 | (int64_t)SK_U32 << 8, 0);
    int s = tmp(l);
    hi = tmp(l);
    emit(l, OP_SHR_U64, s, a, k32, -1, 0, 0);
    emit(l, OP_CVT, hi, s, -1, -1, SK_U64 | (int64_t)SK_U32 << 8, 0);
  }
  for (int k = 0; k < 32; k++) {
    int src = kconst(l, (uint64_t)k), v = tmp(l), eq = tmp(l);
    emit(l, OP_SHFL, v, lo, src, k32, SHFL_IDX | (int64_t)(mask + 1) << 8, 0);
    emit(l, OP_EQ_U32, eq, v, lo, -1, 0, 0);
    if (wide) {
      int vh = tmp(l), eh = tmp(l), both = tmp(l);
      emit(l, OP_SHFL, vh, hi, src, k32, SHFL_IDX | (int64_t)(mask + 1) << 8, 0);
      emit(l, OP_EQ_U32, eh, vh, hi, -1, 0, 0);
      emit(l, OP_AND_U32, both, eq, eh, -1, 0, 0);
      eq = both;
    }
    int bit = tmp(l), sh = tmp(l), o = tmp(l);
    emit(l, OP_SHL_U32, bit, eq, src, -1, 0, 0);
    emit(l, OP_AND_U32, sh, bit, mask, -1, 0, 0);   /* lanes outside the mask do not count */
    emit(l, OP_OR_U32, o, acc, sh, -1, 0, 0);
    acc = o;
  }
  int d = dst_reg(l, &in->ops[0]);
  if (!all) { emit(l, OP_MOV, d, acc, -1, -1, 0, 0); return; }
  /* all: the mask when every lane of it matched this lane, else 0 */
  int same = tmp(l), zero = kconst(l, 0);
  emit(l, OP_EQ_U32, same, acc, mask, -1, 0, 0);
  emit(l, OP_SEL, d, mask, zero, same, 0, 0);
  if (in->ops[0].reg2 >= 0) emit(l, OP_MOV, reg_of(l, in->ops[0].reg2), same, -1, -1, 0, 0);
}

/* redux.sync.op.type d, a, membermask (sm_80: __reduce_*_sync): the
 * reduction of a over the lanes of the mask.  As match: 32 shuffles from
 * the lanes of the mask, each folded in where its bit is set, so the
 * member-mask checks of shfl.sync hold under both warp models. */
static void lower_redux(L *l, const ptx_ins *in) {
  if (!has(in, "sync")) UNSUP(l, in, "form");
  nops(l, in, 3);
  ptx_type t = need_type(l, in);
  if (ptx_type_size(t) != 4 || is_float(t)) UNSUP(l, in, "type (redux.sync on floating point needs sm_100a)");
  int sgn = t == PT_S32;
  int op, ident;
  if (has(in, "add")) { op = OP_ADD_U32; ident = kconst(l, 0); }
  else if (has(in, "min")) { op = sgn ? OP_MIN_I32 : OP_MIN_U32; ident = kconst(l, sgn ? 0x7fffffffu : 0xffffffffu); }
  else if (has(in, "max")) { op = sgn ? OP_MAX_I32 : OP_MAX_U32; ident = sgn ? kconst(l, (uint64_t)(int64_t)INT32_MIN) : kconst(l, 0); }
  else if (has(in, "and")) { op = OP_AND_U32; ident = kconst(l, 0xffffffffu); }
  else if (has(in, "or")) { op = OP_OR_U32; ident = kconst(l, 0); }
  else if (has(in, "xor")) { op = OP_XOR_U32; ident = kconst(l, 0); }
  else fail_at(l, in, "'%s' needs .add, .min, .max, .and, .or or .xor", ins_name(l, in));
  if (op == OP_AND_U32 || op == OP_OR_U32 || op == OP_XOR_U32 || op == OP_ADD_U32) {
    if (t != PT_B32 && t != PT_U32 && t != PT_S32) UNSUP(l, in, "type");
  }
  int a = canon(l, val(l, &in->ops[1], t), sgn ? SK_I32 : SK_U32);
  int mask = mask_operand(l, &in->ops[2]);
  int k32 = kconst(l, 32), one = kconst(l, 1), acc = ident;
  for (int k = 0; k < 32; k++) {
    int src = kconst(l, (uint64_t)k), v = tmp(l), sh = tmp(l), bit = tmp(l), pick = tmp(l), o = tmp(l);
    emit(l, OP_SHFL, v, a, src, k32, SHFL_IDX | (int64_t)(mask + 1) << 8, 0);
    emit(l, OP_SHR_U32, sh, mask, src, -1, 0, 0);
    emit(l, OP_AND_U32, bit, sh, one, -1, 0, 0);
    emit(l, OP_SEL, pick, v, ident, bit, 0, 0);
    emit(l, op, o, acc, pick, -1, 0, 0);
    acc = o;
  }
  emit(l, OP_MOV, dst_reg(l, &in->ops[0]), acc, -1, -1, 0, 0);
}

/* bfind[.shiftamt].type d, a: the position of a's most significant
 * non-sign bit (for a signed negative a, its most significant 0), or
 * 0xffffffff where there is none; .shiftamt gives the left shift that
 * brings it to the top instead. */
static void lower_bfind(L *l, const ptx_ins *in) {
  nops(l, in, 2);
  ptx_type t = need_type(l, in);
  int wide = is_wide(t);
  if (ptx_type_size(t) != 4 && !wide) UNSUP(l, in, "type");
  int a = val(l, &in->ops[1], t);
  int x = a;
  if (is_signed(t)) {   /* a negative value's sign bits are its leading ones */
    int z = kconst(l, 0), neg = tmp(l), inv = tmp(l);
    x = tmp(l);
    emit(l, wide ? OP_LT_I64 : OP_LT_I32, neg, a, z, -1, 0, 0);
    emit(l, wide ? OP_NOT_U64 : OP_NOT_U32, inv, a, -1, -1, 0, 0);
    emit(l, OP_SEL, x, inv, a, neg, 0, 0);
  }
  if (!wide) x = canon(l, x, SK_U32);
  int c = tmp(l), r = tmp(l), none = tmp(l), zero = kconst(l, 0);
  emit(l, OP_MATH, c, x, -1, -1, wide ? MATH_CLZLL : MATH_CLZ, 0);
  if (has(in, "shiftamt")) r = c;
  else emit(l, OP_SUB_U32, r, kconst(l, wide ? 63 : 31), c, -1, 0, 0);
  emit(l, wide ? OP_EQ_U64 : OP_EQ_U32, none, x, zero, -1, 0, 0);
  emit(l, OP_SEL, dst_reg(l, &in->ops[0]), kconst(l, 0xffffffffu), r, none, 0, 0);
}

/* bmsk.{clamp,wrap}.b32 d, a, b: b bits set from bit a, by the PTX ISA's
 * definition: .wrap takes a and b modulo 32; .clamp gives 0 from a >= 32
 * and every bit from a up for b >= 32.  KIR's shifts give 0 from 32 on. */
static void lower_bmsk(L *l, const ptx_ins *in) {
  nops(l, in, 3);
  int clamp = has(in, "clamp");
  if (!clamp && !has(in, "wrap")) fail_at(l, in, "'%s' needs .clamp or .wrap", ins_name(l, in));
  int a = canon(l, val(l, &in->ops[1], PT_B32), SK_U32), b = canon(l, val(l, &in->ops[2], PT_B32), SK_U32);
  int k31 = kconst(l, 31), ones = kconst(l, 0xffffffffu), zero = kconst(l, 0);
  int a1 = tmp(l), b1 = tmp(l), m0 = tmp(l), sum = tmp(l), m1 = tmp(l), bz = tmp(l), m1z = tmp(l), nm1 = tmp(l);
  emit(l, OP_AND_U32, a1, a, k31, -1, 0, 0);
  if (clamp) emit(l, OP_MIN_U32, b1, b, kconst(l, 32), -1, 0, 0);
  else emit(l, OP_AND_U32, b1, b, k31, -1, 0, 0);
  emit(l, OP_SHL_U32, m0, ones, clamp ? a : a1, -1, 0, 0);
  emit(l, OP_ADD_U32, sum, a1, b1, -1, 0, 0);
  emit(l, OP_SHL_U32, m1, ones, sum, -1, 0, 0);
  emit(l, OP_EQ_U32, bz, b1, zero, -1, 0, 0);
  emit(l, OP_SEL, m1z, ones, m1, bz, 0, 0);
  emit(l, OP_NOT_U32, nm1, m1z, -1, -1, 0, 0);
  emit(l, OP_AND_U32, dst_reg(l, &in->ops[0]), m0, nm1, -1, 0, 0);
}

static void lower_vote(L *l, const ptx_ins *in) {
  int sync = has(in, "sync");
  nops(l, in, sync ? 3 : 2);
  int p = val(l, &in->ops[1], PT_PRED);
  int mask = sync ? mask_operand(l, &in->ops[2]) : -1;
  int d = dst_reg(l, &in->ops[0]);
  if (has(in, "ballot")) { emit(l, OP_VOTE, d, p, mask, -1, VOTE_BALLOT, 0); return; }
  if (has(in, "all")) { emit(l, OP_VOTE, d, p, mask, -1, VOTE_ALL, 0); return; }
  if (has(in, "any")) { emit(l, OP_VOTE, d, p, mask, -1, VOTE_ANY, 0); return; }
  if (has(in, "uni")) {   /* all or none */
    int np = tmp(l), x = tmp(l), y = tmp(l);
    emit(l, OP_LNOT_U32, np, p, -1, -1, 0, 0);
    emit(l, OP_VOTE, x, p, mask, -1, VOTE_ALL, 0);
    emit(l, OP_VOTE, y, np, mask, -1, VOTE_ALL, 0);
    emit(l, OP_OR_U32, d, x, y, -1, 0, 0);
    return;
  }
  fail_at(l, in, "'%s' needs .all, .any, .uni or .ballot", ins_name(l, in));
}

static void lower_bar(L *l, const ptx_ins *in) {
  int red = has(in, "red");
  if (has(in, "arrive")) UNSUP(l, in, "form (bar.arrive)");
  if (in->nops < 1) fail_at(l, in, "'%s' needs a barrier number", ins_name(l, in));
  const ptx_opnd *id = &in->ops[red ? 1 : 0];
  if (id->kind == PO_IMM && id->imm != 0) fail_at(l, in, "named barriers (barrier %lld) are not supported: only barrier 0, __syncthreads", (long long)id->imm);
  if (id->kind == PO_REG) {   /* -G passes the id in a register: 0 runs on, another id stops the run with the reason */
    int z = kconst(l, 0), ok = tmp(l);
    emit(l, OP_EQ_U32, ok, reg_of(l, id->reg), z, -1, 0, 0);
    int br = emit(l, OP_BRT, -1, -1, ok, -1, 0, 0);
    emit(l, OP_TRAP, -1, -1, -1, -1, TRAP_BARRIER_ID, 0);
    at(l, br)->a = pc_now(l);
  } else if (id->kind != PO_IMM) fail_at(l, in, "bad barrier id in '%s'", ins_name(l, in));
  if (!red) {
    if (in->nops == 2) fail_at(l, in, "'%s' with a thread count is not supported", ins_name(l, in));
    nops(l, in, 1);
    emit(l, OP_BAR, -1, -1, -1, -1, BAR_SYNC, 0);
    return;
  }
  nops(l, in, 3);
  int kind = has(in, "popc") ? BAR_COUNT : has(in, "and") ? BAR_AND : has(in, "or") ? BAR_OR : -1;
  if (kind < 0) fail_at(l, in, "'%s' needs .popc, .and or .or", ins_name(l, in));
  int p = val(l, &in->ops[2], PT_PRED);
  emit(l, OP_BAR, dst_reg(l, &in->ops[0]), p, -1, -1, kind, 0);
}

static void lower_fence(L *l, const ptx_ins *in, int membar) {
  nops(l, in, 0);
  if (membar) {
    int scope = has(in, "cta") ? SCOPE_BLOCK : has(in, "gl") ? SCOPE_DEVICE : has(in, "sys") ? SCOPE_SYSTEM : -1;
    if (scope < 0 || in->nmods != 1) UNSUP(l, in, "form");
    emit(l, OP_FENCE, -1, -1, -1, -1, scope, FENCE_SC);
    return;
  }
  if (has(in, "proxy") || has(in, "mbarrier_init")) UNSUP(l, in, "fence (proxy fences)");
  int kind = has(in, "sc") ? FENCE_SC : has(in, "acq_rel") ? FENCE_ACQ_REL : -1;
  if (kind < 0) fail_at(l, in, "'%s' needs .sc or .acq_rel", ins_name(l, in));
  int scope = scope_of(l, in, -1);
  if (scope < 0) fail_at(l, in, "'%s' needs a scope", ins_name(l, in));
  emit(l, OP_FENCE, -1, -1, -1, -1, scope, kind);
}

/* ------------------------------------------------------------- functions */

static void lower_body(L *l);

static void add_patch(L *l, int pc, const char *name) {
  patch *p = vec_push(&l->in->patches);
  p->pc = pc;
  p->name = name;
  p->line = l->cur->line;
  p->col = l->cur->col;
}

static void lower_call(L *l, const ptx_ins *in) {
  const char *name = in->ops[0].name;
  const ptx_func *g = NULL;
  for (int k = 0; k < l->pm->nfuncs; k++) if (!strcmp(l->pm->funcs[k]->name, name)) g = l->pm->funcs[k];
  /* a failed assert: its message, file and line, as __assertfail has them */
  if (!strcmp(name, "__assertfail") || !strcmp(name, "__assert_fail")) {
    int r[3] = {-1, -1, -1};
    for (int k = 0; k < 3 && k < in->nargs; k++)
      if (in->args[k].kind == PO_SYM && in->args[k].var->space == PS_PARAM) r[k] = param_slot(l, in->args[k].var)->reg;
    if (r[0] < 0 || r[1] < 0 || r[2] < 0) r[0] = r[1] = r[2] = -1;
    emit(l, OP_TRAP, -1, r[0], r[1], r[2], TRAP_ASSERT, 0);
    return;
  }
  if (!strcmp(name, "vprintf")) {   /* device printf: the format string and the buffer of its arguments */
    if (in->nargs != 2 || in->nrets > 1) fail_at(l, in, "call to 'vprintf' with %d arguments and %d results", in->nargs, in->nrets);
    int r[2];
    for (int k = 0; k < 2; k++) {
      if (in->args[k].kind != PO_SYM || in->args[k].var->space != PS_PARAM) fail_at(l, in, "call arguments must be .param variables");
      r[k] = param_slot(l, in->args[k].var)->reg;
      if (r[k] < 0) fail_at(l, in, "bad argument of the call to 'vprintf'");
    }
    int dst = -1;
    if (in->nrets) {
      if (in->rets[0].kind != PO_SYM || in->rets[0].var->space != PS_PARAM) fail_at(l, in, "bad return operand of call");
      dst = param_slot(l, in->rets[0].var)->reg;
    }
    emit(l, OP_PRINTF, dst, r[0], r[1], -1, 0, 0);
    return;
  }
  if ((!g || !g->defined) && (!strcmp(name, "malloc") || !strcmp(name, "free"))) {   /* device malloc and free: the device heap */
    int is_malloc = name[0] == 'm';
    if (in->nargs != 1 || in->nrets != is_malloc) fail_at(l, in, "call to '%s' with %d arguments and %d results", name, in->nargs, in->nrets);
    if (in->args[0].kind != PO_SYM || in->args[0].var->space != PS_PARAM) fail_at(l, in, "call arguments must be .param variables");
    slot *a = param_slot(l, in->args[0].var);
    if (a->reg < 0) fail_at(l, in, "bad argument of the call to '%s'", name);
    if (!is_malloc) { emit(l, OP_FREE, -1, a->reg, -1, -1, 0, 0); return; }
    if (in->rets[0].kind != PO_SYM || in->rets[0].var->space != PS_PARAM) fail_at(l, in, "bad return operand of call");
    slot *r = param_slot(l, in->rets[0].var);
    if (r->reg < 0) fail_at(l, in, "bad return operand of the call to 'malloc'");
    emit(l, OP_MALLOC, r->reg, a->reg, -1, -1, 0, 0);
    return;
  }
  if (!g) fail_at(l, in, "call to unknown function '%s'", name);
  if (!g->defined) fail_at(l, in, "call to '%s', which this PTX declares but does not define (an external function)", name);
  if (g->is_entry) fail_at(l, in, "call to kernel '%s'", name);
  for (inst *i = l->in; i; i = i->up)
    if (i->f == g) fail_at(l, in, "recursive call to '%s': gpurace inlines device functions and cannot inline recursion", name);
  if (l->depth > 64) fail_at(l, in, "calls nested more than 64 deep");
  if (in->nargs != g->nparams || in->nrets != g->nrets)
    fail_at(l, in, "call to '%s' passes %d arguments and %d results; it takes %d and %d", name, in->nargs, in->nrets, g->nparams, g->nrets);
  inst *ci = arena_alloc(l->ar, sizeof *ci);
  ci->f = g;
  ci->up = l->in;
  ci->at = in->pos.file && !ptx_cuda_header(in->pos.file) ? in->pos : l->in ? l->in->at : (srcpos){NULL, 0, 0};
  int saved = l->nregs;
  ci->regbase = l->nregs;
  l->nregs += g->nregs;
  if (l->nregs > l->pmax) l->pmax = l->nregs;
  vec_init_arena(&ci->slots, sizeof(slot), l->ar);
  vec_init_arena(&ci->locals, sizeof(slot), l->ar);
  vec_init_arena(&ci->labels, sizeof(label), l->ar);
  vec_init_arena(&ci->patches, sizeof(patch), l->ar);
  vec_init_arena(&ci->rets, sizeof(int), l->ar);
  /* the callee's parameters are the caller's call-site variables */
  for (int k = 0; k < in->nargs + in->nrets; k++) {
    const ptx_opnd *o = k < in->nargs ? &in->args[k] : &in->rets[k - in->nargs];
    const ptx_var *pv = k < in->nargs ? g->params[k] : g->rets[k - in->nargs];
    if (o->kind != PO_SYM || o->var->space != PS_PARAM) fail_at(l, in, "call arguments must be .param variables");
    slot *s = param_slot(l, o->var);
    slot *c = vec_push(&ci->slots);
    *c = *s;
    c->var = pv;
    if ((s->reg >= 0) != (!pv->is_array && pv->size <= 8) || (s->reg < 0 && pv->size > o->var->size))
      fail_at(l, in, "argument %d of the call to '%s' does not match its parameter", k + 1, name);
  }
  inst *caller = l->in;
  const ptx_ins *cur = l->cur;
  l->in = ci;
  l->depth++;
  lower_body(l);
  l->depth--;
  l->in = caller;
  l->cur = cur;
  l->nregs = saved;   /* the callee's registers are dead: the next call takes them */
}

/* ------------------------------------------------------------- instructions
 * One handler an opcode (or a family that shares its lowering), found by
 * name in ptx_ops; bra, guards and the unknown are lower_ins's. */

static void lower_op_ld(L *l, const ptx_ins *in) { lower_ldst(l, in, 1); }

static void lower_op_st(L *l, const ptx_ins *in) { lower_ldst(l, in, 0); }

static void lower_op_add(L *l, const ptx_ins *in) {
  const char *op = in->op;
  static const char *const ok[] = {"rn", "ftz", "cc", "sat", NULL};
  only_mods(l, in, ok);
  ptx_type t = need_type(l, in);
  if (has(in, "cc")) UNSUP(l, in, "modifier (carry)");
  if (has(in, "ftz") && !is_float(t)) UNSUP(l, in, "modifier");
  if (has(in, "sat")) {
    if (t != PT_S32) UNSUP(l, in, "saturation (only .s32 has it)");
    /* exact in 64 bits, then clamped to the 32-bit range */
    nops(l, in, 3);
    int a = canon(l, val(l, &in->ops[1], t), SK_I32), b = canon(l, val(l, &in->ops[2], t), SK_I32);
    int r = tmp(l), lo = kconst(l, (uint64_t)(int64_t)INT32_MIN), hi = kconst(l, (uint64_t)INT32_MAX), q = tmp(l), q2 = tmp(l);
    emit(l, op[0] == 'a' ? OP_ADD_I64 : OP_SUB_I64, r, a, b, -1, 0, 0);
    emit(l, OP_MAX_I64, q, r, lo, -1, 0, 0);
    emit(l, OP_MIN_I64, q2, q, hi, -1, 0, 0);
    emit(l, OP_MOV, dst_reg(l, &in->ops[0]), q2, -1, -1, 0, 0);
  } else lower_arith(l, in, op[0] == 'a' ? OP_ADD_I32 : OP_SUB_I32);
}

static void lower_op_mul(L *l, const ptx_ins *in) { lower_mul(l, in, 0); }

static void lower_op_mad(L *l, const ptx_ins *in) {
  const char *op = in->op;
  if (!strcmp(op, "fma") || is_float(need_type(l, in))) {
    ptx_type t = need_type(l, in);
    if (!is_float(t)) UNSUP(l, in, "type");
    if (!has(in, "rn")) UNSUP(l, in, "rounding mode");
  }
  lower_mul(l, in, 1);
}

static void lower_op_div(L *l, const ptx_ins *in) {
  const char *op = in->op;
  ptx_type t = need_type(l, in);
  if (is_float(t) && (has(in, "approx") || has(in, "full"))) {
    nops(l, in, 3);
    if (t != PT_F32) UNSUP(l, in, "type");
    int a = val(l, &in->ops[1], t), b = val(l, &in->ops[2], t);
    emit(l, OP_MATH, dst_reg(l, &in->ops[0]), a, b, -1, MATH_FDIVIDEF, 0);
  } else {
    if (is_float(t) && !has(in, "rn")) UNSUP(l, in, "rounding mode");
    if (is_float(t) && op[0] == 'r') UNSUP(l, in, "type");
    lower_arith(l, in, op[0] == 'd' ? OP_DIV_I32 : OP_REM_I32);
  }
}

static void lower_op_min(L *l, const ptx_ins *in) {
  const char *op = in->op;
  static const char *const ok[] = {"ftz", NULL};
  only_mods(l, in, ok);
  lower_arith(l, in, op[1] == 'i' ? OP_MIN_I32 : OP_MAX_I32);
}

static void lower_op_and(L *l, const ptx_ins *in) {
  const char *op = in->op;
  ptx_type t = need_type(l, in);
  nops(l, in, 3);
  int vt = t == PT_PRED ? VT_U32 : vt_of(t);
  int a = val(l, &in->ops[1], t), b = val(l, &in->ops[2], t);
  int base = op[0] == 'a' ? OP_AND_I32 : op[0] == 'o' ? OP_OR_I32 : OP_XOR_I32;
  emit(l, base + vt, dst_reg(l, &in->ops[0]), a, b, -1, 0, 0);
}

static void lower_op_shl(L *l, const ptx_ins *in) {
  const char *op = in->op;
  lower_arith(l, in, op[2] == 'l' ? OP_SHL_I32 : OP_SHR_I32);
}

static void lower_op_not(L *l, const ptx_ins *in) {
  const char *op = in->op;
  ptx_type t = need_type(l, in);
  nops(l, in, 2);
  int a = val(l, &in->ops[1], t), d = dst_reg(l, &in->ops[0]);
  if (op[0] == 'c' || (op[0] == 'n' && op[1] == 'o' && t == PT_PRED)) emit(l, OP_LNOT_U32 + (is_wide(t) ? 2 : 0), d, a, -1, -1, 0, 0);
  else if (op[0] == 'n' && op[1] == 'o') emit(l, OPV(OP_NOT_I32, t), d, a, -1, -1, 0, 0);
  else if (op[0] == 'n') emit(l, OPV(OP_NEG_I32, t), d, a, -1, -1, 0, 0);
  else {
    int fn = t == PT_F32 ? MATH_FABSF : t == PT_F64 ? MATH_FABS : is_wide(t) ? MATH_LLABS : MATH_ABS;
    emit(l, OP_MATH, d, a, -1, -1, fn, 0);
  }
}

static void lower_op_popc(L *l, const ptx_ins *in) {
  const char *op = in->op;
  ptx_type t = need_type(l, in);
  nops(l, in, 2);
  int a = val(l, &in->ops[1], t);
  int fn = op[0] == 'p' ? (is_wide(t) ? MATH_POPCLL : MATH_POPC) : op[0] == 'c' ? (is_wide(t) ? MATH_CLZLL : MATH_CLZ)
                        : (is_wide(t) ? MATH_BREVLL : MATH_BREV);
  emit(l, OP_MATH, dst_reg(l, &in->ops[0]), a, -1, -1, fn, 0);
}

static void lower_op_mul24(L *l, const ptx_ins *in) {
  const char *op = in->op;
  ptx_type t = need_type(l, in);
  if (!has(in, "lo")) UNSUP(l, in, "form (mul24.hi)");
  int mad = op[1] == 'a';
  nops(l, in, mad ? 4 : 3);
  int a = val(l, &in->ops[1], t), b = val(l, &in->ops[2], t), d = dst_reg(l, &in->ops[0]);
  int r = mad ? tmp(l) : d;
  emit(l, OP_MATH, r, a, b, -1, is_signed(t) ? MATH_MUL24 : MATH_UMUL24, 0);
  if (mad) emit(l, OPV(OP_ADD_I32, t), d, r, val(l, &in->ops[3], t), -1, 0, 0);
}

static void lower_op_sad(L *l, const ptx_ins *in) {
  ptx_type t = need_type(l, in);
  nops(l, in, 4);
  if (is_wide(t)) UNSUP(l, in, "type");
  emit(l, OP_MATH, dst_reg(l, &in->ops[0]), val(l, &in->ops[1], t), val(l, &in->ops[2], t), val(l, &in->ops[3], t),
       is_signed(t) ? MATH_SAD : MATH_USAD, 0);
}

/* The generic address [o] names in space sp, its offset added. */
static int addr_of(L *l, const ptx_opnd *o, ptx_space sp) {
  int64_t off;
  int r = mem_addr(l, o, sp, &off);
  if (!off) return r;
  int c = kconst(l, (uint64_t)off), q = tmp(l);
  emit(l, OP_PADD, q, r, c, -1, 0, 0);
  return q;
}

/* cp.async (sm_80: cuda::memcpy_async, __pipeline_memcpy_async): the
 * copy, commit_group, wait_group N and wait_all, as KIR's asynchronous
 * copies; the mbarrier and bulk (TMA) forms are refused. */
static void lower_cp(L *l, const ptx_ins *in) {
  if (!has(in, "async")) UNSUP(l, in, "form (cp without .async)");
  if (has(in, "mbarrier") || has(in, "bulk")) UNSUP(l, in, "form (cp.async with an mbarrier or bulk copies: cuda::barrier, TMA)");
  if (has(in, "commit_group")) { nops(l, in, 0); emit(l, OP_CPCOMMIT, -1, -1, -1, -1, 0, 0); return; }
  if (has(in, "wait_group")) {
    nops(l, in, 1);
    if (in->ops[0].kind != PO_IMM || in->ops[0].imm < 0) fail_at(l, in, "'%s' needs a constant group count", ins_name(l, in));
    emit(l, OP_CPWAIT, -1, -1, -1, -1, in->ops[0].imm, 0);
    return;
  }
  if (has(in, "wait_all")) {   /* commit_group, then wait_group 0 */
    nops(l, in, 0);
    emit(l, OP_CPCOMMIT, -1, -1, -1, -1, 0, 0);
    emit(l, OP_CPWAIT, -1, -1, -1, -1, 0, 0);
    return;
  }
  if (!has(in, "global") || !(has(in, "shared") || has(in, "shared::cta"))) UNSUP(l, in, "form (only shared from global)");
  if (in->nops < 3 || in->nops > 5) fail_at(l, in, "'%s' takes 3 to 5 operands, %d given", ins_name(l, in), in->nops);
  if (in->ops[2].kind != PO_IMM) fail_at(l, in, "'%s' needs a constant copy size", ins_name(l, in));
  int64_t size = in->ops[2].imm;
  if (size != 4 && size != 8 && size != 16) fail_at(l, in, "'%s' copies 4, 8 or 16 bytes, not %lld", ins_name(l, in), (long long)size);
  if (has(in, "cg") && size != 16) fail_at(l, in, "'%s': cp.async.cg copies 16 bytes", ins_name(l, in));
  int dst = addr_of(l, &in->ops[0], PS_SHARED), src = addr_of(l, &in->ops[1], PS_GLOBAL), n = -1;
  /* a fourth operand: the source size, or the predicate ignore-src (then 0 bytes are read); a
   * cache policy (.L2::cache_hint) comes last and means nothing to the model */
  int last = in->nops - (has(in, "L2::cache_hint") ? 1 : 0);
  if (last == 4) {
    const ptx_opnd *o = &in->ops[3];
    if (o->kind == PO_REG && l->in->f->regs[o->reg] == PT_PRED) {
      int p = val(l, o, PT_PRED);
      n = tmp(l);
      emit(l, OP_SEL, n, kconst(l, 0), kconst(l, (uint64_t)size), p, 0, 0);
    } else n = canon(l, val(l, o, PT_U32), SK_U32);
  }
  emit(l, OP_CPASYNC, -1, dst, src, n, size, 0);
}

/* ------------------------------------------------------------- wmma
 *
 * nvcuda::wmma's fragments, in a layout of gpurace's own (PTX leaves it to
 * the implementation; load, mma and store agree on it): a fragment is a
 * logical matrix (a: M x K, b: K x N, c and d: M x N) whose elements, in
 * the order a[r][k], b's columns b[.][n] (index n*K + k), c[r][n], are
 * dealt E = elements/32 to a lane, lane l holding elements l*E .. l*E+E-1:
 * one piece of one row (of one column for b).  Halves are packed two to a
 * register; registers beyond E elements hold copies.  mma gathers each
 * lane's a row and b columns with shuffles and sums exactly in double,
 * rounding once to the accumulator's type: tensor cores sum in their own
 * order and precision, which differs in the last bits where the exact sum
 * is not representable. */

typedef struct {
  int outer, inner;    /* the logical matrix in index order: outer x inner (b: N x K) */
  int E;               /* elements per lane */
  int half, bf;        /* 16-bit elements (f16 or bf16), packed two to a register */
  int nregs;
  int is_b;
} frag;

/* The fragment which (a, b, c, d) of shape MxNxK with element type t, in
 * the vector operand o. */
static void frag_of(L *l, const ptx_ins *in, char which, int M, int N, int K, ptx_type t, const ptx_opnd *o, frag *f) {
  memset(f, 0, sizeof *f);
  f->is_b = which == 'b';
  f->outer = which == 'a' ? M : which == 'b' ? N : M;
  f->inner = which == 'a' ? K : which == 'b' ? K : N;
  f->E = f->outer * f->inner / 32;
  f->half = t == PT_F16 || t == PT_BF16;
  f->bf = t == PT_BF16;
  if (!f->half && t != PT_F32) UNSUP(l, in, "type (wmma on f16, bf16 and f32 accumulators only)");
  if (o->kind != PO_VEC) fail_at(l, in, "'%s' needs a vector of registers", ins_name(l, in));
  f->nregs = o->nvec;
  int cap = f->half ? 2 * f->nregs : f->nregs;
  if (cap < f->E || cap % f->E) fail_at(l, in, "'%s': a fragment of %d registers for %d elements per thread", ins_name(l, in), f->nregs, f->E);
  for (int k = 0; k < o->nvec; k++) if (o->vec[k].kind != PO_REG) fail_at(l, in, "'%s' needs registers in its fragment", ins_name(l, in));
}

static int wmma_shape(L *l, const ptx_ins *in, int *M, int *N, int *K) {
  if (has(in, "m16n16k16")) { *M = 16; *N = 16; *K = 16; return 1; }
  if (has(in, "m32n8k16")) { *M = 32; *N = 8; *K = 16; return 1; }
  if (has(in, "m8n32k16")) { *M = 8; *N = 32; *K = 16; return 1; }
  UNSUP(l, in, "shape (wmma: m16n16k16, m32n8k16 and m8n32k16)");
}

/* The lane's first element: its outer index and first inner index. */
static void frag_lane(L *l, const frag *f, int *outer, int *inner0) {
  int lane = tmp(l), e0 = tmp(l);
  emit(l, OP_SREG, lane, -1, -1, -1, SR_LANEID, 0);
  emit(l, OP_MUL_U32, e0, lane, kconst(l, (uint64_t)f->E), -1, 0, 0);
  *outer = tmp(l);
  *inner0 = tmp(l);
  emit(l, OP_DIV_U32, *outer, e0, kconst(l, (uint64_t)f->inner), -1, 0, 0);
  emit(l, OP_REM_U32, *inner0, e0, kconst(l, (uint64_t)f->inner), -1, 0, 0);
}

/* Element j of the fragment in registers o (its bits, a half in the low 16). */
static int frag_get(L *l, const frag *f, const ptx_opnd *o, int j) {
  if (!f->half) return reg_of(l, o->vec[j].reg);
  return half_at(l, reg_of(l, o->vec[j / 2].reg), j % 2);
}

/* wmma.load.{a,b,c}.sync.aligned.layout.shape[.space].type {regs}, [p], stride
 * wmma.store.d.sync.aligned.layout.shape[.space].type [p], {regs}, stride
 * Each lane its own elements, at memory index row*stride+col (.row) or
 * col*stride+row (.col) of the logical matrix (b's row is k, its inner index). */
static void lower_wmma_ldst(L *l, const ptx_ins *in, char which, int M, int N, int K) {
  int store = which == 'd';
  ptx_type t = need_type(l, in);
  if (in->nops != 3) fail_at(l, in, "'%s' needs a fragment, an address and a stride", ins_name(l, in));
  const ptx_opnd *fo = &in->ops[store ? 1 : 0], *ao = &in->ops[store ? 0 : 1];
  frag f;
  frag_of(l, in, which, M, N, K, t, fo, &f);
  int row = has(in, "row");
  if (!row && !has(in, "col")) fail_at(l, in, "'%s' needs .row or .col", ins_name(l, in));
  ptx_space sp = space_of(in);
  int p = addr_of(l, ao, sp == PS_GLOBAL || sp == PS_SHARED ? sp : PS_NONE);
  int stride = canon(l, val(l, &in->ops[2], PT_U32), SK_U32);
  int outer, inner0;
  frag_lane(l, &f, &outer, &inner0);
  int sk = f.half ? SK_U16 : SK_F32, el[32];
  for (int j = 0; j < f.E; j++) {
    int inner = tmp(l);
    emit(l, OP_ADD_U32, inner, inner0, kconst(l, (uint64_t)j), -1, 0, 0);
    int r = f.is_b ? inner : outer, c = f.is_b ? outer : inner;
    int a = row ? r : c, b = row ? c : r, m = tmp(l), idx = tmp(l), ad = tmp(l);
    emit(l, OP_MUL_U32, m, a, stride, -1, 0, 0);
    emit(l, OP_ADD_U32, idx, m, b, -1, 0, 0);
    emit(l, OP_PADD, ad, p, idx, -1, f.half ? 2 : 4, 0);
    if (store) { emit(l, OP_ST, -1, ad, frag_get(l, &f, fo, j), -1, 0, sk); continue; }
    el[j] = tmp(l);
    emit(l, OP_LD, el[j], ad, -1, -1, 0, sk);
  }
  if (store) return;
  for (int k = 0; k < f.nregs; k++) {
    int d = reg_of(l, fo->vec[k].reg);
    if (!f.half) emit(l, OP_MOV, d, el[k % f.E], -1, -1, 0, 0);
    else emit(l, OP_MOV, d, half_pack(l, el[(2 * k) % f.E], el[(2 * k + 1) % f.E]), -1, -1, 0, 0);
  }
}

/* An element's value as f64 bits. */
static int frag_f64(L *l, const frag *f, int bits) {
  return f32_to_f64(l, f->half ? half_widen(l, bits, f->bf) : bits);
}

/* wmma.mma.sync.aligned.alayout.blayout.shape.dtype[.atype.btype].ctype d, a, b, c */
static void lower_wmma_mma(L *l, const ptx_ins *in, int M, int N, int K) {
  static const char *const ok[] = {"sync", "aligned", "row", "col", "m16n16k16", "m32n8k16", "m8n32k16", "mma", NULL};
  only_mods(l, in, ok);
  nops(l, in, 4);
  ptx_type dt = type_n(in, 0), ct = type_n(in, in->nmods > 0 && type_n(in, 3) ? 3 : 1);
  ptx_type at = type_n(in, 3) ? type_n(in, 1) : PT_F16;
  if (!dt || !ct) fail_at(l, in, "'%s' needs the accumulators' types", ins_name(l, in));
  frag fa, fb, fc, fd;
  frag_of(l, in, 'a', M, N, K, at, &in->ops[1], &fa);
  frag_of(l, in, 'b', M, N, K, at, &in->ops[2], &fb);
  frag_of(l, in, 'c', M, N, K, ct, &in->ops[3], &fc);
  frag_of(l, in, 'd', M, N, K, dt, &in->ops[0], &fd);
  int outer, inner0;
  frag_lane(l, &fd, &outer, &inner0);
  /* .sync.aligned: every lane of the warp is a member of each shuffle */
  int k32 = kconst(l, 32), full = kconst(l, 0xffffffffu), acc[32];
  int64_t sync = SHFL_IDX | (int64_t)(full + 1) << 8;
  for (int j = 0; j < fd.E; j++) acc[j] = frag_f64(l, &fc, frag_get(l, &fc, &in->ops[3], j));
  for (int k = 0; k < K; k++) {
    /* a[r][k]: lane r*(K/Ea) + k/Ea, its element k % Ea */
    int sa = k % fa.E, la = tmp(l), la2 = tmp(l), av = tmp(l);
    emit(l, OP_MUL_U32, la, outer, kconst(l, (uint64_t)(K / fa.E)), -1, 0, 0);
    emit(l, OP_ADD_U32, la2, la, kconst(l, (uint64_t)(k / fa.E)), -1, 0, 0);
    emit(l, OP_SHFL, av, reg_of(l, in->ops[1].vec[fa.half ? sa / 2 : sa].reg), la2, k32, sync, 0);
    int a64 = frag_f64(l, &fa, fa.half ? half_at(l, av, sa % 2) : av);
    for (int j = 0; j < fd.E; j++) {
      /* b[k][n], n = inner0 + j: lane n*(K/Eb) + k/Eb, its element k % Eb */
      int sb = k % fb.E, n = tmp(l), lb = tmp(l), lb2 = tmp(l), bv = tmp(l), pr = tmp(l), s = tmp(l);
      emit(l, OP_ADD_U32, n, inner0, kconst(l, (uint64_t)j), -1, 0, 0);
      emit(l, OP_MUL_U32, lb, n, kconst(l, (uint64_t)(K / fb.E)), -1, 0, 0);
      emit(l, OP_ADD_U32, lb2, lb, kconst(l, (uint64_t)(k / fb.E)), -1, 0, 0);
      emit(l, OP_SHFL, bv, reg_of(l, in->ops[2].vec[fb.half ? sb / 2 : sb].reg), lb2, k32, sync, 0);
      emit(l, OP_MUL_F64, pr, a64, frag_f64(l, &fb, fb.half ? half_at(l, bv, sb % 2) : bv), -1, 0, 0);
      emit(l, OP_ADD_F64, s, acc[j], pr, -1, 0, 0);
      acc[j] = s;
    }
  }
  int out[32];
  for (int j = 0; j < fd.E; j++) {
    if (fd.half) out[j] = half_round(l, acc[j], fd.bf, KIR_RN);
    else { out[j] = tmp(l); emit(l, OP_CVT, out[j], acc[j], -1, -1, SK_F64 | (int64_t)SK_F32 << 8, 0); }
  }
  for (int k = 0; k < fd.nregs; k++) {
    int d = reg_of(l, in->ops[0].vec[k].reg);
    if (!fd.half) emit(l, OP_MOV, d, out[k % fd.E], -1, -1, 0, 0);
    else emit(l, OP_MOV, d, half_pack(l, out[(2 * k) % fd.E], out[(2 * k + 1) % fd.E]), -1, -1, 0, 0);
  }
}

static void lower_wmma(L *l, const ptx_ins *in) {
  int M, N, K;
  if (!has(in, "sync") || !has(in, "aligned")) UNSUP(l, in, "form (wmma without .sync.aligned)");
  wmma_shape(l, in, &M, &N, &K);
  if (has(in, "load")) {
    char w = has(in, "a") ? 'a' : has(in, "b") ? 'b' : has(in, "c") ? 'c' : 0;
    if (!w) fail_at(l, in, "'%s' needs .a, .b or .c", ins_name(l, in));
    lower_wmma_ldst(l, in, w, M, N, K);
  } else if (has(in, "store")) {
    if (!has(in, "d")) fail_at(l, in, "'%s' needs .d", ins_name(l, in));
    lower_wmma_ldst(l, in, 'd', M, N, K);
  } else if (has(in, "mma")) {
    if (has(in, "satfinite")) UNSUP(l, in, "modifier (.satfinite)");
    lower_wmma_mma(l, in, M, N, K);
  } else UNSUP(l, in, "form");
}

/* isspacep.space p, a: whether generic address a is in the space (KIR's
 * generic addresses carry it).  .const and .param are module globals and
 * kernel parameters here, not spaces of their own: refused. */
static void lower_isspacep(L *l, const ptx_ins *in) {
  nops(l, in, 2);
  int sp = has(in, "global") ? SPACE_GLOBAL : has(in, "shared") || has(in, "shared::cta") ? SPACE_SHARED
         : has(in, "local") ? SPACE_LOCAL : -1;
  if (sp < 0) UNSUP(l, in, "space (isspacep of .const, .param or .shared::cluster)");
  int a = val(l, &in->ops[1], PT_U64), s = tmp(l), t = tmp(l);
  emit(l, OP_SHR_U64, s, a, kconst(l, KIR_SPACE_SHIFT + 2), -1, 0, 0);
  emit(l, OP_AND_U64, t, s, kconst(l, 3), -1, 0, 0);
  emit(l, OP_EQ_U64, dst_reg(l, &in->ops[0]), t, kconst(l, (uint64_t)sp), -1, 0, 0);
}

/* fns.b32 d, mask, base, offset: the offset-th set bit of mask from base
 * (cooperative groups' coalesced_group at -G). */
static void lower_op_fns(L *l, const ptx_ins *in) {
  nops(l, in, 4);
  int m = canon(l, val(l, &in->ops[1], PT_B32), SK_U32), b = val(l, &in->ops[2], PT_B32);
  int o = canon(l, val(l, &in->ops[3], PT_S32), SK_I32);
  emit(l, OP_MATH, dst_reg(l, &in->ops[0]), m, b, o, MATH_FNS, 0);
}

static void lower_op_selp(L *l, const ptx_ins *in) {
  ptx_type t = need_type(l, in);
  nops(l, in, 4);
  int a = val(l, &in->ops[1], t), b = val(l, &in->ops[2], t), c = val(l, &in->ops[3], PT_PRED);
  emit(l, OP_SEL, dst_reg(l, &in->ops[0]), a, b, c, 0, 0);
}

static void lower_op_atom(L *l, const ptx_ins *in) { lower_atom(l, in, 0); }

static void lower_op_red(L *l, const ptx_ins *in) { lower_atom(l, in, 1); }

static void lower_op_membar(L *l, const ptx_ins *in) { lower_fence(l, in, 1); }

static void lower_op_fence(L *l, const ptx_ins *in) { lower_fence(l, in, 0); }

static void lower_op_bar(L *l, const ptx_ins *in) {
  if (has(in, "warp")) {
    nops(l, in, 1);
    emit(l, OP_SYNCWARP, -1, mask_operand(l, &in->ops[0]), -1, -1, 0, 0);
  } else lower_bar(l, in);
}

static void lower_op_activemask(L *l, const ptx_ins *in) {
 nops(l, in, 1); emit(l, OP_VOTE, dst_reg(l, &in->ops[0]), -1, -1, -1, VOTE_ACTIVEMASK, 0);
}

static void lower_op_rcp(L *l, const ptx_ins *in) {
  ptx_type t = need_type(l, in);
  nops(l, in, 2);
  if (!is_float(t)) UNSUP(l, in, "type");
  int one = kconst(l, t == PT_F32 ? 0x3f800000u : 0x3ff0000000000000ull);
  emit(l, OPV(OP_DIV_I32, t), dst_reg(l, &in->ops[0]), one, val(l, &in->ops[1], t), -1, 0, 0);
}

static void lower_op_sqrt(L *l, const ptx_ins *in) { lower_math1(l, in, MATH_SQRTF, MATH_SQRT); }

static void lower_op_rsqrt(L *l, const ptx_ins *in) { lower_math1(l, in, MATH_RSQRTF, -1); }

static void lower_op_ex2(L *l, const ptx_ins *in) { lower_math1(l, in, MATH_EXP2F, -1); }

static void lower_op_lg2(L *l, const ptx_ins *in) { lower_math1(l, in, MATH_LOG2F, -1); }

static void lower_op_sin(L *l, const ptx_ins *in) { lower_math1(l, in, MATH_SINF, -1); }

static void lower_op_cos(L *l, const ptx_ins *in) { lower_math1(l, in, MATH_COSF, -1); }

static void lower_op_tanh(L *l, const ptx_ins *in) { lower_math1(l, in, MATH_TANHF, -1); }

static void lower_op_copysign(L *l, const ptx_ins *in) {
  ptx_type t = need_type(l, in);
  nops(l, in, 3);
  if (!is_float(t)) UNSUP(l, in, "type");
  int w = t == PT_F64, vt = w ? VT_U64 : VT_U32;
  int a = val(l, &in->ops[1], t), b = val(l, &in->ops[2], t);
  int sm = kconst(l, w ? 0x8000000000000000ull : 0x80000000u), mm = kconst(l, w ? 0x7fffffffffffffffull : 0x7fffffffu);
  int s = tmp(l), m = tmp(l);
  emit(l, OP_AND_I32 + vt, s, a, sm, -1, 0, 0);
  emit(l, OP_AND_I32 + vt, m, b, mm, -1, 0, 0);
  emit(l, OP_OR_I32 + vt, dst_reg(l, &in->ops[0]), s, m, -1, 0, 0);
}

static void lower_op_testp(L *l, const ptx_ins *in) {
  ptx_type t = need_type(l, in);
  nops(l, in, 2);
  int a = val(l, &in->ops[1], t), d = dst_reg(l, &in->ops[0]);
  int vt = vt_of(t), r = tmp(l);
  if (has(in, "number") || has(in, "notanumber")) {
    emit(l, OP_EQ_I32 + vt, r, a, a, -1, 0, 0);
    if (has(in, "number")) emit(l, OP_MOV, d, r, -1, -1, 0, 0);
    else emit(l, OP_LNOT_U32, d, r, -1, -1, 0, 0);
  } else if (has(in, "finite") || has(in, "infinite")) {
    int inf = kconst(l, t == PT_F32 ? 0x7f800000u : 0x7ff0000000000000ull), ab = tmp(l);
    emit(l, OP_MATH, ab, a, -1, -1, t == PT_F32 ? MATH_FABSF : MATH_FABS, 0);
    emit(l, (has(in, "finite") ? OP_LT_I32 : OP_EQ_I32) + vt, d, ab, inf, -1, 0, 0);
  } else UNSUP(l, in, "test");
}

static void lower_op_ret(L *l, const ptx_ins *in) {
  nops(l, in, 0);
  if (l->in->up) { int pc = emit(l, OP_JMP, -1, -1, -1, -1, 0, 0); *(int *)vec_push(&l->in->rets) = pc; }
  else emit(l, OP_EXIT, -1, -1, -1, -1, 0, 0);
}

static void lower_op_exit(L *l, const ptx_ins *in) {
 nops(l, in, 0); emit(l, OP_EXIT, -1, -1, -1, -1, 0, 0);
}

static void lower_op_trap(L *l, const ptx_ins *in) {
 nops(l, in, 0); emit(l, OP_TRAP, -1, -1, -1, -1, TRAP_CALL, 0);
}

static void lower_op_nanosleep(L *l, const ptx_ins *in) {
  (void)in;   /* no effect on what a kernel computes */
  emit(l, OP_NOP, -1, -1, -1, -1, 0, 0);
}

static const struct {
  const char *name;
  void (*lower)(L *l, const ptx_ins *in);
} ptx_ops[] = {
  {"mov", lower_mov},
  {"ld", lower_op_ld},
  {"ldu", lower_op_ld},
  {"st", lower_op_st},
  {"add", lower_op_add},
  {"sub", lower_op_add},
  {"mul", lower_op_mul},
  {"mad", lower_op_mad},
  {"fma", lower_op_mad},
  {"div", lower_op_div},
  {"rem", lower_op_div},
  {"min", lower_op_min},
  {"max", lower_op_min},
  {"and", lower_op_and},
  {"or", lower_op_and},
  {"xor", lower_op_and},
  {"shl", lower_op_shl},
  {"shr", lower_op_shl},
  {"not", lower_op_not},
  {"cnot", lower_op_not},
  {"neg", lower_op_not},
  {"abs", lower_op_not},
  {"popc", lower_op_popc},
  {"clz", lower_op_popc},
  {"brev", lower_op_popc},
  {"mul24", lower_op_mul24},
  {"mad24", lower_op_mul24},
  {"sad", lower_op_sad},
  {"setp", lower_setp},
  {"selp", lower_op_selp},
  {"cvt", lower_cvt},
  {"cvta", lower_cvta},
  {"atom", lower_op_atom},
  {"red", lower_op_red},
  {"membar", lower_op_membar},
  {"fence", lower_op_fence},
  {"bar", lower_op_bar},
  {"barrier", lower_op_bar},
  {"shfl", lower_shfl},
  {"vote", lower_vote},
  {"match", lower_match},
  {"redux", lower_redux},
  {"bfind", lower_bfind},
  {"bmsk", lower_bmsk},
  {"fns", lower_op_fns},
  {"cp", lower_cp},
  {"isspacep", lower_isspacep},
  {"wmma", lower_wmma},
  {"activemask", lower_op_activemask},
  {"rcp", lower_op_rcp},
  {"sqrt", lower_op_sqrt},
  {"rsqrt", lower_op_rsqrt},
  {"ex2", lower_op_ex2},
  {"lg2", lower_op_lg2},
  {"sin", lower_op_sin},
  {"cos", lower_op_cos},
  {"tanh", lower_op_tanh},
  {"bfe", lower_bfe},
  {"bfi", lower_bfi},
  {"lop3", lower_lop3},
  {"shf", lower_shf},
  {"prmt", lower_prmt},
  {"copysign", lower_op_copysign},
  {"testp", lower_op_testp},
  {"ret", lower_op_ret},
  {"exit", lower_op_exit},
  {"trap", lower_op_trap},
  {"call", lower_call},
  {"nanosleep", lower_op_nanosleep},
  {"prefetch", lower_op_nanosleep},
  {"prefetchu", lower_op_nanosleep},
  {"pmevent", lower_op_nanosleep},
};

/* What CUDA writes that the PTX front end refuses: the construct an
 * opcode comes from, for its error (docs/ptx.md's table says the same). */
static const struct { const char *op, *construct; } refused[] = {
  {"tex", "textures (tex1Dfetch, tex2D, cudaTextureObject_t)"},
  {"tld4", "textures (tex2Dgather)"},
  {"txq", "textures (texture queries)"},
  {"suld", "surfaces (surf2Dread)"},
  {"sust", "surfaces (surf2Dwrite)"},
  {"sured", "surfaces"},
  {"suq", "surfaces"},
  {"istypep", "texture and surface handles"},
  {"mbarrier", "mbarriers (cuda::barrier, cuda::pipeline over a barrier)"},
  {"wgmma", "warpgroup matrix multiplies (sm_90a wgmma: CUTLASS 3)"},
  {"mma", "mma.sync (inline PTX, CUTLASS 2); nvcuda::wmma is supported"},
  {"ldmatrix", "ldmatrix (mma.sync's operand loads: CUTLASS)"},
  {"stmatrix", "stmatrix (CUTLASS)"},
  {"movmatrix", "movmatrix (CUTLASS)"},
  {"mapa", "thread block clusters (distributed shared memory, sm_90)"},
  {"getctarank", "thread block clusters (sm_90)"},
  {"multimem", "multimem (NVLink multicast)"},
  {"griddepcontrol", "programmatic dependent launch (cudaGridDependencySynchronize)"},
  {"elect", "elect.sync (cooperative groups on sm_90)"},
  {"setmaxnreg", "register reallocation (sm_90a)"},
  {"dp4a", "integer dot products (__dp4a)"},
  {"dp2a", "integer dot products (__dp2a)"},
  {"addc", "extended-precision arithmetic (add.cc/addc: inline PTX, 128-bit integers)"},
  {"subc", "extended-precision arithmetic (sub.cc/subc)"},
  {"madc", "extended-precision arithmetic (mad.cc/madc)"},
  {"alloca", "dynamic local memory (alloca)"},
  {"stacksave", "dynamic local memory (alloca)"},
  {"stackrestore", "dynamic local memory (alloca)"},
  {"createpolicy", "cache policies (cuda::annotated_ptr, cuda::access_property)"},
  {"applypriority", "cache policies (cuda::annotated_ptr)"},
  {"discard", "cache policies (cuda::discard_memory)"},
  {"clusterlaunchcontrol", "cluster launch control (sm_100)"},
  {"tcgen05", "fifth-generation tensor cores (sm_100a tcgen05)"},
  {"cvt.pack", "integer packing for dot products"},
};

/* The construct an unsupported opcode comes from, or NULL. */
static const char *refused_construct(const char *op) {
  for (size_t k = 0; k < sizeof refused / sizeof *refused; k++) if (!strcmp(op, refused[k].op)) return refused[k].construct;
  if (op[0] == 'v' && strlen(op) > 3) return "SIMD video instructions (__vabsdiff4, __vadd2 and friends)";
  return NULL;
}

static void lower_ins(L *l, const ptx_ins *in) {
  const char *op = in->op;
  if (!strcmp(op, "bra")) {
    nops(l, in, 1);
    if (in->ops[0].kind != PO_LABEL) fail_at(l, in, "bra needs a label");
    int pc;
    if (in->guard >= 0) pc = emit(l, in->guard_neg ? OP_BRF : OP_BRT, -1, -1, reg_of(l, in->guard), -1, 0, 0);
    else pc = emit(l, OP_JMP, -1, -1, -1, -1, 0, 0);
    add_patch(l, pc, in->ops[0].name);
    return;
  }
  /* any other guarded instruction: branch around it */
  int skip = -1;
  if (in->guard >= 0) skip = emit(l, in->guard_neg ? OP_BRT : OP_BRF, -1, -1, reg_of(l, in->guard), -1, 0, 0);
  static const char *const half_ops[] = {"add", "sub", "mul", "fma", "neg", "abs", "min", "max", "setp", "ex2", "tanh",
                                         "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", NULL};
  if (half_kind(type_n(in, 0)) >= 0)
    for (const char *const *h = half_ops; *h; h++)
      if (!strcmp(op, *h)) {
        lower_half(l, in);
        if (skip >= 0) { at(l, skip)->a = pc_now(l); at(l, skip)->c = pc_now(l); }
        return;
      }
  size_t k = 0;
  while (k < sizeof ptx_ops / sizeof *ptx_ops && strcmp(op, ptx_ops[k].name)) k++;
  if (k == sizeof ptx_ops / sizeof *ptx_ops) {
    const char *c = refused_construct(op);
    if (c) fail_at(l, in, "unsupported instruction '%s': %s, not supported by the PTX front end (docs/ptx.md)", ins_name(l, in), c);
    fail_at(l, in, "unsupported instruction '%s': not supported by the PTX front end (docs/ptx.md)", ins_name(l, in));
  }
  ptx_ops[k].lower(l, in);
  if (skip >= 0) {
    at(l, skip)->a = pc_now(l);
    at(l, skip)->c = pc_now(l);
  }
}

static void lower_body(L *l) {
  const ptx_func *f = l->in->f;
  for (int i = 0; i < f->ncode; i++) {
    const ptx_ins *in = &f->code[i];
    l->cur = in;
    if (in->label) {
      for (size_t k = 0; k < l->in->labels.len; k++)
        if (!strcmp(((label *)vec_at(&l->in->labels, k))->name, in->label)) fail_at(l, in, "label '%s' defined twice", in->label);
      label *lb = vec_push(&l->in->labels);
      lb->name = in->label;
      lb->pc = pc_now(l);
      continue;
    }
    l->ntemp = 0;
    lower_ins(l, in);
  }
  /* falling off the end returns */
  if (!l->in->up) { l->cur = f->ncode ? &f->code[f->ncode - 1] : NULL; emit(l, OP_EXIT, -1, -1, -1, -1, 0, 0); }
  int end = pc_now(l);
  for (size_t k = 0; k < l->in->rets.len; k++) at(l, *(int *)vec_at(&l->in->rets, k))->a = end;
  for (size_t k = 0; k < l->in->patches.len; k++) {
    patch *p = vec_at(&l->in->patches, k);
    int pc = -1;
    for (size_t j = 0; j < l->in->labels.len; j++) {
      label *lb = vec_at(&l->in->labels, j);
      if (!strcmp(lb->name, p->name)) pc = lb->pc;
    }
    if (pc < 0) { srcpos sp = {l->pm->path, p->line, p->col}; diag_fail(l->d, sp, "unknown label '%s'", p->name); }
    at(l, p->pc)->a = pc;
  }
}

/* ------------------------------------------------------------- control flow */

/* The successors of instruction i of n (n: the end, after which nothing runs). */
/* ------------------------------------------------------------- reconvergence */


/* ------------------------------------------------------------- copies */

/* Drops the instructions marked in drop (none a branch's target), with
 * their positions, and renumbers the branches. */
static void drop_marked(L *l, const char *drop) {
  int n = (int)l->code.len, k = 0;
  kir_ins *code = l->code.data;
  srcpos *pos = l->pos.data;
  int *to = xmalloc(sizeof(int) * (size_t)(n + 1));
  for (int i = 0; i <= n; i++) { to[i] = k; if (i < n && !drop[i]) k++; }
  for (int i = 0, j = 0; i < n; i++) {
    if (drop[i]) continue;
    kir_ins in = code[i];
    if (in.op == OP_JMP || in.op == OP_BRT || in.op == OP_BRF) {
      if (in.a >= 0 && in.a <= n) in.a = to[in.a];
      if (in.op != OP_JMP && in.c >= 0 && in.c <= n) in.c = to[in.c];
    }
    code[j] = in;
    pos[j] = pos[i];
    j++;
  }
  l->code.len = l->pos.len = (size_t)k;
  free(to);
}

/* Lowering reads operands into temporaries and moves a result into its PTX
 * register: where a per-lane instruction's temporary is dead after the mov
 * that follows it, the instruction writes the mov's destination and the
 * mov goes (each is a warp step).  Run before the allocation. */
static void coalesce_copies(L *l) {
  int n = (int)l->code.len, R = l->nregs;
  if (n < 2 || R <= 1 || R > 16384) return;
  kir_ins *code = l->code.data;
  size_t W = ((size_t)R + 63) / 64;
  uint64_t *live = kir_liveness(code, n, W), *out = xcalloc(W, sizeof(uint64_t));
  char *target = xcalloc((size_t)n + 1, 1), *drop = xcalloc((size_t)n + 1, 1);
  for (int i = 0; i < n; i++) {
    const kir_ins *in = &code[i];
    if (in->op == OP_JMP || in->op == OP_BRT || in->op == OP_BRF) {
      if (in->a >= 0 && in->a <= n) target[in->a] = 1;
      if (in->op != OP_JMP && in->c >= 0 && in->c <= n) target[in->c] = 1;
    }
  }
  int dropped = 0;
  for (int i = 0; i + 1 < n; i++) {
    kir_ins *in = &code[i], *mv = &code[i + 1];
    int t = in->dst;
    if (mv->op != OP_MOV || target[i + 1] || !kir_is_alu(in->op) || t < 0 || mv->a != t || mv->dst == t) continue;
    kir_live_after(code, i + 1, n, live, W, out);
    if (out[(size_t)t / 64] >> (t % 64) & 1) continue;
    in->dst = mv->dst;
    drop[i + 1] = 1;
    dropped++;
    i++;
  }
  if (dropped) drop_marked(l, drop);
  free(live); free(out); free(target); free(drop);
}

/* ------------------------------------------------------------- register allocation */

/* PTX has as many virtual registers as the compiler cared to number (nvcc
 * keeps SSA values apart: UTS's kernel has 775), and every warp holds every
 * register for 32 lanes.  A register allocation of our own, as ptxas does
 * one: liveness per thread on the control-flow graph (each lane runs a
 * thread's path; a masked write leaves the other lanes' values alone, and
 * *_sync intrinsics read their operands where each lane executes them), then
 * greedy colouring of the interference graph.  Kernels too large for the
 * bitsets keep their registers as they are. */
static void allocate_registers(L *l) {
  int n = (int)l->code.len, R = l->nregs;
  if (n == 0 || R <= 1 || R > 16384) return;
  kir_ins *code = l->code.data;
  size_t W = ((size_t)R + 63) / 64;
  uint64_t *live = kir_liveness(code, n, W);
  uint64_t *out = xcalloc(W, sizeof(uint64_t));
  /* interference: a register written where another is live after the write */
  uint64_t *adj = xcalloc((size_t)R * W, sizeof(uint64_t));
  for (int i = 0; i < n; i++) {
    const kir_ins *in = &code[i];
    if (in->dst < 0) continue;
    kir_live_after(code, i, n, live, W, out);
    int d = in->dst;
    for (size_t w = 0; w < W; w++) {
      uint64_t bits = out[w];
      while (bits) {
        int r = (int)(w * 64) + __builtin_ctzll(bits);
        bits &= bits - 1;
        if (r == d) continue;
        adj[(size_t)d * W + (size_t)r / 64] |= (uint64_t)1 << (r % 64);
        adj[(size_t)r * W + (size_t)d / 64] |= (uint64_t)1 << (d % 64);
      }
    }
  }
  /* a register read before any write (PTX does not forbid it) reads the 0
   * every register starts with: any register it shares a colour with is
   * written only where it is dead, which the edges above already say */
  int *color = xmalloc(sizeof(int) * (size_t)R);
  char *taken = xcalloc((size_t)R + 1, 1);
  int ncolors = 0;
  for (int v = 0; v < R; v++) {
    memset(taken, 0, (size_t)ncolors + 1);
    for (size_t w = 0; w < W; w++) {
      uint64_t bits = adj[(size_t)v * W + w];
      while (bits) {
        int r = (int)(w * 64) + __builtin_ctzll(bits);
        bits &= bits - 1;
        if (r < v) taken[color[r]] = 1;
      }
    }
    int c = 0;
    while (taken[c]) c++;
    color[v] = c;
    if (c + 1 > ncolors) ncolors = c + 1;
  }
  for (int i = 0; i < n; i++) {
    kir_ins *in = &code[i];
    if (in->dst >= 0) in->dst = color[in->dst];
    if (in->op == OP_JMP) continue;
    if (in->op == OP_BRT || in->op == OP_BRF) { in->b = color[in->b]; continue; }
    if (in->a >= 0) in->a = color[in->a];
    if (in->b >= 0) in->b = color[in->b];
    if (in->c >= 0) in->c = color[in->c];
    if (in->op == OP_SHFL && in->imm >> 8) in->imm = (in->imm & 0xff) | (int64_t)(color[(in->imm >> 8) - 1] + 1) << 8;
  }
  if (getenv("GPURACE_PTX_REGS")) fprintf(stderr, "register allocation: %d virtual, %d allocated\n", R, ncolors);
  l->nregs = ncolors;
  free(color); free(taken); free(adj); free(out); free(live);
}

/* ------------------------------------------------------------- names and signatures */


/* Lays the three register pools out (persistent, then temporaries, then
 * constants) and puts the constants' definitions at the kernel's entry, once:
 * a constant's register is written nowhere else. */
static void finish_registers(L *l, srcpos entry) {
  int np = l->pmax, nt = l->tmax, nc = l->nconst, n = (int)l->code.len;
  kir_ins *old = xmalloc(sizeof(kir_ins) * (size_t)(n + 1));
  srcpos *oldpos = xmalloc(sizeof(srcpos) * (size_t)(n + 1));
  memcpy(old, l->code.data, sizeof(kir_ins) * (size_t)n);
  memcpy(oldpos, l->pos.data, sizeof(srcpos) * (size_t)n);
  l->code.len = l->pos.len = 0;
  const ptx_ins *cur = l->cur;
  l->cur = NULL;
  for (int k = 0; k < nc; k++) {
    emit(l, OP_CONST, np + nt + k, -1, -1, -1, (int64_t)*(uint64_t *)vec_at(&l->cvals, (size_t)k), 0);
    *(srcpos *)vec_at(&l->pos, l->pos.len - 1) = entry;
  }
#define REMAP(r) ((r) >= CONST_BASE ? np + nt + ((r) - CONST_BASE) : (r) >= TEMP_BASE ? np + ((r) - TEMP_BASE) : (r))
  for (int i = 0; i < n; i++) {
    kir_ins in = old[i];
    if (in.op == OP_JMP) in.a += nc;
    else if (in.op == OP_BRT || in.op == OP_BRF) { in.a += nc; if (in.c >= 0) in.c += nc; in.b = REMAP(in.b); }
    else {
      if (in.dst >= 0) in.dst = REMAP(in.dst);
      if (in.a >= 0) in.a = REMAP(in.a);
      if (in.b >= 0) in.b = REMAP(in.b);
      if (in.c >= 0) in.c = REMAP(in.c);
      if (in.op == OP_SHFL && in.imm >> 8) { int m = (int)(in.imm >> 8) - 1; in.imm = (in.imm & 0xff) | (int64_t)(REMAP(m) + 1) << 8; }
    }
#undef REMAP
    *(kir_ins *)vec_push(&l->code) = in;
    *(srcpos *)vec_push(&l->pos) = oldpos[i];
  }
  l->nregs = np + nt + nc;
  if (getenv("GPURACE_PTX_REGS")) fprintf(stderr, "registers: %d persistent, %d temporary, %d constants\n", np, nt, nc);
  l->cur = cur;
  free(old);
  free(oldpos);
}

static kir_func *lower_kernel(L *l, const ptx_func *f, const char *const *sources, int nsources) {
  l->code.len = l->pos.len = 0;
  l->frame = 0;
  l->pmax = l->ntemp = l->tmax = l->nconst = 0;
  l->ckey = NULL;
  l->cslot = NULL;
  l->ccap = 0;
  l->cvals.len = 0;
  inst *ki = arena_alloc(l->ar, sizeof *ki);
  ki->f = f;
  ki->regbase = 0;
  l->nregs = l->pmax = f->nregs;
  vec_init_arena(&ki->slots, sizeof(slot), l->ar);
  vec_init_arena(&ki->locals, sizeof(slot), l->ar);
  vec_init_arena(&ki->labels, sizeof(label), l->ar);
  vec_init_arena(&ki->patches, sizeof(patch), l->ar);
  vec_init_arena(&ki->rets, sizeof(int), l->ar);
  l->in = ki;
  l->depth = 0;
  /* structs passed by value: each thread's copy in its frame, as the subset does */
  l->cur = f->ncode ? &f->code[0] : NULL;
  for (int k = 0; k < f->nparams; k++) {
    const ptx_var *v = f->params[k];
    if (!v->is_array) continue;
    slot *s = vec_push(&ki->slots);
    s->var = v;
    s->reg = -1;
    l->frame = align_up(l->frame, v->align ? v->align : 1);
    s->frame = l->frame;
    l->frame += v->size ? v->size : 1;
    int a = kconst(l, tag_of(PS_LOCAL) | (uint64_t)s->frame);
    emit(l, OP_PARAM, -1, a, -1, -1, k, 0);
  }
  lower_body(l);
  finish_registers(l, f->ncode ? f->code[0].pos : f->decl);
  coalesce_copies(l);
  allocate_registers(l);
  kir_set_reconvergence(l->code.data, (int)l->code.len);
  kir_func *kf = arena_alloc(l->ar, sizeof *kf);
  const char *sig = NULL;
  kf->name = ptx_names_display(l->ar, f->name, &sig);
  kf->sym = f->name;
  kf->ncode = (int)l->code.len;
  kf->code = arena_alloc(l->ar, sizeof(kir_ins) * (l->code.len + 1));
  memcpy(kf->code, l->code.data, sizeof(kir_ins) * l->code.len);
  for (int k = 0; k < kf->ncode; k++)
    if (kf->code[k].op == OP_SREG && (kf->code[k].imm == SR_GRIDWS_LO || kf->code[k].imm == SR_GRIDWS_HI)) kf->uses_gridws = 1;
  kf->pos = arena_alloc(l->ar, sizeof(srcpos) * (l->pos.len + 1));
  memcpy(kf->pos, l->pos.data, sizeof(srcpos) * l->pos.len);
  kf->nregs = l->nregs;
  kf->frame = l->frame;
  kf->decl = f->code && f->ncode ? f->code[0].pos : f->decl;
  kf->decl.line = kf->decl.line > 1 ? kf->decl.line : 1;
  kf->nparams = f->nparams;
  kf->params = arena_alloc(l->ar, sizeof(kir_param) * (size_t)(f->nparams + 1));
  const char **names = arena_alloc(l->ar, sizeof(char *) * (size_t)(f->nparams + 1));
  kir_sk *sks = arena_alloc(l->ar, sizeof(kir_sk) * (size_t)(f->nparams + 1));
  kir_sk *pts = arena_alloc(l->ar, sizeof(kir_sk) * (size_t)(f->nparams + 1));
  for (int k = 0; k < f->nparams; k++) {
    const ptx_var *v = f->params[k];
    sks[k] = v->is_array ? SK_COUNT : sk_of(v->type);
    pts[k] = SK_U8;
    names[k] = NULL;
  }
  /* the kernel's declaration wherever it is: the CUDA file, or a header of the user's it includes */
  for (int k = 0; k < nsources && !ptx_names_params(l->ar, sig, sources[k], kf->name, f->nparams, names, sks, pts); k++) continue;
  if (!nsources) ptx_names_params(l->ar, sig, NULL, kf->name, f->nparams, names, sks, pts);
  for (int k = 0; k < f->nparams; k++) {
    const ptx_var *v = f->params[k];
    const char *pn = v->name;
    const char *us = strstr(pn, "_param_");
    kf->params[k].name = names[k] ? names[k] : us ? us + 1 : pn;
    kf->params[k].sk = sks[k];
    kf->params[k].pointee = pts[k];
    kf->params[k].size = v->size;
    if (sks[k] == SK_PTR && v->type != PT_U64 && v->type != PT_B64 && v->type != PT_S64)
      kf->params[k].sk = sk_of(v->type);
  }
  return kf;
}

/* A regular file's text, at most 16 MiB (a .file may name anything: /dev/zero, a FIFO), in the arena. */
static char *read_source(arena *ar, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (16 << 20)) return NULL;
  char e[256];
  size_t n;
  char *t = source_read_file(path, (size_t)16 << 20, &n, e, sizeof e);
  if (!t) return NULL;
  char *a = arena_strndup(ar, t, n);
  free(t);
  return a;
}

/* Whether two paths name one file. */
static int same_file(const char *a, const char *b) {
  char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
  int same = ra && rb && !strcmp(ra, rb);
  free(ra);
  free(rb);
  return same;
}

kir_module *ptx_compile(const char *path, const char *text, size_t len, const char *cu_path, const front_limits *lim,
                        char *err, size_t errlen) {
  kir_module *m = xcalloc(1, sizeof *m);
  diag d;
  memset(&d, 0, sizeof d);
  jmp_buf bail;
  d.bail = &bail;
  if (setjmp(bail)) {
    snprintf(err, errlen, "%s", d.msg);
    kir_module_free(m);
    return NULL;
  }
  path = arena_strndup(&m->ar, path, strlen(path));   /* source positions name it: it lives as long as the module */
  ptx_module *pm = ptx_parse(&m->ar, &d, path, text, len);
  L *l = arena_alloc(&m->ar, sizeof *l);
  l->ar = &m->ar;
  l->d = &d;
  l->pm = pm;
  l->max_code = lim && lim->max_code ? lim->max_code : FRONT_MAX_CODE;
  vec_init_arena(&l->code, sizeof(kir_ins), l->ar);
  vec_init_arena(&l->pos, sizeof(srcpos), l->ar);
  vec_init_arena(&l->shared_at, sizeof(int64_t), l->ar);
  vec_init_arena(&l->fshared, sizeof(fsh), l->ar);
  vec_init_arena(&l->cvals, sizeof(uint64_t), l->ar);
  l->reserved_off = -1;
  /* module variables: .global and .const become globals, in declaration
   * order, where code uses them or the user can name them (//@ check,
   * gr_module_global): not the constants CUDA's and libcu++'s headers
   * define by the dozen (mangled, unused).  .shared gets its place when used. */
  vec_init_arena(&l->globals, sizeof(kir_global), l->ar);
  char *used = arena_alloc(l->ar, (size_t)pm->nvars + 1);
  for (int f = 0; f < pm->nfuncs; f++)
    for (int i = 0; i < pm->funcs[f]->ncode; i++) {
      const ptx_ins *in = &pm->funcs[f]->code[i];
      for (int k = 0; k < in->nops; k++) {
        const ptx_var *v = in->ops[k].var;
        if (v && v->owner < 0 && (in->ops[k].kind == PO_SYM || in->ops[k].kind == PO_ADDR)) used[v->index] = 1;
      }
    }
  for (int k = 0; k < pm->nvars; k++) {
    ptx_var *v = pm->vars[k];
    *(int64_t *)vec_push(&l->shared_at) = -1;
    if (v->space == PS_SHARED) continue;   /* v->index: its slot in shared_at */
    int plain = strncmp(v->name, "_Z", 2) && strncmp(v->name, "__", 2);
    v->index = -1;
    if (used[k] || (plain && !v->is_extern)) { l->cur = NULL; add_global(l, v); }
  }
  /* the user's files the PTX names (the CUDA file, its own headers; not
   * CUDA's): their texts give parameter names, the CUDA file's first, and
   * positions in the CUDA file take the caller's name for it */
  const char **srcs = arena_alloc(l->ar, sizeof(char *) * (size_t)(pm->nfiles + 2));
  int nsrcs = 0, have_cu = 0;
  if (cu_path && (srcs[0] = read_source(l->ar, cu_path))) nsrcs = 1;   /* PTX without line information: still the source's names */
  for (int k = 1; k < pm->nfiles; k++) {
    const char *fk = pm->files[k];
    if (!fk || ptx_cuda_header(fk)) continue;
    if (cu_path && !have_cu && same_file(fk, cu_path)) {
      have_cu = 1;
      const char *name = arena_strndup(l->ar, cu_path, strlen(cu_path));
      for (int j = 0; j < pm->nfuncs; j++)
        for (int i = 0; i < pm->funcs[j]->ncode; i++)
          if (pm->funcs[j]->code[i].pos.file == fk) pm->funcs[j]->code[i].pos.file = name;
      continue;
    }
    char *t = read_source(l->ar, fk);
    /* a relative name: relative to the PTX file's folder or one above it
     * (fixtures name their kernel files from the source tree's top) */
    const char *slash = strrchr(path, '/');
    for (int up = 0; !t && fk[0] != '/' && slash && up < 8; up++) {
      char *dir = arena_printf(l->ar, "%.*s", (int)(slash - path), path);
      for (int u = 0; u < up; u++) dir = arena_printf(l->ar, "%s/..", dir);
      t = read_source(l->ar, arena_printf(l->ar, "%s/%s", dir, fk));
    }
    if (t) srcs[nsrcs++] = t;
  }
  vec kernels;
  vec_init_arena(&kernels, sizeof(kir_func *), l->ar);
  for (int k = 0; k < pm->nfuncs; k++) {
    if (!pm->funcs[k]->is_entry) continue;
    if (!pm->funcs[k]->defined) continue;
    *(kir_func **)vec_push(&kernels) = lower_kernel(l, pm->funcs[k], srcs, nsrcs);
  }

  /* dynamic shared memory starts after the static, 16-byte aligned */
  uint32_t dyn = align_up(l->shared_off, 16);
  m->funcs = kernels.data;
  m->nfuncs = (int)kernels.len;
  m->globals = l->globals.data;
  m->nglobals = (int)l->globals.len;
  m->shared_static = l->shared_off;
  m->uses_dyn_shared = l->uses_dyn;
  for (int k = 0; k < m->nfuncs; k++)
    for (int i = 0; i < m->funcs[k]->ncode; i++)
      if (m->funcs[k]->code[i].op == OP_CONST && (m->funcs[k]->code[i].flags & KIR_CONST_DYNSHARED))
        m->funcs[k]->code[i].imm += dyn, m->funcs[k]->code[i].flags = 0;
  m->ptx = xmalloc(len + 1);
  memcpy(m->ptx, text, len);
  m->ptx[len] = 0;
  return m;
}
