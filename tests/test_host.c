/* The host API and the engine API that detectors build on: buffers,
 * launches and their errors, a multi-launch driver, events, snapshots and
 * per-warp memory views. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static gr_module *load(gr_context *ctx, const char *src) {
  gr_module *m = NULL;
  int rc = gr_module_load_source(ctx, "host.cu", src, strlen(src), &m);
  if (rc) fprintf(stderr, "%s\n", gr_error(ctx));
  ck_assert_int_eq(rc, GR_OK);
  return m;
}

START_TEST(buffers_and_their_errors) {
  gr_context *ctx = gr_context_create(NULL);
  gr_ptr a, b;
  ck_assert_int_eq(gr_malloc(ctx, 100, "a", &a), GR_OK);
  ck_assert_int_eq(gr_malloc(ctx, 8, NULL, &b), GR_OK);
  ck_assert_uint_ne(a, 0);
  unsigned char z[100], v[100];
  ck_assert_int_eq(gr_memcpy_dtoh(ctx, z, a, 100), GR_OK);
  for (int k = 0; k < 100; k++) ck_assert_int_eq(z[k], 0);   /* zero-filled */
  for (int k = 0; k < 100; k++) v[k] = (unsigned char)k;
  ck_assert_int_eq(gr_memcpy_htod(ctx, a, v, 100), GR_OK);
  ck_assert_int_eq(gr_memset(ctx, a + 10, 0xab, 5), GR_OK);
  ck_assert_int_eq(gr_memcpy_dtoh(ctx, z, a, 100), GR_OK);
  ck_assert_int_eq(z[9], 9);
  ck_assert_int_eq(z[10], 0xab);
  ck_assert_int_eq(z[15], 15);
  ck_assert_int_eq(gr_memcpy_htod(ctx, a + 90, v, 11), GR_EINPUT);
  ck_assert_ptr_nonnull(strstr(gr_error(ctx), "exceed allocation 'a' of 100 bytes"));
  const char *name;
  uint64_t off;
  ck_assert_int_eq(gr_describe_address(ctx, a + 12, &name, &off), GR_OK);
  ck_assert_str_eq(name, "a");
  ck_assert_uint_eq(off, 12);
  ck_assert_int_eq(gr_free(ctx, a), GR_OK);
  ck_assert_int_eq(gr_free(ctx, a), GR_EINPUT);
  ck_assert_int_eq(gr_memcpy_dtoh(ctx, z, a, 1), GR_EINPUT);
  gr_context_destroy(ctx);
}
END_TEST

START_TEST(launch_errors) {
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m = load(ctx, "__global__ void k(int *o, int n, float f) { if (threadIdx.x < n) o[threadIdx.x] = (int)f; }\n");
  gr_ptr b;
  gr_malloc(ctx, 64, "o", &b);
  gr_arg args[3] = {gr_arg_ptr(b), gr_arg_i32(4), gr_arg_f32(2.5f)};
  ck_assert_int_eq(gr_launch(m, "nope", dim1(1), dim1(1), 0, args, 3), GR_EINPUT);
  ck_assert_ptr_nonnull(strstr(gr_error(ctx), "no __global__ function named 'nope'"));
  ck_assert_int_eq(gr_launch(m, "k", dim1(1), dim1(1), 0, args, 2), GR_EINPUT);
  ck_assert_ptr_nonnull(strstr(gr_error(ctx), "kernel 'k' takes 3 arguments, 2 given"));
  ck_assert_int_eq(gr_launch(m, "k", dim1(1), dim1(2048), 0, args, 3), GR_EINPUT);
  ck_assert_int_eq(gr_launch(m, "k", dim1(0), dim1(1), 0, args, 3), GR_EINPUT);
  gr_arg bad[3] = {gr_arg_i32(1), gr_arg_i32(4), gr_arg_f32(2.5f)};
  ck_assert_int_eq(gr_launch(m, "k", dim1(1), dim1(1), 0, bad, 3), GR_EINPUT);
  ck_assert_int_eq(gr_launch(m, "k", dim1(1), dim1(8), 16, args, 3), GR_EINPUT);   /* no extern __shared__ */
  ck_assert_int_eq(gr_launch(m, "k", dim1(1), dim1(8), 0, args, 3), GR_OK);
  int32_t o[8];
  gr_memcpy_dtoh(ctx, o, b, sizeof o);
  ck_assert_int_eq(o[3], 2);
  ck_assert_int_eq(o[4], 0);
  ck_assert_int_eq(gr_kernel_nparams(m, "k"), 3);
  const char *pn;
  gr_type pt, pe;
  ck_assert_int_eq(gr_kernel_param(m, "k", 0, &pn, &pt, &pe), GR_OK);
  ck_assert_str_eq(pn, "o");
  ck_assert_int_eq(pt, GR_PTR);
  ck_assert_int_eq(pe, GR_I32);
  gr_context_destroy(ctx);
}
END_TEST

/* A driver with host logic: relax until no value changes (a flag clears). */
START_TEST(multi_launch_driver_until_flag_clears) {
  const char *src =
    "__device__ int changed;\n"
    "__global__ void relax(int *v, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i == 0 || i >= n) return;\n"
    "  int want = v[i - 1] + 1;\n"
    "  if (want < v[i]) { v[i] = want; changed = 1; }\n"
    "}\n";
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m = load(ctx, src);
  enum { N = 100 };
  int32_t v[N];
  for (int k = 0; k < N; k++) v[k] = k ? 1000000 : 0;
  gr_ptr b, flag;
  size_t fsize;
  gr_malloc(ctx, sizeof v, "v", &b);
  gr_memcpy_htod(ctx, b, v, sizeof v);
  ck_assert_int_eq(gr_module_global(m, "changed", &flag, &fsize), GR_OK);
  ck_assert_uint_eq(fsize, 4);
  int launches = 0, one = 1;
  gr_arg args[2] = {gr_arg_ptr(b), gr_arg_i32(N)};
  do {
    int zero = 0;
    gr_memcpy_htod(ctx, flag, &zero, 4);
    ck_assert_int_eq(gr_launch(m, "relax", dim1(4), dim1(32), 0, args, 2), GR_OK);
    gr_memcpy_dtoh(ctx, &one, flag, 4);
    launches++;
  } while (one && launches < 1000);
  gr_memcpy_dtoh(ctx, v, b, sizeof v);
  for (int k = 0; k < N; k++) ck_assert_int_eq(v[k], k);
  ck_assert_int_ge(launches, 2);
  ck_assert_int_le(launches, N + 1);
  gr_context_destroy(ctx);
}
END_TEST

typedef struct {
  int begin, end, blocks_begun, blocks_ended;
  int loads[4], load_lanes[4], stores[4], atomics[4], fences[3], barriers, diverge, reconverge, syncwarp;
  uint64_t first_store_addr[32];
  uint32_t first_store_mask;
  int first_store_line, first_store_col;
  uint64_t atomic_old_sum;
  int unseen;
  int any_scope;   /* (events_for_every_access...'s atomics are all of block scope) */
} counts;

static void count_events(void *user, const gr_event *ev) {
  counts *c = user;
  switch (ev->kind) {
  case GR_EV_LAUNCH_BEGIN: c->begin++; break;
  case GR_EV_LAUNCH_END: c->end++; break;
  case GR_EV_BLOCK_BEGIN: c->blocks_begun++; break;
  case GR_EV_BLOCK_END: c->blocks_ended++; break;
  case GR_EV_ACCESS:
    if (ev->access == GR_LOAD) { c->loads[ev->space]++; c->load_lanes[ev->space] += __builtin_popcount(ev->mask); }
    else if (ev->access == GR_STORE) {
      if (!c->stores[ev->space] && ev->space == GR_SPACE_GLOBAL) {
        memcpy(c->first_store_addr, ev->addr, sizeof c->first_store_addr);
        c->first_store_mask = ev->mask;
        c->first_store_line = ev->line;
        c->first_store_col = ev->col;
      }
      c->stores[ev->space]++;
    } else {
      c->atomics[ev->space]++;
      for (int l = 0; l < 32; l++) if (ev->mask >> l & 1) c->atomic_old_sum += ev->value[l];
      if (!c->any_scope) ck_assert_int_eq(ev->scope, GR_SCOPE_BLOCK);
    }
    break;
  case GR_EV_FENCE: c->fences[ev->scope]++; break;
  case GR_EV_BARRIER: c->barriers++; break;
  case GR_EV_DIVERGE: c->diverge++; ck_assert_uint_ne(ev->taken, 0); ck_assert_uint_ne(ev->taken, ev->mask); break;
  case GR_EV_RECONVERGE: c->reconverge++; break;
  case GR_EV_SYNCWARP: c->syncwarp++; break;
  case GR_EV_ARRIVE: break;   /* counted by the barrier that completes */
  case GR_EV_UNSEEN: c->unseen++; break;
  case GR_EV_ASYNC_ISSUE: case GR_EV_ASYNC_WAIT: break;
  }
}

START_TEST(events_for_every_access_fence_barrier_and_divergence) {
  const char *src =
    "__global__ void k(int *o) {\n"
    "  __shared__ int s[64];\n"
    "  int t = threadIdx.x;\n"
    "  o[t] = t;\n"
    "  s[t] = o[t];\n"
    "  __threadfence_block(); __threadfence(); __threadfence_system();\n"
    "  __syncthreads();\n"
    "  if (t % 2) atomicAdd_block(&s[0], 1);\n"
    "  __syncwarp();\n"
    "}\n";
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m = load(ctx, src);
  counts c;
  memset(&c, 0, sizeof c);
  gr_observer obs = {count_events, &c, 0};
  int h = gr_observe(ctx, &obs);
  ck_assert_int_ge(h, 0);
  gr_ptr b;
  gr_malloc(ctx, 64 * 4 * 2, "o", &b);
  gr_arg a = gr_arg_ptr(b);
  ck_assert_int_eq(gr_launch(m, "k", dim1(2), dim1(64), 0, &a, 1), GR_OK);
  ck_assert_int_eq(c.begin, 1);
  ck_assert_int_eq(c.end, 1);
  ck_assert_int_eq(c.blocks_begun, 2);
  ck_assert_int_eq(c.blocks_ended, 2);
  ck_assert_int_eq(c.stores[GR_SPACE_GLOBAL], 4);     /* one event per warp instruction: 2 blocks x 2 warps */
  /* a weak load is reported when it performs, with the lanes that performed together */
  if (gr_context_config(ctx)->memory == GR_MEMORY_SC) ck_assert_int_eq(c.loads[GR_SPACE_GLOBAL], 4);
  else ck_assert_int_ge(c.loads[GR_SPACE_GLOBAL], 4);
  ck_assert_int_eq(c.load_lanes[GR_SPACE_GLOBAL], 128);
  ck_assert_int_eq(c.stores[GR_SPACE_SHARED], 4);
  ck_assert_int_eq(c.atomics[GR_SPACE_SHARED], 4);
  ck_assert_int_eq(c.fences[GR_SCOPE_BLOCK], 4);
  ck_assert_int_eq(c.fences[GR_SCOPE_DEVICE], 4);
  ck_assert_int_eq(c.fences[GR_SCOPE_SYSTEM], 4);
  ck_assert_int_eq(c.barriers, 2);
  ck_assert_int_eq(c.diverge, 4);
  ck_assert_int_eq(c.reconverge, 4);
  ck_assert_int_eq(c.syncwarp, 4);
  ck_assert_uint_eq(c.first_store_mask, 0xffffffffu);
  ck_assert_int_eq(c.first_store_line, 4);
  for (int l = 0; l < 32; l++) ck_assert_uint_eq(c.first_store_addr[l] - b, (uint64_t)(4 * l));
  /* the 32 odd lanes of each block add 1 to s[0] in lane order: old values 0..31 */
  ck_assert_uint_eq(c.atomic_old_sum, 2 * (31 * 32 / 2));
  gr_unobserve(ctx, h);
  memset(&c, 0, sizeof c);
  ck_assert_int_eq(gr_launch(m, "k", dim1(2), dim1(64), 0, &a, 1), GR_OK);
  ck_assert_int_eq(c.begin, 0);
  gr_context_destroy(ctx);
}
END_TEST

/* A context in the given memory model with src loaded, and 256 ints at in and out. */
static gr_context *context_with(gr_memory memory, const char *src, gr_module **m, gr_ptr *in, gr_ptr *out) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = memory;
  gr_context *ctx = gr_context_create(&cfg);
  *m = load(ctx, src);
  gr_malloc(ctx, 256 * 4, "in", in);
  gr_malloc(ctx, 256 * 4, "out", out);
  return ctx;
}

/* GR_OBSERVE_SKIP_RACE_FREE: the loads of an allocation no instruction
 * writes (in) come without events while every observer says so, under sc
 * memory; those of one the kernel writes (out) still come; and where a
 * pointer leaves its allocation after such loads, GR_EV_UNSEEN says so. */
START_TEST(observers_may_leave_readonly_loads_unshown) {
  const char *src =
    "__global__ void k(const int *in, int *out) {\n"
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[t] = in[t] + 1;\n"
    "  out[t] += out[t ^ 1] + in[t ^ 1];\n"
    "}\n"
    /* the pointer to in made again from its halves read back from memory
     * (prov.h: outside the analysis), a store through it after the loads */
    /* a histogram's reductions (prov.h's PROV_RED), and one that reads
     * its bins back through a pointer made again from its halves */
    "__global__ void hist(const int *in, unsigned *bins, unsigned *tmp) {\n"
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  atomicAdd(&bins[in[t] & 7], 1u);\n"
    "  if (tmp && t == 0) {\n"
    "    unsigned long long p = (unsigned long long)bins;\n"
    "    tmp[0] = (unsigned)p;\n"
    "    tmp[1] = (unsigned)(p >> 32);\n"
    "    unsigned *q = (unsigned *)(((unsigned long long)tmp[1] << 32) | tmp[0]);\n"
    "    tmp[0] = q[3];\n"
    "  }\n"
    "}\n"
    "__global__ void esc(const int *in, int *out, unsigned *tmp) {\n"
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[t] = in[t] + in[t ^ 1];\n"
    "  if (t == 0) {\n"
    "    unsigned long long p = (unsigned long long)in;\n"
    "    tmp[0] = (unsigned)p;\n"
    "    tmp[1] = (unsigned)(p >> 32);\n"
    "    int *q = (int *)(((unsigned long long)tmp[1] << 32) | tmp[0]);\n"
    "    q[1] = 7;\n"
    "  }\n"
    "}\n";
  gr_module *m;
  gr_ptr in, out;
  gr_context *ctx = context_with(GR_MEMORY_SC, src, &m, &in, &out);
  gr_arg a[2] = {gr_arg_ptr(in), gr_arg_ptr(out)};
  counts all = {0}, some = {0};
  /* alone, the flag's observer: the 8 warps' 2 loads of in go unshown,
   * out's 2 come */
  gr_observer o1 = {count_events, &some, GR_OBSERVE_SKIP_RACE_FREE};
  int h1 = gr_observe(ctx, &o1);
  ck_assert_int_eq(gr_launch(m, "k", dim1(2), dim1(128), 0, a, 2), GR_OK);
  ck_assert_int_eq(some.loads[GR_SPACE_GLOBAL], 8 * 2);
  ck_assert_int_eq(some.stores[GR_SPACE_GLOBAL], 8 * 2);
  ck_assert_int_eq(some.unseen, 0);
  /* beside an observer without it, every load comes to both */
  memset(&some, 0, sizeof some);
  gr_observer o2 = {count_events, &all, 0};
  int h2 = gr_observe(ctx, &o2);
  ck_assert_int_eq(gr_launch(m, "k", dim1(2), dim1(128), 0, a, 2), GR_OK);
  ck_assert_int_eq(all.loads[GR_SPACE_GLOBAL], 8 * 4);
  ck_assert_int_eq(some.loads[GR_SPACE_GLOBAL], 8 * 4);
  gr_unobserve(ctx, h2);
  /* under weak memory too */
  gr_context_destroy(ctx);
  ctx = context_with(GR_MEMORY_WEAK, src, &m, &in, &out);
  a[0] = gr_arg_ptr(in), a[1] = gr_arg_ptr(out);
  memset(&some, 0, sizeof some);
  h1 = gr_observe(ctx, &o1);
  ck_assert_int_eq(gr_launch(m, "k", dim1(2), dim1(128), 0, a, 2), GR_OK);
  ck_assert_int_ge(some.loads[GR_SPACE_GLOBAL], 8 * 4);
  gr_context_destroy(ctx);
  /* the escape: after unshown loads, GR_EV_UNSEEN once, before the launch's end */
  ctx = context_with(GR_MEMORY_SC, src, &m, &in, &out);
  gr_ptr tmp;
  gr_malloc(ctx, 8, "tmp", &tmp);
  gr_arg a3[3] = {gr_arg_ptr(in), gr_arg_ptr(out), gr_arg_ptr(tmp)};
  memset(&some, 0, sizeof some);
  h1 = gr_observe(ctx, &o1);
  ck_assert_int_eq(gr_launch(m, "esc", dim1(2), dim1(128), 0, a3, 3), GR_OK);
  ck_assert_int_eq(some.unseen, 1);
  ck_assert_int_eq(some.end, 1);
  ck_assert_int_eq(some.loads[GR_SPACE_GLOBAL], 2);   /* tmp's */
  /* the reductions race with nothing: no event; until the read through
   * the made pointer reaches their allocation */
  gr_ptr bins;
  gr_malloc(ctx, 8 * 4, "bins", &bins);
  gr_arg ah[3] = {gr_arg_ptr(in), gr_arg_ptr(bins), gr_arg_ptr(0)};
  memset(&some, 0, sizeof some);
  some.any_scope = 1;
  ck_assert_int_eq(gr_launch(m, "hist", dim1(2), dim1(128), 0, ah, 3), GR_OK);
  ck_assert_int_eq(some.atomics[GR_SPACE_GLOBAL], 0);
  ck_assert_int_eq(some.unseen, 0);
  ah[2] = gr_arg_ptr(tmp);
  memset(&some, 0, sizeof some);
  some.any_scope = 1;
  ck_assert_int_eq(gr_launch(m, "hist", dim1(2), dim1(128), 0, ah, 3), GR_OK);
  ck_assert_int_eq(some.unseen, 1);
  gr_unobserve(ctx, h1);
  memset(&all, 0, sizeof all);
  all.any_scope = 1;
  gr_observe(ctx, &o2);
  ck_assert_int_eq(gr_launch(m, "hist", dim1(2), dim1(128), 0, ah, 3), GR_OK);
  ck_assert_int_eq(all.atomics[GR_SPACE_GLOBAL], 8);
  ck_assert_int_eq(all.unseen, 0);
  gr_context_destroy(ctx);
}
END_TEST

/* GR_OBSERVE_SKIP_RACE_FREE, a launch none of whose accesses can race
 * (emu/whole.h: loads of an allocation nothing writes, stores to one
 * nothing reads, one thread an address, nothing else): such an observer
 * is given the launch's begin and end and nothing else, under both
 * engines (the compiled one runs it a warp at a time), with the same
 * memory after; beside an observer without the flag, every event comes;
 * under weak memory too. */
START_TEST(observers_need_nothing_of_a_silent_launch) {
  const char *src =
    "__global__ void map(const int *in, int *out) {\n"
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[t] = in[t] * 3 + in[t ^ 1];\n"
    "}\n";
  char cache[] = "/tmp/gr-host-silent-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(cache));
  int first[256], got[256];
  for (int e = 0; e < 2; e++)
    for (int weak = 0; weak < 2; weak++) {
      gr_config cfg;
      gr_config_default(&cfg);
      cfg.memory = weak ? GR_MEMORY_WEAK : GR_MEMORY_SC;
      cfg.engine = e ? GR_ENGINE_COMPILED : GR_ENGINE_INTERP;
      snprintf(cfg.jit_cache, sizeof cfg.jit_cache, "%s", cache);
      gr_context *ctx = gr_context_create(&cfg);
      gr_module *m = load(ctx, src);
      gr_ptr in, out;
      gr_malloc(ctx, 256 * 4, "in", &in);
      gr_malloc(ctx, 256 * 4, "out", &out);
      int init[256];
      for (int k = 0; k < 256; k++) init[k] = k * 7 - 100;
      gr_memcpy_htod(ctx, in, init, sizeof init);
      gr_arg a[2] = {gr_arg_ptr(in), gr_arg_ptr(out)};
      counts some = {0}, all = {0};
      gr_observer o1 = {count_events, &some, GR_OBSERVE_SKIP_RACE_FREE}, o2 = {count_events, &all, 0};
      gr_observe(ctx, &o1);
      ck_assert_int_eq(gr_launch(m, "map", dim1(2), dim1(128), 0, a, 2), GR_OK);
      gr_stats st;
      gr_last_stats(ctx, &st);
      ck_assert_int_eq(some.begin, 1);
      ck_assert_int_eq(some.end, 1);
      ck_assert_int_eq(some.blocks_begun, weak ? 2 : 0);
      ck_assert_int_eq(some.stores[GR_SPACE_GLOBAL], weak ? 8 : 0);
      ck_assert_int_eq(some.unseen, 0);
      ck_assert_int_eq(st.whole, e && !weak);
      gr_memcpy_dtoh(ctx, got, out, sizeof got);
      if (!e && !weak) memcpy(first, got, sizeof got);
      ck_assert(!memcmp(first, got, sizeof got));
      memset(&some, 0, sizeof some);
      gr_observe(ctx, &o2);
      ck_assert_int_eq(gr_launch(m, "map", dim1(2), dim1(128), 0, a, 2), GR_OK);
      ck_assert_int_eq(all.blocks_begun, 2);
      ck_assert_int_eq(all.stores[GR_SPACE_GLOBAL], 8);
      ck_assert_int_eq(some.stores[GR_SPACE_GLOBAL], 8);
      gr_context_destroy(ctx);
    }
  char cmd[100];
  snprintf(cmd, sizeof cmd, "rm -rf %s", cache);
  if (system(cmd)) { /* left behind: harmless */ }
}
END_TEST

/* GR_OBSERVE_SKIP_RACE_FREE and shared memory: the plain loads of a
 * barrier interval in which no thread of the block writes shared memory
 * race with nothing and come without events (a tile read between two
 * barriers); where a thread wrote shared memory since the last barrier,
 * every load of the interval comes, though the writer has gone on to
 * where it writes nothing more (racy: warp 0 writes, and the block's
 * loads of the row then meet it). */
START_TEST(observers_may_leave_quiet_shared_loads_unshown) {
  const char *src =
    "__global__ void tile(const int *in, int *out) {\n"
    "  __shared__ int t[128];\n"
    "  int x = threadIdx.x, s = 0;\n"
    "  t[x] = in[blockIdx.x * 128 + x];\n"
    "  __syncthreads();\n"
    "  for (int k = 0; k < 4; k++) s += t[(x + 32 * k) % 128];\n"
    "  __syncthreads();\n"
    "  out[blockIdx.x * 128 + x] = s;\n"
    "}\n"
    "__global__ void racy(const int *in, int *out) {\n"
    "  __shared__ int t[128];\n"
    "  int x = threadIdx.x, s = 0;\n"
    "  if (x < 32) t[x] = in[x];\n"
    "  else for (int k = 0; k < 64; k++) s = s * 3 + 1;\n"
    "  for (int k = 0; k < 4; k++) s += t[(x + k) % 32];\n"
    "  __syncthreads();\n"
    "  out[blockIdx.x * 128 + x] = s;\n"
    "}\n";
  gr_module *m;
  gr_ptr in, out;
  gr_context *ctx = context_with(GR_MEMORY_SC, src, &m, &in, &out);
  gr_arg a[2] = {gr_arg_ptr(in), gr_arg_ptr(out)};
  counts all = {0}, some = {0};
  gr_observer o1 = {count_events, &some, GR_OBSERVE_SKIP_RACE_FREE}, o2 = {count_events, &all, 0};
  int h1 = gr_observe(ctx, &o1);
  ck_assert_int_eq(gr_launch(m, "tile", dim1(2), dim1(128), 0, a, 2), GR_OK);
  ck_assert_int_eq(some.loads[GR_SPACE_SHARED], 0);
  ck_assert_int_eq(some.stores[GR_SPACE_SHARED], 8);
  ck_assert_int_eq(some.unseen, 0);
  memset(&some, 0, sizeof some);
  ck_assert_int_eq(gr_launch(m, "racy", dim1(2), dim1(128), 0, a, 2), GR_OK);
  int racy_loads = some.loads[GR_SPACE_SHARED];
  ck_assert_int_eq(racy_loads, 2 * 4 * 4);
  /* beside an observer without it, every load comes to both */
  memset(&some, 0, sizeof some);
  int h2 = gr_observe(ctx, &o2);
  ck_assert_int_eq(gr_launch(m, "tile", dim1(2), dim1(128), 0, a, 2), GR_OK);
  ck_assert_int_eq(all.loads[GR_SPACE_SHARED], 2 * 4 * 4);
  ck_assert_int_eq(some.loads[GR_SPACE_SHARED], 2 * 4 * 4);
  gr_unobserve(ctx, h2);
  gr_unobserve(ctx, h1);
  /* under weak memory every load comes */
  gr_context_destroy(ctx);
  ctx = context_with(GR_MEMORY_WEAK, src, &m, &in, &out);
  a[0] = gr_arg_ptr(in), a[1] = gr_arg_ptr(out);
  memset(&some, 0, sizeof some);
  gr_observe(ctx, &o1);
  ck_assert_int_eq(gr_launch(m, "tile", dim1(2), dim1(128), 0, a, 2), GR_OK);
  ck_assert_int_eq(some.loads[GR_SPACE_SHARED], 2 * 4 * 4);
  gr_context_destroy(ctx);
}
END_TEST

/* Re-running a region: at the second barrier, restore the snapshot taken at
 * the first, once; the region between them then runs twice. */
typedef struct { gr_context *ctx; gr_snapshot *snap; int barriers, restored; } rerun;

static void rerun_events(void *user, const gr_event *ev) {
  rerun *r = user;
  if (ev->kind != GR_EV_BARRIER) return;
  r->barriers++;
  if (r->barriers == 1) r->snap = gr_snapshot_take(r->ctx);
  else if (r->barriers == 2 && !r->restored) {
    r->restored = 1;
    ck_assert_int_eq(gr_snapshot_restore(r->ctx, r->snap), GR_OK);
  }
}

START_TEST(snapshot_restore_reruns_a_region) {
  const char *src =
    "__device__ int region_runs;\n"
    "__global__ void k(int *o) {\n"
    "  __shared__ int s[64];\n"
    "  int t = threadIdx.x;\n"
    "  s[t] = t;\n"
    "  __syncthreads();\n"
    "  if (t == 0) atomicAdd(&region_runs, 1);\n"
    "  s[t] += 100;                 /* undone by the restore, then redone */\n"
    "  __syncthreads();\n"
    "  o[t] = s[t];\n"
    "}\n";
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m = load(ctx, src);
  rerun r = {ctx, NULL, 0, 0};
  gr_observer obs = {rerun_events, &r, 0};
  gr_observe(ctx, &obs);
  gr_ptr b, runs;
  gr_malloc(ctx, 64 * 4, "o", &b);
  gr_arg a = gr_arg_ptr(b);
  ck_assert_int_eq(gr_launch(m, "k", dim1(1), dim1(64), 0, &a, 1), GR_OK);
  ck_assert_int_eq(r.restored, 1);
  int32_t o[64], n;
  gr_memcpy_dtoh(ctx, o, b, sizeof o);
  for (int t = 0; t < 64; t++) ck_assert_int_eq(o[t], t + 100);  /* shared memory was restored too */
  gr_module_global(m, "region_runs", &runs, NULL);
  gr_memcpy_dtoh(ctx, &n, runs, 4);
  ck_assert_int_eq(n, 1);     /* global memory was restored to before the first run of the region */
  ck_assert_int_eq(r.barriers, 3);
  gr_snapshot_free(r.snap);
  /* between launches a snapshot restores global memory */
  gr_snapshot *s = gr_snapshot_take(ctx);
  gr_memset(ctx, b, 0, 64 * 4);
  ck_assert_int_eq(gr_snapshot_restore(ctx, s), GR_OK);
  gr_memcpy_dtoh(ctx, o, b, sizeof o);
  ck_assert_int_eq(o[5], 105);
  gr_snapshot_free(s);
  gr_context_destroy(ctx);
}
END_TEST

/* A snapshot taken during one launch, restored during a later launch of
 * the same kernel: where the shape is the same, the warps come back with
 * this launch's thread indices and their own registers, the parameter p
 * they had read included (the region reruns with the first launch's p,
 * also where the observer then leaves and the warps run ahead: the run-
 * ahead must not take this launch's p for theirs); where the block is
 * another size, the restore is refused. */
typedef struct { gr_context *ctx; gr_snapshot *snap; int barriers, rc, handle; } later;

static void later_events(void *user, const gr_event *ev) {
  later *r = user;
  if (ev->kind != GR_EV_BARRIER) return;
  if (++r->barriers == 2 && r->snap && r->rc < 0) {
    r->rc = gr_snapshot_restore(r->ctx, r->snap);
    gr_unobserve(r->ctx, r->handle);
  }
}

static void take_at_first_barrier(void *user, const gr_event *ev) {
  later *r = user;
  if (ev->kind == GR_EV_BARRIER && ++r->barriers == 1) r->snap = gr_snapshot_take(r->ctx);
}

START_TEST(snapshot_in_a_later_launch_needs_its_shape) {
  const char *src =
    "__global__ void k(int *o, int p) {\n"
    "  __shared__ int s[64];\n"
    "  int t = threadIdx.x;\n"
    "  s[t] = t;\n"
    "  __syncthreads();\n"
    "  s[t] += 100;\n"
    "  __syncthreads();\n"
    "  o[t] = s[t] + p;\n"
    "}\n";
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m = load(ctx, src);
  gr_ptr b;
  gr_malloc(ctx, 64 * 4, "o", &b);
  gr_arg a[2] = {gr_arg_ptr(b), gr_arg_i32(5)};
  later r = {ctx, NULL, 0, -1, -1};
  gr_observer take = {take_at_first_barrier, &r, 0};
  int h = gr_observe(ctx, &take);
  ck_assert_int_eq(gr_launch(m, "k", dim1(1), dim1(64), 0, a, 2), GR_OK);
  gr_unobserve(ctx, h);
  ck_assert_ptr_nonnull(r.snap);
  gr_observer restore = {later_events, &r, 0};
  r.handle = gr_observe(ctx, &restore);
  r.barriers = 0;
  a[1] = gr_arg_i32(7);
  ck_assert_int_eq(gr_launch(m, "k", dim1(1), dim1(64), 0, a, 2), GR_OK);
  ck_assert_int_eq(r.rc, GR_OK);
  int32_t o[64];
  gr_memcpy_dtoh(ctx, o, b, sizeof o);
  for (int t = 0; t < 64; t++) ck_assert_int_eq(o[t], t + 100 + 5);
  r.handle = gr_observe(ctx, &restore);
  r.barriers = 0;
  r.rc = -1;
  gr_launch(m, "k", dim1(1), dim1(32), 0, a, 2);
  ck_assert_int_eq(r.rc, GR_EINPUT);
  ck_assert_ptr_nonnull(strstr(gr_error(ctx), "another grid or block shape"));
  gr_snapshot_free(r.snap);
  gr_context_destroy(ctx);
}
END_TEST

/* A block snapshot: block 0 is put back at its first barrier twice, once
 * from its second barrier and once from its end (which keeps the block
 * resident), while block 1 runs on undisturbed. */
typedef struct { gr_context *ctx; gr_snapshot *snap; int bar0, end0, end1, from_end; uint8_t view[256]; } blockrun;

static void block_events(void *user, const gr_event *ev) {
  blockrun *r = user;
  if (ev->kind == GR_EV_BLOCK_BEGIN && ev->block == 0)   /* warp 0 of block 0 sees a private shared copy */
    ck_assert_int_eq(gr_view_add(r->ctx, 0, gr_shared_base(), sizeof r->view, r->view), GR_OK);
  if (ev->kind == GR_EV_BARRIER && ev->block == 0) {
    r->bar0++;
    if (r->bar0 == 1) { r->snap = gr_snapshot_take_block(r->ctx, 0); ck_assert_ptr_nonnull(r->snap); }
    if (r->bar0 == 2) ck_assert_int_eq(gr_snapshot_restore(r->ctx, r->snap), GR_OK);
  }
  if (ev->kind == GR_EV_BLOCK_END && ev->block == 1) r->end1++;
  if (ev->kind == GR_EV_BLOCK_END && ev->block == 0) {
    r->end0++;
    if (!r->from_end) { r->from_end = 1; ck_assert_int_eq(gr_snapshot_restore(r->ctx, r->snap), GR_OK); }
  }
}

START_TEST(block_snapshot_reruns_one_block) {
  const char *src =
    "__global__ void k(int *o) {\n"
    "  __shared__ int s[64];\n"
    "  int t = threadIdx.x;\n"
    "  s[t] = t;\n"
    "  __syncthreads();\n"
    "  atomicAdd(&o[128 + blockIdx.x], 1);\n"
    "  s[t] += 1;\n"
    "  __syncthreads();\n"
    "  o[blockIdx.x * 64 + t] = s[t];\n"
    "}\n";
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m = load(ctx, src);
  blockrun r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  gr_observer obs = {block_events, &r, 0};
  gr_observe(ctx, &obs);
  gr_ptr b;
  gr_malloc(ctx, 130 * 4, "o", &b);
  gr_arg a = gr_arg_ptr(b);
  ck_assert_int_eq(gr_launch(m, "k", dim1(2), dim1(64), 0, &a, 1), GR_OK);
  int32_t o[130];
  gr_memcpy_dtoh(ctx, o, b, sizeof o);
  /* block 0's region after the first barrier ran three times (global
   * memory is not part of a block snapshot), block 1's once */
  ck_assert_int_eq(o[128], 64 * 3);
  ck_assert_int_eq(o[129], 64);
  ck_assert_int_eq(r.end0, 2);
  ck_assert_int_eq(r.end1, 1);
  ck_assert_int_eq(r.bar0, 4);   /* the first barrier once, the second three times */
  /* shared memory was restored each time: s[t] = t + 1 whatever the reruns
   * (warp 0 of block 0 wrote its own copy, not shared memory) */
  for (int t = 0; t < 64; t++) ck_assert_int_eq(o[64 + t], t + 1);
  for (int t = 32; t < 64; t++) ck_assert_int_eq(o[t], t + 1);
  /* warp 0 of block 0 kept its private shared copy across the restores;
   * the copy is the observer's memory, which no restore touches, so each
   * of the three runs of the region added 1 to s[5] there */
  int32_t v;
  memcpy(&v, r.view + 4 * 5, 4);
  ck_assert_int_eq(v, 5 + 3);
  /* errors: no launch, and a block that is not resident */
  ck_assert_ptr_null(gr_snapshot_take_block(ctx, 0));
  ck_assert_ptr_nonnull(strstr(gr_error(ctx), "only during a launch"));
  gr_snapshot_free(r.snap);
  gr_context_destroy(ctx);
}
END_TEST

/* A snapshot from LAUNCH_BEGIN runs the kernel again from its first block;
 * gr_launch_fail ends a launch with the observer's message. */
typedef struct { gr_context *ctx; gr_snapshot *snap; int begins, ends, fail_at; } restart;

static void restart_events(void *user, const gr_event *ev) {
  restart *r = user;
  if (ev->kind == GR_EV_LAUNCH_BEGIN) r->snap = gr_snapshot_take(r->ctx);
  if (ev->kind == GR_EV_BLOCK_BEGIN) r->begins++;
  if (ev->kind == GR_EV_BLOCK_END && ++r->ends == 8) ck_assert_int_eq(gr_snapshot_restore(r->ctx, r->snap), GR_OK);
  if (r->fail_at && ev->kind == GR_EV_BLOCK_END && r->ends == r->fail_at) gr_launch_fail(r->ctx, GR_EINPUT, "error: the observer gives up");
}

START_TEST(launch_begin_snapshot_restarts_the_kernel) {
  const char *src = "__global__ void k(int *o) { if (threadIdx.x == 0) o[blockIdx.x] += 1 + blockIdx.x; }\n";
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.sms = 1;
  cfg.max_blocks_per_sm = 2;    /* 8 blocks in waves */
  gr_context *ctx = gr_context_create(&cfg);
  gr_module *m = load(ctx, src);
  restart r = {ctx, NULL, 0, 0, 0};
  gr_observer obs = {restart_events, &r, 0};
  int h = gr_observe(ctx, &obs);
  gr_ptr b;
  gr_malloc(ctx, 8 * 4, "o", &b);
  gr_arg a = gr_arg_ptr(b);
  ck_assert_int_eq(gr_launch(m, "k", dim1(8), dim1(32), 0, &a, 1), GR_OK);
  ck_assert_int_eq(r.begins, 16);
  ck_assert_int_eq(r.ends, 16);
  int32_t o[8];
  gr_memcpy_dtoh(ctx, o, b, sizeof o);
  for (int k = 0; k < 8; k++) ck_assert_int_eq(o[k], 1 + k);   /* memory went back: once, not twice */
  gr_snapshot_free(r.snap);
  gr_unobserve(ctx, h);
  restart f = {ctx, NULL, 0, 0, 3};
  gr_observer obs2 = {restart_events, &f, 0};
  gr_observe(ctx, &obs2);
  ck_assert_int_eq(gr_launch(m, "k", dim1(8), dim1(32), 0, &a, 1), GR_EINPUT);
  ck_assert_str_eq(gr_error(ctx), "error: the observer gives up");
  ck_assert_int_lt(f.ends, 8);
  gr_snapshot_free(f.snap);
  gr_context_destroy(ctx);
}
END_TEST

/* Privatisation: warp 1's accesses to `o` go to a private copy. */
typedef struct { gr_context *ctx; gr_ptr base; unsigned char copy[256]; } privat;

static void privatise(void *user, const gr_event *ev) {
  privat *p = user;
  if (ev->kind == GR_EV_BLOCK_BEGIN) ck_assert_int_eq(gr_view_add(p->ctx, 1, p->base, sizeof p->copy, p->copy), GR_OK);
}

START_TEST(per_warp_memory_views) {
  const char *src = "__global__ void k(int *o) { int t = threadIdx.x; o[t] = o[t] + t + 1; }\n";
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m = load(ctx, src);
  privat p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  for (int k = 0; k < 64; k++) ((int32_t *)p.copy)[k] = 1000;
  gr_observer obs = {privatise, &p, 0};
  gr_observe(ctx, &obs);
  gr_malloc(ctx, 256, "o", &p.base);
  gr_arg a = gr_arg_ptr(p.base);
  ck_assert_int_eq(gr_launch(m, "k", dim1(1), dim1(64), 0, &a, 1), GR_OK);
  int32_t o[64];
  gr_memcpy_dtoh(ctx, o, p.base, sizeof o);
  int32_t *c = (int32_t *)p.copy;
  for (int t = 0; t < 32; t++) { ck_assert_int_eq(o[t], t + 1); ck_assert_int_eq(c[t], 1000); }
  for (int t = 32; t < 64; t++) { ck_assert_int_eq(o[t], 0); ck_assert_int_eq(c[t], 1000 + t + 1); }
  ck_assert_int_eq(gr_view_add(ctx, 0, p.base, 4, p.copy), GR_EINPUT);   /* no launch in progress */
  gr_context_destroy(ctx);
}
END_TEST

START_TEST(module_globals_and_file_loading) {
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m;
  ck_assert_int_eq(gr_module_load(ctx, src_path("kernels/examples/spin_handoff.cu"), NULL, 0, &m), GR_OK);
  gr_ptr f;
  size_t sz;
  ck_assert_int_eq(gr_module_global(m, "flag", &f, &sz), GR_OK);
  ck_assert_int_eq(gr_module_global(m, "nosuch", &f, &sz), GR_EINPUT);
  ck_assert_int_eq(gr_module_load(ctx, "/nonexistent/k.cu", NULL, 0, &m), GR_EINPUT);
  ck_assert_ptr_nonnull(strstr(gr_error(ctx), "/nonexistent/k.cu: error: cannot open file"));
  gr_context_destroy(ctx);
}
END_TEST

Suite *host_suite(void) {
  Suite *s = suite_create("host");
  TCase *tc = tcase_create("host");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, buffers_and_their_errors);
  tcase_add_test(tc, launch_errors);
  tcase_add_test(tc, multi_launch_driver_until_flag_clears);
  tcase_add_test(tc, events_for_every_access_fence_barrier_and_divergence);
  tcase_add_test(tc, observers_need_nothing_of_a_silent_launch);
  tcase_add_test(tc, observers_may_leave_readonly_loads_unshown);
  tcase_add_test(tc, observers_may_leave_quiet_shared_loads_unshown);
  tcase_add_test(tc, snapshot_restore_reruns_a_region);
  tcase_add_test(tc, snapshot_in_a_later_launch_needs_its_shape);
  tcase_add_test(tc, block_snapshot_reruns_one_block);
  tcase_add_test(tc, launch_begin_snapshot_restarts_the_kernel);
  tcase_add_test(tc, per_warp_memory_views);
  tcase_add_test(tc, module_globals_and_file_loading);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(host_suite()); }
