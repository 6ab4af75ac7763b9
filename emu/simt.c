/* A warp's own instructions: those that nothing outside the warp can see
 * (arithmetic, conversions, constants, special registers, branches and
 * the reconvergence stack), and the run-ahead that executes a warp's
 * stretch of them before its turns come.  See simt.h. */
#include "simt.h"

#include "access.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kir_sem.h"
#include "jit.h"
#include "prov.h"

/* 64-bit multiplies lane by lane: x86 has no 64-bit vector multiply
 * before AVX-512, and the vectorised emulation of one (three 32-bit
 * multiplies a lane) made address arithmetic slower than scalar code. */
SIMT_SCALAR static void mul64_lanes_scalar(uint32_t m, uint64_t *d, const uint64_t *A, const uint64_t *B) {
  LANES(m, d[l] = A[l] * B[l]);
}

/* An index scaled by an element size, the common case (the same power of
 * two in every lane), is a shift, which vectorises. */
static inline void mul64_lanes(uint32_t m, uint64_t *d, const uint64_t *A, const uint64_t *B) {
  uint64_t b = B[0];
  if (m == FULL && b && !(b & (b - 1))) {
    uint64_t same = 0;
    for (int l = 0; l < 32; l++) same |= B[l] ^ b;
    if (!same) {
      int k = __builtin_ctzll(b);
      for (int l = 0; l < 32; l++) d[l] = A[l] << k;
      return;
    }
  }
  mul64_lanes_scalar(m, d, A, B);
}

/* An unsigned division or remainder by the same power of two in every
 * lane of a full warp (blockDim.x / 2, i % 32): a shift or a mask, where
 * the hardware's divide takes tens of cycles a lane.  A 32-bit op reads
 * its operands' low 32 bits (PTX registers may hold them sign-extended).
 * 0 where it does not apply. */
static inline int udiv_pow2_lanes(uint32_t m, uint64_t *d, const uint64_t *A, const uint64_t *B, int rem, int w32) {
  uint64_t low = w32 ? 0xffffffffu : ~(uint64_t)0, b = B[0] & low, same = 0;
  if (m != FULL || !b || (b & (b - 1))) return 0;
  for (int l = 0; l < 32; l++) same |= (B[l] ^ b) & low;
  if (same) return 0;
  int k = __builtin_ctzll(b);
  if (rem) for (int l = 0; l < 32; l++) d[l] = A[l] & low & (b - 1);
  else for (int l = 0; l < 32; l++) d[l] = (A[l] & low) >> k;
  return 1;
}

/* Pointer additions: a full warp's in the common case of kir_ptr_add
 * (no lane leaves its object's bits) in one vector pass, which checks
 * that; else lane by lane, where vector code would compute both sides of
 * kir_ptr_add and blend them. */
SIMT_SCALAR static void padd_lanes_scalar(uint32_t m, uint64_t *d, const uint64_t *A, const uint64_t *B, uint64_t scale) {
  LANES(m, d[l] = kir_ptr_add(A[l], B[l] * scale));
}

/* An index scaled by its element's size (the scale a power of two, the
 * common case: a shift) or a byte offset (scale 1). */
static inline void padd_lanes(uint32_t m, uint64_t *d, const uint64_t *A, const uint64_t *B, int64_t imm) {
  uint64_t scale = imm ? (uint64_t)imm : 1;
  if (m == FULL && !(scale & (scale - 1))) {
    uint64_t r[32], moved = 0;
    int k = __builtin_ctzll(scale);
    for (int l = 0; l < 32; l++) {
      r[l] = A[l] + (B[l] << k);
      moved |= (r[l] ^ A[l]) >> 32;
    }
    if (!moved) {
      memcpy(d, r, sizeof r);   /* d may be A or B */
      return;
    }
  }
  padd_lanes_scalar(m, d, A, B, scale);
}

/* A binary op of simt_plan's kb over a full warp, its b the launch's
 * value bk in every lane; inlined into the run-ahead's loop. */
__attribute__((always_inline)) static inline void alu_exec_kb(warp *w, const kir_ins *in, uint64_t bk) {
  uint64_t *d = w->r + (size_t)in->dst * 32;
  const uint64_t *A = w->r + (size_t)in->a * 32;
  switch (in->op) {
#define BINCASE(OPC) case OPC: for (int l = 0; l < 32; l++) d[l] = sem_bin(OPC, A[l], bk); break;
#define BINV(n) BINCASE(OP_##n##_I32) BINCASE(OP_##n##_U32) BINCASE(OP_##n##_I64) BINCASE(OP_##n##_U64) BINCASE(OP_##n##_F32) BINCASE(OP_##n##_F64)
    KIR_BINOPS(BINV)
#undef BINV
#undef BINCASE
  default: break;
  }
}

/* One arithmetic, conversion, constant, special-register or parameter
 * instruction for the lanes m; inlined into the run-ahead's loop. */
__attribute__((always_inline)) static inline void alu_exec(launch *L, warp *w, const kir_ins *in, uint32_t m) {
  const kir_func *f = L->f;
  uint64_t *R = w->r;
  uint64_t *d = in->dst >= 0 ? R + (size_t)in->dst * 32 : NULL;
  const uint64_t *A = in->a >= 0 ? R + (size_t)in->a * 32 : NULL;
  const uint64_t *B = in->b >= 0 ? R + (size_t)in->b * 32 : NULL;
  const uint64_t *C = in->c >= 0 ? R + (size_t)in->c * 32 : NULL;
  switch (in->op) {
#define BINCASE(OPC) case OPC:                                               \
    if (OPC == OP_MUL_I64 || OPC == OP_MUL_U64) mul64_lanes(m, d, A, B);     \
    else if ((OPC == OP_DIV_U32 || OPC == OP_DIV_U64 || OPC == OP_REM_U32 ||   \
              OPC == OP_REM_U64) &&                                          \
             udiv_pow2_lanes(m, d, A, B, OPC == OP_REM_U32 || OPC == OP_REM_U64, \
                             OPC == OP_DIV_U32 || OPC == OP_REM_U32))        \
      ;                                                                      \
    else LANES(m, d[l] = sem_bin(OPC, A[l], B[l]));                          \
    break;
#define BINV(n) BINCASE(OP_##n##_I32) BINCASE(OP_##n##_U32) BINCASE(OP_##n##_I64) BINCASE(OP_##n##_U64) BINCASE(OP_##n##_F32) BINCASE(OP_##n##_F64)
    KIR_BINOPS(BINV)
#undef BINV
#undef BINCASE
#define UNCASE(OPC) case OPC: LANES(m, d[l] = sem_un(OPC, A[l])); break;
#define UNV(n) UNCASE(OP_##n##_I32) UNCASE(OP_##n##_U32) UNCASE(OP_##n##_I64) UNCASE(OP_##n##_U64) UNCASE(OP_##n##_F32) UNCASE(OP_##n##_F64)
    KIR_UNOPS(UNV)
#undef UNV
#undef UNCASE
  case OP_CONST: { uint64_t v = (uint64_t)in->imm; LANES(m, d[l] = v); break; }
  case OP_MOV: LANES(m, d[l] = A[l]); break;
  case OP_CVT: {
    int from = (int)(in->imm & 0xff), to = (int)(in->imm >> 8 & 0xff);
    /* integer to integer is the target's canonical form (the source is
     * canonical already): chosen once per instruction, not per lane */
    if (from != SK_BOOL && !sem_sk_is_float(from) && to != SK_BOOL && !sem_sk_is_float(to)) {
      switch (to) {
      case SK_I32: LANES(m, d[l] = sem_s32(A[l])); break;
      case SK_U32: LANES(m, d[l] = sem_u32(A[l])); break;
      case SK_I64: case SK_U64: case SK_PTR: LANES(m, d[l] = A[l]); break;
      default: LANES(m, d[l] = sem_canon(to, A[l])); break;
      }
      break;
    }
    LANES(m, d[l] = sem_cvt(from, to, A[l]));
    break;
  }
  case OP_SREG: {
    blk *b = w->b;
    switch (in->imm) {
    case SR_TID_X: case SR_TID_Y: case SR_TID_Z: { const uint32_t *t = w->tid[in->imm - SR_TID_X]; LANES(m, d[l] = t[l]); break; }
    case SR_CTAID_X: case SR_CTAID_Y: case SR_CTAID_Z: { uint64_t v = b->idx[in->imm - SR_CTAID_X]; LANES(m, d[l] = v); break; }
    case SR_NTID_X: LANES(m, d[l] = L->bdim.x); break;
    case SR_NTID_Y: LANES(m, d[l] = L->bdim.y); break;
    case SR_NTID_Z: LANES(m, d[l] = L->bdim.z); break;
    case SR_NCTAID_X: LANES(m, d[l] = L->grid.x); break;
    case SR_NCTAID_Y: LANES(m, d[l] = L->grid.y); break;
    case SR_NCTAID_Z: LANES(m, d[l] = L->grid.z); break;
    case SR_LANEID: LANES(m, d[l] = (uint64_t)l); break;
    case SR_WARPSIZE: LANES(m, d[l] = 32); break;
    case SR_CLOCK: { uint64_t v = L->steps; LANES(m, d[l] = v); break; }
    case SR_GRIDWS_LO: { uint64_t v = (uint32_t)L->gridws; LANES(m, d[l] = v); break; }
    case SR_GRIDWS_HI: { uint64_t v = L->gridws >> 32; LANES(m, d[l] = v); break; }
    }
    break;
  }
  case OP_PARAM:
    if (in->dst < 0) {   /* a struct by value: into each thread's local copy (placed by the front end) */
      const kir_param *kp = &f->params[in->imm];
      LANES(m, memcpy(w->local + (size_t)l * f->frame + (A[l] & KIR_OFFSET_MASK(SPACE_LOCAL)), L->argdata[in->imm], kp->size));
      break;
    }
    { uint64_t v = L->args[in->imm]; LANES(m, d[l] = v); }
    break;
  case OP_GADDR: { uint64_t v = L->mod->gaddr[in->imm]; LANES(m, d[l] = v); break; }
  case OP_MATH: LANES(m, d[l] = sem_math((int)in->imm, A ? A[l] : 0, B ? B[l] : 0, C ? C[l] : 0)); break;
  case OP_PADD: padd_lanes(m, d, A, B, in->imm); break;
  case OP_PDIFF: LANES(m, d[l] = kir_ptr_diff(A[l], B[l])); break;
  case OP_SEL: LANES(m, d[l] = C[l] ? A[l] : B[l]); break;
  default: break;   /* OP_NOP */
  }
}

void simt_alu(launch *L, warp *w, const kir_ins *in, uint32_t m) { alu_exec(L, w, in, m); }

/* The lanes of m for which the branch is taken: its condition (B)
 * nonzero for brt, zero for brf; an unconditional jump takes them all. */
static inline uint32_t taken_mask(const warp *w, const kir_ins *in, uint32_t m) {
  if (in->op == OP_JMP) return m;
  const uint64_t *B = w->r + (size_t)in->b * 32;
  uint32_t t = 0;
  if (m == FULL) {
    /* the common case, every lane as lane 0, checked by one reduction;
     * else branch-free: (x | -x) has its top bit set exactly when x != 0 */
    uint64_t other = 0;
    if (B[0]) for (int l = 0; l < 32; l++) other |= B[l] == 0;
    else for (int l = 0; l < 32; l++) other |= B[l];
    if (!other) t = B[0] ? FULL : 0;
    else for (int l = 0; l < 32; l++) t |= (uint32_t)((B[l] | (0 - B[l])) >> 63) << l;
  }
  else LANES(m, t |= (uint32_t)(B[l] != 0) << l);
  return in->op == OP_BRT ? t & m : ~t & m;
}

/* simt_branch with the lanes' taken mask already known: inlined into the
 * run-ahead, where the mask's loop is vectorised with the rest */
static inline int branch_with(launch *L, warp *w, const kir_ins *in, int pc, uint32_t m, uint32_t t) {
  simt_entry *top = &w->stk[w->sp - 1];
  int target = in->a, next = pc + 1;
  emu_assert((t & ~m) == 0);   /* only lanes that ran the branch take it */
  if (t == 0) { top->pc = next; return 0; }
  if (t == m) { top->pc = target; return 0; }
  uint32_t nt = m & ~t;
  int rpc = in->c < 0 ? -1 : in->c;
  L->ctx->stats.divergences++;
  if (L->ctx->nobs) {
    gr_event ev;
    engine_ev_init(L, &ev, GR_EV_DIVERGE, w, pc);
    ev.mask = m;
    ev.taken = t;
    engine_deliver(L, &ev);
  }
  if (top->rpc == rpc && rpc >= 0) {
    /* the lanes that go straight to the reconvergence point are already
     * waiting there in the entry below: drop them instead of pushing */
    if (target == rpc) { top->mask = nt; top->pc = next; return 0; }
    if (next == rpc) { top->mask = t; top->pc = target; return 0; }
  }
  if (w->sp + 2 > STACK_MAX) return -1;
  top->pc = rpc;
  if (target != rpc) { simt_entry *e = &w->stk[w->sp++]; e->pc = target; e->rpc = rpc; e->mask = t; }
  if (next != rpc) { simt_entry *e = &w->stk[w->sp++]; e->pc = next; e->rpc = rpc; e->mask = nt; }
  return 0;
}

int simt_branch(launch *L, warp *w, const kir_ins *in, int pc, uint32_t m) {
  return branch_with(L, w, in, pc, m, taken_mask(w, in, m));
}

void simt_reconverge(launch *L, warp *w) {
  while (w->sp > 0) {
    simt_entry *e = &w->stk[w->sp - 1];
    if (e->mask == 0) { w->sp--; continue; }
    if (e->pc == e->rpc) {
      w->sp--;
      if (L->ctx->nobs && w->sp > 0) {
        gr_event ev;
        engine_ev_init(L, &ev, GR_EV_RECONVERGE, w, e->rpc);
        ev.mask = w->stk[w->sp - 1].mask;
        engine_deliver(L, &ev);
      }
      continue;
    }
    break;
  }
}

/* ------------------------------------------------------------- running ahead */

/* Whether op is a binary op whose lane loop with a scalar b is plain
 * (64-bit multiplies, divisions and remainders have paths of their own);
 * the binary ops open kir_op, the unary ones follow from OP_NEG_I32 */
static int kb_op(int op) {
  if (op < 0 || op >= OP_NEG_I32) return 0;
  switch (op) {
  case OP_MUL_I64: case OP_MUL_U64:
  case OP_DIV_I32: case OP_DIV_U32: case OP_DIV_I64: case OP_DIV_U64: case OP_DIV_F32: case OP_DIV_F64:
  case OP_REM_I32: case OP_REM_U32: case OP_REM_I64: case OP_REM_U64: case OP_REM_F32: case OP_REM_F64:
    return 0;
  default: return 1;
  }
}

/* simt.h's quiet: the pcs from which no write to memory is reachable
 * without passing a barrier, to a fixpoint (loops), backwards.  An
 * asynchronous copy writes shared memory where it is performed: at the
 * OP_CPWAIT that waits for it, or at its thread's exit (a warp whose
 * copies are in flight is not quiet: another warp's load run ahead of a
 * wait's turn read shared memory before the copy, tests/data/ahead_copy.ptx). */
static uint8_t *plan_quiet(const kir_func *f) {
  int n = f->ncode, copies = 0;
  for (int pc = 0; pc < n && !copies; pc++) copies = f->code[pc].op == OP_CPASYNC;
  uint8_t *loud = xcalloc((size_t)(n ? n : 1), 1);
  for (int changed = 1; changed;) {
    changed = 0;
    for (int pc = n - 1; pc >= 0; pc--) {
      const kir_ins *in = &f->code[pc];
      if (loud[pc] || in->op == OP_BAR) continue;
      int s0, s1, l = in->op == OP_ST || in->op == OP_ATOM || (in->op == OP_PARAM && in->dst < 0) || in->op == OP_CPWAIT ||
                      (copies && in->op == OP_EXIT);
      kir_successors(in, pc, &s0, &s1);
      l |= (s0 >= 0 && s0 < n && loud[s0]) || (s1 >= 0 && s1 < n && loud[s1]);
      if (l) loud[pc] = 1, changed = 1;
    }
  }
  for (int pc = 0; pc < n; pc++) loud[pc] = !loud[pc];
  return loud;
}

/* Whether register r is written before it is read, and before any
 * backward branch, on every path from pc, as far as *budget instructions
 * show (a path that goes further counts as a read); an exit ends a path
 * unread.  Per lane: each of a diverged warp's lanes follows one of the
 * paths.  The backward branches: where the livelock detector hashes the
 * warp's registers (note_backedge), which must never see one that a fused
 * comparison left stale. */
static int dead_from(const kir_func *f, int pc, int r, int *budget) {
  while (pc >= 0 && pc < f->ncode && (*budget)-- > 0) {
    const kir_ins *in = &f->code[pc];
    int u[4], nu = kir_ins_reads(in, u), s0, s1;
    for (int k = 0; k < nu; k++) if (u[k] == r) return 0;
    if (kir_ins_writes(in) == r || in->op == OP_EXIT) return 1;
    if ((in->op == OP_JMP || in->op == OP_BRT || in->op == OP_BRF) && in->a <= pc) return 0;
    kir_successors(in, pc, &s0, &s1);
    if (s1 >= 0 && !dead_from(f, s1, r, budget)) return 0;
    pc = s0;
  }
  return 0;
}

static int is_compare(int op) { return op >= OP_EQ_I32 && op <= OP_GE_F64; }

int simt_fused_at(const kir_func *f, int pc) {
  if (pc + 1 >= f->ncode) return 0;
  const kir_ins *in = &f->code[pc], *br = &f->code[pc + 1];
  if (!is_compare(in->op) || in->dst < 0) return 0;
  if ((br->op != OP_BRT && br->op != OP_BRF) || br->b != in->dst) return 0;
  int budget = 64;
  return dead_from(f, br->a, in->dst, &budget) && dead_from(f, pc + 2, in->dst, &budget);
}

/* simt.h's fused, for the comparisons the run-ahead runs */
static uint8_t *plan_fused(const kir_func *f, const uint8_t *marks) {
  uint8_t *fu = xcalloc((size_t)(f->ncode ? f->ncode : 1), 1);
  for (int pc = 0; pc + 1 < f->ncode; pc++)
    if (marks[pc] && marks[pc] <= AHEAD_RUN_MAX) fu[pc] = (uint8_t)simt_fused_at(f, pc);
  return fu;
}

int *simt_launch_defs(const kir_func *f) {
  size_t nr = (size_t)(f->nregs ? f->nregs : 1);
  /* written once, by a constant or a scalar parameter in the entry's
   * straight line (no branch before it, none to it): every path passes
   * that write before any later pc, and nothing else writes */
  int *writes = xcalloc(nr, sizeof(int)), *def = xmalloc(nr * sizeof(int)), straight = f->ncode;
  for (size_t r = 0; r < nr; r++) def[r] = -1;
  for (int pc = 0; pc < f->ncode; pc++) {
    const kir_ins *in = &f->code[pc];
    if (in->op == OP_JMP || in->op == OP_BRT || in->op == OP_BRF) {
      if (pc < straight) straight = pc;
      if (in->a < straight) straight = in->a;
    }
    int r = kir_ins_writes(in);
    if (r >= 0) { writes[r]++; def[r] = pc; }
  }
  for (size_t r = 0; r < nr; r++) {
    if (def[r] < 0) continue;
    const kir_ins *d = &f->code[def[r]];
    if (writes[r] != 1 || def[r] >= straight || !(d->op == OP_CONST || (d->op == OP_PARAM && d->dst >= 0))) def[r] = -1;
  }
  free(writes);
  return def;
}

int simt_own(const kir_ins *in) {
  switch (in->op) {
  case OP_SREG: return in->imm != SR_CLOCK;
  case OP_PARAM: return in->dst >= 0;
  case OP_JMP: case OP_BRT: case OP_BRF: return 1;
  default: return kir_is_alu(in->op);
  }
}

simt_plan *simt_plan_new(const kir_func *f, const uint64_t *args, const uint8_t *cls) {
  size_t n = (size_t)(f->ncode ? f->ncode : 1);
  simt_plan *p = xcalloc(1, sizeof *p);
  p->marks = xcalloc(n, 1);
  p->kb = xcalloc(n, 1);
  p->kv = xcalloc(n, sizeof *p->kv);
  uint8_t *ok = p->marks;
  p->quiet = plan_quiet(f);
  /* backwards, so that an instruction's run is one more than its successor's */
  for (int pc = f->ncode - 1; pc >= 0; pc--) {
    const kir_ins *in = &f->code[pc];
    switch (in->op) {
    case OP_JMP: case OP_BRT: case OP_BRF: ok[pc] = AHEAD_BRANCH; continue;
    case OP_LD: if (p->quiet[pc] || (cls && cls[pc] == PROV_RO)) ok[pc] = AHEAD_LOAD; continue;
    case OP_ST: if (cls && cls[pc] == PROV_WO) ok[pc] = AHEAD_STORE; continue;
    default: break;
    }
    if (!simt_own(in)) continue;
    int run = pc + 1 < f->ncode && ok[pc + 1] && ok[pc + 1] <= AHEAD_RUN_MAX ? ok[pc + 1] + 1 : 1;
    ok[pc] = (uint8_t)(run < AHEAD_RUN_MAX ? run : AHEAD_RUN_MAX);
  }
  int *def = simt_launch_defs(f);
  for (int pc = 0; pc < f->ncode; pc++) {
    const kir_ins *in = &f->code[pc];
    if (!kb_op(in->op) || in->b < 0 || def[in->b] < 0 || def[in->b] >= pc) continue;
    const kir_ins *d = &f->code[def[in->b]];
    if (d->op == OP_CONST) p->kv[pc] = (uint64_t)d->imm;
    else if (args) p->kv[pc] = args[d->imm];
    else continue;
    p->kb[pc] = 1;
  }
  free(def);
  p->fused = plan_fused(f, p->marks);
  return p;
}

void simt_plan_free(simt_plan *p) {
  if (!p) return;
  free(p->marks);
  free(p->kb);
  free(p->kv);
  free(p->quiet);
  free(p->fused);
  free(p);
}

/* The lanes of a full warp for which the comparison in holds (its b the
 * launch's value bk where kb): the fused pair's mask (simt.h) */
__attribute__((always_inline)) static inline uint32_t compare_mask(const warp *w, const kir_ins *in, int kb, uint64_t bk) {
  const uint64_t *A = w->r + (size_t)in->a * 32, *B = w->r + (size_t)in->b * 32;
  uint32_t t = 0;
  switch (in->op) {
#define CMPCASE(OPC) case OPC:                                                          \
    if (kb) for (int l = 0; l < 32; l++) t |= (uint32_t)sem_bin(OPC, A[l], bk) << l;     \
    else for (int l = 0; l < 32; l++) t |= (uint32_t)sem_bin(OPC, A[l], B[l]) << l;      \
    break;
#define CMPV(n) CMPCASE(OP_##n##_I32) CMPCASE(OP_##n##_U32) CMPCASE(OP_##n##_I64) CMPCASE(OP_##n##_U64) CMPCASE(OP_##n##_F32) CMPCASE(OP_##n##_F64)
    CMPV(EQ) CMPV(NE) CMPV(LT) CMPV(LE) CMPV(GT) CMPV(GE)
#undef CMPV
#undef CMPCASE
  default: break;
  }
  return t;
}

/* How many of the run of k instructions from pc the lanes m may run
 * before one reads or overwrites a register a load is pending into */
static int run_before_pending(const warp *w, const kir_ins *code, int pc, int k, uint32_t m) {
  for (int j = 0; j < k; j++) if (access_needs_pending(w, &code[pc + j], m)) return j;
  return k;
}

/* jit_abi.h's load: an AHEAD_LOAD the run-ahead performs at once */
static int jit_load(void *Lp, void *wp, int32_t pc) {
  launch *L = Lp;
  warp *w = wp;
  if (L->ahead->marks[pc] != AHEAD_LOAD || !access_ahead_load(L, w, &L->f->code[pc])) return 0;
  return w->npend ? 2 : 1;
}

/* jit_abi.h's quiet: the block holds still */
static int jit_quiet(void *Lp, void *wp) { return access_ahead_quiet(Lp, wp); }

/* The load of a stretch observers watch: left to its turn */
static int jit_noload(void *Lp, void *wp, int32_t pc) {
  (void)Lp, (void)wp, (void)pc;
  return 0;
}

SIMT_CLONES
int simt_run_ahead(launch *L, warp *w, int cap, int how, int edges, int *edge_at, int *nedge) {
  int observed = how & SIMT_OBSERVED, uniform = how & (SIMT_UNIFORM | SIMT_OBSERVED);
  int loads = !observed || (how & SIMT_READONLY);   /* (access_ahead_load takes only those then) */
  emu_assert(!observed || (w->sp == 1 && w->stk[0].rpc < 0));
  const kir_func *f = L->f;
  const uint8_t *marks = L->ahead->marks, *kbs = L->ahead->kb, *fused = L->ahead->fused;
  const uint64_t *kvs = L->ahead->kv;
  int n = 0, stop = 0, have_ft = 0;
  uint32_t ft = 0;   /* have_ft: the fused comparison's lanes, for the branch at pc */
  const jit_code *jit = L->jit;
  jit_frame F;       /* made at the first call of the compiled code (F.R set) */
  F.R = NULL;
  uint64_t threads = 0;
  *nedge = 0;
  while (!stop && n < cap && w->sp > 0) {
    /* the top entry's lanes run together, through runs of arithmetic and
     * branches they all take the same way, until they reach its
     * reconvergence point (where simt_reconverge pops it) or part */
    simt_entry *top = &w->stk[w->sp - 1];
    int pc = top->pc, rpc = top->rpc, start = n, parted = 0;
    uint32_t m = top->mask;
    for (;;) {
      if (jit && m == FULL && (jit->entry[pc] & JIT_ENTRY) && !have_ft && !w->npend &&
          (rpc < 0 || rpc >= jit->ncode || (jit->entry[rpc] & JIT_STOP))) {
        /* compiled code runs what this loop would (jit_abi.h), as far as it can */
        if (!F.R) {
          blk *b = w->b;
          F = (jit_frame){w->r, w->tid, {b->idx[0], b->idx[1], b->idx[2]}, {L->bdim.x, L->bdim.y, L->bdim.z},
                          {L->grid.x, L->grid.y, L->grid.z}, L->gridws, L->args, L->mod->gaddr,
                          0, 0, cap, 0, edges, 0, edge_at, 0, 0, loads ? jit_load : jit_noload, L, w, 0,
                          marks, b->shared, L->shared_size, jit_quiet, observed && !(how & SIMT_READONLY) ? -1 : 0,
                          observed != 0, 0, 0, 0, NULL, 0, 0, 0, 0};
        }
        F.pc = pc, F.n = n, F.rpc = rpc, F.nedge = *nedge, F.have_ft = 0;
        jit->fn(&F);
        /* a load that access_ahead_load declined ends the stretch, as below */
        if (F.stopped) { pc = F.pc, n = F.n, *nedge = F.nedge, stop = 1; break; }
        if (F.n != n) {
          pc = F.pc;
          n = F.n;
          *nedge = F.nedge;
          if (F.have_ft) have_ft = 1, ft = F.ft;
          if (pc == rpc || n >= cap) break;
        }
      }
      int mark = marks[pc];
      if (!mark) { stop = 1; break; }
      const kir_ins *in = &f->code[pc];
      if (mark == AHEAD_BRANCH) {
        /* a backward branch: the livelock detector's point, at most `edges` a stretch */
        int back = in->a <= pc, fusedhere = have_ft, halt = back && *nedge >= edges;
        uint32_t t = 0;
        have_ft = 0;
        /* a register a load is pending into: performing it is the memory system's business */
        if (!halt && w->npend && access_needs_pending(w, in, m)) halt = 1;
        if (!halt) {
          t = !fusedhere ? taken_mask(w, in, m) : in->op == OP_BRT ? ft : ~ft & m;
          /* the lanes part: under ITS its_step schedules the groups; where
           * the stack might overflow, engine_warp_step says so */
          if (t && t != m && (uniform || w->sp + 2 > STACK_MAX)) halt = 1;
        }
        if (halt) {
          if (fusedhere) alu_exec(L, w, in - 1, FULL);   /* the register the branch's turn reads */
          stop = 1;
          break;
        }
        if (t && t != m) {
          if (back) edge_at[(*nedge)++] = n;
          top->pc = pc;
          branch_with(L, w, in, pc, m, t);
          n++;
          parted = 1;
          break;
        }
        if (back) edge_at[(*nedge)++] = n;
        pc = t ? in->a : pc + 1;
        n++;
      } else if (mark == AHEAD_LOAD) {
        if (!loads || m != FULL || !access_ahead_load(L, w, in)) { stop = 1; break; }
        pc++;
        n++;
      } else if (mark == AHEAD_STORE) {
        /* its change to memory is due at its turn, as a backward branch is */
        int changed;
        if (uniform || m != FULL || *nedge >= WARP_EDGES || (changed = access_ahead_store(L, w, in)) < 0) { stop = 1; break; }
        if (changed) edge_at[(*nedge)++] = ~n;
        pc++;
        n++;
      } else {
        /* a straight run: one dispatch loop, the mask fixed, a full warp's
         * lane loops without the mask tests */
        int k = mark < cap - n ? mark : cap - n;
        if (rpc > pc && rpc - pc < k) k = rpc - pc;
        if (w->npend && !(k = run_before_pending(w, f->code, pc, k, m))) { stop = 1; break; }
        if (m == FULL) {
          /* a comparison that ends the run, fused with the branch after it
           * (simt.h), which this stretch then reaches */
          int last = pc + k - 1, fuse = fused[last] && !w->npend && last + 1 != rpc && n + k < cap;
          for (int j = 0; j < k - fuse; j++)
            if (kbs[pc + j]) alu_exec_kb(w, in + j, kvs[pc + j]);
            else alu_exec(L, w, in + j, FULL);
          if (fuse) ft = compare_mask(w, in + k - 1, kbs[last], kvs[last]), have_ft = 1;
        } else for (int j = 0; j < k; j++) alu_exec(L, w, in + j, m);
        pc += k;
        n += k;
      }
      if (pc == rpc || n >= cap) break;
    }
    if (!parted) top->pc = pc;
    threads += (uint64_t)(n - start) * (m == FULL ? 32u : (uint64_t)__builtin_popcount(m));
    simt_reconverge(L, w);
  }
  L->ctx->stats.thread_instructions += threads;
  if (F.R) L->ctx->stats.compiled_declined += F.declined;
  if (F.R && F.sh_lanes) {   /* compiled code's shared loads, as access_ahead_load's count_mem counts them */
    L->ctx->stats.mem_ops[SPACE_SHARED - SPACE_GLOBAL][GR_LOAD] += F.sh_lanes;
    L->ctx->stats.mem_bytes[SPACE_SHARED - SPACE_GLOBAL][GR_LOAD] += F.sh_bytes;
  }
  return n;
}
