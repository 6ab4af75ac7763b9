/* The weak memory system: what it must show (lost block-scope updates,
 * stale L1 lines, store buffering), what it must not (fenced message
 * passing going wrong), determinism per seed, and the exhaustive explorer
 * against a case whose reachable set is known in both memory models. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static gr_config config(gr_memory mem, uint64_t seed, gr_sched sched) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = mem;
  cfg.seed = seed;
  cfg.sched = sched;
  return cfg;
}

/* run_out under a memory model, seed and scheduler; the run must succeed. */
static void run_with(gr_memory mem, uint64_t seed, gr_sched sched, const char *src, unsigned grid, unsigned block, uint32_t *out, size_t n) {
  gr_config cfg = config(mem, seed, sched);
  ck_assert_int_eq(run_out(src, "k", grid, block, out, n, &cfg, NULL), GR_OK);
}

START_TEST(a_failed_block_scope_cas_writes_nothing) {
  /* block 1's CAS never succeeds (x is never 7); had it written back the
   * value it saw, its SM's stale 0 could land over block 0's 1 in L2 */
  const char *src = "__global__ void k(unsigned *o) {\n"
                    "  if (blockIdx.x == 0) atomicExch(&o[0], 1u);\n"
                    "  else for (int i = 0; i < 8; i++) atomicCAS_block(&o[0], 7u, 9u);\n}\n";
  for (uint64_t seed = 1; seed <= 60; seed++) {
    uint32_t o[1];
    run_with(GR_MEMORY_WEAK, seed, GR_SCHED_RANDOM, src, 2, 1, o, 1);
    ck_assert_uint_eq(o[0], 1);
  }
}
END_TEST

START_TEST(block_scope_atomics_lose_updates_across_sms_only_under_weak) {
  int lost = 0;
  for (uint64_t seed = 1; seed <= 40; seed++) {
    uint32_t o[1];
    for (int mem = 0; mem < 2; mem++) {
      const char *srcs[2] = {"__global__ void k(unsigned *o) { for (int i = 0; i < 4; i++) atomicAdd_block(&o[0], 1u); }\n",
                             "__global__ void k(unsigned *o) { for (int i = 0; i < 4; i++) atomicAdd(&o[0], 1u); }\n"};
      for (int dev = 0; dev < 2; dev++) {
        run_with(mem ? GR_MEMORY_WEAK : GR_MEMORY_SC, seed, GR_SCHED_RANDOM, srcs[dev], 4, 32, o, 1);
        ck_assert_uint_le(o[0], 512);
        if (!mem || dev) ck_assert_uint_eq(o[0], 512);   /* sc, or device scope: exact */
        else if (o[0] < 512) lost++;
      }
    }
  }
  ck_assert_int_gt(lost, 0);
}
END_TEST

/* Block 1 reads x (its SM's L1 keeps the line), waits for block 0's flag,
 * then reads x again: without a fence that read may hit the stale line;
 * with __threadfence() before it, never. */
static const char *stale_src =
  "__global__ void k(unsigned *o) {\n"
  "  volatile unsigned *flag = o + 8;\n"
  "  if (blockIdx.x == 0) {\n"
  "    o[0] = 7;\n"
  "    __threadfence();\n"
  "    *flag = 1;\n"
  "  } else {\n"
  "    unsigned first = o[0];\n"
  "    while (*flag == 0) { }\n"
  "    FENCE\n"
  "    o[16] = o[0];\n"
  "    o[17] = first;\n"
  "  }\n"
  "}\n";

static int run_stale(int fence, uint64_t seed) {
  char src[1024];
  const char *at = strstr(stale_src, "FENCE");
  snprintf(src, sizeof src, "%.*s%s%s", (int)(at - stale_src), stale_src, fence ? "__threadfence();" : "", at + 5);
  uint32_t o[32];
  run_with(GR_MEMORY_WEAK, seed, GR_SCHED_RANDOM, src, 2, 1, o, 32);
  ck_assert_uint_eq(o[8], 1);
  return o[16] != 7;
}

START_TEST(incoherent_l1_gives_stale_reads_that_a_fence_prevents) {
  int stale = 0;
  for (uint64_t seed = 1; seed <= 300; seed++) {
    stale += run_stale(0, seed);
    ck_assert_int_eq(run_stale(1, seed), 0);
  }
  ck_assert_int_gt(stale, 0);
}
END_TEST

/* A block barrier orders memory for the block: data written before it by
 * one warp is read after it by another, under every seed. */
START_TEST(barrier_orders_global_memory_within_the_block) {
  const char *src =
    "__global__ void k(unsigned *o) {\n"
    "  unsigned t = threadIdx.x;\n"
    "  o[t] = t + 1;\n"
    "  __syncthreads();\n"
    "  o[64 + t] = o[63 - t];\n"
    "}\n";
  for (uint64_t seed = 1; seed <= 60; seed++) {
    uint32_t o[128];
    run_with(GR_MEMORY_WEAK, seed, seed % 2 ? GR_SCHED_RANDOM : GR_SCHED_RR, src, 1, 64, o, 128);
    for (int t = 0; t < 64; t++) ck_assert_uint_eq(o[64 + t], (uint32_t)(64 - t));
  }
}
END_TEST

/* Racy kernel, weak memory: the same seed gives the same memory, byte for
 * byte; different seeds give different memories. */
START_TEST(weak_runs_are_determined_by_the_seed) {
  const char *src =
    "__global__ void k(unsigned *o) {\n"
    "  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  o[t % 64] = t;\n"
    "  o[64 + t % 64] = o[(t * 7) % 64] + o[(t * 13) % 64];\n"
    "}\n";
  uint32_t first[128], again[128];
  int differ = 0;
  for (uint64_t seed = 1; seed <= 8; seed++) {
    run_with(GR_MEMORY_WEAK, seed, GR_SCHED_RANDOM, src, 4, 64, seed == 1 ? first : again, 128);
    if (seed == 1) continue;
    if (memcmp(first, again, sizeof first)) differ++;
    uint32_t rerun[128];
    run_with(GR_MEMORY_WEAK, seed, GR_SCHED_RANDOM, src, 4, 64, rerun, 128);
    ck_assert_mem_eq(again, rerun, sizeof again);
  }
  ck_assert_int_gt(differ, 0);
}
END_TEST

/* Store buffering explored exhaustively: sequential consistency reaches
 * exactly 01, 10 and 11; weak memory adds 00.  The counts of reachable
 * outcomes are a proof about the explorer as much as about the models. */
static const char *sb_src =
  "__global__ void k(unsigned *o) {\n"
  "  if (blockIdx.x == 0) { o[0] = 1; o[2] = o[1]; }\n"
  "  else { o[1] = 1; o[3] = o[0]; }\n"
  "}\n";

static unsigned explore_sb(gr_memory mem, gr_explore_info *info) {
  gr_config cfg = config(mem, 1, GR_SCHED_RANDOM);
  gr_context *ctx = gr_context_create(&cfg);
  gr_module *m;
  ck_assert_int_eq(gr_module_load_source(ctx, "sb.cu", sb_src, strlen(sb_src), &m), GR_OK);
  gr_ptr b;
  gr_malloc(ctx, 16, "o", &b);
  gr_explore *x = gr_explore_new(100000);
  gr_context_explore(ctx, x);
  unsigned seen = 0;
  do {
    uint32_t o[4] = {0, 0, 0, 0};
    gr_memcpy_htod(ctx, b, o, sizeof o);
    gr_arg a = gr_arg_ptr(b);
    ck_assert_int_eq(gr_launch(m, "k", dim1(2), dim1(1), 0, &a, 1), GR_OK);
    if (gr_explore_last_pruned(x)) continue;
    gr_memcpy_dtoh(ctx, o, b, sizeof o);
    ck_assert_uint_eq(o[0], 1);
    ck_assert_uint_eq(o[1], 1);
    seen |= 1u << (o[2] * 2 + o[3]);
  } while (gr_explore_next(x));
  gr_explore_stats(x, info);
  gr_explore_free(x);
  gr_context_destroy(ctx);
  return seen;
}

START_TEST(exhaustive_exploration_of_store_buffering) {
  gr_explore_info info;
  ck_assert_uint_eq(explore_sb(GR_MEMORY_SC, &info), 0xeu);   /* 01, 10, 11 */
  ck_assert(info.complete);
  ck_assert(!info.nondeterministic);
  ck_assert_uint_ge(info.runs, 3);
  ck_assert_uint_eq(explore_sb(GR_MEMORY_WEAK, &info), 0xfu); /* and 00 */
  ck_assert(info.complete);
  ck_assert(!info.nondeterministic);
  ck_assert_uint_gt(info.pruned_runs, 0);
}
END_TEST

/* A state bound too small for the space says so instead of claiming a proof. */
START_TEST(exhaustive_exploration_reports_an_incomplete_search) {
  gr_litmus_opts o;
  gr_litmus_opts_default(&o);
  o.exhaustive = 1;
  o.max_states = 20;
  gr_litmus_result r;
  ck_assert_int_eq(gr_litmus_run(src_path("kernels/litmus/I1_iriw_G.cu"), &o, &r), GR_OK);
  ck_assert(!r.explored.complete);
  ck_assert(!r.pass);
  ck_assert_ptr_nonnull(strstr(r.reason, "state bound"));
  gr_litmus_result_free(&r);
}
END_TEST

/* Every test of the suite, sampled with the default number of runs and
 * explored exhaustively: no forbidden outcome, every required one found. */
START_TEST(litmus_suite_conforms) {
  char **names;
  int n = list_cu_files(src_path("kernels/litmus"), &names);
  ck_assert_int_eq(n, 69);
  int failed = 0;
  for (int k = 0; k < n; k++) {
    char path[8448];
    snprintf(path, sizeof path, "%s/%s", src_path("kernels/litmus"), names[k]);
    for (int ex = 0; ex < 2; ex++) {
      gr_litmus_opts o;
      gr_litmus_opts_default(&o);
      o.exhaustive = ex;
      gr_litmus_result r;
      int rc = gr_litmus_run(path, &o, &r);
      if (rc != GR_OK || !r.pass) {
        gr_litmus_print(stderr, path, &r);
        failed++;
      }
      if (ex) ck_assert(r.explored.complete);
      gr_litmus_result_free(&r);
    }
    free(names[k]);
  }
  free(names);
  ck_assert_int_eq(failed, 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("memory");
  TCase *tc = tcase_create("weak");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, block_scope_atomics_lose_updates_across_sms_only_under_weak);
  tcase_add_test(tc, a_failed_block_scope_cas_writes_nothing);
  tcase_add_test(tc, incoherent_l1_gives_stale_reads_that_a_fence_prevents);
  tcase_add_test(tc, barrier_orders_global_memory_within_the_block);
  tcase_add_test(tc, weak_runs_are_determined_by_the_seed);
  tcase_add_test(tc, exhaustive_exploration_of_store_buffering);
  tcase_add_test(tc, exhaustive_exploration_reports_an_incomplete_search);
  tcase_add_test(tc, litmus_suite_conforms);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
