/* The floors of gpurace's designs: triad's interpreter, the racy
 * histogram's oracle (floor.h). */
#include "floor.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpurace.h"

/* The most favourable code for the floor: vectorised at -O3 for the best
 * vector unit the machine has, as the interpreter's lane loops are. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FLOOR_CODE __attribute__((noinline, optimize("O3"), target_clones("avx512f", "avx2", "default")))
#else
#define FLOOR_CODE __attribute__((noinline))
#endif

#define BLOCK 256
#define NREGS 19

static float f32(uint64_t x) { uint32_t u = (uint32_t)x; float f; memcpy(&f, &u, 4); return f; }
static uint64_t bits32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* One warp of triad's KIR, instruction by instruction (the register
 * numbers are the front end's); 0 where a lane fails the bounds test,
 * which n a multiple of the block size never does */
#define R(k) (r + (k) * 32)
#define LANES(stmt) for (int l = 0; l < 32; l++) { stmt; }
FLOOR_CODE static int warp_registers(uint64_t *r, uint32_t cta, uint32_t wid, const float *a, const float *b, float *c, int n) {
  LANES(R(18)[l] = 0x40000000)                                   /* const r18, 2.0f */
  LANES(R(0)[l] = (uint64_t)(uintptr_t)a)                        /* param r0..r3 */
  LANES(R(1)[l] = (uint64_t)(uintptr_t)b)
  LANES(R(2)[l] = (uint64_t)(uintptr_t)c)
  LANES(R(3)[l] = (uint64_t)(int64_t)n)
  LANES(R(5)[l] = cta)                                           /* sreg %ctaid.x */
  LANES(R(6)[l] = BLOCK)                                         /* sreg %ntid.x */
  LANES(R(7)[l] = (uint32_t)(R(5)[l] * R(6)[l]))                 /* mul.u32 */
  LANES(R(8)[l] = wid * 32 + (uint32_t)l)                        /* sreg %tid.x */
  LANES(R(9)[l] = (uint32_t)(R(7)[l] + R(8)[l]))                 /* add.u32 */
  LANES(R(4)[l] = (uint64_t)(int64_t)(int32_t)R(9)[l])           /* cvt.i32.u32 */
  LANES(R(11)[l] = (int32_t)R(4)[l] < (int32_t)R(3)[l])          /* lt.i32 */
  uint64_t out = 0;                                              /* brf */
  LANES(out |= R(11)[l] == 0)
  if (out) return 0;
  LANES(R(11)[l] = R(2)[l] + (R(4)[l] << 2))                     /* padd */
  LANES(R(12)[l] = R(0)[l] + (R(4)[l] << 2))                     /* padd */
  LANES(uint32_t v; memcpy(&v, (const void *)(uintptr_t)R(12)[l], 4); R(13)[l] = v)   /* ld.f32 */
  LANES(R(14)[l] = bits32(f32(R(13)[l]) * f32(R(18)[l])))        /* mul.f32 */
  LANES(R(15)[l] = R(1)[l] + (R(4)[l] << 2))                     /* padd */
  LANES(uint32_t v; memcpy(&v, (const void *)(uintptr_t)R(15)[l], 4); R(16)[l] = v)   /* ld.f32 */
  LANES(R(17)[l] = bits32(f32(R(14)[l]) + f32(R(16)[l])))        /* add.f32 */
  LANES(uint32_t v = (uint32_t)R(17)[l]; memcpy((void *)(uintptr_t)R(11)[l], &v, 4))  /* st.f32 */
  return 1;
}

/* The same with the launch's and the block's uniform values as scalars */
FLOOR_CODE static int warp_uniform(uint64_t *r, uint32_t cta, uint32_t wid, const float *a, const float *b, float *c, int n) {
  uint64_t two = 0x40000000, pa = (uint64_t)(uintptr_t)a, pb = (uint64_t)(uintptr_t)b, pc = (uint64_t)(uintptr_t)c;
  uint32_t base = cta * BLOCK;
  LANES(R(8)[l] = wid * 32 + (uint32_t)l)
  LANES(R(9)[l] = (uint32_t)(base + R(8)[l]))
  LANES(R(4)[l] = (uint64_t)(int64_t)(int32_t)R(9)[l])
  LANES(R(11)[l] = (int32_t)R(4)[l] < n)
  uint64_t out = 0;
  LANES(out |= R(11)[l] == 0)
  if (out) return 0;
  LANES(R(11)[l] = pc + (R(4)[l] << 2))
  LANES(R(12)[l] = pa + (R(4)[l] << 2))
  LANES(uint32_t v; memcpy(&v, (const void *)(uintptr_t)R(12)[l], 4); R(13)[l] = v)
  LANES(R(14)[l] = bits32(f32(R(13)[l]) * f32(two)))
  LANES(R(15)[l] = pb + (R(4)[l] << 2))
  LANES(uint32_t v; memcpy(&v, (const void *)(uintptr_t)R(15)[l], 4); R(16)[l] = v)
  LANES(R(17)[l] = bits32(f32(R(14)[l]) + f32(R(16)[l])))
  LANES(uint32_t v = (uint32_t)R(17)[l]; memcpy((void *)(uintptr_t)R(11)[l], &v, 4))
  return 1;
}

double floor_triad(int variant, const float *a, const float *b, float *c, int n, int reps) {
  uint64_t *regs = aligned_alloc(64, NREGS * 32 * sizeof(uint64_t));
  if (!regs) return -1;
  memset(regs, 0, NREGS * 32 * sizeof(uint64_t));
  double best = -1;
  int ok = 1;
  for (int rep = 0; rep < reps && ok; rep++) {
    memset(c, 0, (size_t)n * sizeof *c);
    double t0 = gr_now();
    for (uint32_t cta = 0; cta < (uint32_t)n / BLOCK && ok; cta++)
      for (uint32_t w = 0; w < BLOCK / 32; w++)
        ok &= variant == FLOOR_UNIFORM ? warp_uniform(regs, cta, w, a, b, c, n) : warp_registers(regs, cta, w, a, b, c, n);
    double t = gr_now() - t0;
    if (best < 0 || t < best) best = t;
  }
  for (int i = 0; i < n && ok; i++) ok = c[i] == a[i] * 2.0f + b[i];
  free(regs);
  return ok ? best : -1;
}

/* ------------------------------------------------------------- the racy histogram's bookkeeping */

#define HOT_BLOCKS 32   /* resident: the default 4 SMs x 8 blocks of 256 threads */
#define HOT_WARPS 8

typedef struct { uint64_t key; uint32_t clock; uint16_t kind; uint8_t lane, n; } hot_rec;

typedef struct {
  hot_rec *t;
  size_t cap, n;
  uint32_t total[256][2];                 /* per word, per kind (load 0, store 1): agents */
  uint32_t block[HOT_BLOCKS][256][2];     /* the same per resident block */
} hot_table;

static size_t hot_home(const hot_table *h, uint64_t key) {
  return (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - __builtin_ctzll(h->cap)));
}

static size_t hot_slot(const hot_table *h, uint64_t key) {
  size_t i = hot_home(h, key);
  while (h->t[i].key && h->t[i].key != key) i = (i + 1) & (h->cap - 1);
  return i;
}

/* Slot i emptied, the later entries of its run moved back (linear probing
 * without tombstones). */
static void hot_remove(hot_table *h, size_t i) {
  for (size_t j = i;;) {
    h->t[i].key = 0;
    for (;;) {
      j = (j + 1) & (h->cap - 1);
      if (!h->t[j].key) return;
      size_t k = hot_home(h, h->t[j].key);
      /* j's entry may stay unless its home is at or before the hole */
      if (i <= j ? (i < k && k <= j) : (i < k || k <= j)) continue;
      break;
    }
    h->t[i] = h->t[j];
    i = j;
  }
}

/* One warp's access of its lanes' bins (kind 0 the load, 1 the store): the
 * answers to the question, summed so that nothing is optimised away. */
FLOOR_CODE static uint64_t hot_access(void *t, const unsigned *bins, uint32_t agent, uint32_t resident, uint32_t slot, int kind) {
  hot_table *h = t;
  (void)resident;
  uint64_t asked = 0;
  for (int l = 0; l < 32; l++) {
    uint32_t w = bins[l] & 255u;
    uint64_t key = (uint64_t)w << 32 | (agent + 1);
    hot_rec *e = &h->t[hot_slot(h, key)];
    if (!e->key) {
      e->key = key;
      e->n = 0;
      h->n++;
    }
    if (e->n) {   /* its earlier piece, taken by this one */
      h->total[w][e->kind]--;
      h->block[slot][w][e->kind]--;
    }
    *e = (hot_rec){key, 0, (uint16_t)kind, (uint8_t)l, 1};
    h->total[w][kind]++;
    h->block[slot][w][kind]++;
    asked += h->block[slot][w][!kind];
  }
  return asked;
}

/* The racy histogram's accesses in the emulator's order (floor.h): waves
 * of HOT_BLOCKS resident blocks, the load of every warp then the store,
 * the warps round-robin (warp agent of launch-wide number agent, resident
 * number resident, in block slot slot), and the wave's end when its
 * blocks have all ended: the answers to the question, summed. */
typedef struct {
  uint64_t (*access)(void *t, const unsigned *bins, uint32_t agent, uint32_t resident, uint32_t slot, int kind);
  void (*wave_end)(void *t, const unsigned *bins, int b0);
} hot_order;

static uint64_t hot_run(const hot_order *o, void *t, const unsigned *bins, int n) {
  uint64_t asked = 0;
  for (int b0 = 0; b0 < n / BLOCK; b0 += HOT_BLOCKS) {
    for (int kind = 0; kind < 2; kind++)
      for (int w = 0; w < HOT_WARPS; w++)
        for (int b = b0; b < b0 + HOT_BLOCKS; b++)
          asked += o->access(t, bins + (size_t)b * BLOCK + w * 32, (uint32_t)(b * HOT_WARPS + w),
                             (uint32_t)((b - b0) * HOT_WARPS + w), (uint32_t)(b - b0), kind);
    o->wave_end(t, bins, b0);
  }
  return asked;
}

/* The wave's blocks end: their agents' records go (their pieces stay in the words' totals). */
static void hot_wave_end(void *t, const unsigned *bins, int b0) {
  hot_table *h = t;
  for (int b = b0; b < b0 + HOT_BLOCKS; b++)
    for (int w = 0; w < HOT_WARPS; w++)
      for (int l = 0; l < 32; l++) {
        uint64_t key = (uint64_t)(bins[(size_t)b * BLOCK + w * 32 + l] & 255u) << 32 | (uint32_t)(b * HOT_WARPS + w + 1);
        size_t i = hot_slot(h, key);
        if (h->t[i].key) {
          hot_remove(h, i);
          h->n--;
        }
      }
  memset(h->block, 0, sizeof h->block);
}

double floor_hot(const unsigned *bins, int n, int reps) {
  if (n <= 0 || n % (HOT_BLOCKS * BLOCK)) return -1;   /* whole waves of resident blocks */
  hot_table h;
  memset(&h, 0, sizeof h);
  h.cap = 1u << 15;   /* a quarter full: the 8192 resident agents' records at most */
  h.t = calloc(h.cap, sizeof *h.t);
  if (!h.t) return -1;
  double best = -1;
  uint64_t asked = 0;
  int ok = 1;
  for (int rep = 0; rep < reps && ok; rep++) {
    static const hot_order order = {hot_access, hot_wave_end};
    double t0 = gr_now();
    asked += hot_run(&order, &h, bins, n);
    double t = gr_now() - t0;
    if (best < 0 || t < best) best = t;
    ok = h.n == 0;
    memset(h.total, 0, sizeof h.total);
  }
  free(h.t);
  /* (asked: kept live for the compiler) */
  return ok && asked != UINT64_MAX ? best : -1;
}

/* ------------------------------------------------------------- the same, a warp's access at a time */

/* A warp's access as one record: its lanes' words, the lanes whose piece
 * stands (the last lane of each word, as floor_hot's record keeps it), and
 * its kind. */
typedef struct {
  uint32_t words[32];
  uint32_t live;
  int kind;
} warp_rec;

#define WARP_RECS 2   /* a warp's records in a block's life: the histogram's load and store */

typedef struct {
  uint32_t total[256][2];
  uint32_t block[HOT_BLOCKS][256][2];
  warp_rec rec[HOT_BLOCKS * HOT_WARPS][WARP_RECS];
  int nrec[HOT_BLOCKS * HOT_WARPS];
} warp_table;

/* The lanes of ws whose word is x: one vector compare. */
static inline uint32_t lanes_of(const uint32_t *ws, uint32_t x) {
  uint32_t m = 0;
  for (int j = 0; j < 32; j++) m |= (uint32_t)(ws[j] == x) << j;
  return m;
}

/* One warp's access (resident warp r of block slot `slot`): the pieces of
 * its earlier records that this one replaces (a store every piece of its
 * words, a load the loads) leave their counts, its own standing lanes
 * join them, and each lane asks floor_hot's question. */
FLOOR_CODE static uint64_t warp_access(void *t, const unsigned *bins, uint32_t agent, uint32_t r, uint32_t slot, int kind) {
  warp_table *h = t;
  (void)agent;
  warp_rec *x = &h->rec[r][h->nrec[r]];
  for (int l = 0; l < 32; l++) x->words[l] = bins[l] & 255u;
  uint32_t live = 0;
  for (int l = 0; l < 32; l++) live |= (uint32_t)!((uint64_t)lanes_of(x->words, x->words[l]) >> (l + 1)) << l;
  for (int k = 0; k < h->nrec[r]; k++) {
    warp_rec *e = &h->rec[r][k];
    if (kind == 0 && e->kind != 0) continue;
    for (uint32_t m = e->live; m; m &= m - 1) {
      int j = __builtin_ctz(m);
      uint32_t w = e->words[j];
      if (!lanes_of(x->words, w)) continue;
      e->live &= ~(1u << j);
      h->total[w][e->kind]--;
      h->block[slot][w][e->kind]--;
    }
  }
  for (uint32_t m = live; m; m &= m - 1) {
    uint32_t w = x->words[__builtin_ctz(m)];
    h->total[w][kind]++;
    h->block[slot][w][kind]++;
  }
  x->live = live;
  x->kind = kind;
  h->nrec[r]++;
  uint64_t asked = 0;
  for (int l = 0; l < 32; l++) asked += h->block[slot][x->words[l]][!kind];
  return asked;
}

/* The wave's blocks end: their warps' records go whole (their pieces stay in the words' totals). */
static void warp_wave_end(void *t, const unsigned *bins, int b0) {
  warp_table *h = t;
  (void)bins, (void)b0;
  memset(h->nrec, 0, sizeof h->nrec);
  memset(h->block, 0, sizeof h->block);
}

double floor_warp(const unsigned *bins, int n, int reps) {
  if (n <= 0 || n % (HOT_BLOCKS * BLOCK)) return -1;
  warp_table *h = calloc(1, sizeof *h);
  uint32_t (*want)[2] = calloc(256, sizeof *want);
  if (!h || !want) { free(h); free(want); return -1; }
  /* what every word must hold when the blocks have all ended: one store
   * piece per warp and word it touched, no load */
  for (int a = 0; a < n / 32; a++) {
    uint32_t seen[8] = {0};
    for (int l = 0; l < 32; l++) {
      uint32_t w = bins[(size_t)a * 32 + l] & 255u;
      if (!(seen[w / 32] >> (w % 32) & 1)) want[w][1]++;
      seen[w / 32] |= 1u << (w % 32);
    }
  }
  double best = -1;
  uint64_t asked = 0;
  int ok = 1;
  for (int rep = 0; rep < reps && ok; rep++) {
    memset(h->total, 0, sizeof h->total);
    static const hot_order order = {warp_access, warp_wave_end};
    double t0 = gr_now();
    asked += hot_run(&order, h, bins, n);
    double t = gr_now() - t0;
    if (best < 0 || t < best) best = t;
    ok = !memcmp(h->total, want, sizeof h->total);
  }
  free(h);
  free(want);
  return ok && asked != UINT64_MAX ? best : -1;
}
