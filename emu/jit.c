/* The compiled engine: KIR to C, the system compiler, a cache, dlopen.
 * See jit.h. */
#include "jit.h"

#include <dlfcn.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "kir_sem.h"
#include "simt.h"

/* jit_text.c, made from the headers by scripts/embed-text.sh */
extern const char *const jit_text_names[];
extern const char *const jit_text_bodies[];

/* ------------------------------------------------------------- what compiles */

static int is_branch(int op) { return op == OP_JMP || op == OP_BRT || op == OP_BRF; }

/* The instructions compiled code runs: simt_plan's marks (the run-ahead's
 * own ALU rule: the clock reads the step count, a struct parameter is
 * copied to memory), branches, and loads, which it hands to F->load (the
 * plan decides per launch which it performs at once). */
static int compiles(const kir_ins *in) { return in->op == OP_LD || simt_own(in); }

/* Per pc: JIT_ENTRY where a block of compiled code starts (the code's
 * start, after a branch or an instruction it does not run, at a branch
 * target or a reconvergence point), JIT_STOP where the pc is a
 * reconvergence point (where a stretch may have to stop). */
static uint8_t *jit_blocks(const kir_func *f) {
  int n = f->ncode;
  uint8_t *e = xcalloc((size_t)n + 1, 1);
  for (int pc = 0; pc < n; pc++) {
    const kir_ins *in = &f->code[pc];
    if (!is_branch(in->op)) continue;
    if (in->a >= 0 && in->a < n) e[in->a] |= JIT_ENTRY;
    if (in->op != OP_JMP && in->c >= 0 && in->c < n) e[in->c] |= JIT_ENTRY | JIT_STOP;
  }
  for (int pc = 0; pc < n; pc++) {
    const kir_ins *in = &f->code[pc];
    if (!compiles(in)) { e[pc] &= (uint8_t)~JIT_ENTRY; continue; }
    if (pc == 0 || !compiles(&f->code[pc - 1]) || is_branch(f->code[pc - 1].op) || f->code[pc - 1].op == OP_LD || in->op == OP_LD)
      e[pc] |= JIT_ENTRY;
  }
  return e;
}

/* ------------------------------------------------------------- emission */

static void put(bytes *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(bytes *b, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  if ((size_t)k < sizeof buf) { bytes_put(b, buf, (size_t)k); return; }
  char *big = xmalloc((size_t)k + 1);
  va_start(ap, fmt);
  vsnprintf(big, (size_t)k + 1, fmt, ap);
  va_end(ap);
  bytes_put(b, big, (size_t)k);
  free(big);
}

/* The special registers compiled code reads (the clock it does not), as C
 * expressions of lane l, and whether a warp's lanes read one value (the
 * block's index, the grid's and block's sizes): uniform_op's scalars. */
static const struct { const char *expr; int scalar; } sreg_c[SR_COUNT] = {
  [SR_TID_X] = {"(uint64_t)tid0[l]", 0}, [SR_TID_Y] = {"(uint64_t)tid1[l]", 0}, [SR_TID_Z] = {"(uint64_t)tid2[l]", 0},
  [SR_CTAID_X] = {"ctaid0", 1}, [SR_CTAID_Y] = {"ctaid1", 1}, [SR_CTAID_Z] = {"ctaid2", 1},
  [SR_NTID_X] = {"ntid0", 1}, [SR_NTID_Y] = {"ntid1", 1}, [SR_NTID_Z] = {"ntid2", 1},
  [SR_NCTAID_X] = {"nctaid0", 1}, [SR_NCTAID_Y] = {"nctaid1", 1}, [SR_NCTAID_Z] = {"nctaid2", 1},
  [SR_LANEID] = {"(uint64_t)l", 0}, [SR_WARPSIZE] = {"UINT64_C(32)", 1},
  [SR_GRIDWS_LO] = {"(uint64_t)(uint32_t)gridws", 1}, [SR_GRIDWS_HI] = {"(gridws >> 32)", 1},
};

/* The C expression of one instruction of compiles() but a branch, as
 * alu_exec computes it for lane l of a full warp (simt.c): each op's lane
 * function from kir_sem.h.  A, B, C: its operands' expressions (unused
 * ones "0").  Into e; 0 where it computes nothing (a nop, an unknown
 * special register: alu_exec leaves the destination). */
static int alu_expr(char *e, size_t n, const kir_ins *in, const char *A, const char *B, const char *C) {
  int op = in->op;
  if (op < OP_NEG_I32 && kir_is_alu(op) && op != OP_CONST) {
    /* the binary ops open kir_op (simt.c's kb_op says the same) */
    snprintf(e, n, "B%d(%s, %s)", op, A, B);
    return 1;
  }
  switch (op) {
  case OP_CONST: snprintf(e, n, "UINT64_C(0x%" PRIx64 ")", (uint64_t)in->imm); return 1;
  case OP_MOV: snprintf(e, n, "%s", A); return 1;
  case OP_CVT: {
    int from = (int)(in->imm & 0xff), to = (int)(in->imm >> 8 & 0xff);
    if (from != SK_BOOL && !sem_sk_is_float(from) && to != SK_BOOL && !sem_sk_is_float(to)) {
      switch (to) {
      case SK_I32: snprintf(e, n, "sem_s32(%s)", A); return 1;
      case SK_U32: snprintf(e, n, "sem_u32(%s)", A); return 1;
      case SK_I64: case SK_U64: case SK_PTR: snprintf(e, n, "%s", A); return 1;
      default: snprintf(e, n, "K%d(%s)", to, A); return 1;
      }
    }
    snprintf(e, n, "V%d_%d(%s)", from, to, A);
    return 1;
  }
  case OP_SREG:
    if (in->imm < 0 || in->imm >= SR_COUNT || !sreg_c[in->imm].expr) return 0;
    snprintf(e, n, "%s", sreg_c[in->imm].expr);
    return 1;
  case OP_PARAM: snprintf(e, n, "P%" PRId64, in->imm); return 1;
  case OP_GADDR: snprintf(e, n, "G%" PRId64, in->imm); return 1;
  case OP_MATH: snprintf(e, n, "M%d(%s, %s, %s)", (int)in->imm, A, B, C); return 1;
  case OP_PADD: snprintf(e, n, "kir_ptr_add(%s, %s * UINT64_C(%" PRIu64 "))", A, B, in->imm ? (uint64_t)in->imm : 1); return 1;
  case OP_PDIFF: snprintf(e, n, "kir_ptr_diff(%s, %s)", A, B); return 1;
  case OP_SEL: snprintf(e, n, "(%s ? %s : %s)", C, A, B); return 1;
  default:
    if (op >= OP_NEG_I32 && op < OP_CONST) { snprintf(e, n, "U%d(%s)", op, A); return 1; }
    return 0;   /* OP_NOP */
  }
}

/* ------------------------------------------------------------- uniform registers */

/* Register r's bit in a set of W words (a pc's row of uin or of live). */
#define UBIT(set, r) ((set)[(size_t)(r) / 64] >> ((r) % 64) & 1)

/* The ops whose lanes all compute one value from operands that hold one:
 * arithmetic, constants, parameters, the grid's and block's sizes and the
 * block's index (not the thread's index, the lane, the clock). */
static int uniform_op(const kir_ins *in) {
  if (in->op == OP_SREG) return in->imm >= 0 && in->imm < SR_COUNT && sreg_c[in->imm].scalar;
  return in->op != OP_NOP && kir_is_alu(in->op);
}

/* Whether the value pc writes is one for the warp where its lanes run it
 * together: a uniform_op of registers uniform before pc (uin). */
static int uniform_write(const kir_func *f, const uint64_t *uin, size_t W, int pc) {
  const kir_ins *in = &f->code[pc];
  int u[4];
  if (!uniform_op(in)) return 0;
  for (int k = 0, nu = kir_ins_reads(in, u); k < nu; k++)
    if (u[k] < 0 || u[k] >= f->nregs || !UBIT(&uin[(size_t)pc * W], u[k])) return 0;
  return 1;
}

/* Where compiled code may hold a register as one scalar for the warp
 * (u<r>): under lockstep, a full warp's lanes hold one value in it.
 * Forward, to a fixpoint, a must-analysis over the instructions: uin[pc]
 * (W words), the registers uniform before pc (at the entry all are: they
 * start at 0), each write making its register uniform after it where it
 * is a uniform_op of registers uniform before it, at a pc where the
 * lanes run together: none that they may reach apart, between a branch
 * whose condition is not uniform and its reconvergence point (a loop
 * such a branch leaves included, whose counter stops at a different
 * count in each lane); paths meeting keep what is uniform on all.  A
 * divergent branch found widens what is apart, and the analysis runs
 * again.  Per register and pc, not per register: the front ends reuse
 * registers for several variables (matmul's tile index and its addresses).  This decides
 * speed only: compiled code checks at its entry that each scalar it is
 * about to read holds one value in the warp's 32 lanes, and runs nothing
 * where one does not (under ITS lanes drift apart anywhere, and meet
 * again at one pc with different counts), see jit_emit. */
#define JIT_UNIFORM_MAX 20000
static uint64_t *jit_uniform(const kir_func *f, size_t W) {
  int n = f->ncode, nr = f->nregs;
  /* a kernel too large for a quadratic analysis (a branch's region is a
   * walk over the code): nothing uniform, the lane loops as without it */
  if (n > JIT_UNIFORM_MAX || ((size_t)n + 1) * W > (size_t)JIT_UNIFORM_MAX * 4)
    return xcalloc(((size_t)n + 1) * W, sizeof(uint64_t));
  uint64_t *uin = xmalloc(((size_t)n + 1) * W * sizeof *uin), *out = xmalloc(W * sizeof *out);
  uint8_t *apart = xcalloc((size_t)n + 1, 1), *done = xcalloc((size_t)n + 1, 1), *reached = xcalloc((size_t)n + 1, 1);
  int *seen = xcalloc((size_t)n + 1, sizeof *seen), *stk = xmalloc(((size_t)n + 1) * 2 * sizeof *stk);
  for (int more = 1; more;) {
    more = 0;
    /* all ones where not reached yet: the meet's identity */
    memset(uin, 0xff, ((size_t)n + 1) * W * sizeof *uin);
    memset(reached, 0, (size_t)n + 1);
    reached[0] = 1;
    for (int changed = 1; changed;) {
      changed = 0;
      for (int pc = 0; pc < n; pc++) {
        if (!reached[pc]) continue;
        const kir_ins *in = &f->code[pc];
        memcpy(out, &uin[(size_t)pc * W], W * sizeof *out);
        int d = kir_ins_writes(in);
        if (d >= 0 && d < nr) {
          if (!apart[pc] && uniform_write(f, uin, W, pc)) out[d / 64] |= (uint64_t)1 << (d % 64);
          else out[d / 64] &= ~((uint64_t)1 << (d % 64));
        }
        int s0, s1;
        kir_successors(in, pc, &s0, &s1);
        for (int j = 0; j < 2; j++) {
          int q = j ? s1 : s0;
          if (q < 0 || q >= n) continue;
          uint64_t *t = &uin[(size_t)q * W];
          for (size_t w = 0; w < W; w++)
            if (t[w] & ~out[w]) t[w] &= out[w], changed = 1;
          if (!reached[q]) reached[q] = 1, changed = 1;
        }
      }
    }
    for (int pc = 0; pc < n; pc++) {
      const kir_ins *in = &f->code[pc];
      if ((in->op != OP_BRT && in->op != OP_BRF) || done[pc] || !reached[pc] ||
          (in->b >= 0 && in->b < nr && UBIT(&uin[(size_t)pc * W], in->b)))
        continue;
      /* the lanes part here: every pc either side reaches before the reconvergence point */
      done[pc] = 1, more = 1;
      int sp = 0;
      stk[sp++] = in->a, stk[sp++] = pc + 1;
      while (sp) {
        int q = stk[--sp];
        if (q < 0 || q >= n || q == in->c || seen[q] == pc + 1) continue;
        seen[q] = pc + 1, apart[q] = 1;
        int s0, s1;
        kir_successors(&f->code[q], q, &s0, &s1);
        if (s0 >= 0) stk[sp++] = s0;
        if (s1 >= 0) stk[sp++] = s1;
      }
    }
  }
  /* code no path reaches: nothing known (the meet's identity was all) */
  for (int pc = 0; pc <= n; pc++)
    if (pc == n || !reached[pc]) memset(&uin[(size_t)pc * W], 0, W * sizeof *uin);
  free(out);
  free(apart);
  free(done);
  free(reached);
  free(seen);
  free(stk);
  return uin;
}

/* Per pc, the registers compiled code entering there may read as scalars
 * before it writes them (W words a pc): liveness over the instructions it
 * runs, which stop it where one does not compile, of the reads where the
 * register is uniform (uin) and not the launch's value (def).  A load's
 * address is read from the register file (kept exact: each uniform write
 * stores every lane). */
static uint64_t *jit_uniform_live(const kir_func *f, const uint64_t *uin, const int *def, size_t W) {
  int n = f->ncode;
  uint64_t *live = xcalloc(((size_t)n + 1) * W, sizeof *live), *out = xcalloc(W, sizeof *out);
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = n - 1; i >= 0; i--) {
      const kir_ins *in = &f->code[i];
      memset(out, 0, W * sizeof *out);
      if (compiles(in)) {
        kir_live_after(f->code, i, n, live, W, out);
        int d = kir_ins_writes(in);
        if (d >= 0) out[d / 64] &= ~((uint64_t)1 << (d % 64));
        int u[4], nu = in->op == OP_LD ? 0 : kir_ins_reads(in, u);
        /* (not the launch's values, which operand() reads as such) */
        for (int k = 0; k < nu; k++)
          if (u[k] >= 0 && u[k] < f->nregs && UBIT(&uin[(size_t)i * W], u[k]) && !(def[u[k]] >= 0 && def[u[k]] < i))
            out[u[k] / 64] |= (uint64_t)1 << (u[k] % 64);
      }
      uint64_t *li = &live[(size_t)i * W];
      if (memcmp(li, out, W * sizeof *out)) memcpy(li, out, W * sizeof *out), changed = 1;
    }
  }
  free(out);
  return live;
}

/* jit_blocks' entries, less those where the compiled code would run
 * too little to pay for entering (its frame, and the check of the
 * scalars it may read: jit_uniform_live): an entry whose longest run of
 * instructions before one it does not run, a load (which it may hand
 * back), the end, or a backward branch (a loop: long) is shorter than
 * JIT_SHORT_MIN plus one per JIT_SHORT_SCALARS scalars it checks.  The
 * interpreter runs those; the run is the same either way (jit_abi.h), the
 * time not: of a paper-size gcol run's 3.0 M entries, 82% ran fewer
 * than 8 instructions, and its compiled run took 1.5x the interpreter's
 * (docs/engine.md).  A threshold of 8, and one more per scalar, cost
 * matmul 5%. */
#define JIT_SHORT_MIN 6
#define JIT_SHORT_SCALARS 2
/* blocks (jit_blocks') less those entries, ulive jit_uniform_live's (W
 * words a pc): where jit_emit writes no entry, and the engine enters none */
static void drop_short(const kir_func *f, uint8_t *e, const uint64_t *ulive, size_t W) {
  int n = f->ncode;
  /* len[pc]: the longest run from pc, LONG where a loop is reachable */
  int *len = xcalloc((size_t)n + 1, sizeof *len);
  const int LONG = INT32_MAX / 2;
  for (int pc = n - 1; pc >= 0; pc--) {
    const kir_ins *in = &f->code[pc];
    if (!compiles(in) || in->op == OP_LD) { len[pc] = 0; continue; }
    int s0, s1, best = 0;
    kir_successors(in, pc, &s0, &s1);
    int succ[2] = {s0, s1};
    for (int k = 0; k < 2; k++) {
      int t = succ[k];
      if (t < 0 || t >= n) continue;
      int l = t <= pc ? LONG : len[t];
      if (l > best) best = l;
    }
    len[pc] = best >= LONG ? LONG : best + 1;
  }
  for (int pc = 0; pc < n; pc++) {
    if (!(e[pc] & JIT_ENTRY)) continue;
    int k = 0;
    for (size_t w = 0; w < W; w++) k += __builtin_popcountll(ulive[(size_t)pc * W + w]);
    if (len[pc] < JIT_SHORT_MIN + k / JIT_SHORT_SCALARS) e[pc] &= (uint8_t)~JIT_ENTRY;
  }
  free(len);
}

static uint8_t *jit_entries(const kir_func *f) {
  uint8_t *e = jit_blocks(f);
  size_t W = (size_t)(f->nregs > 0 ? (f->nregs + 63) / 64 : 1);
  int *def = simt_launch_defs(f);
  uint64_t *uin = jit_uniform(f, W), *ulive = jit_uniform_live(f, uin, def, W);
  drop_short(f, e, ulive, W);
  free(def);
  free(uin);
  free(ulive);
  return e;
}

/* What the emission of one kernel shares: local[r], the pc whose value
 * of r the current block holds in a local (-1: none); def, the launch's
 * values (simt_launch_defs); uin, the registers uniform before each pc
 * (W words a pc), and udef[pc], whether the value pc writes is. */
typedef struct {
  const kir_func *f;
  int *local;
  const int *def;
  const uint64_t *uin;
  const uint8_t *udef;
  size_t W;
  const uint64_t *live;   /* kir_liveness: the registers live before each pc (W words a pc) */
  int whole;              /* the whole warp's function (registers its own), not the stretches' */
} jit_em;

/* Whether register r is live before pc: read on some path from pc before
 * it is written.  A block's write of a register that is not live after
 * the block is not stored: nothing reads that value (the state the
 * engines compare and the livelock detector hashes is the live registers,
 * engine.c's hash_live), and a loop's temporaries then stay in the
 * machine's registers (the hash loop's two, 7% of its time). */
static int live_at(const jit_em *m, int pc, int r) { return UBIT(&m->live[(size_t)pc * m->W], r); }

/* Whether the block [s, e) stores register r: r is live after it, or,
 * where the block ends in a comparison fused with the branch at e, one of
 * its operands (a stretch that halts at the branch runs the comparison
 * again for the register the branch's turn reads: simt.c). */
static int kept_after(const jit_em *m, int e, int fused, int r) {
  /* the whole warp's own registers: one the launch fixes is read as its
   * value wherever its write is before (operand), never from them */
  if (m->whole && m->def[r] >= 0) return 0;
  if (live_at(m, e, r)) return 1;
  int u[4], nu = fused ? kir_ins_reads(&m->f->code[e - 1], u) : 0;
  for (int k = 0; k < nu; k++) if (u[k] == r) return 1;
  return 0;
}

static int uniform_at(const jit_em *m, int pc, int r) { return r >= 0 && r < m->f->nregs && UBIT(&m->uin[(size_t)pc * m->W], r); }

/* A register's value at pc in the block's lane loop: the launch's value
 * where simt_launch_defs gives one (the constant, or the parameter: a
 * scalar, which the compiler folds into the op or hoists), the local that
 * holds it (written earlier in the block: s<pc> for a uniform one, v<pc>
 * in the lane loop), a uniform register's scalar, else the register file. */
static void operand(char *out, size_t n, const jit_em *m, int pc, int r) {
  if (r < 0) snprintf(out, n, "0");
  else if (m->def[r] >= 0 && m->def[r] < pc) {
    const kir_ins *d = &m->f->code[m->def[r]];
    if (d->op == OP_CONST) snprintf(out, n, "UINT64_C(0x%" PRIx64 ")", (uint64_t)d->imm);
    else snprintf(out, n, "P%" PRId64, d->imm);
  } else if (m->local[r] >= 0) snprintf(out, n, "%c%d", m->udef[m->local[r]] ? 's' : 'v', m->local[r]);
  else if (uniform_at(m, pc, r)) snprintf(out, n, "u%d", r);
  else snprintf(out, n, "R[%d + l]", r * 32);
}

/* The straight instructions code[s, e) (compiles(), no branch) as one loop
 * over the lanes: every op computes each lane from that lane's registers
 * alone (kir_is_alu), so the lanes may run one after the other through
 * the whole block, the values held in locals, and each register written
 * stored once, its last value.  The uniform ones first, once, as scalars
 * before the loop (their operands are uniform: written earlier in the
 * block, or before it), each register stored in every lane by the loop
 * and its scalar kept.  fused: the last is a comparison whose lanes go
 * into cmpv instead of its register (into cmps where uniform: returns 1
 * then).  fast: pointer additions as plain sums, each lane's moving out
 * of its object's bits noted in `moved` (kir_ptr_add's common case, which
 * vectorises), the registers into T<r> instead of R. */
static int emit_lanes(bytes *b, const jit_em *m, int s, int e, int fused, int fast) {
  const kir_func *f = m->f;
  int *local = m->local, ufused = 0;
  char A[48], B[48], C[48], x[256];
  for (int pass = 0; pass < 2; pass++) {
    if (pass) put(b, "  for (int l = 0; l < 32; l++) {\n");
    for (int pc = s; pc < e; pc++) {
      const kir_ins *in = &f->code[pc];
      int u = m->udef[pc];
      operand(A, sizeof A, m, pc, in->a);
      operand(B, sizeof B, m, pc, in->b);
      operand(C, sizeof C, m, pc, in->c);
      if (!alu_expr(x, sizeof x, in, A, B, C) || in->dst < 0) continue;
      if (fused && pc == e - 1) {
        if (u && !pass) put(b, "  cmps = %s;\n", x), ufused = 1;
        else if (!u && pass) put(b, "    cmpv[l] = %s;\n", x);
        break;
      }
      if (u == !pass) {   /* the uniform ones in the first pass, the others in the loop */
        const char *ind = pass ? "    " : "  ";
        if (fast && in->op == OP_PADD)
          put(b, "%sconst uint64_t %c%d = %s + %s * UINT64_C(%" PRIu64 ");\n%smoved |= (%c%d ^ %s) >> 32;\n", ind, u ? 's' : 'v',
              pc, A, B, in->imm ? (uint64_t)in->imm : 1, ind, u ? 's' : 'v', pc, A);
        else put(b, "%sconst uint64_t %c%d = %s;\n", ind, u ? 's' : 'v', pc, x);
      }
      local[in->dst] = pc;   /* (the other pass's too: later operands name it) */
    }
    /* the second pass names each value by the write before its reader */
    if (!pass) for (int pc = s; pc < e; pc++) if (f->code[pc].dst >= 0) local[f->code[pc].dst] = -1;
  }
  for (int pc = s; pc < e; pc++) {
    int d = f->code[pc].dst;
    if (d >= 0 && local[d] == pc && kept_after(m, e, fused, d)) {
      if (fast && !m->whole) put(b, "    T%d[l] = %c%d;\n", d, m->udef[pc] ? 's' : 'v', pc);
      else put(b, "    R[%d + l] = %c%d;\n", d * 32, m->udef[pc] ? 's' : 'v', pc);
    }
  }
  put(b, "  }\n");
  for (int pc = s; pc < e; pc++) {
    int d = f->code[pc].dst;
    if (d >= 0 && local[d] == pc && m->udef[pc]) put(b, "  u%d = s%d;\n", d, pc);
  }
  for (int pc = s; pc < e; pc++) if (f->code[pc].dst >= 0) local[f->code[pc].dst] = -1;
  return ufused;
}

/* emit_lanes, where the block adds to pointers: the fast loop, its
 * results committed where no lane's pointer left its object's bits; else
 * the stretch stops at the block's start, the registers as they were, and
 * the run-ahead's own loop runs the block (kir_ptr_add lane by lane:
 * marks[] gives a run's length from any of its instructions).  An exact
 * loop here instead doubled the C of every block with a pointer in it,
 * and the compiler's time with it, for a case that a pointer moved out
 * of its object's bits makes rare.  The registers committed: those the
 * fast loop stored (each one's last write that computes a value; a nop,
 * or a special register alu_exec does not know, leaves its register). */
static int emit_straight(bytes *b, const jit_em *m, int s, int e, int fused) {
  const kir_func *f = m->f;
  int padd = 0;
  for (int pc = s; pc < e - fused; pc++) padd |= f->code[pc].op == OP_PADD;
  if (!padd) return emit_lanes(b, m, s, e, fused, 0);
  if (m->whole) {
    /* the registers its own: written at once, and where a pointer left
     * its object's bits, the warp stops (the launch goes turn by turn) */
    put(b, "  {\n  uint64_t moved = 0;\n");
    int ufused = emit_lanes(b, m, s, e, fused, 1);
    put(b, "  if (moved) { pc = %d; goto out; }\n  }\n", s);
    return ufused;
  }
  char x[256];
  int *last = xmalloc((size_t)(e - s) * sizeof *last), nlast = 0;
  for (int pc = e - fused - 1; pc >= s; pc--) {
    const kir_ins *in = &f->code[pc];
    int seen = 0;
    for (int k = 0; k < nlast && !seen; k++) seen = f->code[last[k]].dst == in->dst;
    if (in->dst >= 0 && !seen && alu_expr(x, sizeof x, in, "0", "0", "0")) last[nlast++] = pc;
    /* (a register dead after the block: emit_lanes stores it nowhere) */
    if (nlast && last[nlast - 1] == pc && !kept_after(m, e, fused, in->dst)) nlast--;
  }
  put(b, "  {\n  uint64_t moved = 0;\n");
  for (int k = 0; k < nlast; k++) put(b, "  uint64_t T%d[32];\n", f->code[last[k]].dst);
  int ufused = emit_lanes(b, m, s, e, fused, 1);
  put(b, "  if (!moved) {\n");
  /* copies, not loops: the compiler's passes over each loop were a tenth
   * of a small kernel's compile (moves inline where the compiler takes
   * GR_JIT_COPY: a call to memcpy cost more than the loop) */
  for (int k = 0; k < nlast; k++) {
    int d = f->code[last[k]].dst;
    put(b, "    __builtin_memcpy(R + %d, T%d, sizeof T%d);\n", d * 32, d, d);
  }
  put(b, "  } else { pc = %d; goto out; }\n  }\n", s);
  free(last);
  return ufused;
}

/* SH<sk>: a full warp's shared load of kind sk at r's addresses plus
 * imm, into d, where the block holds still (jit_abi.h): 1 where it
 * performed, 0 where the interpreter performs it (an address outside
 * shared memory or misaligned, or a block not quiet).  One function a
 * kind, called (HELPER). */
static void emit_shared_load(bytes *b, int sk) {
  int size = kir_sk_size[sk];
  if (size != 1 && size != 2 && size != 4 && size != 8) return;
  unsigned long long tag = (unsigned long long)KIR_ADDR(SPACE_SHARED, 0);
  put(b, "static HELPER int SH%d(jit_frame *F, uint64_t *d, const uint64_t *r, int64_t imm) {\n"
         "  uint64_t ad[32], bad = 0;\n  for (int l = 0; l < 32; l++) ad[l] = kir_access_addr(r[l], imm);\n"
         "  for (int l = 0; l < 32; l++) bad |= (uint64_t)(ad[l] - 0x%llxull > F->shared_size - %d) | (ad[l] & %d);\n"
         "  if (bad) return 0;\n  if (!F->sq) F->sq = F->quiet(F->L, F->w) ? 1 : -1;\n  if (F->sq < 0) return 0;\n",
      sk, tag, size, size - 1);
  if (size == 4 && (sk == SK_U32 || sk == SK_F32 || sk == SK_I32))
    put(b, "  ld4(d, F->shared, ad, 0x%llxull, %d);\n", tag, sk == SK_I32);
  else
    put(b, "  for (int l = 0; l < 32; l++) {\n    uint64_t v = 0;\n"
           "    __builtin_memcpy(&v, F->shared + (ad[l] - 0x%llxull), %d);\n    d[l] = sem_canon(%d, v);\n  }\n",
        tag, size, sk);
  put(b, "  F->sh_lanes += 32, F->sh_bytes += %d;\n  return 1;\n}\n", 32 * size);
}

/* One function a kernel's code calls for each op it uses (B: kir_sem's
 * sem_bin, U: sem_un, V: sem_cvt, K: sem_canon, M: sem_math, the op's
 * numbers in the name): the compiler folds each op's switch once, in the
 * function, not once per use (a kernel of 500 instructions took 4.6 s at
 * -O3 with sem_bin inlined at every use, 3.6 s after).  And a shared
 * load's (SH), but in the whole warp's functions (whole), which do their
 * loads in place. */
static void emit_ops(bytes *b, const kir_func *f, int whole) {
  uint8_t seen[OP_COUNT] = {0}, cvt[SK_COUNT][SK_COUNT] = {{0}}, canon[SK_COUNT] = {0}, math[MATH_COUNT] = {0};
  uint8_t shld[SK_COUNT] = {0};
  for (int pc = 0; pc < f->ncode; pc++) {
    const kir_ins *in = &f->code[pc];
    int op = in->op;
    if (op == OP_LD) {
      int sk = in->flags & 0x7f;
      if (!whole && sk < SK_COUNT && !shld[sk]) emit_shared_load(b, sk), shld[sk] = 1;
      continue;
    }
    /* (flags set, not counted: a count of 256 uses wraps to 0) */
    if (op < OP_NEG_I32 && kir_is_alu(op) && op != OP_CONST) {
      if (!seen[op]) put(b, "OP B%d(uint64_t a, uint64_t b) { return sem_bin(%d, a, b); }\n", op, op);
      seen[op] = 1;
    } else if (op >= OP_NEG_I32 && op < OP_CONST) {
      if (!seen[op]) put(b, "OP U%d(uint64_t a) { return sem_un(%d, a); }\n", op, op);
      seen[op] = 1;
    } else if (op == OP_CVT) {
      int from = (int)(in->imm & 0xff), to = (int)(in->imm >> 8 & 0xff);
      if (from >= SK_COUNT || to >= SK_COUNT) continue;
      if (!cvt[from][to]) put(b, "OP V%d_%d(uint64_t a) { return sem_cvt(%d, %d, a); }\n", from, to, from, to);
      if (!canon[to]) put(b, "OP K%d(uint64_t a) { return sem_canon(%d, a); }\n", to, to);
      cvt[from][to] = canon[to] = 1;
    } else if (op == OP_MATH && in->imm >= 0 && in->imm < MATH_COUNT && !math[in->imm] && (math[in->imm] = 1))
      put(b, "OP M%d(uint64_t a, uint64_t b, uint64_t c) { return sem_math(%d, a, b, c); }\n", (int)in->imm,
          (int)in->imm);
  }
}

/* ------------------------------------------------------------- whole warps */

/* Whether f has jit_abi.h's whole-warp functions (an object of their own,
 * jit_whole_key): every instruction one the stretches run, a global load
 * or store of 1, 2, 4 or 8 bytes, or the exit; registers few enough for
 * the function's own (on its stack), and code small enough to compile it
 * twice over (the check and the run). */
#define WHOLE_REGS 256
/* The whole warp's functions' optimiser: the lane loops peeled whole,
 * and vectorised where the cost model says it pays, so that a warp's
 * registers stay in vectors from one block to the next instead of its
 * stack (triad's check 4.8 ms to 1.1 ms a launch of 32,768 warps, its
 * run 5.1 ms to 2.5 ms; the stretches' function gained nothing from them:
 * docs/engine.md) */
#define WHOLE_OPT "optimize(\"peel-loops\", \"vect-cost-model=dynamic\")"
#define WHOLE_CODE 2000
static int whole_ok(const kir_func *f) {
  if (f->nregs > WHOLE_REGS || f->ncode > WHOLE_CODE) return 0;
  for (int pc = 0; pc < f->ncode; pc++) {
    const kir_ins *in = &f->code[pc];
    if (in->op == OP_LD || in->op == OP_ST) {
      int sk = in->flags & 0x7f, size = sk < SK_COUNT ? kir_sk_size[sk] : 0;
      if (size != 1 && size != 2 && size != 4 && size != 8) return 0;
    } else if (in->op != OP_EXIT && !compiles(in))
      return 0;
  }
  return 1;
}

/* A whole warp's global load or store at pc: every lane's address in
 * F->span[pc] and aligned, else the warp stops (goto out); the lanes in
 * order, a run of consecutive elements as one copy (a coalesced access);
 * a store only where exec (the run, not the check). */
static void emit_whole_access(bytes *b, const jit_em *m, int pc) {
  const kir_func *f = m->f;
  const kir_ins *in = &f->code[pc];
  int sk = in->flags & 0x7f, size = kir_sk_size[sk], st = in->op == OP_ST, dst = in->dst * 32;
  /* the address's and the stored value's registers as the lane loops read
   * them: a launch's value, a uniform one's scalar, else the registers */
  char A[48], B[48];
  operand(A, sizeof A, m, pc, in->a);
  operand(B, sizeof B, m, pc, in->b);
  put(b, "  if (n + 1 > cap) { pc = %d; goto out; }\n  {\n    const jit_span *S = &F->span[%d];\n"
         "    const uint64_t tag = S->tag, end = S->end;\n    uint64_t ad[32], bad = 0, gaps = 0;\n"
         "    for (int l = 0; l < 32; l++) ad[l] = kir_access_addr(%s, INT64_C(%" PRId64 "));\n"
         "    for (int l = 0; l < 32; l++) {\n      bad |= (uint64_t)(ad[l] - tag >= end) | (ad[l] & %d);\n"
         "      gaps |= ad[l] ^ (ad[0] + %d * (uint64_t)l);\n    }\n    if (bad) { pc = %d; goto out; }\n",
      pc, pc, A, in->imm, size - 1, size, pc);
  if (st) {
    put(b, "    if (exec) {\n      if (!gaps) {\n        uint8_t *p = S->base + (ad[0] - tag);\n"
           "        for (int l = 0; l < 32; l++) { uint%d_t v = (uint%d_t)(%s); __builtin_memcpy(p + %d * l, &v, %d); }\n"
           "      } else\n        for (int l = 0; l < 32; l++) { uint%d_t v = (uint%d_t)(%s); __builtin_memcpy(S->base + (ad[l] - tag), &v, %d); }\n"
           "    }\n    F->gst_lanes += 32, F->gst_bytes += %d;\n",
        8 * size, 8 * size, B, size, size, 8 * size, 8 * size, B, size, 32 * size);
  } else {
    put(b, "    if (!gaps) {\n      const uint8_t *p = S->base + (ad[0] - tag);\n"
           "      for (int l = 0; l < 32; l++) { uint%d_t v; __builtin_memcpy(&v, p + %d * l, %d); R[%d + l] = sem_canon(%d, v); }\n"
           "    } else\n      for (int l = 0; l < 32; l++) { uint%d_t v; __builtin_memcpy(&v, S->base + (ad[l] - tag), %d); R[%d + l] = sem_canon(%d, v); }\n"
           "    F->gld_lanes += 32, F->gld_bytes += %d;\n",
        8 * size, size, size, dst, sk, 8 * size, size, dst, sk, 32 * size);
  }
  put(b, "  }\n  n++;\n");
}

/* What one function of a kernel's code is made of: the emission's
 * state (m->whole: the whole warp's body, jit_abi.h's JIT_WHOLE, instead
 * of the stretches' function), jit_blocks' blocks, the scalars read at
 * each entry (ulive) and the registers held as scalars (needu). */
typedef struct {
  jit_em *m;
  const uint8_t *e;
  const uint64_t *ulive;
  const uint8_t *needu;
} jit_fn_em;

static void emit_body(bytes *b, const jit_fn_em *fe);

static void emit_fn(bytes *b, const jit_fn_em *fe) {
  jit_em *m = fe->m;
  const kir_func *f = m->f;
  const uint8_t *e = fe->e;
  int n = f->ncode, whole = m->whole;
  size_t W = m->W;
  const uint64_t *ulive = fe->ulive;
  const uint8_t *needu = fe->needu;
  if (whole) {
    /* the registers its own, on its stack: those a thread may read
     * before writing them 0, as a block's are (the rest are written
     * first); no reconvergence point to stop at, no back edge noted (a
     * warp that runs to its exit meets no livelock) */
    put(b, "static inline __attribute__((always_inline, " WHOLE_OPT ")) int whole(jit_frame *F, const int exec) {\n"
           "  uint64_t R[%d] __attribute__((aligned(64)));\n", (f->nregs > 0 ? f->nregs : 1) * 32);
    int nfirst, *first = kir_regs_read_first(f, &nfirst);
    for (int k = 0; k < nfirst; k++) put(b, "  __builtin_memset(R + %d, 0, 256);\n", first[k] * 32);
    free(first);
    put(b, "  int32_t n = 0, nedge = 0, pc;\n  const int32_t cap = F->cap, rpc = -1, edges = INT32_MAX;\n");
  } else {
    put(b, "__attribute__((visibility(\"default\"))) void " JIT_SYMBOL "(jit_frame *F) {\n");
    /* the frame's values in locals, and R restrict: a store to a register
     * may then alias none of them, and the lane loops vectorise */
    put(b, "  uint64_t *restrict R = F->R;\n  int32_t n = F->n, nedge = F->nedge, pc;\n  const int32_t cap = F->cap, rpc = F->rpc, edges = F->edges;\n");
  }
  put(b, "  const uint32_t *restrict tid0 = F->tid[0], *restrict tid1 = F->tid[1], *restrict tid2 = F->tid[2];\n");
  put(b, "  const uint64_t ctaid0 = F->ctaid[0], ctaid1 = F->ctaid[1], ctaid2 = F->ctaid[2], ntid0 = F->ntid[0], ntid1 = F->ntid[1],"
         " ntid2 = F->ntid[2];\n  const uint64_t nctaid0 = F->nctaid[0], nctaid1 = F->nctaid[1], nctaid2 = F->nctaid[2], gridws = F->gridws;\n");
  put(b, "  (void)tid0; (void)tid1; (void)tid2; (void)ctaid0; (void)ctaid1; (void)ctaid2; (void)ntid0; (void)ntid1; (void)ntid2;\n"
         "  (void)nctaid0; (void)nctaid1; (void)nctaid2; (void)gridws;\n");
  /* each parameter and global address read, once (imm indexes them: f's
   * parameters, the module's globals) */
  int64_t most = 0;
  for (int pc = 0; pc < n; pc++)
    if ((f->code[pc].op == OP_PARAM || f->code[pc].op == OP_GADDR) && f->code[pc].imm >= most) most = f->code[pc].imm + 1;
  uint8_t *said = xcalloc((size_t)most + 1, 2);
  for (int pc = 0; pc < n; pc++) {
    const kir_ins *in = &f->code[pc];
    int g = in->op == OP_GADDR;
    if (!(g || (in->op == OP_PARAM && in->dst >= 0)) || in->imm < 0 || said[2 * in->imm + g]++) continue;
    put(b, "  const uint64_t %c%" PRId64 " = F->%s[%" PRId64 "];\n", g ? 'G' : 'P', in->imm, g ? "gaddr" : "args", in->imm);
  }
  free(said);
  put(b, "  uint32_t ft = 0, t;\n  int fz = 0;\n  uint64_t cmpv[32], cmps = 0;\n  (void)t; (void)ft; (void)fz; (void)rpc; (void)edges; (void)cmpv; (void)cmps;\n");
  for (int r = 0; r < f->nregs; r++)
    if (needu[r]) put(b, "  uint64_t u%d = 0;\n  (void)u%d;\n", r, r);
  /* entering: the scalars it may read before writing them, each from a
   * warp whose lanes hold one value in it, else nothing runs */
  if (whole) {
    put(b, "  goto L0;\n");
    emit_body(b, fe);
    return;
  }
  put(b, "  switch (F->pc) {\n");
  uint8_t *entry = xmalloc((size_t)n + 1);   /* (the engine's entries: jit_entries) */
  memcpy(entry, e, (size_t)n + 1);
  drop_short(f, entry, ulive, W);
  int *rs = xmalloc((size_t)(f->nregs > 0 ? f->nregs : 1) * sizeof *rs);
  for (int pc = 0; pc < n; pc++) {
    if (!(entry[pc] & JIT_ENTRY)) continue;
    int k = 0;
    for (int r = 0; r < f->nregs; r++)
      if (UBIT(&ulive[(size_t)pc * W], r)) rs[k++] = r;
    put(b, "  case %d:", pc);
    if (k) {
      put(b, " {\n    static const int32_t o[] = {");
      for (int j = 0; j < k; j++) put(b, "%s%d", j ? ", " : "", rs[j] * 32);
      put(b, "};\n    if (!same(R, o, %d)) { F->declined++; return; }\n   ", k);
      for (int j = 0; j < k; j++) put(b, " u%d = R[%d];", rs[j], rs[j] * 32);
      put(b, "\n  }");
    }
    put(b, " goto L%d;\n", pc);
  }
  free(rs);
  free(entry);
  put(b, "  default: return;\n  }\n");
  emit_body(b, fe);
}

/* The blocks of emit_fn's function, and its end. */
static void emit_body(bytes *b, const jit_fn_em *fe) {
  jit_em *m = fe->m;
  const kir_func *f = m->f;
  const uint8_t *e = fe->e;
  int n = f->ncode, whole = m->whole;
  for (int pc = 0; pc < n;) {
    const kir_ins *in = &f->code[pc];
    if (whole && (in->op == OP_LD || in->op == OP_ST)) {
      put(b, "L%d:\n", pc);
      emit_whole_access(b, m, pc);
      pc++;
      continue;
    }
    if (whole && in->op == OP_EXIT) {
      put(b, "L%d:\n  n++;\n  F->n = n;\n  return 1;\n", pc);
      pc++;
      continue;
    }
    if (!compiles(in)) {
      /* a stretch that reaches it stops before it */
      put(b, "L%d: pc = %d; goto out;\n", pc, pc);
      pc++;
      continue;
    }
    /* a block: straight instructions to the next entry, a branch or an
     * instruction that does not compile, its length checked against the
     * cap at once */
    int end = pc + 1;
    while (end < n && !is_branch(f->code[end - 1].op) && compiles(&f->code[end]) && !(e[end] & JIT_ENTRY)) end++;
    if (in->op == OP_LD) {
      /* a block of its own: the interpreter performs it, or the stretch stops */
      put(b, "L%d:\n", pc);
      if (e[pc] & JIT_STOP) put(b, "  if (rpc == %d) { pc = %d; goto out; }\n", pc, pc);
      put(b, "  if (n + 1 > cap) { pc = %d; goto out; }\n", pc);
      int sk = in->flags & 0x7f, size = sk < SK_COUNT ? kir_sk_size[sk] : 0;
      put(b, "  { int k = 0;\n");
      if (size == 1 || size == 2 || size == 4 || size == 8) {
        /* shared memory, where the block holds still: here (jit_abi.h) */
        int strong = (in->flags & MF_VOLATILE) || KIR_MF_ORDER(in->flags) != MO_RELAXED;
        put(b, "    if (F->marks[%d] == %d && F->sq >= 0%s && F->shared_size >= %d && SH%d(F, R + %d, R + %d, %" PRId64 ")) k = 3;\n",
            pc, AHEAD_LOAD, strong ? " && !F->observed" : "", size, sk, in->dst * 32, in->a * 32, in->imm);
      }
      put(b, "    if (!k) k = F->load(F->L, F->w, %d);\n    if (!k) { F->stopped = 1; pc = %d; goto out; }\n    n++;\n"
             "    if (k == 2) { pc = %d; goto out; } }\n",
          pc, pc, pc + 1);
      pc++;
      continue;
    }
    if (e[pc] & JIT_ENTRY) {
      put(b, "L%d:\n", pc);
      if (e[pc] & JIT_STOP) put(b, "  if (rpc == %d) { pc = %d; goto out; }\n", pc, pc);
      put(b, "  if (n + %d > cap) { pc = %d; goto out; }\n", end - pc, pc);
    }
    int br = is_branch(f->code[end - 1].op) ? end - 1 : end;   /* the straight part: [pc, br) */
    /* fused even where its branch starts a block of its own: simt_run_ahead does not see blocks */
    int fused = br > pc && simt_fused_at(f, br - 1), ufused = 0;
    if (br > pc) {
      ufused = emit_straight(b, m, pc, br, fused);
      put(b, "  n += %d;\n", br - pc - fused);
    }
    if (fused) {
      /* simt_run_ahead fuses it where the stretch goes on to the branch:
       * its lanes into ft, else (the stretch ends) into its register */
      const kir_ins *c = &f->code[br - 1];
      const char *lanes = ufused ? "ft = 0u - (uint32_t)(cmps != 0);" : "ft = 0;\n    for (int l = 0; l < 32; l++) ft |= (uint32_t)cmpv[l] << l;";
      put(b, "  n++;\n  if (n < cap && rpc != %d) {\n    %s\n    fz = 1;\n  } else {\n    ", br, lanes);
      if (ufused) put(b, "for (int l = 0; l < 32; l++) R[%d + l] = cmps;\n", c->dst * 32);
      else put(b, "__builtin_memcpy(R + %d, cmpv, sizeof cmpv);\n", c->dst * 32);
      put(b, "    pc = %d; goto out;\n  }\n", br);
    }
    if (br < end) {
      in = &f->code[br];
      int back = in->a <= br;
      /* the lanes that take it: from the fused comparison before it, else its register */
      if (in->op == OP_JMP) put(b, "  t = 0xffffffffu;\n");
      else {
        char c[48];
        operand(c, sizeof c, m, br, in->b);
        if (uniform_at(m, br, in->b)) put(b, "  if (fz) t = ft;\n  else t = 0u - (uint32_t)(%s != 0);\n", c);
        else put(b, "  if (fz) t = ft;\n  else { t = 0; for (int l = 0; l < 32; l++) t |= (uint32_t)(%s != 0) << l; }\n", c);
        if (in->op == OP_BRF) put(b, "  t = ~t;\n");
      }
      if (back) put(b, "  if (nedge >= edges) { pc = %d; goto out; }\n", br);
      put(b, whole ? "  if (t != 0 && t != 0xffffffffu) { F->stopped = 2; pc = %d; goto out; }\n  fz = 0;\n"
                   : "  if (t != 0 && t != 0xffffffffu) { pc = %d; goto out; }\n  fz = 0;\n", br);
      if (back) put(b, whole ? "  nedge++;\n" : "  F->edge_at[nedge++] = n;\n");
      put(b, "  n++;\n");
      int target = in->a;
      if (target >= 0 && target < n && (whole || compiles(&f->code[target]))) put(b, "  if (t) goto L%d;\n", target);
      else put(b, "  if (t) { pc = %d; goto out; }\n", target);
    }
    pc = end;
  }
  put(b, "  pc = %d; goto out;\n", n);
  if (whole) {
    /* stopped: the run, not the check, stops only where the check did */
    put(b, "out:\n  (void)pc; (void)nedge; (void)exec;\n  F->n = n;\n  return 0;\n}\n");
    return;
  }
  /* stopped at a branch after its fused comparison: the run-ahead's branch reads ft */
  put(b, "out:\n  if (fz) { F->have_ft = 1; F->ft = ft; }\n");
  put(b, "  F->pc = pc;\n  F->n = n;\n  F->nedge = nedge;\n}\n");
}

/* f's C text: the stretches' function, or (whole) the whole warp's two
 * functions, an object of their own (jit_whole_key). */
static void emit_text(const kir_func *f, bytes *b, int whole) {
  int n = f->ncode;
  uint8_t *e = jit_blocks(f);
  int *local = xmalloc((size_t)(f->nregs > 0 ? f->nregs : 1) * sizeof *local), *def = simt_launch_defs(f);
  for (int r = 0; r < f->nregs; r++) local[r] = -1;
  size_t W = (size_t)(f->nregs > 0 ? (f->nregs + 63) / 64 : 1);
  uint64_t *uin = jit_uniform(f, W), *ulive = jit_uniform_live(f, uin, def, W);
  /* a write of one value to every lane: its register's scalar kept */
  uint8_t *udef = xcalloc((size_t)n + 1, 1), *needu = xcalloc((size_t)(f->nregs > 0 ? f->nregs : 1), 1);
  for (int pc = 0; pc < n; pc++) {
    int d = f->code[pc].dst;
    if (d < 0 || d >= f->nregs || kir_ins_writes(&f->code[pc]) != d) continue;
    /* (in compiled code a full warp runs it: uniform operands give one value) */
    udef[pc] = (uint8_t)uniform_write(f, uin, W, pc);
    if (udef[pc]) needu[d] = 1;
  }
  for (int pc = 0; pc < n; pc++)
    for (int r = 0; r < f->nregs; r++) if (UBIT(&ulive[(size_t)pc * W], r)) needu[r] = 1;
  uint64_t *live = kir_liveness(f->code, n, W);
  jit_em m = {f, local, def, uin, udef, W, live, whole};
  put(b, "/* gpurace's compiled code for kernel %s: %d KIR instructions (emu/jit.c)%s */\n", f->name ? f->name : "?", n,
      whole ? ", a whole warp's functions" : "");
  put(b, "#include \"kir_sem.h\"\n#include \"jit_abi.h\"\n\n");
  /* the helpers with loops, called: their copies at every use were a
   * quarter of a small kernel's compile and two thirds of a large one's */
  put(b, "#define HELPER __attribute__((noinline))\n\n");
  /* an op's function, its switch folded once in it, then inlined at every
   * use: a C text over JIT_O1_BYTES is compiled at -O1, which inlines no
   * function called more than once, and gcol's lane loops called B60 and
   * its kind 63 M times a paper-size run (the same compile time) */
  put(b, "#define OP static inline __attribute__((always_inline)) uint64_t\n\n");
  /* (the whole warp's functions call neither: no shared load, no entry) */
  if (!whole) {
    /* a full warp's 4-byte shared load: where a half-warp's lanes read
     * consecutive words or one word (a tile's row, a broadcast), a copy and
     * no gather, as the interpreter's lanes_load4_halves does (matmul's
     * inner loop) */
    put(b, "static inline void ld4(uint64_t *restrict d, const uint8_t *sh, const uint64_t *ad, uint64_t tag, int sign) {\n"
           "  for (int h = 0; h < 32; h += 16) {\n"
           "    uint64_t a0 = ad[h], gaps = 0, moves = 0;   /* gaps 0: a run of words; moves 0: one word */\n"
           "    for (int l = 0; l < 16; l++) gaps |= ad[h + l] ^ (a0 + 4 * (uint64_t)l), moves |= ad[h + l] ^ a0;\n"
           "    if (!gaps) {\n      const uint8_t *p = sh + (a0 - tag);\n"
           "      if (sign) for (int l = 0; l < 16; l++) { int32_t v; __builtin_memcpy(&v, p + 4 * l, 4); d[h + l] = (uint64_t)(int64_t)v; }\n"
           "      else for (int l = 0; l < 16; l++) { uint32_t v; __builtin_memcpy(&v, p + 4 * l, 4); d[h + l] = v; }\n"
           "    } else if (!moves) {\n      uint32_t u;\n      __builtin_memcpy(&u, sh + (a0 - tag), 4);\n"
           "      uint64_t v = sign ? (uint64_t)(int64_t)(int32_t)u : u;\n      for (int l = 0; l < 16; l++) d[h + l] = v;\n"
           "    } else\n      for (int l = 0; l < 16; l++) {\n        uint32_t u;\n        __builtin_memcpy(&u, sh + (ad[h + l] - tag), 4);\n"
           "        d[h + l] = sign ? (uint64_t)(int64_t)(int32_t)u : u;\n      }\n  }\n}\n\n");
    /* whether every lane holds one value in each register (of R, at the
     * offsets o) that the code holds as a scalar (jit_uniform): one call and
     * one pass for an entry's scalars (a graph kernel's entries check 14
     * each, and entries are as many as its memory accesses: gcol's checks,
     * a call a scalar, were a sixth of its paper-size run) */
    put(b, "static HELPER int same(const uint64_t *R, const int32_t *o, int n) {\n  uint64_t x = 0;\n"
           "  for (int k = 0; k < n; k++) {\n    const uint64_t *r = R + o[k];\n"
           "    for (int l = 0; l < 32; l++) x |= r[l] ^ r[0];\n  }\n  return !x;\n}\n\n");
  }
  emit_ops(b, f, whole);
  jit_fn_em fe = {&m, e, ulive, needu};
  emit_fn(b, &fe);
  if (whole) {
    /* the whole warp's body once, its two functions the check (no store)
     * and the run: the compiler drops from the check what only the
     * stores read */
    put(b, "__attribute__((visibility(\"default\"), " WHOLE_OPT ")) int " JIT_WHOLE_CHECK "(jit_frame *F) { return whole(F, 0); }\n");
    put(b, "__attribute__((visibility(\"default\"), " WHOLE_OPT ")) int " JIT_WHOLE_RUN "(jit_frame *F) { return whole(F, 1); }\n");
  }
  free(local);
  free(def);
  free(uin);
  free(live);
  free(ulive);
  free(udef);
  free(needu);
  free(e);
}

void jit_emit(const kir_func *f, bytes *b) { emit_text(f, b, 0); }

/* ------------------------------------------------------------- compiling and caching */

#ifndef GR_JIT_CC
#define GR_JIT_CC "cc"
#endif
/* The options that keep the compiled code's arithmetic the interpreter's
 * (Makefile.am builds the engine with -ffp-contract=off: a*b+c is two
 * roundings) and make it position-independent; -march=native for the
 * vector lanes, which is why the CPU's extensions are in the key;
 * configure's GR_JIT_COPY where the compiler takes it, so that the
 * registers' 256-byte commits (emit_straight) are moves, not memcpy
 * calls. */
#ifndef GR_JIT_COPY
#define GR_JIT_COPY ""
#endif
#define JIT_CFLAGS "-std=gnu11 -march=native -ffp-contract=off -fno-fast-math -fno-tree-loop-distribute-patterns -fPIC -shared -w " GR_JIT_COPY
/* The link: no start files and no C library to search (-nostdlib: a
 * third of the link's time), libm named for the math functions and
 * libgcc for the compiler's helpers; the C library's few symbols (memcpy)
 * bind at dlopen to the process's, which dlopen itself is part of. */
#define JIT_LIBS "-nostdlib -lm -lgcc"

/* The optimiser's level: -O2, but -O1 with the vectoriser for a C text
 * over JIT_O1_BYTES, whose one large function GCC's -O2 takes superlinear
 * time over (nvcc's PTX of a tensor-core kernel, 280 KB of C: 8.1 s at
 * -O2, 2.9 s).  The small kernels keep -O2 (the hash loop runs 1.4x
 * slower at -O1, matmul 3.5x: -O2's inlining and -fipa-cp, which
 * specialises the helpers for their constant arguments) less the passes
 * that cost a quarter of its time and gave the five kernels of `make
 * bench` nothing (each group of them off, then all: the same times, best
 * of 7-9 launches, as -O2's; 8.0 s to compile 66 kernels of the tests
 * against 10.3-11.1 s). */
#define JIT_O1_BYTES (64 * 1024)
#define JIT_O2 "-O2 -fno-caller-saves -fno-code-hoisting -fno-crossjumping -fno-cse-follow-jumps " \
  "-fno-expensive-optimizations -fno-gcse -fno-hoist-adjacent-loads -fno-partial-inlining -fno-peephole2 -fno-ree " \
  "-fno-reorder-blocks-and-partition -fno-reorder-functions -fno-rerun-cse-after-loop -fno-schedule-insns2 " \
  "-fno-store-merging -fno-tree-pre -fno-tree-switch-conversion -fno-tree-tail-merge -fno-tree-vrp"
static const char *jit_opt(const bytes *c) { return c->len > JIT_O1_BYTES ? "-O1 -ftree-vectorize" : JIT_O2; }

/* What the vector code may use: part of the key, so that a cache shared
 * by machines (a home folder on NFS) never hands one another's objects. */
static const char *cpu_id(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return "x86-64-avx512f";
  if (__builtin_cpu_supports("avx2")) return "x86-64-avx2";
  return "x86-64";
#else
  return "generic";
#endif
}

/* The process's compiled kernels, by key (they are never unloaded). */
typedef struct jit_entry {
  uint64_t key;
  jit_code code;
  struct jit_entry *next;
} jit_entry;
static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;
static jit_entry *jit_loaded;

static uint64_t headers_key(void) {
  uint64_t h = HASH_FNV_SEED;
  for (int k = 0; jit_text_names[k]; k++) {
    h = hash_fnv(h, jit_text_names[k], strlen(jit_text_names[k]) + 1);
    h = hash_fnv(h, jit_text_bodies[k], strlen(jit_text_bodies[k]) + 1);
  }
  return h;
}

/* The key of a C text: the text, the headers it includes, the compiler's
 * command and the CPU. */
static uint64_t text_key(const bytes *c) {
  uint64_t h = hash_fnv(headers_key(), c->p, c->len);
  h = hash_fnv(h, GR_JIT_CC " " JIT_CFLAGS " " JIT_LIBS, sizeof(GR_JIT_CC " " JIT_CFLAGS " " JIT_LIBS));
  h = hash_fnv(h, jit_opt(c), strlen(jit_opt(c)));
  const char *cpu = cpu_id();
  return hash_fnv(h, cpu, strlen(cpu));
}

/* Writes the headers the C text includes into dir/inc-KEY, once. */
static int write_headers(const char *dir, char *inc, size_t n, char *why, size_t wn) {
  snprintf(inc, n, "%s/inc-%016" PRIx64, dir, headers_key());
  char done[1200];
  snprintf(done, sizeof done, "%s/.done", inc);
  if (!access(done, F_OK)) return 0;
  if (disk_mkdirs(inc)) { snprintf(why, wn, "cannot make %s: %s", inc, strerror(errno)); return -1; }
  for (int k = 0; jit_text_names[k]; k++) {
    char p[1200], tmp[1300];
    snprintf(p, sizeof p, "%s/%s", inc, jit_text_names[k]);
    snprintf(tmp, sizeof tmp, "%s.%ld", p, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f || fputs(jit_text_bodies[k], f) < 0 || fclose(f)) {
      snprintf(why, wn, "cannot write %s: %s", tmp, strerror(errno));
      return -1;
    }
    if (rename(tmp, p)) { snprintf(why, wn, "cannot write %s: %s", p, strerror(errno)); return -1; }
  }
  FILE *f = fopen(done, "w");
  if (f) fclose(f);
  return 0;
}

/* path with every ' escaped for sh's single quotes */
static int sh_quote(char *out, size_t n, const char *path) {
  size_t j = 0;
  if (n < 3) return -1;
  out[j++] = '\'';
  for (const char *p = path; *p; p++) {
    if (j + 6 >= n) return -1;   /* (a path cut short would name another file) */
    if (*p == '\'') { memcpy(out + j, "'\\''", 4); j += 4; }
    else out[j++] = *p;
  }
  out[j++] = '\'';
  out[j] = 0;
  return 0;
}

/* A compile's file beside so, of this process: its C text (c), log,
 * temporary object (tmp) or, in the background, status. */
static void compile_path(char *out, size_t n, const char *so, const char *ext) {
  snprintf(out, n, "%s.%ld.%s", so, (long)getpid(), ext);
}

/* Writes the C text and the headers, and the compiler's command line into
 * cmd, its files named after so and this process (a temporary object,
 * renamed: another process may be compiling the same kernel); 0, or -1
 * with why. */
static int compile_cmd(const char *dir, const bytes *c, const char *so, char *cmd, size_t cn, char *why, size_t wn) {
  char inc[1100], src[1200], tmp[1200], log[1200];
  if (write_headers(dir, inc, sizeof inc, why, wn)) return -1;
  compile_path(src, sizeof src, so, "c");
  compile_path(tmp, sizeof tmp, so, "tmp");
  compile_path(log, sizeof log, so, "log");
  FILE *f = fopen(src, "w");
  if (!f || fwrite(c->p, 1, c->len, f) != c->len || fclose(f)) {
    snprintf(why, wn, "cannot write %s: %s", src, strerror(errno));
    return -1;
  }
  char qi[2400], qs[2400], qt[2400], ql[2400], qo[2400];
  if (sh_quote(qi, sizeof qi, inc) || sh_quote(qs, sizeof qs, src) || sh_quote(qt, sizeof qt, tmp) ||
      sh_quote(ql, sizeof ql, log) || sh_quote(qo, sizeof qo, so) ||
      snprintf(cmd, cn, "%s %s %s -I%s -o %s %s %s 2>%s && mv -f %s %s", GR_JIT_CC, JIT_CFLAGS, jit_opt(c), qi, qt, qs, JIT_LIBS, ql,
               qt, qo) >= (int)cn) {
    snprintf(why, wn, "the cache folder's path is too long for the C compiler's command: %s", dir);
    return -1;
  }
  return 0;
}

/* The reason a compile of so failed: its log's first line; the files it left removed. */
static void compile_failed(const char *so, char *why, size_t wn) {
  char log[1200], tmp[1200], first[300] = "";
  compile_path(log, sizeof log, so, "log");
  compile_path(tmp, sizeof tmp, so, "tmp");
  FILE *lf = fopen(log, "r");
  if (lf) {
    if (!fgets(first, sizeof first, lf)) first[0] = 0;
    fclose(lf);
  }
  first[strcspn(first, "\n")] = 0;
  snprintf(why, wn, "the C compiler (%s) failed%s%s", GR_JIT_CC, *first ? ": " : "", first);
  unlink(tmp);
}

static void compile_clean(const char *so) {
  char p[1200];
  compile_path(p, sizeof p, so, "c");
  if (!getenv("GPURACE_JIT_KEEP_C")) unlink(p);
  compile_path(p, sizeof p, so, "log");
  unlink(p);
}

/* Compiles the C text into so, now. */
static int compile(const char *dir, const bytes *c, const char *so, char *why, size_t wn) {
  char cmd[12000];
  if (compile_cmd(dir, c, so, cmd, sizeof cmd, why, wn)) return -1;
  int st = system(cmd);
  int ok = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
  if (!ok) compile_failed(so, why, wn);
  compile_clean(so);
  return ok ? 0 : -1;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static jit_entry *find_loaded(uint64_t key) {
  for (jit_entry *e = jit_loaded; e; e = e->next) if (e->key == key) return e;
  return NULL;
}

static void so_path(const char *cache_dir, uint64_t key, char *dir, size_t dn, char *so, size_t sn) {
  disk_cache_dir(cache_dir, dir, dn);
  snprintf(so, sn, "%s/jit-%016" PRIx64 ".so", dir, key);
}

/* Loads so and enters it in the process's table (jit_lock held). */
static const jit_code *load(const kir_func *f, uint64_t key, const char *so, void *h, char *why, size_t wn) {
  if (!h && !(h = dlopen(so, RTLD_NOW | RTLD_LOCAL))) { snprintf(why, wn, "cannot load %s: %s", so, dlerror()); return NULL; }
  /* the stretches' function, or a whole warp's two (jit_whole_key) */
  jit_fn fn;
  jit_whole_fn check, run;
  *(void **)&fn = dlsym(h, JIT_SYMBOL);
  *(void **)&check = dlsym(h, JIT_WHOLE_CHECK);
  *(void **)&run = dlsym(h, JIT_WHOLE_RUN);
  if (!fn && !(check && run)) { snprintf(why, wn, "%s has no %s", so, JIT_SYMBOL); dlclose(h); return NULL; }
  jit_entry *e = xcalloc(1, sizeof *e);
  e->key = key;
  e->code.fn = fn;
  if (!fn) e->code.whole_check = check, e->code.whole_run = run;
  e->code.entry = fn ? jit_entries(f) : NULL;
  e->code.ncode = f->ncode;
  e->next = jit_loaded;
  jit_loaded = e;
  return &e->code;
}

/* Compiles in the background (--engine auto), by key: the compiler runs
 * as a process of its own, which writes its status when it ends; the
 * launch polls for it (jit_ready) and goes on interpreting meanwhile. */
typedef struct jit_pend {
  uint64_t key;
  char so[1100], stat[1200];
  double t0;
  struct jit_pend *next;
} jit_pend;
static jit_pend *jit_pending;

uint64_t jit_key(const kir_func *f) {
  bytes c = {0};
  jit_emit(f, &c);
  uint64_t key = text_key(&c);
  free(c.p);
  return key;
}

static int begin_text(const kir_func *f, int whole, uint64_t key, const char *cache_dir, char *why, size_t wn) {
  if (!*GR_JIT_CC) {
    snprintf(why, wn, "no C compiler was found when gpurace was built");
    return -1;
  }
  int rc = 0;
  pthread_mutex_lock(&jit_lock);
  char dir[1024], so[1100], cmd[12000];
  so_path(cache_dir, key, dir, sizeof dir, so, sizeof so);
  jit_pend *p;
  for (p = jit_pending; p && p->key != key; p = p->next) {}
  if (p || find_loaded(key) || !access(so, R_OK)) goto done;
  bytes c = {0};
  emit_text(f, &c, whole);
  if (disk_mkdirs(dir)) { snprintf(why, wn, "cannot make the cache folder %s: %s", dir, strerror(errno)); rc = -1; }
  else if (compile_cmd(dir, &c, so, cmd, sizeof cmd, why, wn)) rc = -1;
  free(c.p);
  if (rc) goto done;
  p = xcalloc(1, sizeof *p);
  p->key = key;
  snprintf(p->so, sizeof p->so, "%s", so);
  compile_path(p->stat, sizeof p->stat, so, "status");
  char qs[2400], full[16000];
  /* the shell puts it in the background and returns: the compiler's
   * process outlives a launch, and the process, to fill the cache */
  char qsrc[2400], qlog[2400], src[1200], log[1200];
  compile_path(src, sizeof src, so, "c");
  compile_path(log, sizeof log, so, "log");
  /* what it leaves where nobody looks (the process ended first): the
   * status, and the log of a failure, which disk_trim removes later */
  int bad = sh_quote(qs, sizeof qs, p->stat) || sh_quote(qsrc, sizeof qsrc, src) || sh_quote(qlog, sizeof qlog, log) ||
            snprintf(full, sizeof full, "( %s && rm -f %s; echo $? >%s.tmp; mv -f %s.tmp %s; %s%s ) </dev/null >/dev/null 2>&1 &", cmd,
                     qlog, qs, qs, qs, getenv("GPURACE_JIT_KEEP_C") ? ": " : "rm -f -- ", qsrc) >= (int)sizeof full;
  p->t0 = now_s();
  if (bad || system(full) != 0) {
    snprintf(why, wn, "cannot start the C compiler");
    free(p);
    rc = -1;
    goto done;
  }
  p->next = jit_pending;
  jit_pending = p;
done:
  pthread_mutex_unlock(&jit_lock);
  return rc;
}

const jit_code *jit_ready(const kir_func *f, uint64_t key, const char *cache_dir, double *compile_s, int *failed, char *why,
                          size_t wn) {
  const jit_code *out = NULL;
  *failed = 0;
  pthread_mutex_lock(&jit_lock);
  jit_entry *e = find_loaded(key);
  if (e) { out = &e->code; goto done; }
  jit_pend **pp, *p;
  for (pp = &jit_pending; (p = *pp) && p->key != key; pp = &p->next) {}
  if (p) {
    FILE *s = fopen(p->stat, "r");
    if (!s) goto done;   /* still compiling */
    int st = -1;
    if (fscanf(s, "%d", &st) != 1) st = -1;
    fclose(s);
    unlink(p->stat);
    *pp = p->next;
    if (st) compile_failed(p->so, why, wn), *failed = 1;
    else {
      *compile_s += now_s() - p->t0;
      out = load(f, key, p->so, NULL, why, wn);
      *failed = !out;
    }
    compile_clean(p->so);
    if (!st) {
      char dir[1024];
      disk_cache_dir(cache_dir, dir, sizeof dir);
      disk_trim(dir, "jit", ".so", JIT_CACHE_MAX);
    }
    free(p);
    goto done;
  }
  char dir[1024], so[1100];
  so_path(cache_dir, key, dir, sizeof dir, so, sizeof so);
  void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (h) out = load(f, key, so, h, why, wn);
done:
  pthread_mutex_unlock(&jit_lock);
  return out;
}

static const jit_code *get_text(const kir_func *f, int whole, uint64_t key, const char *cache_dir, double *compile_s, char *why,
                                 size_t wn) {
  if (!*GR_JIT_CC) {
    snprintf(why, wn, "no C compiler was found when gpurace was built");
    return NULL;
  }
  const jit_code *out = NULL;
  pthread_mutex_lock(&jit_lock);
  jit_entry *e = find_loaded(key);
  if (e) { out = &e->code; goto done; }
  char dir[1024], so[1100];
  so_path(cache_dir, key, dir, sizeof dir, so, sizeof so);
  double t0 = now_s();
  void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    /* not there (or not loadable: made again) */
    bytes c = {0};
    emit_text(f, &c, whole);
    int bad = disk_mkdirs(dir);
    if (bad) snprintf(why, wn, "cannot make the cache folder %s: %s", dir, strerror(errno));
    else bad = compile(dir, &c, so, why, wn);
    free(c.p);
    if (bad) goto done;
    *compile_s += now_s() - t0;
    disk_trim(dir, "jit", ".so", JIT_CACHE_MAX);
  }
  out = load(f, key, so, h, why, wn);
done:
  pthread_mutex_unlock(&jit_lock);
  return out;
}

int jit_begin(const kir_func *f, uint64_t key, const char *cache_dir, char *why, size_t wn) {
  return begin_text(f, 0, key, cache_dir, why, wn);
}

const jit_code *jit_get(const kir_func *f, uint64_t key, const char *cache_dir, double *compile_s, char *why, size_t wn) {
  return get_text(f, 0, key, cache_dir, compile_s, why, wn);
}

uint64_t jit_whole_key(const kir_func *f) {
  if (!whole_ok(f)) return 0;
  bytes c = {0};
  emit_text(f, &c, 1);
  uint64_t key = text_key(&c);
  free(c.p);
  return key ? key : 1;
}

int jit_whole_begin(const kir_func *f, uint64_t key, const char *cache_dir, char *why, size_t wn) {
  return begin_text(f, 1, key, cache_dir, why, wn);
}

const jit_code *jit_whole_get(const kir_func *f, uint64_t key, const char *cache_dir, double *compile_s, char *why, size_t wn) {
  return get_text(f, 1, key, cache_dir, compile_s, why, wn);
}
