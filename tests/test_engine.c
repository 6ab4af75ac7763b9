/* The SIMT engine: lockstep semantics, reconvergence, barriers, deadlock and
 * step limits, memory faults, atomics, warp intrinsics, scheduling. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kir_sem.h"
#include "testutil.h"

static uint32_t out[4096];

#define RUN(src, k, g, b, n) ck_assert_int_eq(run_out(src, k, g, b, out, n, NULL, NULL), GR_OK)

/* Runs expecting failure with `code`; checks the message contains `needle`. */
static void run_fails(const char *src, const char *k, unsigned g, unsigned b, int code, const char *needle, const gr_config *cfg) {
  gr_context *ctx;
  int rc = run_out(src, k, g, b, out, 64, cfg, &ctx);
  const char *msg = gr_error(ctx);
  if (rc != code || !strstr(msg, needle)) fprintf(stderr, "unexpected: rc=%d msg=%s\n", rc, msg);
  ck_assert_int_eq(rc, code);
  ck_assert_msg(strstr(msg, needle) != NULL, "message '%s' lacks '%s'", msg, needle);
  gr_context_destroy(ctx);
}

START_TEST(integer_semantics) {
  const char *src =
    "__global__ void k(int *o) {\n"
    "  int z = threadIdx.x;            /* 0: defeats folding */\n"
    "  unsigned u = 7u;\n"
    "  o[0] = 7 / z;                   /* division by zero: all ones */\n"
    "  o[1] = 7 % z;                   /* remainder by zero: the dividend */\n"
    "  o[2] = (int)(u >> (32 + z));    /* shift by the width: 0 */\n"
    "  o[3] = -7 >> (40 + z);          /* arithmetic shift past the width: sign fill */\n"
    "  o[4] = (-7) / 2;                /* C truncation */\n"
    "  o[5] = (-7) % 2;\n"
    "  o[6] = (unsigned)-1 > 0u;       /* usual conversions: unsigned compare */\n"
    "  o[7] = -1 < (int)0u;\n"
    "  o[8] = (char)300;               /* narrowing keeps the low bits */\n"
    "  o[9] = (unsigned char)(z - 1);\n"
    "  long long big = 1LL << 40;\n"
    "  o[10] = (int)(big >> 32);\n"
    "  o[11] = 0x7fffffff + (z + 1);   /* wraps */\n"
    "  o[12] = (int)3.99f; o[13] = (int)-3.99;\n"
    "  o[14] = (int)1e20f;             /* saturates, as cvt.rzi.sat */\n"
    "  o[15] = sizeof(long) + sizeof(short) * 10;\n"
    "}\n";
  RUN(src, "k", 1, 1, 16);
  int32_t *o = (int32_t *)out;
  ck_assert_int_eq(o[0], -1);
  ck_assert_int_eq(o[1], 7);
  ck_assert_int_eq(o[2], 0);
  ck_assert_int_eq(o[3], -1);
  ck_assert_int_eq(o[4], -3);
  ck_assert_int_eq(o[5], -1);
  ck_assert_int_eq(o[6], 1);
  ck_assert_int_eq(o[7], 1);
  ck_assert_int_eq(o[8], 44);
  ck_assert_int_eq(o[9], 255);
  ck_assert_int_eq(o[10], 256);
  ck_assert_int_eq(o[11], INT32_MIN);
  ck_assert_int_eq(o[12], 3);
  ck_assert_int_eq(o[13], -3);
  ck_assert_int_eq(o[14], INT32_MAX);
  ck_assert_int_eq(o[15], 28);
}
END_TEST

START_TEST(operators_and_sequencing) {
  const char *src =
    "__device__ int calls;\n"
    "__device__ int bump(int v) { calls++; return v; }\n"
    "__global__ void k(int *o) {\n"
    "  int a = 5, b = 0;\n"
    "  o[0] = (b != 0) && bump(1);      /* short circuit: bump not called */\n"
    "  o[1] = (a != 0) || bump(1);\n"
    "  o[2] = a > 3 ? bump(10) : bump(20);\n"
    "  o[3] = calls;\n"
    "  int i = 3; o[4] = i++ * 10 + i;  /* 33 + ... post-increment */\n"
    "  int j = 3; o[5] = ++j;\n"
    "  int c = 10; c += 5; c -= 1; c *= 3; c /= 2; c %= 8; c <<= 3; c >>= 1; c |= 1; c &= 7; c ^= 2;\n"
    "  o[6] = c;\n"
    "  o[7] = (a = 9, a + 1);\n"
    "  o[8] = !a + !b + ~0;\n"
    "  float f = 1.5f; f *= 4; o[9] = (int)f;\n"
    "  o[10] = 'A' + '\\n';\n"
    "  o[11] = 0x10 + 010 + 0b0;\n"
    "}\n";
  (void)src;
  /* 0b literals are not C11: the front end must reject them clearly */
  gr_context *ctx;
  int rc = run_out(src, "k", 1, 1, out, 16, NULL, &ctx);
  ck_assert_int_eq(rc, GR_EINPUT);
  ck_assert_msg(strstr(gr_error(ctx), "test.cu:17:") != NULL, "%s", gr_error(ctx));
  gr_context_destroy(ctx);
  char *fixed = strdup(src);
  char *p = strstr(fixed, " + 0b0");
  memcpy(p, "      ", 6);
  RUN(fixed, "k", 1, 1, 16);
  free(fixed);
  int32_t *o = (int32_t *)out;
  ck_assert_int_eq(o[0], 0);
  ck_assert_int_eq(o[1], 1);
  ck_assert_int_eq(o[2], 10);
  ck_assert_int_eq(o[3], 1);   /* neither short-circuited call ran; one arm of ?: did */
  ck_assert_int_eq(o[4], 34);
  ck_assert_int_eq(o[5], 4);
  /* c: 15, 14, 42, 21, 5, 40, 20, 21, 5, 7 */
  ck_assert_int_eq(o[6], 7);
  ck_assert_int_eq(o[7], 10);
  ck_assert_int_eq(o[8], 0 + 1 - 1);
  ck_assert_int_eq(o[9], 6);
  ck_assert_int_eq(o[10], 75);
  ck_assert_int_eq(o[11], 24);
}
END_TEST

START_TEST(divergent_if_else_and_loops) {
  const char *src =
    "__global__ void k(int *o) {\n"
    "  int t = threadIdx.x, acc = 0;\n"
    "  if (t & 1) acc = 100; else acc = 200;\n"
    "  for (int i = 0; i < t; i++) {       /* per-lane trip counts */\n"
    "    if (i % 3 == 0) continue;\n"
    "    if (i > 20) break;\n"
    "    acc += i;\n"
    "  }\n"
    "  int n = t; do { acc++; n -= 4; } while (n > 0);\n"
    "  switch (t % 4) {\n"
    "  case 0: acc += 1000;\n"
    "  case 1: acc += 2000; break;        /* 0 falls through into 1 */\n"
    "  case 2: { acc += 3000; break; }\n"
    "  default: acc = -acc;\n"
    "  }\n"
    "  o[t] = acc;\n"
    "}\n";
  RUN(src, "k", 1, 64, 64);
  for (int t = 0; t < 64; t++) {
    int acc = (t & 1) ? 100 : 200;
    for (int i = 0; i < t; i++) { if (i % 3 == 0) continue; if (i > 20) break; acc += i; }
    int n = t; do { acc++; n -= 4; } while (n > 0);
    switch (t % 4) { case 0: acc += 1000; /* fallthrough */ case 1: acc += 2000; break; case 2: acc += 3000; break; default: acc = -acc; }
    ck_assert_int_eq((int32_t)out[t], acc);
  }
}
END_TEST

START_TEST(return_in_divergent_code) {
  const char *src =
    "__device__ int f(int t) {\n"
    "  for (int i = 0; ; i++) { if (i == t % 5) return i * 7; if (i > 100) return -1; }\n"
    "}\n"
    "__global__ void k(int *o) {\n"
    "  int t = threadIdx.x;\n"
    "  if (t % 3 == 0) { o[t] = -5; return; }\n"
    "  int v = f(t);\n"
    "  __syncwarp();\n"
    "  o[t] = v + 1;\n"
    "}\n";
  RUN(src, "k", 1, 40, 40);
  for (int t = 0; t < 40; t++) ck_assert_int_eq((int32_t)out[t], t % 3 == 0 ? -5 : (t % 5) * 7 + 1);
}
END_TEST

START_TEST(lockstep_order_within_a_warp) {
  /* Pre-Volta: the not-taken (then) side runs to the reconvergence point
   * first, then the taken side; within one instruction, all lanes read
   * before any writes back (lanes are one instruction). */
  const char *src =
    "__global__ void k(int *o) {\n"
    "  __shared__ int s[32];\n"
    "  int t = threadIdx.x;\n"
    "  s[t] = t;\n"
    "  int v = s[(t + 1) % 32];            /* one load instruction for the warp */\n"
    "  s[t] = v;                           /* no lane sees another's store above */\n"
    "  o[t] = s[t];\n"
    "  __shared__ int order[2]; __shared__ int n;\n"
    "  if (t < 16) { if (t == 0) order[atomicAdd(&n, 1)] = 1; }\n"
    "  else { if (t == 16) order[atomicAdd(&n, 1)] = 2; }\n"
    "  o[32] = order[0]; o[33] = order[1];\n"
    "}\n";
  RUN(src, "k", 1, 32, 34);
  for (int t = 0; t < 32; t++) ck_assert_uint_eq(out[t], (uint32_t)((t + 1) % 32));
  ck_assert_uint_eq(out[32], 1);
  ck_assert_uint_eq(out[33], 2);
}
END_TEST

START_TEST(barrier_counts_call_sites_and_ignores_exited_warps) {
  const char *src =
    "__global__ void k(int *o) {\n"
    "  __shared__ int s[96];\n"
    "  int t = threadIdx.x;\n"
    "  if (t >= 64) return;                  /* warp 2 exits: not waited for */\n"
    "  s[t] = t + 1;\n"
    "  if (t < 32) __syncthreads();          /* warp 0 arrives here */\n"
    "  else __syncthreads();                 /* warp 1 here: the same barrier */\n"
    "  o[t] = s[63 - t];\n"
    "}\n";
  RUN(src, "k", 1, 96, 64);
  for (int t = 0; t < 64; t++) ck_assert_uint_eq(out[t], (uint32_t)(64 - t));
}
END_TEST

START_TEST(barrier_divergence_is_reported) {
  const char *src =
    "__global__ void k(int *o) {\n"
    "  int t = threadIdx.x;\n"
    "  if (t < 16) {\n"
    "    __syncthreads();\n"
    "  }\n"
    "  o[t] = 1;\n"
    "}\n";
  run_fails(src, "k", 1, 64, GR_EEMU, "test.cu:4:5: error: barrier divergence: __syncthreads reached by lanes 0-15 of warp 0", NULL);
}
END_TEST

START_TEST(deadlock_names_what_each_warp_waits_for) {
  const char *src =
    "__device__ volatile int flag;\n"
    "__global__ void k(int *o) {\n"
    "  if (threadIdx.x == 32) { while (flag == 0) { } }\n"
    "  __syncthreads();\n"
    "  o[threadIdx.x] = 1;\n"
    "}\n";
  run_fails(src, "k", 1, 64, GR_EEMU, "deadlock: no warp can make progress", NULL);
  run_fails(src, "k", 1, 64, GR_EEMU, "warp 0 lanes 0-31: waits at __syncthreads at test.cu:4:3", NULL);
  run_fails(src, "k", 1, 64, GR_EEMU, "warp 1 lanes 0: spins at test.cu:3:", NULL);
}
END_TEST

START_TEST(intra_warp_lock_deadlocks_under_lockstep) {
  /* The classic pre-Volta SIMT deadlock: the lane that wins the lock waits
   * at the reconvergence point for the lanes that spin for it. */
  const char *src =
    "__device__ int lock;\n"
    "__global__ void k(int *o) {\n"
    "  while (atomicCAS(&lock, 0, 1) != 0) { }\n"
    "  o[threadIdx.x] += 1;\n"
    "  atomicExch(&lock, 0);\n"
    "}\n";
  run_fails(src, "k", 1, 2, GR_EEMU, "deadlock", NULL);
  run_fails(src, "k", 1, 2, GR_EEMU, "wait for them to reconverge", NULL);
  /* one lane per warp: the same code is a working lock between warps */
  const char *ok =
    "__device__ int lock;\n"
    "__global__ void k(int *o) {\n"
    "  if (threadIdx.x % 32 == 0) {\n"
    "    while (atomicCAS(&lock, 0, 1) != 0) { }\n"
    "    __threadfence();\n"
    "    o[0] += 1;\n"
    "    __threadfence();\n"
    "    atomicExch(&lock, 0);\n"
    "  }\n"
    "}\n";
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.sched = GR_SCHED_RANDOM;
  for (uint64_t seed = 1; seed <= 5; seed++) {
    cfg.seed = seed;
    ck_assert_int_eq(run_out(ok, "k", 3, 128, out, 1, &cfg, NULL), GR_OK);
    ck_assert_uint_eq(out[0], 12);
  }
}
END_TEST

START_TEST(step_limit_ends_runaway_kernels) {
  const char *src = "__global__ void k(int *o) { int i = 0; for (;;) { i++; o[0] = i; } }\n";
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.max_steps = 5000;
  run_fails(src, "k", 1, 32, GR_EEMU, "step limit reached", &cfg);
}
END_TEST

START_TEST(memory_faults_like_memcheck) {
  run_fails("__global__ void k(int *o) { o[threadIdx.x + 60] = 1; }\n", "k", 1, 8, GR_EEMU,
            "test.cu:1:49: error: out-of-bounds global store of 4 bytes", NULL);
  run_fails("__global__ void k(int *o) { o[threadIdx.x + 60] = 1; }\n", "k", 1, 8, GR_EEMU,
            "(offset 256 of out, 256 bytes) by thread (4,0,0) of block (0,0,0) [warp 0 lane 4]", NULL);
  run_fails("__global__ void k(int *o) { int *p = (int *)((char *)o + 2); o[1] = *p; }\n", "k", 1, 1, GR_EEMU,
            "misaligned global load of 4 bytes", NULL);
  run_fails("__global__ void k(int *o) { int *p = 0; o[0] = p[threadIdx.x]; }\n", "k", 1, 1, GR_EEMU,
            "null pointer", NULL);
  run_fails("__global__ void k(int *o) { __shared__ int s[4]; s[threadIdx.x] = 1; o[0] = s[0]; }\n", "k", 1, 8, GR_EEMU,
            "out-of-bounds shared store", NULL);
  run_fails("__global__ void k(int *o) { int a[4]; for (int i = 0; i <= threadIdx.x; i++) a[i] = i; o[0] = a[0]; }\n", "k", 1, 8, GR_EEMU,
            "out-of-bounds local store", NULL);
  run_fails("__global__ void k(int *o) { if (threadIdx.x == 3) __trap(); o[0] = 1; }\n", "k", 1, 8, GR_EEMU,
            "__trap() executed by thread (3,0,0)", NULL);
}
END_TEST

START_TEST(atomic_family) {
  const char *src =
    "__device__ unsigned long long big;\n"
    "__device__ float fsum; __device__ double dsum;\n"
    "__global__ void k(unsigned *o) {\n"
    "  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;\n"
    "  atomicAdd(&o[0], 1u);\n"
    "  atomicSub(&o[1], 2u);\n"
    "  atomicMax((int *)&o[2], (int)t);\n"
    "  atomicMin((int *)&o[3], -(int)t);\n"
    "  atomicInc(&o[4], 9u);                  /* wraps to 0 after 9 */\n"
    "  atomicDec(&o[5], 9u);\n"
    "  atomicOr(&o[6], 1u << (t % 32));\n"
    "  atomicAnd(&o[7], ~(1u << (t % 32)));\n"
    "  atomicXor(&o[8], t);\n"
    "  if (atomicCAS(&o[9], 0u, t + 1) == 0) atomicAdd(&o[10], 1u);\n"
    "  atomicExch(&o[11], 77u);\n"
    "  atomicAdd(&big, 1ull << 33);\n"
    "  atomicAdd(&fsum, 0.5f); atomicAdd(&dsum, 0.25);\n"
    "  atomicAdd_block(&o[12], 1u); atomicAdd_system(&o[13], 1u);\n"
    "  __syncthreads();\n"
    "  if (t == 0) { o[14] = (unsigned)(big >> 33); o[15] = (unsigned)fsum; o[16] = (unsigned)(dsum * 4); }\n"
    "}\n";
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m;
  ck_assert_int_eq(gr_module_load_source(ctx, "t.cu", src, strlen(src), &m), GR_OK);
  gr_ptr b;
  ck_assert_int_eq(gr_malloc(ctx, 17 * 4, "o", &b), GR_OK);
  uint32_t init[17] = {0, 1000, 0, 0, 0, 0, 0, 0xffffffffu, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  gr_memcpy_htod(ctx, b, init, sizeof init);
  gr_arg a = gr_arg_ptr(b);
  ck_assert_int_eq(gr_launch(m, "k", dim1(1), dim1(100), 0, &a, 1), GR_OK);
  gr_memcpy_dtoh(ctx, out, b, 17 * 4);
  ck_assert_uint_eq(out[0], 100);
  ck_assert_uint_eq(out[1], 800);
  ck_assert_int_eq((int32_t)out[2], 99);
  ck_assert_int_eq((int32_t)out[3], -99);
  ck_assert_uint_eq(out[4], 100 % 10);          /* 0,1,..,9,0,... */
  /* dec: 0 -> 9 (wrap), then 8..0 -> 9 ...: after 100 decrements from 0 */
  uint32_t dv = 0; for (int i = 0; i < 100; i++) dv = (dv == 0 || dv > 9) ? 9 : dv - 1;
  ck_assert_uint_eq(out[5], dv);
  ck_assert_uint_eq(out[6], 0xffffffffu);
  ck_assert_uint_eq(out[7], 0);
  uint32_t x = 0; for (uint32_t t = 0; t < 100; t++) x ^= t;
  ck_assert_uint_eq(out[8], x);
  ck_assert_uint_eq(out[9], 1);                 /* lane 0 of warp 0 wins: lanes serialise in order */
  ck_assert_uint_eq(out[10], 1);
  ck_assert_uint_eq(out[11], 77);
  ck_assert_uint_eq(out[12], 100);
  ck_assert_uint_eq(out[13], 100);
  ck_assert_uint_eq(out[14], 100);
  ck_assert_uint_eq(out[15], 50);
  ck_assert_uint_eq(out[16], 100);
  gr_context_destroy(ctx);
}
END_TEST

START_TEST(warp_vote_and_shuffle) {
  const char *src =
    "__global__ void k(unsigned *o) {\n"
    "  unsigned t = threadIdx.x;\n"
    "  unsigned b = __ballot_sync(0xffffffff, t % 3 == 0);\n"
    "  int all = __all_sync(0xffffffff, t < 32), any = __any_sync(0xffffffff, t == 5);\n"
    "  unsigned v = t + 1;\n"
    "  for (int off = 16; off > 0; off /= 2) v += __shfl_xor_sync(0xffffffff, v, off);\n"
    "  unsigned up = __shfl_up_sync(0xffffffff, t, 1), down = __shfl_down_sync(0xffffffff, t, 2, 8);\n"
    "  unsigned idx = __shfl_sync(0xffffffff, t * 10, 3, 16);\n"
    "  o[t] = up * 1000000 + down * 10000 + idx;\n"
    "  if (t == 0) { o[32] = b; o[33] = all; o[34] = any; o[35] = v; }\n"
    "  unsigned act = 0; if (t < 5) act = __activemask();\n"
    "  if (t == 1) o[36] = act;\n"
    "  o[37] = __popc(0xf0f0u) + __clz(1u) * 100 + __ffs(8) * 10000;\n"
    "}\n";
  RUN(src, "k", 1, 32, 38);
  uint32_t ballot = 0;
  for (int t = 0; t < 32; t++) if (t % 3 == 0) ballot |= 1u << t;
  ck_assert_uint_eq(out[32], ballot);
  ck_assert_uint_eq(out[33], 1);
  ck_assert_uint_eq(out[34], 1);
  ck_assert_uint_eq(out[35], 528);
  ck_assert_uint_eq(out[36], 0x1f);
  ck_assert_uint_eq(out[37], 8 + 31 * 100 + 4 * 10000);
  for (unsigned t = 0; t < 32; t++) {
    unsigned up = t >= 1 ? t - 1 : t;
    unsigned down = (t % 8) + 2 < 8 ? t + 2 : t;
    unsigned idx = ((t / 16) * 16 + 3) * 10;
    ck_assert_uint_eq(out[t], up * 1000000 + down * 10000 + idx);
  }
}
END_TEST

START_TEST(structs_pointers_arrays_globals) {
  const char *src =
    "typedef struct { int a; float b; int c[3]; } S;\n"
    "struct Node { int val; struct Node *next; };\n"
    "enum { TEN = 10, ELEVEN };\n"
    "__device__ int table[5] = {1, 2, 3, 4, 5};\n"
    "__device__ S gs = {7, 2.5f, {1, 2, 3}};\n"
    "__device__ void fill(int *p, int n) { for (int i = 0; i < n; i++) p[i] = i * i; }\n"
    "__device__ S make(int x) { S s; s.a = x; s.b = x * 0.5f; s.c[0] = s.c[1] = s.c[2] = x; return s; }\n"
    "__global__ void k(int *o) {\n"
    "  int loc[6];\n"
    "  fill(loc, 6);\n"
    "  int m[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
    "  S s = make(4);\n"
    "  S copy = s; copy.a += 1;\n"
    "  struct Node n2 = {2, 0}, n1 = {1, &n2};\n"
    "  int x = 3; int *px = &x; *px += 4;\n"
    "  o[0] = loc[5] + m[1][2] * 100;\n"
    "  o[1] = s.a + copy.a * 10 + (int)(s.b * 100);\n"
    "  o[2] = n1.next->val + n1.val * 10;\n"
    "  o[3] = x + table[4] * 10 + gs.c[2] * 100 + (int)(gs.b * 1000);\n"
    "  int *q = &loc[1]; q += 2; o[4] = *q + (int)(q - loc) * 100;\n"
    "  o[5] = TEN + ELEVEN + sizeof(S) * 100;\n"
    "  S *ps = &s; ps->c[1] = 42; o[6] = s.c[1];\n"
    "}\n";
  RUN(src, "k", 1, 1, 8);
  ck_assert_int_eq(out[0], 25 + 600);
  ck_assert_int_eq(out[1], 4 + 50 + 200);
  ck_assert_int_eq(out[2], 2 + 10);
  ck_assert_int_eq(out[3], 7 + 50 + 300 + 2500);
  ck_assert_int_eq(out[4], 9 + 300);
  ck_assert_int_eq(out[5], 21 + 2000);
  ck_assert_int_eq(out[6], 42);
}
END_TEST

START_TEST(dynamic_shared_and_3d_indexing) {
  const char *src =
    "__global__ void k(int *o) {\n"
    "  extern __shared__ int dyn[];\n"
    "  __shared__ int st[2];\n"
    "  int t = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;\n"
    "  int b = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;\n"
    "  int n = blockDim.x * blockDim.y * blockDim.z;\n"
    "  if (t == 0) { st[0] = 1; st[1] = 2; }\n"
    "  dyn[t] = t * 2;\n"
    "  __syncthreads();\n"
    "  o[b * n + t] = dyn[n - 1 - t] + st[1] * 1000 + b * 100000;\n"
    "}\n";
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m;
  ck_assert_int_eq(gr_module_load_source(ctx, "t.cu", src, strlen(src), &m), GR_OK);
  gr_ptr b;
  ck_assert_int_eq(gr_malloc(ctx, 12 * 24 * 4, "o", &b), GR_OK);
  gr_arg a = gr_arg_ptr(b);
  gr_dim3 grid = {3, 2, 2}, block = {2, 3, 4};
  ck_assert_int_eq(gr_launch(m, "k", grid, block, 24 * 4, &a, 1), GR_OK);
  gr_memcpy_dtoh(ctx, out, b, 12 * 24 * 4);
  for (int blk = 0; blk < 12; blk++)
    for (int t = 0; t < 24; t++) ck_assert_int_eq((int32_t)out[blk * 24 + t], (23 - t) * 2 + 2000 + blk * 100000);
  /* too little dynamic shared memory is an out-of-bounds access */
  ck_assert_int_eq(gr_launch(m, "k", grid, block, 8, &a, 1), GR_EEMU);
  ck_assert_ptr_nonnull(strstr(gr_error(ctx), "out-of-bounds shared store"));
  gr_context_destroy(ctx);
}
END_TEST

START_TEST(math_functions) {
  const char *src =
    "__global__ void k(float *o) {\n"
    "  float x = threadIdx.x + 2.0f;\n"
    "  o[0] = sqrtf(x); o[1] = expf(1.0f); o[2] = fminf(x, 1.0f); o[3] = powf(x, 3.0f);\n"
    "  o[4] = fabsf(-x); o[5] = floorf(2.7f); o[6] = (float)sqrt(16.0); o[7] = fmaf(2.0f, 3.0f, 1.0f);\n"
    "  o[8] = (float)max(3, 9) + (float)min(-1, 4);\n"
    "}\n";
  RUN(src, "k", 1, 1, 9);
  float *f = (float *)out;
  ck_assert_float_eq(f[0], sqrtf(2.0f));
  ck_assert_float_eq(f[1], expf(1.0f));
  ck_assert_float_eq(f[2], 1.0f);
  ck_assert_float_eq(f[3], 8.0f);
  ck_assert_float_eq(f[4], 2.0f);
  ck_assert_float_eq(f[5], 2.0f);
  ck_assert_float_eq(f[6], 4.0f);
  ck_assert_float_eq(f[7], 7.0f);
  ck_assert_float_eq(f[8], 8.0f);
}
END_TEST

static const char *racy_src =
  "__global__ void k(int *o) {\n"
  "  __shared__ int s[128];\n"
  "  int t = threadIdx.x;\n"
  "  s[t] = t + 1;\n"
  "  o[t] = s[(t + 32) % 128];\n"
  "}\n";

START_TEST(same_seed_same_run) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.sched = GR_SCHED_RANDOM;
  uint32_t a[128], b[128];
  int distinct = 0;
  uint32_t first[128];
  for (uint64_t seed = 1; seed <= 8; seed++) {
    cfg.seed = seed;
    ck_assert_int_eq(run_out(racy_src, "k", 1, 128, a, 128, &cfg, NULL), GR_OK);
    ck_assert_int_eq(run_out(racy_src, "k", 1, 128, b, 128, &cfg, NULL), GR_OK);
    ck_assert_mem_eq(a, b, sizeof a);        /* reproducible, byte for byte */
    if (seed == 1) memcpy(first, a, sizeof a);
    else if (memcmp(first, a, sizeof a)) distinct++;
  }
  ck_assert_int_gt(distinct, 0);             /* and the random policy really interleaves */
}
END_TEST

START_TEST(waves_when_the_grid_does_not_fit) {
  const char *src =
    "__global__ void k(int *o) {\n"
    "  __shared__ int s[256];\n"
    "  s[threadIdx.x] = blockIdx.x;\n"
    "  __syncthreads();\n"
    "  if (threadIdx.x == 0) o[blockIdx.x] = s[255] * 2 + 1;\n"
    "}\n";
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.sms = 1;
  cfg.max_blocks_per_sm = 2;
  for (int pol = 0; pol < 2; pol++) {
    cfg.sched = pol ? GR_SCHED_RANDOM : GR_SCHED_RR;
    ck_assert_int_eq(run_out(src, "k", 200, 256, out, 200, &cfg, NULL), GR_OK);
    for (int b = 0; b < 200; b++) ck_assert_int_eq(out[b], 2 * b + 1);
  }
}
END_TEST

START_TEST(spin_between_blocks_terminates) {
  /* block 1 spins until block 0 (resident at the same time) sets the flag;
   * with one SM and the spinner scheduled first, fairness still lets the
   * writer run */
  const char *src =
    "__device__ volatile int flag;\n"
    "__global__ void k(int *o) {\n"
    "  if (blockIdx.x == 1) { while (flag == 0) { } o[1] = flag; }\n"
    "  else { for (int i = 0; i < 100; i++) o[2] += 1; flag = 5; }\n"
    "}\n";
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.sms = 1;
  for (int pol = 0; pol < 2; pol++) {
    cfg.sched = pol ? GR_SCHED_RANDOM : GR_SCHED_RR;
    ck_assert_int_eq(run_out(src, "k", 2, 1, out, 3, &cfg, NULL), GR_OK);
    ck_assert_int_eq(out[1], 5);
    ck_assert_int_eq(out[2], 100);
  }
}
END_TEST

/* Half precision rounds once, in every mode: every f16 value converts to
 * itself; the midpoint of two neighbours goes to the even one to nearest,
 * and by direction otherwise, and a hair off it to the nearer; overflow
 * to inf or the largest finite; and bf16's fused multiply-add where a
 * double's rounding of the exact sum lands on a midpoint (259/256 + 2^-133
 * must give 262/256, not the tie's 260/256). */
START_TEST(half_precision_rounds_once) {
  for (uint32_t h = 0; h < 0x7c00; h++) {
    double v = sem_h2f(h), w = sem_h2f(h + 1);
    for (int mode = 0; mode < 4; mode++) {
      ck_assert_uint_eq(sem_d2h(v, mode), h);
      ck_assert_uint_eq(sem_d2h(-v, mode), h | 0x8000);
    }
    if (h + 1 >= 0x7c00) continue;
    double mid = (v + w) / 2;
    ck_assert_uint_eq(sem_d2h(mid, KIR_RN), h & 1 ? h + 1 : h);
    ck_assert_uint_eq(sem_d2h(mid, KIR_RZ), h);
    ck_assert_uint_eq(sem_d2h(mid, KIR_RM), h);
    ck_assert_uint_eq(sem_d2h(mid, KIR_RP), h + 1);
    ck_assert_uint_eq(sem_d2h(-mid, KIR_RM), (h + 1) | 0x8000);
    ck_assert_uint_eq(sem_d2h(nextafter(mid, 0), KIR_RN), h);
    ck_assert_uint_eq(sem_d2h(nextafter(mid, 1e9), KIR_RN), h + 1);
  }
  ck_assert_uint_eq(sem_d2h(65520.0, KIR_RN), 0x7c00);   /* max 65504's midpoint with 65536 */
  ck_assert_uint_eq(sem_d2h(65520.0, KIR_RZ), 0x7bff);
  ck_assert_uint_eq(sem_d2h(1e9, KIR_RM), 0x7bff);
  ck_assert_uint_eq(sem_d2h(NAN, KIR_RN), 0x7fff);
  ck_assert_uint_eq(sem_d2h(ldexp(1, -25), KIR_RN), 0);   /* half the smallest subnormal: to even, 0 */
  ck_assert_uint_eq(sem_d2h(ldexp(3, -26), KIR_RN), 1);
  ck_assert_uint_eq(sem_half_fma(9.0, 29.0 / 256, ldexp(1, -133), 1), 0x3f83);
  ck_assert_uint_eq(sem_half_fma(9.0, 29.0 / 256, 0.0, 1), 0x3f82);
  ck_assert_uint_eq(sem_half_fma(9.0, 29.0 / 256, -ldexp(1, -133), 1), 0x3f82);
  ck_assert_uint_eq(sem_d2bf(1.0 + ldexp(1, -8), KIR_RN), 0x3f80);   /* a bf16 tie to even */
  ck_assert_uint_eq(sem_bf2f(0x3f83) == 262.0f / 256, 1);
}
END_TEST

Suite *engine_suite(void) {
  Suite *s = suite_create("engine");
  TCase *tc = tcase_create("engine");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, integer_semantics);
  tcase_add_test(tc, operators_and_sequencing);
  tcase_add_test(tc, divergent_if_else_and_loops);
  tcase_add_test(tc, return_in_divergent_code);
  tcase_add_test(tc, lockstep_order_within_a_warp);
  tcase_add_test(tc, barrier_counts_call_sites_and_ignores_exited_warps);
  tcase_add_test(tc, barrier_divergence_is_reported);
  tcase_add_test(tc, deadlock_names_what_each_warp_waits_for);
  tcase_add_test(tc, intra_warp_lock_deadlocks_under_lockstep);
  tcase_add_test(tc, step_limit_ends_runaway_kernels);
  tcase_add_test(tc, memory_faults_like_memcheck);
  tcase_add_test(tc, atomic_family);
  tcase_add_test(tc, warp_vote_and_shuffle);
  tcase_add_test(tc, structs_pointers_arrays_globals);
  tcase_add_test(tc, dynamic_shared_and_3d_indexing);
  tcase_add_test(tc, math_functions);
  tcase_add_test(tc, same_seed_same_run);
  tcase_add_test(tc, waves_when_the_grid_does_not_fit);
  tcase_add_test(tc, spin_between_blocks_terminates);
  tcase_add_test(tc, half_precision_rounds_once);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(engine_suite()); }
