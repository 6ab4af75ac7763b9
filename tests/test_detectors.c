/* The detectors: every preliminary check (Table III) and race condition
 * (Table IV) of ScoRD with a minimal kernel, the false positive of the 6-bit
 * fence counter wrapping after 64 fences, the false negative of bloom-filter
 * aliasing, the metadata cache and tracking granularity, the hb oracle in
 * both models, the metadata encoding and the race log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detectors.h"
#include "boyer/boyer.h"
#include "scord/scord.h"
#include "testutil.h"

#define ALL "scord,scord-nocache,hb,hb-ptx"

/* Runs k(data, aux) on grid x block with the detectors; data and aux are
 * 256 zeroed words each.  The log holds the reports. */
static void run_detect_opts(const char *src, unsigned grid, unsigned block, const char *dets, const det_options *o,
                            gr_memory mem, uint64_t seed, race_log *log) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = mem;
  cfg.seed = seed;
  cfg.sched = GR_SCHED_RANDOM;
  gr_context *ctx = gr_context_create(&cfg);
  gr_module *m;
  int rc = gr_module_load_source(ctx, "t.cu", src, strlen(src), &m);
  if (rc) fprintf(stderr, "%s\n", gr_error(ctx));
  ck_assert_int_eq(rc, GR_OK);
  gr_ptr data, aux;
  ck_assert_int_eq(gr_malloc(ctx, 1024, "data", &data), GR_OK);
  ck_assert_int_eq(gr_malloc(ctx, 1024, "aux", &aux), GR_OK);
  detector_set *set;
  char err[256];
  ck_assert_int_eq(detectors_attach(ctx, dets, o, log, &set, err, sizeof err), GR_OK);
  gr_arg args[2] = {gr_arg_ptr(data), gr_arg_ptr(aux)};
  rc = gr_launch(m, "k", dim1(grid), dim1(block), 0, args, 2);
  if (rc) fprintf(stderr, "%s\n", gr_error(ctx));
  ck_assert_int_eq(rc, GR_OK);
  detectors_detach(set);
  gr_context_destroy(ctx);
}

static race_log *run_detect(const char *src, unsigned grid, unsigned block) {
  det_options o;
  det_options_default(&o);
  race_log *log = race_log_new();
  run_detect_opts(src, grid, block, ALL, &o, GR_MEMORY_SC, 1, log);
  return log;
}

/* Distinct reports of `det` with class `cls` (any class if NULL). */
static size_t reports(race_log *log, const char *det, const char *cls) {
  size_t n, c = 0;
  const gr_race *r = race_log_reports(log, &n);
  for (size_t k = 0; k < n; k++)
    if (!strcmp(r[k].detector, det) && (!cls || !strcmp(r[k].cls, cls))) c++;
  return c;
}

/* Both ScoRD variants and hb report exactly class `cls` (and nothing else). */
static void expect_class(race_log *log, const char *cls) {
  const char *dets[] = {"scord", "scord-nocache", "hb"};
  for (int d = 0; d < 3; d++) {
    if (reports(log, dets[d], cls) < 1 || reports(log, dets[d], NULL) != reports(log, dets[d], cls)) {
      size_t n;
      const gr_race *r = race_log_reports(log, &n);
      for (size_t k = 0; k < n; k++) race_print_text(stderr, &r[k]);
      ck_abort_msg("%s: expected only '%s'", dets[d], cls);
    }
  }
}

static void expect_none(race_log *log, const char *dets) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s", dets);
  for (char *sv, *d = strtok_r(buf, ",", &sv); d; d = strtok_r(NULL, ",", &sv)) {
    if (reports(log, d, NULL)) {
      size_t n;
      const gr_race *r = race_log_reports(log, &n);
      for (size_t k = 0; k < n; k++) race_print_text(stderr, &r[k]);
      ck_abort_msg("%s reported a race", d);
    }
  }
}

/* A spin on aux[1] until it holds v (device-scope atomic reads). */
#define WAIT(v) "while (atomicAdd(&aux[1], 0) != " #v ") {}"
#define LOCKDEV "while (atomicCAS(&aux[0], 0, 1) != 0) {}"
#define UNLOCKDEV "atomicExch(&aux[0], 0);"

/* ---------------------------------------------------------------- Table III */

START_TEST(first_access_and_owner_again_are_no_race) {
  race_log *log = run_detect("__global__ void k(volatile unsigned *data, int *aux) {\n"
                             "  data[0] = 1; unsigned r = data[0]; data[0] = r + 1; data[1] = data[0];\n}\n", 1, 1);
  expect_none(log, ALL);
  race_log_free(log);
}
END_TEST

START_TEST(barrier_gives_the_granule_to_the_next_warp) {
  /* plain accesses of two warps separated by __syncthreads: no strong access needed */
  race_log *log = run_detect("__global__ void k(unsigned *data, int *aux) {\n"
                             "  if (threadIdx.x == 0) data[0] = 1;\n"
                             "  __syncthreads();\n"
                             "  if (threadIdx.x == 32) data[0] = data[0] + 1;\n"
                             "  __syncthreads();\n"
                             "  if (threadIdx.x == 0) data[1] = data[0];\n}\n", 1, 64);
  expect_none(log, "scord,scord-nocache,hb,hb-ptx");
  race_log_free(log);
}
END_TEST

START_TEST(read_sharing_within_and_across_blocks_is_no_race) {
  race_log *log = run_detect("__global__ void k(unsigned *data, int *aux) {\n"
                             "  unsigned r = data[0] + data[1];\n"
                             "  if (r == 12345) aux[5] = 1;\n}\n", 3, 64);
  expect_none(log, ALL);
  race_log_free(log);
}
END_TEST

/* ---------------------------------------------------------------- Table IV */

START_TEST(scoped_atomic) {
  race_log *log = run_detect("__global__ void k(unsigned *data, int *aux) {\n"
                             "  if (threadIdx.x == 0) atomicExch_block(&data[0], blockIdx.x);\n}\n", 2, 1);
  expect_class(log, "scoped atomic");
  race_log_free(log);
}
END_TEST

START_TEST(missing_block_fence) {
  race_log *log = run_detect("__global__ void k(volatile unsigned *data, int *aux) {\n"
                             "  if (threadIdx.x == 0) { data[0] = 1; atomicExch(&aux[1], 1); }\n"
                             "  else if (threadIdx.x == 32) { " WAIT(1) " data[0] = 2; }\n}\n", 1, 33);
  expect_class(log, "missing block fence");
  race_log_free(log);
}
END_TEST

START_TEST(missing_device_fence) {
  /* a block fence is not enough across blocks */
  race_log *log = run_detect("__global__ void k(volatile unsigned *data, int *aux) {\n"
                             "  if (blockIdx.x == 0) { data[0] = 1; __threadfence_block(); atomicExch(&aux[1], 1); }\n"
                             "  else { " WAIT(1) " unsigned r = data[0]; aux[2] = r; }\n}\n", 2, 1);
  expect_class(log, "missing device fence");
  race_log_free(log);
}
END_TEST

START_TEST(fenced_volatile_handover_is_no_race) {
  race_log *log = run_detect("__global__ void k(volatile unsigned *data, int *aux) {\n"
                             "  if (blockIdx.x == 0) { data[0] = 1; __threadfence(); atomicExch(&aux[1], 1); }\n"
                             "  else { " WAIT(1) " unsigned r = data[0]; atomicExch(&aux[2], r); }\n}\n", 2, 1);
  expect_none(log, ALL);
  race_log_free(log);
}
END_TEST

START_TEST(not_a_strong_access) {
  /* fenced, but the data accesses are plain */
  race_log *log = run_detect("__global__ void k(unsigned *data, int *aux) {\n"
                             "  if (blockIdx.x == 0) { data[0] = 1; __threadfence(); atomicExch(&aux[1], 1); }\n"
                             "  else { " WAIT(1) " unsigned r = data[0]; atomicExch(&aux[2], r); }\n}\n", 2, 1);
  expect_class(log, "not a strong access");
  race_log_free(log);
}
END_TEST

START_TEST(missing_common_lock_on_store) {
  race_log *log = run_detect("__global__ void k(volatile unsigned *data, int *aux) {\n"
                             "  if (blockIdx.x == 0) { " LOCKDEV " __threadfence(); data[0] = 1; __threadfence(); " UNLOCKDEV
                             " atomicExch(&aux[1], 1); }\n"
                             "  else { " WAIT(1) " __threadfence(); data[0] = 2; }\n}\n", 2, 1);
  expect_class(log, "missing common lock on store");
  race_log_free(log);
}
END_TEST

START_TEST(missing_common_lock_on_load) {
  race_log *log = run_detect("__global__ void k(volatile unsigned *data, int *aux) {\n"
                             "  if (blockIdx.x == 0) { " LOCKDEV " __threadfence(); data[0] = 1; __threadfence(); " UNLOCKDEV
                             " atomicExch(&aux[1], 1); }\n"
                             "  else { " WAIT(1) " unsigned r = data[0]; atomicExch(&aux[2], r); }\n}\n", 2, 1);
  expect_class(log, "missing common lock on load");
  race_log_free(log);
}
END_TEST

START_TEST(common_lock_is_no_race) {
  race_log *log = run_detect("__global__ void k(volatile unsigned *data, int *aux) {\n"
                             "  if (threadIdx.x == 0) { " LOCKDEV " __threadfence(); data[0] = data[0] + 1; __threadfence(); " UNLOCKDEV
                             " }\n}\n", 4, 1);
  expect_none(log, "scord,scord-nocache,hb");
  race_log_free(log);
}
END_TEST

/* ---------------------------------------------------------------- bounded state */

/* Block 0 stores data, executes NF device fences and raises the flag;
 * block 1 waits and loads.  Correct for every NF >= 1. */
static race_log *fences_between(int nf) {
  char src[512];
  snprintf(src, sizeof src,
           "__global__ void k(volatile unsigned *data, int *aux) {\n"
           "  if (blockIdx.x == 0) { data[0] = 1; for (int i = 0; i < %d; i++) __threadfence(); atomicExch(&aux[1], 1); }\n"
           "  else { " WAIT(1) " unsigned r = data[0]; atomicExch(&aux[2], r); }\n}\n", nf);
  return run_detect(src, 2, 1);
}

START_TEST(sixty_four_fences_wrap_the_fence_id) {
  int counts[] = {1, 63, 64, 65, 128};
  for (int k = 0; k < 5; k++) {
    race_log *log = fences_between(counts[k]);
    int wraps = counts[k] % 64 == 0;
    ck_assert_uint_eq(reports(log, "scord-nocache", "missing device fence"), (size_t)wraps);
    ck_assert_uint_eq(reports(log, "scord", "missing device fence"), (size_t)wraps);
    ck_assert_uint_eq(reports(log, "hb", NULL), 0);   /* no bounded counter */
    race_log_free(log);
  }
}
END_TEST

/* Blocks 0 and 1 write data under different device locks aux[0] and
 * aux[L], each correctly fenced.  The locks' bloom bits alias when the two
 * lock words are 64 words apart. */
static race_log *two_locks(int other) {
  char src[1024];
  snprintf(src, sizeof src,
           "__global__ void k(volatile unsigned *data, int *aux) {\n"
           "  int l = blockIdx.x == 0 ? 0 : %d;\n"
           "  if (blockIdx.x == 1) { while (atomicAdd(&aux[1], 0) != 1) {} }\n"
           "  while (atomicCAS(&aux[l], 0, 1) != 0) {}\n"
           "  __threadfence(); data[0] = blockIdx.x; __threadfence();\n"
           "  atomicExch(&aux[l], 0);\n"
           "  if (blockIdx.x == 0) atomicExch(&aux[1], 1);\n}\n", other);
  return run_detect(src, 2, 1);
}

START_TEST(bloom_aliasing_hides_a_missing_common_lock) {
  ck_assert_uint_eq(scord_lock_bloom(64, 0), scord_lock_bloom(128, 0));   /* aux[0] and aux[64]: same bits */
  ck_assert_uint_ne(scord_lock_bloom(64, 0), scord_lock_bloom(65, 0));
  race_log *log = two_locks(64);
  ck_assert_uint_eq(reports(log, "scord-nocache", NULL), 0);   /* false negative */
  ck_assert_uint_eq(reports(log, "scord", NULL), 0);
  ck_assert_uint_eq(reports(log, "hb", "missing common lock on store"), 1);
  race_log_free(log);
  log = two_locks(8);   /* aux[8]: no bit of its bins in common with aux[0]'s */
  ck_assert_uint_eq(reports(log, "scord-nocache", "missing common lock on store"), 1);
  ck_assert_uint_eq(reports(log, "hb", "missing common lock on store"), 1);
  race_log_free(log);
}
END_TEST

START_TEST(metadata_cache_eviction_loses_history) {
  /* With the device memory the heap itself (data and aux, 2048 bytes: 512
   * granules), the cache has 32 entries, interleaved: data[32] shares
   * data[0]'s entry, data[1] does not.  Block 0 writes data[0] and then
   * the other word, block 1 then writes data[0] with no fence in between.
   * With the default device memory (1.5 GiB) nothing in this heap shares
   * an entry, and scord finds the race either way. */
  const char *other[2] = {"32", "1"};
  for (int k = 0; k < 2; k++) {
    for (int small = 0; small < 2; small++) {
      char src[512];
      snprintf(src, sizeof src,
               "__global__ void k(volatile unsigned *data, int *aux) {\n"
               "  if (blockIdx.x == 0) { data[0] = 1; data[%s] = 1; atomicExch(&aux[1], 1); }\n"
               "  else { " WAIT(1) " data[0] = 2; }\n}\n", other[k]);
      det_options o;
      det_options_default(&o);
      if (small) o.scord_device_memory = 2048;
      race_log *log = race_log_new();
      run_detect_opts(src, 2, 1, ALL, &o, GR_MEMORY_SC, 1, log);
      ck_assert_uint_eq(reports(log, "scord-nocache", "missing device fence"), 1);
      /* data[32] evicted data[0]'s entry; data[1], its neighbour, did not */
      ck_assert_uint_eq(reports(log, "scord", NULL), small && k == 0 ? 0 : 1);
      ck_assert_uint_eq(reports(log, "hb", "missing device fence"), 1);
      race_log_free(log);
    }
  }
}
END_TEST

START_TEST(coarse_granularity_reports_neighbouring_words) {
  const char *src = "__global__ void k(volatile unsigned *data, int *aux) {\n"
                    "  if (threadIdx.x == 0) data[0] = 1; else if (threadIdx.x == 32) data[1] = 2;\n"
                    "  else if (threadIdx.x == 64) data[4] = 3;\n}\n";
  int racy[3] = {0, 1, 1};   /* 4 bytes: none; 8: words 0 and 1 share a granule; 16: so do they (word 4 is in the next) */
  int grans[3] = {4, 8, 16};
  for (int g = 0; g < 3; g++) {
    det_options o;
    det_options_default(&o);
    o.scord_granularity = grans[g];
    race_log *log = race_log_new();
    run_detect_opts(src, 1, 96, "scord-nocache,hb", &o, GR_MEMORY_SC, 1, log);
    ck_assert_uint_eq(reports(log, "hb", NULL), 0);
    ck_assert_int_eq(reports(log, "scord-nocache", NULL) > 0, racy[g]);
    race_log_free(log);
  }
}
END_TEST

/* ---------------------------------------------------------------- hb models */

/* Message passing with plain data: the producer fences; the consumer fences
 * after its flag read or not. */
static race_log *message_passing(int consumer_fence, int data_volatile) {
  char src[1024];
  snprintf(src, sizeof src,
           "__global__ void k(%sunsigned *data, int *aux) {\n"
           "  if (blockIdx.x == 0) { data[0] = 7; __threadfence(); atomicExch(&aux[1], 1); }\n"
           "  else { " WAIT(1) " %s unsigned r = data[0]; atomicExch(&aux[2], r); }\n}\n",
           data_volatile ? "volatile " : "", consumer_fence ? "__threadfence();" : "");
  return run_detect(src, 2, 1);
}

START_TEST(the_consumer_side_fence_separates_the_models) {
  for (int vol = 0; vol < 2; vol++) {
    for (int cf = 0; cf < 2; cf++) {
      race_log *log = message_passing(cf, vol);
      /* hb (ScoRD model): release side only; plain data is not strong */
      ck_assert_uint_eq(reports(log, "hb", NULL), vol ? 0 : 1);
      if (!vol) ck_assert_uint_eq(reports(log, "hb", "not a strong access"), 1);
      /* PTX: volatile accesses are morally strong; plain data needs the
       * acquire pattern (strong read, then a fence) on the consumer side */
      ck_assert_uint_eq(reports(log, "hb-ptx", NULL), (!vol && !cf) ? 1 : 0);
      race_log_free(log);
    }
  }
}
END_TEST

/* Message passing through __nv_atomic builtins: the producer's flag store
 * and the consumer's flag load with the given orders and scopes, and the
 * consumer's fence (0: none). */
static race_log *release_acquire(const char *st_order, const char *scope, const char *ld_order, const char *fence) {
  char src[1536];
  snprintf(src, sizeof src,
           "__global__ void k(unsigned *data, unsigned *aux) {\n"
           "  if (blockIdx.x == 0) { data[0] = 7; __nv_atomic_store_n(&aux[1], 1u, __NV_ATOMIC_%s, __NV_THREAD_SCOPE_%s); }\n"
           "  else { while (__nv_atomic_load_n(&aux[1], __NV_ATOMIC_%s, __NV_THREAD_SCOPE_%s) != 1) {} %s\n"
           "         unsigned r = data[0]; atomicExch(&aux[2], r); }\n}\n",
           st_order, scope, ld_order, scope, fence);
  return run_detect(src, 2, 1);
}

START_TEST(release_acquire_orders_plain_data_for_hb_ptx) {
  /* morally strong release and acquire: synchronised */
  race_log *log = release_acquire("RELEASE", "DEVICE", "ACQUIRE", "");
  ck_assert_uint_eq(reports(log, "hb-ptx", NULL), 0);
  /* the ScoRD model has no acquire: a release store is a fence and a
   * store, and plain data handed over by fences is not strong */
  ck_assert_uint_eq(reports(log, "hb", "not a strong access"), 1);
  race_log_free(log);
  /* an acquire fence after a relaxed flag load is an acquire pattern */
  log = release_acquire("RELEASE", "SYSTEM", "RELAXED", "__nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);");
  ck_assert_uint_eq(reports(log, "hb-ptx", NULL), 0);
  race_log_free(log);
  /* relaxed flag load, nothing after it: the data races */
  log = release_acquire("RELEASE", "DEVICE", "RELAXED", "");
  ck_assert_uint_eq(reports(log, "hb-ptx", "not morally strong"), 1);
  race_log_free(log);
  /* relaxed flag store: no release, the data races */
  log = release_acquire("RELAXED", "DEVICE", "ACQUIRE", "");
  ck_assert_uint_eq(reports(log, "hb-ptx", "not morally strong"), 1);
  race_log_free(log);
  /* block scope across blocks: the flag accesses are not morally strong
   * (they race) and synchronise nothing (the data races) */
  log = release_acquire("RELEASE", "BLOCK", "ACQUIRE", "");
  ck_assert_uint_ge(reports(log, "hb-ptx", "scope too narrow"), 1);
  ck_assert_uint_eq(reports(log, "hb-ptx", "not morally strong"), 1);
  race_log_free(log);
}
END_TEST

START_TEST(ptx_thread_granularity_sees_lanes_of_one_warp) {
  /* two lanes of one warp write one word: no race for warp-granular
   * detectors, a race for PTX threads */
  race_log *log = run_detect("__global__ void k(unsigned *data, int *aux) {\n"
                             "  if (threadIdx.x == 0) data[0] = 1;\n"
                             "  if (threadIdx.x == 1) data[0] = 2;\n}\n", 1, 32);
  expect_none(log, "scord,scord-nocache,hb");
  ck_assert_uint_eq(reports(log, "hb-ptx", NULL), 1);
  race_log_free(log);
  log = run_detect("__global__ void k(unsigned *data, int *aux) {\n"
                   "  if (threadIdx.x == 0) data[0] = 1;\n"
                   "  __syncwarp();\n"
                   "  if (threadIdx.x == 1) data[0] = 2;\n}\n", 1, 32);
  ck_assert_uint_eq(reports(log, "hb-ptx", NULL), 0);
  race_log_free(log);
}
END_TEST

START_TEST(hb_is_byte_granular) {
  race_log *log = run_detect("__global__ void k(volatile unsigned char *data, int *aux) {\n"
                             "  if (threadIdx.x == 0) data[0] = 1; else if (threadIdx.x == 32) data[1] = 2;\n}\n", 1, 64);
  ck_assert_uint_eq(reports(log, "hb", NULL), 0);
  ck_assert_uint_eq(reports(log, "scord-nocache", NULL), 1);   /* one 4-byte word */
  race_log_free(log);
}
END_TEST

/* ---------------------------------------------------------------- encoding, log */

START_TEST(metadata_word_packs_every_field_in_its_width) {
  scord_md m = {1, 0, 1, 0, 1, 1, 63, 42, 255, 0xbeef, 15, 31, 0x1fff}, u;
  uint64_t w = scord_md_pack(&m);
  scord_md_unpack(w, &u);
  ck_assert_int_eq(memcmp(&m, &u, sizeof m), 0);
  ck_assert_uint_eq(w, 0xffffffffffffffffull & ~(uint64_t)0x2 & ~(uint64_t)0x8 & ~((uint64_t)(63 ^ 42) << 12) &
                           ~((uint64_t)(0xffff ^ 0xbeef) << 26));
  scord_md wide = {2, 2, 2, 2, 2, 2, 64, 64, 256, 0x10000, 16, 32, 0x2000};   /* one past each width */
  ck_assert_uint_eq(scord_md_pack(&wide), 0);
}
END_TEST

START_TEST(race_log_dedups_and_sorts) {
  race_log *log = race_log_new();
  gr_race r;
  memset(&r, 0, sizeof r);
  r.detector = "d";
  r.cls = "c";
  r.buffer = "b";
  char f[8] = "x.cu";   /* copied, not kept */
  r.first.file = r.second.file = f;
  int lines[][2] = {{9, 1}, {3, 4}, {9, 1}, {3, 2}, {9, 1}};
  for (int k = 0; k < 5; k++) { r.first.line = lines[k][0]; r.second.line = lines[k][1]; race_log_add(log, &r); }
  strcpy(f, "zz");
  size_t n;
  const gr_race *o = race_log_reports(log, &n);
  ck_assert_uint_eq(n, 3);
  ck_assert_int_eq(o[0].first.line, 3);
  ck_assert_int_eq(o[0].second.line, 2);
  ck_assert_int_eq(o[1].second.line, 4);
  ck_assert_int_eq(o[2].first.line, 9);
  ck_assert_uint_eq(o[2].count, 3);
  ck_assert_str_eq(o[2].first.file, "x.cu");
  r.first.file = r.second.file = "x.cu";
  r.first.line = 1;
  race_log_add(log, &r);   /* adding after a sort */
  race_log_add(log, &r);
  o = race_log_reports(log, &n);
  ck_assert_uint_eq(n, 4);
  ck_assert_uint_eq(o[0].count, 2);
  char buf[2048];
  FILE *mf = fmemopen(buf, sizeof buf, "w");
  race_print_json(mf, &o[0]);
  fclose(mf);
  ck_assert_ptr_nonnull(strstr(buf, "\"detector\":\"d\",\"class\":\"c\""));
  ck_assert_ptr_nonnull(strstr(buf, "\"count\":2"));
  race_log_free(log);
}
END_TEST

START_TEST(attach_rejects_unknown_and_repeated_names) {
  gr_context *ctx = gr_context_create(NULL);
  det_options o;
  det_options_default(&o);
  race_log *log = race_log_new();
  detector_set *set;
  char err[256];
  ck_assert_int_eq(detectors_attach(ctx, "scord,nope", &o, log, &set, err, sizeof err), GR_EINPUT);
  ck_assert_ptr_nonnull(strstr(err, "unknown detector 'nope'"));
  ck_assert_int_eq(detectors_attach(ctx, "hb,hb", &o, log, &set, err, sizeof err), GR_EINPUT);
  ck_assert_ptr_nonnull(strstr(err, "named twice"));
  ck_assert_int_eq(detectors_attach(ctx, "hb,", &o, log, &set, err, sizeof err), GR_EINPUT);
  ck_assert_int_eq(detectors_attach(ctx, "scord-nocache,hb-ptx", &o, log, &set, err, sizeof err), GR_OK);
  ck_assert_uint_eq(detectors_size(set), 2);
  detectors_detach(set);
  race_log_free(log);
  gr_context_destroy(ctx);
}
END_TEST

START_TEST(bank_degree_counts_distinct_words_per_bank) {
  uint64_t a[32];
  for (int l = 0; l < 32; l++) a[l] = (uint64_t)l * 4;           /* consecutive words */
  ck_assert_int_eq(boyer_bank_degree(a, 0xffffffffu, 4, 32), 1);
  ck_assert_int_eq(boyer_bank_degree(a, 0xffffffffu, 4, 16), 2);   /* a whole warp on 16 banks */
  ck_assert_int_eq(boyer_bank_degree(a, 0xffffu, 4, 16), 1);
  for (int l = 0; l < 32; l++) a[l] = 128;                          /* one word: a broadcast */
  ck_assert_int_eq(boyer_bank_degree(a, 0xffffffffu, 4, 32), 1);
  for (int l = 0; l < 32; l++) a[l] = (uint64_t)l * 64;             /* stride 16 words */
  ck_assert_int_eq(boyer_bank_degree(a, 0xffffu, 4, 16), 16);
  ck_assert_int_eq(boyer_bank_degree(a, 0xffffffffu, 4, 32), 16);  /* stride 16 on 32 banks: two banks */
  for (int l = 0; l < 32; l++) a[l] = (uint64_t)l * 8;              /* 8-byte elements: two words each */
  ck_assert_int_eq(boyer_bank_degree(a, 0xffffffffu, 8, 32), 2);
  ck_assert_int_eq(boyer_bank_degree(a, 0, 4, 32), 0);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("detectors");
  TCase *t = tcase_create("table3");
  tcase_add_test(t, first_access_and_owner_again_are_no_race);
  tcase_add_test(t, barrier_gives_the_granule_to_the_next_warp);
  tcase_add_test(t, read_sharing_within_and_across_blocks_is_no_race);
  suite_add_tcase(s, t);
  t = tcase_create("table4");
  tcase_add_test(t, scoped_atomic);
  tcase_add_test(t, missing_block_fence);
  tcase_add_test(t, missing_device_fence);
  tcase_add_test(t, fenced_volatile_handover_is_no_race);
  tcase_add_test(t, not_a_strong_access);
  tcase_add_test(t, missing_common_lock_on_store);
  tcase_add_test(t, missing_common_lock_on_load);
  tcase_add_test(t, common_lock_is_no_race);
  suite_add_tcase(s, t);
  t = tcase_create("bounds");
  tcase_add_test(t, sixty_four_fences_wrap_the_fence_id);
  tcase_add_test(t, bloom_aliasing_hides_a_missing_common_lock);
  tcase_add_test(t, metadata_cache_eviction_loses_history);
  tcase_add_test(t, coarse_granularity_reports_neighbouring_words);
  suite_add_tcase(s, t);
  t = tcase_create("hb");
  tcase_add_test(t, the_consumer_side_fence_separates_the_models);
  tcase_add_test(t, release_acquire_orders_plain_data_for_hb_ptx);
  tcase_add_test(t, ptx_thread_granularity_sees_lanes_of_one_warp);
  tcase_add_test(t, hb_is_byte_granular);
  suite_add_tcase(s, t);
  t = tcase_create("common");
  tcase_add_test(t, metadata_word_packs_every_field_in_its_width);
  tcase_add_test(t, race_log_dedups_and_sorts);
  tcase_add_test(t, attach_rejects_unknown_and_repeated_names);
  tcase_add_test(t, bank_degree_counts_distinct_words_per_bank);
  suite_add_tcase(s, t);
  return s;
}

int main(void) { return run_suite(suite()); }
