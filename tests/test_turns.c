/* The run-ahead against one instruction per turn, on generated kernels.
 *
 * A warp runs its own instructions ahead of their turns (emu/simt.h): the
 * stretches of arithmetic and branches, the loads of memory that holds
 * still, the stores nobody reads; with observers, fewer.  The claim is
 * that nobody can tell: the same schedule, memory, statistics, errors and
 * race reports as one instruction per turn (gr_config's one_per_turn).
 * The repository's kernels test it (tests/engines.sh, tests/hb_exact.sh);
 * this suite generates kernels that mix what the run-ahead must respect
 * (shared and global loads and stores, atomics, volatile accesses, fences,
 * barriers, __syncwarp, shuffles and ballots between stretches, uniform
 * and divergent loops and branches, partial warps) and compares the two on each, under both
 * warp models, both memory models, both schedulers, without a detector
 * and under hb and hb-ptx.  It found reductions left unshown to hb-ptx
 * after a fence, where they order (tests/data/hb_cover/fence_reduce.cu:
 * the counts of hb-ptx's reports differed, seed 4107).
 * GR_TURNS_N=N GR_TURNS_SEED=S tests/test_turns runs more (make check: 200);
 * GR_TURNS_CC=nvrtc compiles them with NVRTC and runs its PTX; GR_TURNS_JIT=K
 * runs one kernel in K under the compiled engine (default 32). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detectors.h"
#include "testutil.h"

static int below(int n) { return test_below(n); }

typedef struct { char *p; size_t n, cap; } text;

static void put(text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char line[512];
  int k = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  ck_assert(k >= 0 && (size_t)k < sizeof line);
  if (t->n + (size_t)k + 1 > t->cap) {
    t->cap = 2 * (t->n + (size_t)k + 1);
    t->p = realloc(t->p, t->cap);
    ck_assert_ptr_nonnull(t->p);
  }
  memcpy(t->p + t->n, line, (size_t)k + 1);
  t->n += (size_t)k;
}

#define SH 128   /* shared ints */
#define GW 64    /* global ints every block shares */
#define IN 256   /* read-only input ints */

/* An int expression of the thread's values. */
static void expr(text *t) {
  static const char *const leaf[] = {"t", "v", "a", "b", "w", "(t & 31)", "(t >> 5)"};
  const char *x = leaf[below(7)], *y = leaf[below(7)];
  switch (below(6)) {
  case 0: put(t, "%s", x); break;
  case 1: put(t, "(%s + %d)", x, below(9)); break;
  case 2: put(t, "(%s * %d + %s)", x, 1 + below(5), y); break;
  case 3: put(t, "(%s ^ %s)", x, y); break;
  case 4: put(t, "(%s >> %d)", x, 1 + below(4)); break;
  default: put(t, "(%s - %s)", x, y); break;
  }
}

/* An index into an array of n ints (a power of two), in bounds. */
static void index_of(text *t, int n) {
  switch (below(4)) {
  case 0: put(t, "((t + %d) & %d)", below(n), n - 1); break;
  case 1: put(t, "%d", below(n)); break;
  case 2: put(t, "((t * %d) & %d)", 1 + 2 * below(4), n - 1); break;
  default: put(t, "("); expr(t); put(t, " & %d)", n - 1); break;
  }
}

/* A statement; top: at the kernel's top level (every thread reaches it
 * together, so a barrier there is the whole block's). */
static void stmt(text *t, int depth, int top, int ind) {
  put(t, "%*s", ind, "");
  int k = below(top ? 33 : 22);   /* (22 and on only at the top level) */
  switch (k) {
  case 0: put(t, "v = "); expr(t); put(t, ";\n"); break;
  case 1: put(t, "a = "); expr(t); put(t, " + v;\n"); break;
  case 2: put(t, "s["); index_of(t, SH); put(t, "] = "); expr(t); put(t, ";\n"); break;
  case 3: put(t, "v += s["); index_of(t, SH); put(t, "];\n"); break;
  case 4: put(t, "g["); index_of(t, GW); put(t, "] = "); expr(t); put(t, ";\n"); break;
  case 5: put(t, "v += g["); index_of(t, GW); put(t, "];\n"); break;
  case 6: put(t, "a += in["); index_of(t, IN); put(t, "];\n"); break;
  case 7: put(t, "atomicAdd(&%s[", below(2) ? "g" : "s"); index_of(t, below(2) ? GW : 32); put(t, "], %d);\n", 1 + below(3)); break;
  case 8: put(t, "v += atomicAdd(&g["); index_of(t, GW); put(t, "], t);\n"); break;
  case 9: put(t, "v += ((volatile int *)s)["); index_of(t, SH); put(t, "];\n"); break;
  case 10: put(t, "((volatile int *)g)["); index_of(t, GW); put(t, "] = v;\n"); break;
  case 11:
  case 12:
    if (depth > 0) {
      /* a branch on a value per lane or per block */
      put(t, "if ((");
      expr(t);
      put(t, below(2) ? " & %d) == 0) {\n" : " & %d) != 1) {\n", 1 + below(3));
      for (int j = 1 + below(3); j > 0; j--) stmt(t, depth - 1, 0, ind + 2);
      if (below(2)) {
        put(t, "%*s} else {\n", ind, "");
        for (int j = 1 + below(2); j > 0; j--) stmt(t, depth - 1, 0, ind + 2);
      }
      put(t, "%*s}\n", ind, "");
    } else
      put(t, "v = v * 3 + 1;\n");
    break;
  case 13:
    if (depth > 0) {
      /* a loop the warp's lanes leave together or apart */
      int d = depth;
      if (below(2)) put(t, "for (int i%d = 0; i%d < %d; i%d++) {\n", d, d, 1 + below(6), d);
      else put(t, "for (int i%d = 0; i%d < (t & %d) + %d; i%d++) {\n", d, d, 1 + 2 * below(4), below(3), d);
      for (int j = 1 + below(3); j > 0; j--) stmt(t, depth - 1, 0, ind + 2);
      put(t, "%*s  v += i%d;\n%*s}\n", ind, "", d, ind, "");
    } else
      put(t, "a = a * 5 + t;\n");
    break;
  case 14: put(t, "v += __shfl_sync(__activemask(), a, (t + %d) & 31);\n", below(32)); break;
  case 15: put(t, "if (atomicCAS(&g[%d], 0, t + 1) == 0) a += 1;\n", below(GW)); break;
  case 16: put(t, "a += atomicExch(&%s[", below(2) ? "g" : "s"); index_of(t, 32); put(t, "], v);\n"); break;
  case 17: put(t, "((volatile int *)s)["); index_of(t, SH); put(t, "] = a;\n"); break;
  case 18: put(t, "a += (int)(clock() & 7);\n"); break;
  case 19: put(t, "c[(t * %d + %d) & %d] = (char)v;\n  %*sv += c[(t + %d) & %d];\n", 1 + below(3), below(8), 4 * SH - 1, ind, "",
               below(64), 4 * SH - 1); break;
  case 20: {
    /* reductions of other kinds (prov.h's PROV_RED where nothing else reaches g) */
    static const char *const red[] = {"atomicMin", "atomicMax", "atomicOr", "atomicAnd", "atomicXor"};
    put(t, "%s(&g[", red[below(5)]);
    index_of(t, GW);
    put(t, "], v);\n");
    break;
  }
  case 21: put(t, below(2) ? "__threadfence();\n" : "__threadfence_block();\n"); break;
  case 22: put(t, "__syncthreads();\n"); break;
  case 23: put(t, "__syncwarp();\n"); break;
  case 24: put(t, "v += __shfl_sync(__activemask(), v, (t + %d) & 31);\n", 1 + below(31)); break;
  case 25: put(t, "a += __ballot_sync(__activemask(), (v & %d) != 0) & 255;\n", 1 + below(7)); break;
  case 26: put(t, "a += __syncthreads_count((v & %d) == 0);\n", 1 + below(3)); break;
  case 27:
    /* a barrier the whole block reaches or none of it */
    put(t, "if (b == %d) {\n", below(2));
    stmt(t, 0, 0, ind + 2);
    put(t, "%*s  __syncthreads();\n", ind, "");
    stmt(t, 0, 0, ind + 2);
    put(t, "%*s}\n", ind, "");
    break;
  case 28:
    if (depth > 0) {
      /* a loop every thread of the block runs alike: barriers in it too */
      put(t, "for (int j%d = 0; j%d < %d; j%d++) {\n", depth, depth, 1 + below(3), depth);
      for (int j = 1 + below(4); j > 0; j--) stmt(t, depth - 1, 1, ind + 2);
      put(t, "%*s}\n", ind, "");
    } else
      put(t, "__syncthreads();\n");
    break;
  case 29:
    /* a flag that some thread raises (case 30), which a warp waits for:
     * the livelock detector's and the step limit's errors must come at
     * the same step whatever runs ahead */
    if (below(2)) put(t, "if (w == %d) while (((volatile int *)g)[%d] == 0) {}\n", below(3), GW - 1 - below(2));
    else put(t, "if (w == %d) for (int q = 0; q < %d && ((volatile int *)g)[%d] == 0; q++) v++;\n", below(3), 50 + below(500), GW - 1 - below(2));
    break;
  case 30: put(t, "if (t == %d) ((volatile int *)g)[%d] = 1;\n", below(96), GW - 1 - below(2)); break;
  case 31: put(t, "v += __shfl_xor_sync(0xffffffff, v, %d);\n", 1 << below(5)); break;
  default: put(t, "__syncwarp(%s);\n", below(2) ? "0xffffffff" : "__activemask()"); break;
  }
}

/* A kernel, its top level a few statements, and a barrier-free tail that
 * writes each thread's values out. */
static char *gen(void) {
  text t = {0};
  put(&t, "__global__ void k(const int *in, int *g, int *out) {\n");
  put(&t, "  __shared__ int s[%d];\n  char *c = (char *)s;\n", SH);
  put(&t, "  int t = threadIdx.x, b = blockIdx.x, w = t / 32, v = t, a = b;\n");
  put(&t, "  s[t & %d] = t;\n", SH - 1);
  for (int j = 3 + below(8); j > 0; j--) stmt(&t, 2, 1, 2);
  put(&t, "  out[b * blockDim.x + t] = v + a;\n}\n");
  return t.p;
}

/* the suite's folder: the compiled engine's cache, and NVRTC's kernel file */
static char jit_dir[] = "/tmp/gr-turns-XXXXXX";

typedef struct {
  int status;
  char err[512];
  int32_t g[GW], out[12 * 96];
  gr_stats st;
  text reps;
} result;

static const char *kind_name(gr_access_kind k) { return k == GR_LOAD ? "load" : k == GR_STORE ? "store" : "atomic"; }

static void side(text *t, const gr_race_access *a) {
  put(t, " %d:%d %u,%u,%u w%u l%d %s %d", a->line, a->col, a->block.x, a->block.y, a->block.z, a->warp, a->lane, kind_name(a->kind),
      a->strong);
}

/* One launch of src's k: its memory, statistics, error and reports. */
static void run(const char *src, const gr_config *cfg, const char *dets, unsigned grid, unsigned block, result *r) {
  memset(r, 0, sizeof *r);
  gr_context *ctx = gr_context_create(cfg);
  ck_assert_int_eq(gr_context_ok(ctx), GR_OK);
  gr_module *m = NULL;
  int rc;
  if (cfg->cc == GR_CC_NVRTC) {   /* (the CUDA compilers read files: one name, which errors quote) */
    char path[64];
    snprintf(path, sizeof path, "%s/k.cu", jit_dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(src, f) >= 0 && fclose(f) == 0, 1);
    rc = gr_module_load(ctx, path, NULL, 0, &m);
  } else
    rc = gr_module_load_source(ctx, "turns.cu", src, strlen(src), &m);
  if (rc) fprintf(stderr, "%s\n%s\n", gr_error(ctx), src);
  ck_assert_int_eq(rc, GR_OK);
  race_log *log = race_log_new();
  detector_set *set = NULL;
  det_options o;
  det_options_default(&o);
  char why[256];
  if (dets) ck_assert_int_eq(detectors_attach(ctx, dets, &o, log, &set, why, sizeof why), GR_OK);
  int32_t in[IN];
  for (int j = 0; j < IN; j++) in[j] = j * 7 - 100;
  gr_ptr pin, pg, pout;
  ck_assert_int_eq(gr_malloc(ctx, sizeof in, "in", &pin), GR_OK);
  ck_assert_int_eq(gr_malloc(ctx, sizeof r->g, "g", &pg), GR_OK);
  ck_assert_int_eq(gr_malloc(ctx, sizeof r->out, "out", &pout), GR_OK);
  ck_assert_int_eq(gr_memcpy_htod(ctx, pin, in, sizeof in), GR_OK);
  gr_arg args[3] = {gr_arg_ptr(pin), gr_arg_ptr(pg), gr_arg_ptr(pout)};
  r->status = gr_launch(m, "k", dim1(grid), dim1(block), 0, args, 3);
  if (r->status) snprintf(r->err, sizeof r->err, "%s", gr_error(ctx));
  gr_last_stats(ctx, &r->st);
  ck_assert_int_eq(gr_memcpy_dtoh(ctx, r->g, pg, sizeof r->g), GR_OK);
  ck_assert_int_eq(gr_memcpy_dtoh(ctx, r->out, pout, sizeof r->out), GR_OK);
  size_t n;
  const gr_race *rp = race_log_reports(log, &n);
  put(&r->reps, "");
  for (size_t j = 0; j < n; j++) {
    put(&r->reps, "%s %s %s+%llu x%llu:", rp[j].detector, rp[j].cls, rp[j].buffer ? rp[j].buffer : "shared",
        (unsigned long long)rp[j].offset, (unsigned long long)rp[j].count);
    side(&r->reps, &rp[j].first);
    side(&r->reps, &rp[j].second);
    put(&r->reps, "\n");
  }
  if (dets)
    for (const char *d = dets; *d;) {
      char name[32];
      size_t len = strcspn(d, ",");
      snprintf(name, sizeof name, "%.*s", (int)len, d);
      const char *u = race_log_unwatched_why(log, name);
      if (u) put(&r->reps, "%s unwatched: %s\n", name, u);
      d += len + (d[len] == ',');
    }
  detectors_detach(set);
  race_log_free(log);
  gr_context_destroy(ctx);
}

/* What differs between a and b, or NULL. */
static const char *differ(const result *a, const result *b) {
  if (a->status != b->status || strcmp(a->err, b->err)) return "status or error";
  /* a launch that failed (a deadlock, the step limit) stops where one per
   * turn stops, but with what its warps ran ahead of turns that never
   * came: thread instructions, and stores to allocations nothing reads
   * (docs/kir.md) */
  if (a->status) return a->st.warp_steps != b->st.warp_steps ? "warp steps" : NULL;
  if (memcmp(a->g, b->g, sizeof a->g) || memcmp(a->out, b->out, sizeof a->out)) return "memory";
  if (a->st.warp_steps != b->st.warp_steps) return "warp steps";
  if (a->st.thread_instructions != b->st.thread_instructions) return "thread instructions";
  if (a->st.divergences != b->st.divergences || a->st.barriers != b->st.barriers) return "divergences or barriers";
  if (a->st.memory_actions != b->st.memory_actions) return "memory actions";
  if (memcmp(a->st.mem_ops, b->st.mem_ops, sizeof a->st.mem_ops) || memcmp(a->st.mem_bytes, b->st.mem_bytes, sizeof a->st.mem_bytes))
    return "memory operations";
  if (strcmp(a->reps.p ? a->reps.p : "", b->reps.p ? b->reps.p : "")) return "race reports";
  return NULL;
}

typedef struct { gr_warps warps; gr_memory memory; gr_sched sched; const char *dets; int sms; } setting;

static const setting settings[] = {
  {GR_WARPS_LOCKSTEP, GR_MEMORY_SC, GR_SCHED_RR, NULL, 0},
  {GR_WARPS_LOCKSTEP, GR_MEMORY_SC, GR_SCHED_RANDOM, "hb", 0},
  {GR_WARPS_ITS, GR_MEMORY_SC, GR_SCHED_RR, "hb-ptx", 0},
  {GR_WARPS_LOCKSTEP, GR_MEMORY_SC, GR_SCHED_RR, "hb-ptx", 0},
  {GR_WARPS_ITS, GR_MEMORY_SC, GR_SCHED_RANDOM, NULL, 0},
  {GR_WARPS_LOCKSTEP, GR_MEMORY_WEAK, GR_SCHED_RANDOM, NULL, 0},
  {GR_WARPS_ITS, GR_MEMORY_WEAK, GR_SCHED_RR, "hb", 0},
  /* one SM: a grid's later blocks start in the slots of those that ended */
  {GR_WARPS_LOCKSTEP, GR_MEMORY_SC, GR_SCHED_RR, "hb", 1},
  {GR_WARPS_ITS, GR_MEMORY_WEAK, GR_SCHED_RANDOM, "hb-ptx", 1},
};

static const char *setting_name(const setting *s) {
  static char b[96];
  snprintf(b, sizeof b, "%s %s %s %s%s", s->warps == GR_WARPS_ITS ? "its" : "lockstep", s->memory == GR_MEMORY_WEAK ? "weak" : "sc",
           s->sched == GR_SCHED_RANDOM ? "random" : "rr", s->dets ? s->dets : "no detector", s->sms == 1 ? " one SM" : "");
  return b;
}

static int nfailed, nracy;   /* launches that ended in an error, that had race reports */
static int jit_every = 32;                         /* one kernel in so many under the compiled engine (GR_TURNS_JIT) */

/* The kernel of the seed under every setting: the two runs agree; one
 * kernel in 32 runs ahead under the compiled engine (compiled once). */
static int turns_one(uint64_t seed, int *compared) {
  test_seed(seed * 0x9e3779b97f4a7c15ull + 1);
  char *src = gen();
  static const unsigned blocks[] = {64, 96, 80, 40};
  static const unsigned grids[] = {1, 2, 3, 1, 2, 3, 2, 12};   /* (12: more blocks than one SM holds) */
  unsigned block = blocks[below(4)], grid = grids[below(8)];
  int bad = 0;
  for (size_t k = 0; k < sizeof settings / sizeof *settings && !bad; k++) {
    const setting *s = &settings[k];
    /* one SM where the grid outgrows it, and such a grid there and in the first setting alone */
    if (s->sms ? grid < 9 : grid >= 9 && k) continue;
    gr_config cfg;
    gr_config_default(&cfg);
    cfg.warps = s->warps;
    cfg.memory = s->memory;
    cfg.sched = s->sched;
    cfg.seed = seed % 7 + 1;
    const char *cc = getenv("GR_TURNS_CC");   /* nvrtc: the kernels through NVRTC's PTX (not in make check) */
    if (cc && !strcmp(cc, "nvrtc")) cfg.cc = GR_CC_NVRTC;
    if (s->sms) cfg.sms = s->sms;
    cfg.max_steps = 40000;
    if (seed % (uint64_t)jit_every == 0) {
      cfg.engine = GR_ENGINE_COMPILED;
      snprintf(cfg.jit_cache, sizeof cfg.jit_cache, "%s", jit_dir);
    }
    result a, b;
    run(src, &cfg, s->dets, grid, block, &a);
    if (cfg.engine == GR_ENGINE_COMPILED && k == 0 && !a.st.compiled) {   /* (ITS under random runs nothing ahead) */
      fprintf(stderr, "turns: seed %llu: no compiled code ran: %s\n", (unsigned long long)seed, a.st.engine_note);
      bad = 1;
    }
    cfg.engine = GR_ENGINE_INTERP;
    cfg.one_per_turn = 1;
    run(src, &cfg, s->dets, grid, block, &b);
    const char *d = differ(&a, &b);
    if (d) {
      fprintf(stderr, "turns: seed %llu, %s, grid %u block %u: the run ahead and one per turn differ in %s\n%s\n",
              (unsigned long long)seed, setting_name(s), grid, block, d, src);
      if (a.status != b.status || strcmp(a.err, b.err)) fprintf(stderr, "  %d %s\n  %d %s\n", a.status, a.err, b.status, b.err);
      if (strcmp(a.reps.p ? a.reps.p : "", b.reps.p ? b.reps.p : "")) fprintf(stderr, "ahead:\n%s\none per turn:\n%s\n", a.reps.p, b.reps.p);
      bad = 1;
    }
    (*compared)++;
    nfailed += a.status != 0;
    if (a.status && getenv("GR_TURNS_SHOW")) fprintf(stderr, "turns: seed %llu: %s\n", (unsigned long long)seed, a.err);
    nracy += a.reps.p && strstr(a.reps.p, " x");
    free(a.reps.p);
    free(b.reps.p);
  }
  free(src);
  return bad;
}

START_TEST(ahead_is_one_per_turn) {
  const char *n = getenv("GR_TURNS_N"), *s0 = getenv("GR_TURNS_SEED");
  int count = n ? atoi(n) : 200, compared = 0, bad = 0;
  uint64_t first = s0 ? strtoull(s0, NULL, 10) : 1;
  ck_assert_ptr_nonnull(mkdtemp(jit_dir));
  const char *je = getenv("GR_TURNS_JIT");
  if (je && atoi(je) > 0) jit_every = atoi(je);
  for (int i = 0; i < count; i++) bad += turns_one(first + (uint64_t)i, &compared);
  printf("turns: %d generated kernels, %d settings compared (%d ended in an error, %d with race reports), %d differ\n", count,
         compared, nfailed, nracy, bad);
  char rm[64];
  snprintf(rm, sizeof rm, "rm -rf %s", jit_dir);
  if (system(rm) != 0) fprintf(stderr, "turns: could not remove %s\n", jit_dir);
  ck_assert_int_eq(bad, 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("turns");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, ahead_is_one_per_turn);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
