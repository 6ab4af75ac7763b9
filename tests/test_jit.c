/* The compiled engine against the interpreter, instruction by instruction:
 * a differential fuzzer.  It generates KIR functions (every op the
 * compiled code runs, with operands of every kind: NaNs, infinities,
 * wide and narrow integers, uniform and per-lane values; comparisons
 * fused into branches; uniform and divergent branches, loops, and the
 * instructions where a stretch stops), compiles each, and runs the same
 * warps through simt_run_ahead with and without the compiled code: after
 * every stretch (a scheduling point) the two warps' whole state must be
 * equal — registers, stack, the stretch's length, its back edges, the
 * statistics.  GR_JIT_FUZZ=N runs N functions (default 60), GR_JIT_SEED
 * picks the first seed.  And whole launches (emu/whole.h) against the
 * turns, on random CUDA map kernels (whole_agrees: GR_WHOLE_FUZZ=N
 * kernels, GR_WHOLE_SHOW=1 prints each). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "jit.h"
#include "simt.h"
#include "testutil.h"

static uint64_t rnd(void) { return test_rnd(); }
static int below(int n) { return test_below(n); }

/* A value of every kind an op may meet. */
static uint64_t value(void) {
  static const uint64_t special[] = {
    0, 1, 2, 7, 31, 32, 33, 63, 64, 0xff, 0xffff, 0x7fffffff, 0x80000000u, 0xffffffffu, 0xffffffff80000000ull,
    0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
    0x7fa00001, 0x00000001, 0x4f000000, 0xcf000000, 0x3ff0000000000000ull, 0x7ff0000000000000ull, 0x7ff8000000000000ull,
    0xfff0000000000000ull, 0x43e0000000000000ull, 0xc3e0000000000000ull, 0x41dfffffffc00000ull, 0x8000000000000001ull,
    0x0000000100000004ull, 0x0000002a00000010ull};
  switch (below(4)) {
  case 0: return special[below((int)(sizeof special / sizeof *special))];
  case 1: return (uint64_t)(int64_t)(below(200) - 100);
  case 2: return rnd() & 0xffffffffu;
  default: return rnd();
  }
}

static int alu_ops[OP_COUNT], nalu, loads;

/* A random function of n instructions over nr registers. */
static kir_func *gen(int n, int nr) {
  kir_func *f = calloc(1, sizeof *f);
  f->name = "fuzz";
  f->ncode = n;
  f->nregs = nr;
  f->code = calloc((size_t)n, sizeof *f->code);
  f->pos = calloc((size_t)n, sizeof *f->pos);
  for (int pc = 0; pc < n - 1; pc++) {
    kir_ins *in = &f->code[pc];
    in->dst = below(nr), in->a = below(nr), in->b = below(nr), in->c = below(nr);
    int k = below(100);
    if (k < 10 && pc + 2 < n) {
      /* a comparison and a branch on it (fused where nothing else reads it) */
      in->op = (uint16_t)(OP_EQ_I32 + below(OP_GE_F64 - OP_EQ_I32 + 1));
      kir_ins *br = &f->code[++pc];
      br->op = below(2) ? OP_BRT : OP_BRF;
      br->b = below(4) ? in->dst : below(nr);
      br->a = below(n);
      br->dst = -1;
      continue;
    }
    if (k < 14) { in->op = OP_JMP; in->a = pc + 1 + below(n - 1 - pc); in->dst = -1; continue; }
    if (k < 17) { in->op = below(3) ? OP_BRT : OP_BRF; in->a = below(n); in->dst = -1; continue; }
    if (k < 19) { in->op = OP_SREG; in->imm = SR_CLOCK; continue; }   /* where a stretch stops */
    if (k < 20) { in->op = OP_EXIT; in->dst = -1; continue; }
    if (k < 25 && pc + 4 < n) {
      /* a load the run-ahead performs at once (shared memory, the block
       * quiet): its address a shared one, the same in every lane or a
       * lane's own, or (one in four) whatever a register holds (declined) */
      int base = in->dst;
      if (below(4)) {
        in->op = OP_CONST;
        in->imm = (int64_t)KIR_ADDR(SPACE_SHARED, 4 * below(32));
        if (below(2)) {
          int t = below(nr);
          if (t == base) t = (t + 1) % nr;
          f->code[++pc] = (kir_ins){.op = OP_SREG, .dst = t, .a = -1, .b = -1, .c = -1, .imm = SR_LANEID};
          f->code[++pc] = (kir_ins){.op = OP_PADD, .dst = base, .a = base, .b = t, .c = -1, .imm = 4};
        }
      } else in->op = OP_NOP;
      /* every size; an offset in the instruction (one in four), and 8-byte
       * kinds at addresses 4-aligned, so that some lanes' are not aligned */
      static const int sks[] = {SK_U32, SK_I32, SK_F32, SK_U8, SK_I16, SK_U64, SK_F64};
      f->code[++pc] = (kir_ins){.op = OP_LD, .dst = below(nr), .a = base, .b = -1, .c = -1, .flags = (uint16_t)sks[below(7)],
                                .imm = below(4) ? 0 : 4 * below(8)};
      loads++;
      continue;
    }
    in->op = (uint16_t)alu_ops[below(nalu)];
    switch (in->op) {
    case OP_CONST: in->imm = (int64_t)value(); break;
    case OP_CVT: in->imm = below(SK_PTR + 1) | below(SK_PTR + 1) << 8; break;
    case OP_SREG: in->imm = below(SR_COUNT); break;
    case OP_PARAM: in->imm = below(3); break;
    case OP_GADDR: in->imm = below(2); break;
    case OP_MATH: in->imm = below(MATH_COUNT); if (below(3)) in->c = -1; break;
    case OP_PADD: { static const int64_t sc[] = {0, 1, 2, 4, 8, 12, 16}; in->imm = sc[below(7)]; break; }
    default: break;
    }
  }
  /* every path ends at an exit, as every front end's code does */
  f->code[n - 1] = (kir_ins){.op = OP_EXIT, .dst = -1, .a = -1, .b = -1, .c = -1};
  kir_set_reconvergence(f->code, n);
  return f;
}

/* A function of n instructions copied from code, with nregs registers. */
static kir_func *fn_of(const char *name, const kir_ins *code, int n, int nregs) {
  kir_func *f = calloc(1, sizeof *f);
  f->name = name;
  f->ncode = n;
  f->nregs = nregs;
  f->code = calloc((size_t)n, sizeof *f->code);
  f->pos = calloc((size_t)n, sizeof *f->pos);
  memcpy(f->code, code, (size_t)n * sizeof *code);
  return f;
}

static void fn_free(kir_func *f) {
  free(f->code);
  free(f->pos);
  free(f);
}

typedef struct {
  emu_dev dev;
  emu_module mod;
  launch L;
  blk b;
  warp w;
  uint8_t shared[256];
} machine;

/* The machines' registers gone, and A's liveness (engine_live_regs_differ's). */
static void machines_free(machine *A, machine *B) {
  free(A->w.r);
  free(B->w.r);
  free(A->L.live);
}

/* f's compiled code, in a new cache folder made from the template cache. */
static const jit_code *compiled(const kir_func *f, char *cache) {
  char why[256];
  double took = 0;
  ck_assert_ptr_nonnull(mkdtemp(cache));
  const jit_code *jit = jit_get(f, jit_key(f), cache, &took, why, sizeof why);
  ck_assert_msg(jit != NULL, "%s", why);
  return jit;
}

static void cache_rm(const char *cache) {
  char cmd[100];
  snprintf(cmd, sizeof cmd, "rm -rf %s", cache);
  if (system(cmd)) { /* left behind: harmless */ }
}

static const uint64_t args[3] = {0x0000000100000000ull, 5, 0xfffffffffffffff0ull};
static gr_ptr gaddr[2] = {0x0000000200000040ull, 0x0000000300000000ull};
static uint32_t tids[3][32];

static void machine_init(machine *m, const kir_func *f, simt_plan *plan, const jit_code *jit, const uint64_t *regs) {
  memset(m, 0, sizeof *m);
  m->mod.gaddr = gaddr;
  m->L.ctx = &m->dev;
  m->L.mod = &m->mod;
  m->L.f = f;
  m->L.grid = (gr_dim3){7, 2, 1};
  m->L.bdim = (gr_dim3){96, 1, 1};
  m->L.gridws = 0x0000000400000000ull;
  m->L.args = (uint64_t *)args;
  m->L.ahead = plan;
  m->L.jit = jit;
  m->b.idx[0] = 3, m->b.idx[1] = 1;
  /* shared memory, quiet: no warp of the block writes it (nwarps 0) */
  for (int k = 0; k < 256; k++) m->shared[k] = (uint8_t)(k * 37 + 11);
  m->b.shared = m->shared;
  m->L.shared_size = 256;
  m->w.b = &m->b;
  m->w.tid = (const uint32_t (*)[32])tids;
  m->w.r = malloc((size_t)f->nregs * 32 * sizeof(uint64_t));
  memcpy(m->w.r, regs, (size_t)f->nregs * 32 * sizeof(uint64_t));
}

/* One function: the same warps through both engines, compared after every stretch. */
static int fuzz_one(uint64_t seed, const char *cache, int *stretches, int *compiled_ins) {
  test_seed(seed * 0x9e3779b97f4a7c15ull + 1);
  int n = 8 + below(56), nr = 3 + below(12);
  kir_func *f = gen(n, nr);
  simt_plan *plan = simt_plan_new(f, args, NULL);
  int *def = simt_launch_defs(f);
  char why[256];
  double took = 0;
  const jit_code *jit = jit_get(f, jit_key(f), cache, &took, why, sizeof why);
  ck_assert_msg(jit != NULL, "seed %llu: %s", (unsigned long long)seed, why);
  uint64_t *regs = malloc((size_t)nr * 32 * sizeof *regs), *before = malloc((size_t)nr * 32 * sizeof *before);
  int bad = 0;
  for (int trial = 0; trial < 12 && !bad; trial++) {
    for (int r = 0; r < nr; r++) {
      int uniform = below(3) != 0;
      uint64_t v = value();
      /* a register the entry's straight line writes once with a constant
       * or a parameter holds it wherever a warp may be (simt_launch_defs):
       * both engines rely on that */
      if (def[r] >= 0) {
        const kir_ins *d = &f->code[def[r]];
        uniform = 1, v = d->op == OP_CONST ? (uint64_t)d->imm : args[d->imm];
      }
      for (int l = 0; l < 32; l++) regs[r * 32 + l] = uniform ? v : value();
    }
    machine A, B;
    machine_init(&A, f, plan, NULL, regs);
    machine_init(&B, f, plan, jit, regs);
    int pc0 = below(n);
    uint32_t mask = below(4) ? FULL : (uint32_t)rnd() | 1;
    A.w.sp = B.w.sp = 1;
    A.w.stk[0] = B.w.stk[0] = (simt_entry){pc0, -1, mask};
    A.w.alive = B.w.alive = mask;
    for (int step = 0; step < 40; step++) {
      int cap = 1 + below(below(2) ? 300 : 12), edges = below(WARP_EDGES + 1), uniform = below(2);
      int ea[WARP_EDGES], eb[WARP_EDGES], na = 0, nb = 0;
      if (A.w.sp == 0) break;
      /* the state before it, to find where a difference begins */
      simt_entry stk0[8];
      int sp0 = A.w.sp < 8 ? A.w.sp : 8;
      memcpy(stk0, A.w.stk, sizeof stk0);
      memcpy(before, A.w.r, (size_t)nr * 32 * sizeof *before);
      int ra = simt_run_ahead(&A.L, &A.w, cap, uniform, edges, ea, &na);
      int rb = simt_run_ahead(&B.L, &B.w, cap, uniform, edges, eb, &nb);
      (*stretches)++;
      int same = ra == rb && na == nb && !memcmp(ea, eb, (size_t)na * sizeof *ea) && A.w.sp == B.w.sp &&
                 !memcmp(A.w.stk, B.w.stk, (size_t)A.w.sp * sizeof *A.w.stk) &&
                 !engine_live_regs_differ(&A.L, &A.w, &B.w) &&
                 A.dev.stats.thread_instructions == B.dev.stats.thread_instructions &&
                 A.dev.stats.divergences == B.dev.stats.divergences;
      if (!same) {
        fprintf(stderr, "seed %llu trial %d stretch %d: the engines differ (ran %d and %d from pc %d, cap %d, edges %d)\n",
                (unsigned long long)seed, trial, step, ra, rb, pc0, cap, edges);
        /* the first instruction after which they differ: the same stretch cut shorter */
        for (int c = 1; c <= cap; c++) {
          machine X, Y;
          int ex[WARP_EDGES], ey[WARP_EDGES], nx = 0, ny = 0;
          machine_init(&X, f, plan, NULL, before);
          machine_init(&Y, f, plan, jit, before);
          X.w.sp = Y.w.sp = sp0;
          memcpy(X.w.stk, stk0, sizeof stk0);
          memcpy(Y.w.stk, stk0, sizeof stk0);
          simt_run_ahead(&X.L, &X.w, c, uniform, edges, ex, &nx);
          simt_run_ahead(&Y.L, &Y.w, c, uniform, edges, ey, &ny);
          int d = X.w.sp != Y.w.sp || engine_live_regs_differ(&X.L, &X.w, &Y.w);
          int at = X.w.sp ? X.w.stk[X.w.sp - 1].pc : -1;
          free(X.w.r);
          free(Y.w.r);
          free(X.L.live);
          if (d) { fprintf(stderr, "  the registers differ after %d instructions (the interpreter then at pc %d)\n", c, at); break; }
        }
        fprintf(stderr, "  the stack before:");
        for (int k = 0; k < sp0; k++) fprintf(stderr, " {pc %d rpc %d mask %08x}", stk0[k].pc, stk0[k].rpc, stk0[k].mask);
        fputc('\n', stderr);
        for (int r = 0; r < nr; r++)
          for (int l = 0; l < 32; l++)
            if (A.w.r[r * 32 + l] != B.w.r[r * 32 + l]) {
              fprintf(stderr, "  r%d lane %d: %016llx and %016llx\n", r, l, (unsigned long long)A.w.r[r * 32 + l],
                      (unsigned long long)B.w.r[r * 32 + l]);
              r = nr;
              break;
            }
        kir_print_func(stderr, f);
        bad = 1;
        break;
      }
      if (ra == 0) {
        /* where the stretch stopped: the instruction a turn runs, as the engine would (here: on to the next) */
        if (A.w.sp == 0) break;
        simt_entry *ta = &A.w.stk[A.w.sp - 1], *tb = &B.w.stk[B.w.sp - 1];
        if (f->code[ta->pc].op == OP_EXIT || ta->pc + 1 >= n) break;
        /* the turn writes its register in both (a value the test makes:
         * the run-ahead's stores of values that it overwrites need not
         * have happened, jit.c) */
        int d = kir_ins_writes(&f->code[ta->pc]);
        if (d >= 0)
          for (int l = 0; l < 32; l++)
            if (ta->mask >> l & 1) A.w.r[d * 32 + l] = B.w.r[d * 32 + l] = 0x5eed0000u + (uint64_t)ta->pc * 32 + (uint64_t)l;
        ta->pc++, tb->pc++;
        simt_reconverge(&A.L, &A.w);
        simt_reconverge(&B.L, &B.w);
      }
    }
    *compiled_ins += (int)B.dev.stats.thread_instructions / 32;
    machines_free(&A, &B);
  }
  free(regs);
  free(before);
  free(def);
  simt_plan_free(plan);
  fn_free(f);
  return bad;
}

START_TEST(engines_agree) {
  for (int op = 0; op < OP_COUNT; op++)
    if (kir_is_alu(op)) alu_ops[nalu++] = op;
  const char *e = getenv("GR_JIT_FUZZ"), *s = getenv("GR_JIT_SEED");
  int count = e ? atoi(e) : 60;
  uint64_t first = s ? strtoull(s, NULL, 0) : 1;
  char cache[] = "/tmp/gr-jit-fuzz-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(cache));
  int failed = 0, stretches = 0, ins = 0;
  for (int k = 0; k < count && failed < 3; k++) failed += fuzz_one(first + (uint64_t)k, cache, &stretches, &ins);
  char cmd[100];
  snprintf(cmd, sizeof cmd, "rm -rf %s", cache);
  if (!getenv("GR_JIT_KEEP") && system(cmd)) { /* left behind: harmless */ }
  fprintf(stderr, "jit fuzz: %d functions (%d loads), %d stretches compared, %d warp instructions\n", count, loads, stretches, ins);
  ck_assert_int_eq(failed, 0);
  /* the fuzzer reached the compiled code (a stretch of no instruction compares nothing) */
  ck_assert_int_gt(ins, count * 20);
}
END_TEST

/* Uniform values as scalars (jit.c's jit_uniform): a loop whose counter
 * all lanes share keeps it as one scalar, entering only where the lanes
 * hold one value in it; a loop each lane leaves at its own count does
 * not.  k (r0) counts to 16 (uniform) or to the lane's tid.x (r2):
 *   0 const r0, 0; 1 const r1, 16; 2 sreg r2, %tid.x; 3 const r3, 1
 *   4 lt.i32 r4, r0, BOUND; 5 brf r4, 9 (reconverge at 9)
 *   6 add.i32 r5, r5, r2; 7 add.i32 r0, r0, r3; 8 jmp 4; 9 exit */
static kir_func *counting_loop(int bound) {
  static const kir_ins code[] = {
    {.op = OP_CONST, .dst = 0, .a = -1, .b = -1, .c = -1, .imm = 0},
    {.op = OP_CONST, .dst = 1, .a = -1, .b = -1, .c = -1, .imm = 16},
    {.op = OP_SREG, .dst = 2, .a = -1, .b = -1, .c = -1, .imm = SR_TID_X},
    {.op = OP_CONST, .dst = 3, .a = -1, .b = -1, .c = -1, .imm = 1},
    {.op = OP_LT_I32, .dst = 4, .a = 0, .b = 1, .c = -1},
    {.op = OP_BRF, .dst = -1, .a = 9, .b = 4, .c = 9},
    {.op = OP_ADD_I32, .dst = 5, .a = 5, .b = 2, .c = -1},
    {.op = OP_ADD_I32, .dst = 0, .a = 0, .b = 3, .c = -1},
    {.op = OP_JMP, .dst = -1, .a = 4, .b = -1, .c = -1},
    {.op = OP_EXIT, .dst = -1, .a = -1, .b = -1, .c = -1},
  };
  kir_func *f = fn_of("count", code, 10, 6);
  f->code[4].b = bound;
  return f;
}

START_TEST(uniform_scalars) {
  for (int l = 0; l < 32; l++) tids[0][l] = (uint32_t)l;
  kir_func *uf = counting_loop(1), *df = counting_loop(2);
  bytes cu = {0}, cd = {0};
  jit_emit(uf, &cu);
  jit_emit(df, &cd);
  bytes_put(&cu, "", 1);
  bytes_put(&cd, "", 1);
  /* the shared counter: checked on entering the loop, a scalar; the lanes' own: the register file */
  ck_assert_msg(strstr((char *)cu.p, "case 4: {\n    static const int32_t o[] = {0};\n    if (!same(R, o, 1)) { F->declined++; return; }\n    u0 = R[0];\n  } goto L4;") != NULL, "%s", (char *)cu.p);
  ck_assert_msg(strstr((char *)cd.p, "u0 = R[0];") == NULL && strstr((char *)cd.p, "B72(R[0 + l], ") != NULL, "%s", (char *)cd.p);
  char cache[] = "/tmp/gr-jit-uni-XXXXXX";
  const jit_code *jit = compiled(uf, cache);
  simt_plan *plan = simt_plan_new(uf, args, NULL);
  uint64_t regs[6 * 32] = {0};
  for (int drift = 0; drift < 2; drift++) {
    /* at the loop's head, k = 3 in every lane, or (as ITS may leave it) 5 in lane 7 */
    for (int l = 0; l < 32; l++) regs[0 * 32 + l] = 3, regs[1 * 32 + l] = 16, regs[2 * 32 + l] = (uint64_t)l, regs[3 * 32 + l] = 1;
    regs[0 * 32 + 7] = drift ? 5 : 3;
    machine A, B;
    machine_init(&A, uf, plan, NULL, regs);
    machine_init(&B, uf, plan, jit, regs);
    /* the compiled code alone: the whole loop, or nothing */
    int32_t edge_at[WARP_EDGES];
    jit_frame F = {.R = B.w.r, .tid = tids, .args = args, .gaddr = gaddr, .pc = 4, .cap = 1000, .rpc = -1, .edges = WARP_EDGES,
                   .edge_at = edge_at};
    jit->fn(&F);
    ck_assert_uint_eq(F.declined, (uint64_t)drift);
    if (drift) {
      ck_assert_int_eq(F.n, 0);
      ck_assert_mem_eq(B.w.r, regs, sizeof regs);
    } else {
      /* 13 turns of 5 instructions from k = 3, and the comparison and branch that leave */
      ck_assert_int_eq(F.pc, 9);
      ck_assert_int_eq(F.n, 13 * 5 + 2);
      for (int l = 0; l < 32; l++) ck_assert_uint_eq(B.w.r[0 * 32 + l], 16);
    }
    /* through the run-ahead, the engines agree either way (the interpreter goes on where it declines) */
    memcpy(B.w.r, regs, sizeof regs);
    A.w.sp = B.w.sp = 1;
    A.w.stk[0] = B.w.stk[0] = (simt_entry){4, -1, FULL};
    A.w.alive = B.w.alive = FULL;
    int ea[WARP_EDGES], eb[WARP_EDGES], na = 0, nb = 0;
    int ra = simt_run_ahead(&A.L, &A.w, 1000, 0, WARP_EDGES, ea, &na);
    int rb = simt_run_ahead(&B.L, &B.w, 1000, 0, WARP_EDGES, eb, &nb);
    ck_assert_int_eq(ra, rb);
    ck_assert_int_eq(na, nb);
    ck_assert_int_gt(ra, 0);
    ck_assert(!engine_live_regs_differ(&A.L, &A.w, &B.w));
    machines_free(&A, &B);
  }
  simt_plan_free(plan);
  cache_rm(cache);
  free(cu.p);
  free(cd.p);
  fn_free(uf);
  fn_free(df);
  for (int l = 0; l < 32; l++) tids[0][l] = (uint32_t)(l + 32);
}
END_TEST

/* Dead stores (jit.c's kept_after): a block does not store a register
 * that no later instruction reads before writing it, but does store the
 * operands of a comparison fused with the branch after it, which a
 * stretch that halts at that branch (its lanes part, under ITS's
 * SIMT_UNIFORM) runs again for the register the branch's turn reads (the
 * defect: r1 left unstored, the comparison read a stale tid, and a
 * kernel's lanes all took `if (threadIdx.x == 0)`):
 *   0 sreg r1, %tid.x; 1 const r5, 0; 2 eq.u32 r2, r1, r5
 *   3 brf r2, 6 (reconverge at 6); 4 const r1, 7; 5 add.i32 r3, r1, r1; 6 exit */
static kir_func *dead_after(void) {
  static const kir_ins code[] = {
    {.op = OP_SREG, .dst = 1, .a = -1, .b = -1, .c = -1, .imm = SR_TID_X},
    {.op = OP_CONST, .dst = 5, .a = -1, .b = -1, .c = -1, .imm = 0},
    {.op = OP_EQ_U32, .dst = 2, .a = 1, .b = 5, .c = -1},
    {.op = OP_BRF, .dst = -1, .a = 6, .b = 2, .c = 6},
    {.op = OP_CONST, .dst = 1, .a = -1, .b = -1, .c = -1, .imm = 7},
    {.op = OP_ADD_I32, .dst = 3, .a = 1, .b = 1, .c = -1},
    {.op = OP_EXIT, .dst = -1, .a = -1, .b = -1, .c = -1},
  };
  return fn_of("dead", code, 7, 6);
}

START_TEST(dead_stores) {
  for (int l = 0; l < 32; l++) tids[0][l] = (uint32_t)l;
  kir_func *f = dead_after();
  bytes c = {0};
  jit_emit(f, &c);
  bytes_put(&c, "", 1);
  /* r3 (R[96..]) is read by nothing: its block stores nothing of it; r1 is the fused comparison's operand */
  ck_assert_msg(strstr((char *)c.p, "R[96 + l] =") == NULL && strstr((char *)c.p, "R[32 + l] =") != NULL, "%s", (char *)c.p);
  char cache[] = "/tmp/gr-jit-dead-XXXXXX";
  const jit_code *jit = compiled(f, cache);
  /* entered at 0 (six instructions to the exit, jit_entries' least), not
   * at 4 (two): that the stretch below runs compiled code */
  ck_assert(jit->entry[0] & JIT_ENTRY);
  ck_assert(!(jit->entry[4] & JIT_ENTRY));
  simt_plan *plan = simt_plan_new(f, args, NULL);
  uint64_t regs[6 * 32];
  for (int k = 0; k < 6 * 32; k++) regs[k] = 0xdead0000u + (uint64_t)k;   /* r1 not yet tid.x */
  machine A, B;
  machine_init(&A, f, plan, NULL, regs);
  machine_init(&B, f, plan, jit, regs);
  A.w.sp = B.w.sp = 1;
  A.w.stk[0] = B.w.stk[0] = (simt_entry){0, -1, FULL};
  A.w.alive = B.w.alive = FULL;
  int ea[WARP_EDGES], eb[WARP_EDGES], na = 0, nb = 0;
  /* SIMT_UNIFORM: the stretch halts at the branch, whose lanes part */
  int ra = simt_run_ahead(&A.L, &A.w, 100, SIMT_UNIFORM, WARP_EDGES, ea, &na);
  int rb = simt_run_ahead(&B.L, &B.w, 100, SIMT_UNIFORM, WARP_EDGES, eb, &nb);
  ck_assert_int_eq(ra, 3);
  ck_assert_int_eq(rb, 3);
  ck_assert_int_eq(B.w.stk[0].pc, 3);
  for (int l = 0; l < 32; l++) ck_assert_uint_eq(B.w.r[2 * 32 + l], l == 0);   /* the register the branch reads */
  ck_assert(!engine_live_regs_differ(&A.L, &A.w, &B.w));
  machines_free(&A, &B);
  simt_plan_free(plan);
  cache_rm(cache);
  free(c.p);
  fn_free(f);
  for (int l = 0; l < 32; l++) tids[0][l] = (uint32_t)(l + 32);
}
END_TEST

/* ------------------------------------------------------------- whole launches */

/* A random elementwise kernel, the kind emu/whole.h runs a warp at a time:
 * loads of every size from buffers nothing writes (a gather through an
 * index read from memory among them), arithmetic of every type with
 * conversions between them, loops whose count is one for a warp (the
 * block's index, the warp's), branches on the block's index, and one store
 * to each output at the thread's own index; and, in some, what makes the
 * launch go turn by turn: a branch that parts a warp's lanes, a gather
 * past its buffer's end (a fault), blocks whose last warp is partial. */
static void put_stmt(char *s, size_t n, int depth) {
  size_t l = strlen(s);
  char *o = s + l;
  size_t m = n - l;
  static const char *const uops[] = {"+", "-", "*", "^", "&", "|"};
  switch (below(depth < 2 ? 11 : 9)) {
  case 0: snprintf(o, m, "  u = u %s (a[i] + %uu);\n", uops[below(6)], (unsigned)below(1000)); break;
  case 1: snprintf(o, m, "  u = (u << %d) ^ (u >> %d);\n", below(32), below(32)); break;
  case 2: snprintf(o, m, "  v = v %s (int)e8[i] %s %d;\n", uops[below(3)], uops[below(3)], below(200) - 100); break;
  case 3: snprintf(o, m, "  v = v / ((int)u16[i] | 1) + v %% 7;\n"); break;
  case 4: snprintf(o, m, "  f = f * %d.25f + b[ix[i] %% %du];\n", below(9) - 4, below(4) ? 1 << 20 : 1 << 30); break;
  case 5: snprintf(o, m, "  f = sqrtf(fabsf(f)) - (float)v;\n"); break;
  case 6: snprintf(o, m, "  d = d * 0.5 + (double)f - c[i];\n"); break;
  case 7: snprintf(o, m, "  u = u + (unsigned)(f * 3.0f) + (unsigned)(long long)d;\n"); break;
  case 8: snprintf(o, m, "  v = v + (int)(d / 7.0) - (int)(short)u;\n"); break;
  default: {
    snprintf(o, m, below(2) ? "  for (int j = 0; j < (int)(blockIdx.x %% 3 + threadIdx.x / 32 %% 2); j++) {\n"
                            : "  if (blockIdx.x %% 2 == %d) {\n", below(2));
    int k = 1 + below(3);
    for (int j = 0; j < k; j++) put_stmt(s, n, depth + 1);
    l = strlen(s);
    snprintf(s + l, n - l, "  }\n");
    break;
  }
  }
}

/* The kernel's text into s; its stores for the threads below its n, and
 * where tail_fault, a load past a's end for those from n on. */
static void gen_map(char *s, size_t n, int tail_fault) {
  snprintf(s, n,
           "__global__ void map(const unsigned *a, const float *b, const double *c, const unsigned *ix, const signed char *e8,\n"
           "                    const unsigned short *u16, unsigned *ou, float *of, double *od, short *os, int n) {\n"
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  unsigned u = a[i];\n  int v = (int)u16[i] - 1000;\n  float f = b[i];\n  double d = c[i] + (double)e8[i];\n");
  int k = 3 + below(8);
  for (int j = 0; j < k; j++) put_stmt(s, n, 0);
  size_t l = strlen(s);
  if (!below(6)) snprintf(s + l, n - l, "  if (threadIdx.x %% 5 == 1) u = u * 3u;\n"), l = strlen(s);   /* the lanes part */
  if (tail_fault) snprintf(s + l, n - l, "  if (i >= n) u = u + a[i + 64];\n"), l = strlen(s);
  snprintf(s + l, n - l, "  if (i < n) {\n    ou[i] = u;\n    of[i] = f;\n    od[i] = d;\n    os[i] = (short)v;\n  }\n}\n");
}

/* What one run of a map kernel gave: its status, error, outputs and statistics. */
typedef struct {
  int rc;
  char err[512];
  uint8_t *out[4];
  gr_stats st;
} map_run;

static void map_launch(const char *src, int threads, int blocks, int past, int tail, gr_engine engine, int weak_its,
                       const char *cache, map_run *r) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.engine = engine;
  snprintf(cfg.jit_cache, sizeof cfg.jit_cache, "%s", cache);
  if (weak_its) cfg.memory = GR_MEMORY_WEAK, cfg.warps = GR_WARPS_ITS, cfg.seed = 3;
  gr_context *ctx = gr_context_create(&cfg);
  gr_module *m;
  int N = threads * blocks;
  static const size_t size[10] = {4, 4, 8, 4, 1, 2, 4, 4, 8, 2};
  gr_ptr p[10] = {0};
  gr_arg args[11];
  memset(r, 0, sizeof *r);
  args[10] = gr_arg_i32(N - tail);
  r->rc = gr_module_load_source(ctx, "map.cu", src, strlen(src), &m);
  for (int k = 0; k < 10 && r->rc == GR_OK; k++) {
    r->rc = gr_malloc(ctx, size[k] * (size_t)N, NULL, &p[k]);
    args[k] = gr_arg_ptr(p[k]);
    uint8_t *init = malloc(size[k] * (size_t)N);
    test_seed(1000 + (uint64_t)k);
    for (size_t j = 0; j < size[k] * (size_t)N; j++) init[j] = (uint8_t)test_rnd();
    if (k == 1 || k == 2)   /* floats and doubles of every kind, NaNs and infinities among them */
      for (int j = 0; j < N; j++) {
        if (k == 1) { float x = (float)(test_below(2000) - 1000) / 8; if (!test_below(9)) memcpy(&x, init + 4 * j, 4); memcpy(init + 4 * j, &x, 4); }
        else { double x = (double)(test_below(2000) - 1000) / 16; if (!test_below(9)) memcpy(&x, init + 8 * j, 8); memcpy(init + 8 * j, &x, 8); }
      }
    if (k == 3)   /* the gather's indices: within b, or up to `past` beyond it */
      for (int j = 0; j < N; j++) { uint32_t x = (uint32_t)test_below(N + past); memcpy(init + 4 * j, &x, 4); }
    if (k < 6) gr_memcpy_htod(ctx, p[k], init, size[k] * (size_t)N);
    free(init);
  }
  if (r->rc == GR_OK) r->rc = gr_launch(m, "map", dim1((unsigned)blocks), dim1((unsigned)threads), 0, args, 11);
  snprintf(r->err, sizeof r->err, "%s", r->rc ? gr_error(ctx) : "");
  gr_last_stats(ctx, &r->st);
  for (int k = 0; k < 4; k++) {
    r->out[k] = calloc(size[6 + k], (size_t)N);
    if (p[6 + k]) gr_memcpy_dtoh(ctx, r->out[k], p[6 + k], size[6 + k] * (size_t)N);
  }
  gr_context_destroy(ctx);
}

/* The two engines on random map kernels, sc memory under lockstep and weak
 * memory under ITS (round-robin): the same status, error, outputs and
 * statistics; and compiled code ran most of them a warp at a time.
 * GR_WHOLE_FUZZ=N runs N kernels (default 8: among them a tail that runs
 * whole and one that faults, each compiled twice, 4 s of make check). */
START_TEST(whole_agrees) {
  const char *e = getenv("GR_WHOLE_FUZZ");
  int count = e ? atoi(e) : 8, whole = 0, runs = 0, failed = 0;
  char cache[] = "/tmp/gr-whole-fuzz-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(cache));
  static char src[16384];
  for (int k = 0; k < count; k++) {
    test_seed(77 + (uint64_t)k * 0x9e3779b97f4a7c15ull);
    /* a tail of threads past n, in the last warp: its lanes part, and its
     * block runs turn by turn (where it faults, the launch again) */
    int tail = below(3) ? 0 : 1 + below(31), tail_fault = tail && below(2);
    gen_map(src, sizeof src, tail_fault);
    int threads = below(8) ? 32 * (1 + below(4)) : 48, blocks = 2 + below(70), past = below(8) ? 0 : 40;
    static const size_t size[4] = {4, 4, 8, 2};
    for (int mode = 0; mode < 2; mode++) {
      map_run a, b;
      map_launch(src, threads, blocks, past, tail, GR_ENGINE_INTERP, mode, cache, &a);
      map_launch(src, threads, blocks, past, tail, GR_ENGINE_COMPILED, mode, cache, &b);
      int same = a.rc == b.rc && !strcmp(a.err, b.err) && a.st.warp_steps == b.st.warp_steps &&
                 a.st.thread_instructions == b.st.thread_instructions && a.st.divergences == b.st.divergences &&
                 a.st.memory_actions == b.st.memory_actions && a.st.memory_at_once == b.st.memory_at_once &&
                 !memcmp(a.st.mem_ops, b.st.mem_ops, sizeof a.st.mem_ops) && !memcmp(a.st.mem_bytes, b.st.mem_bytes, sizeof a.st.mem_bytes);
      for (int j = 0; j < 4; j++) same &= !memcmp(a.out[j], b.out[j], size[j] * (size_t)(threads * blocks));
      if (!same) {
        fprintf(stderr, "whole fuzz %d (%s): the engines differ: status %d and %d (%s | %s), steps %llu and %llu\n%s\n", k,
                mode ? "weak, its" : "sc, lockstep", a.rc, b.rc, a.err, b.err, (unsigned long long)a.st.warp_steps,
                (unsigned long long)b.st.warp_steps, src);
        failed++;
      }
      /* (a launch that ran, or faulted: the kernel is one the front end takes) */
      ck_assert_msg(a.rc == GR_OK || a.rc == GR_EEMU, "whole fuzz %d: %s", k, a.err);
      ck_assert_msg(b.st.compiled, "whole fuzz %d: no compiled code ran: %s", k, b.st.engine_note);
      whole += b.st.whole;
      runs++;
      if (getenv("GR_WHOLE_SHOW"))
        fprintf(stderr, "kernel %d mode %d threads %d blocks %d past %d tail %d whole %d rc %d %s\n%s\n", k, mode, threads, blocks, past,
                tail, b.st.whole, b.rc, b.err, src);
      for (int j = 0; j < 4; j++) free(a.out[j]), free(b.out[j]);
    }
  }
  cache_rm(cache);
  fprintf(stderr, "whole fuzz: %d kernels, %d of %d compiled runs a warp at a time\n", count, whole, runs);
  ck_assert_int_eq(failed, 0);
  /* the generator reaches the path (a quarter of its kernels: the rest
   * have partial warps, faults, lanes that part) */
  ck_assert_int_ge(whole, runs / 4);
}
END_TEST

int main(void) {
  for (int l = 0; l < 32; l++) tids[0][l] = (uint32_t)(l + 32), tids[1][l] = 1, tids[2][l] = 0;
  Suite *s = suite_create("jit");
  TCase *tc = tcase_create("differential");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, engines_agree);
  tcase_add_test(tc, uniform_scalars);
  tcase_add_test(tc, dead_stores);
  tcase_add_test(tc, whole_agrees);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
