/* ld: value-based two-pass race detection (Li et al., TACO 2017).
 *
 * One launch is a sequence of runs of the kernel, each started again from
 * the snapshot taken at LAUNCH_BEGIN:
 *
 *   targets      a plain run; what it stores to (allocations, shared bytes)
 *                are the targets, and every store instruction's lanes are
 *                checked against each other (intra-warp, §4.7).
 *   inter-block  per round: pass 1, every block on its group's private copy
 *                of the global targets, the union built and write-write
 *                races found; pass 2, every group on the union without its
 *                own pass-1 changes, and a copy that ends different from
 *                the union is a read-write race.
 *   inter-warp   each block on its own copy of the global targets; each
 *                local AP region (barrier to barrier) runs per warp group
 *                on private copies of the block's shared memory and global
 *                view, is checked as above (the block snapshot taken at the
 *                region's start runs it again), and its union goes on to
 *                the next region.  At the end the blocks' copies are
 *                merged in block order and copied back.
 *
 * With --ld-deterministic only the inter-warp run is made, and unions are
 * merged in warp order (the highest warp's value of a byte wins) instead of
 * checked: every unit sees only its own copy, so the result does not
 * depend on the schedule.
 */
#include "ld.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

enum { RUN_IDLE, RUN_TARGETS, RUN_BLOCK_WW, RUN_BLOCK_RW, RUN_WARP, RUN_DONE };
static const char *const run_names[] = {"no run", "the targets run", "inter-block pass 1", "inter-block pass 2",
                                        "the inter-warp run", "done"};

/* Private copies above this many bytes make LD take fewer copies (§4.5). */
#define LD_MEMORY_BUDGET ((uint64_t)512 << 20)
/* The merge is split among this many checkers, each owning a byte range. */
#define LD_CHECKERS 64

typedef struct {
  size_t id;
  gr_ptr base;
  uint64_t size, off;      /* off: where it lies in the global image */
  const char *name;
} target;

/* A block in the inter-warp run. */
typedef struct {
  int live;
  gr_snapshot *snap;       /* the region's start */
  uint8_t *R, *U, *ww;     /* image: shared memory, then the global targets */
  uint8_t **copy;          /* per warp group */
  int pass, round, racy;
  srcpos start;
} ldblk;

typedef struct { uint64_t x; int g1, g2; } hit;
typedef struct { hit *h; size_t n, cap; } hits;

typedef struct ld {
  gr_context *ctx;
  race_log *log;
  const char *name;
  det_options o;
  int run;
  gr_snapshot *start;
  gr_dim3 grid;
  uint32_t nblocks, wpb, ssz;
  srcpos kdecl;
  /* the targets run */
  uint8_t *written;        /* per allocation id */
  size_t nalloc;
  uint8_t *shared_written; /* per shared byte */
  int need_init;
  /* targets: the global image is their concatenation */
  target *t;
  size_t nt;
  uint64_t G;
  uint8_t *S;              /* the global image at launch */
  /* inter-block */
  int bgroups, brounds, bround;
  int global_racy;         /* a round found a race in the global AP region */
  uint32_t *bgrp;          /* this round's group of each block */
  uint8_t **bcopy, *bU, *bww;
  /* inter-warp */
  int wgroups, wrounds;
  uint32_t *wgrp;          /* [round * wpb + warp] */
  ldblk *blk;              /* [nblocks] */
  uint8_t *final;          /* the blocks' global copies merged, */
  uint32_t *owner;         /* with the block (+1) whose value each byte holds */
  uint32_t done_blocks;
  uint64_t copy_bytes;
  /* what was found */
  ld_stats st;
  uint8_t *seen_g, *seen_s;        /* racy addresses: global image, shared offsets */
  uint8_t *seen_block, *seen_warp; /* units named */
  char stopped[640];
  double mark;
} ld;

const char *ld_phase_name(int p) {
  static const char *const n[] = {"targets", "init", "pass 1", "check", "init 2", "pass 2", "check 2", "copy back"};
  return p >= 0 && p < LD_NPHASES ? n[p] : "?";
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Time since the last mark goes to `phase`. */
static void tick(ld *d, int phase) {
  if (!d->o.ld_timing) return;
  double t = now();
  d->st.seconds[phase] += t - d->mark;
  d->mark = t;
}

void *ld_create(gr_context *ctx, const det_options *o, race_log *log, const char *name) {
  ld *d = xcalloc(1, sizeof *d);
  d->ctx = ctx;
  d->log = log;
  d->name = name;
  d->o = *o;
  return d;
}

static void copies_free(uint8_t **c, int n) {
  if (!c) return;
  for (int g = 0; g < n; g++) free(c[g]);
  free(c);
}

static void blk_free(ld *d, ldblk *b) {
  gr_snapshot_free(b->snap);
  copies_free(b->copy, d->wgroups);
  free(b->R); free(b->U); free(b->ww);
  if (b->live) d->copy_bytes -= (uint64_t)d->wgroups * (d->ssz + d->G);
  memset(b, 0, sizeof *b);
}

/* Everything of one launch but the statistics. */
static void launch_free(ld *d) {
  gr_snapshot_free(d->start);
  d->start = NULL;
  free(d->written); free(d->shared_written);
  d->written = d->shared_written = NULL;
  free(d->t); d->t = NULL; d->nt = 0; d->G = 0;
  free(d->S); d->S = NULL;
  free(d->bgrp); d->bgrp = NULL;
  copies_free(d->bcopy, d->bgroups); d->bcopy = NULL;
  free(d->bU); free(d->bww); d->bU = d->bww = NULL;
  free(d->wgrp); d->wgrp = NULL;
  if (d->blk) for (uint32_t k = 0; k < d->nblocks; k++) blk_free(d, &d->blk[k]);
  free(d->blk); d->blk = NULL;
  free(d->final); free(d->owner); d->final = NULL; d->owner = NULL;
  free(d->seen_g); free(d->seen_s); free(d->seen_block); free(d->seen_warp);
  d->seen_g = d->seen_s = d->seen_block = d->seen_warp = NULL;
  d->copy_bytes = 0;
  d->global_racy = 0;
  d->run = RUN_IDLE;
}

void ld_destroy(void *self) {
  ld *d = self;
  launch_free(d);
  free(d);
}

/* ---------------------------------------------------------------- groups (§4.5) */

static int rounds_for(uint32_t units, int groups) {
  if ((uint32_t)groups >= units) return 1;
  int r = 0;
  for (uint64_t p = 1; p < units; p *= (uint64_t)groups) r++;
  return r;
}

/* The group of every unit in round `round`: the unit itself where there is
 * a copy per unit; else digit `round` of the unit in base `groups`, so that
 * any two units are apart in one of the first ceil(log_groups units)
 * rounds; or, with --ld-shuffle, the unit's place in a random permutation
 * modulo `groups` (balanced groups, drawn afresh each round). */
static void groups_for(const ld *d, uint32_t units, int groups, int round, uint64_t salt, uint32_t *out) {
  if ((uint32_t)groups >= units) {
    for (uint32_t u = 0; u < units; u++) out[u] = u;
  } else if (!d->o.ld_shuffle) {
    uint64_t p = 1;
    for (int r = 0; r < round; r++) p *= (uint64_t)groups;
    for (uint32_t u = 0; u < units; u++) out[u] = (uint32_t)(u / p % (uint64_t)groups);
  } else {
    uint32_t *perm = xmalloc(units * sizeof *perm);
    for (uint32_t u = 0; u < units; u++) perm[u] = u;
    rng r;
    rng_seed(&r, d->o.ld_shuffle * 1000003ull + salt * 64 + (uint64_t)round);
    for (uint32_t i = units - 1; i > 0; i--) {
      uint32_t j = rng_below(&r, i + 1);
      uint32_t x = perm[i]; perm[i] = perm[j]; perm[j] = x;
    }
    for (uint32_t i = 0; i < units; i++) out[perm[i]] = i % (uint32_t)groups;
    free(perm);
  }
}

/* The lowest unit of group g: the unit a report names (a group of several
 * units shares one copy, and LD cannot tell them apart). */
static uint32_t unit_of(const uint32_t *grp, uint32_t units, uint32_t g) {
  for (uint32_t u = 0; u < units; u++) if (grp[u] == g) return u;
  return 0;
}

/* ---------------------------------------------------------------- the checks */

static void hits_push(hits *h, uint64_t x, int g1, int g2) {
  if (h->n == h->cap) { h->cap = h->cap ? 2 * h->cap : 64; h->h = xrealloc(h->h, h->cap * sizeof *h->h); }
  h->h[h->n++] = (hit){x, g1, g2};
}

/* Pass 1's check: U is R with every group's changes; a byte changed by two
 * groups is a write-write race (ww[x] = 1, U keeps the first group's value,
 * or with last_wins the last group's: the merge in warp order of the
 * deterministic mode).  The bytes are split among LD_CHECKERS checkers,
 * each owning a range, so no two write one byte: the data-parallel merge
 * that needs no atomics.  Hits come back in byte order. */
static void check_ww(const uint8_t *R, uint8_t *const *copy, int ng, uint64_t n, uint8_t *U, uint8_t *ww, int last_wins,
                     hits *out) {
  hits part[LD_CHECKERS];
  memset(part, 0, sizeof part);
#pragma omp parallel for schedule(static) if (n >= ((uint64_t)1 << 22))
  for (int c = 0; c < LD_CHECKERS; c++) {
    uint64_t lo = n * (uint64_t)c / LD_CHECKERS, hi = n * (uint64_t)(c + 1) / LD_CHECKERS;
    for (uint64_t x = lo; x < hi; x++) {
      uint8_t v = R[x];
      int first = -1, second = -1;
      for (int g = 0; g < ng; g++) {
        if (copy[g][x] == R[x]) continue;
        if (first < 0) { first = g; v = copy[g][x]; }
        else {
          if (second < 0) second = g;
          if (last_wins) v = copy[g][x];
        }
      }
      U[x] = v;
      ww[x] = second >= 0;
      if (second >= 0) hits_push(&part[c], x, first, second);
    }
  }
  for (int c = 0; c < LD_CHECKERS; c++) {
    for (size_t k = 0; k < part[c].n; k++) hits_push(out, part[c].h[k].x, part[c].h[k].g1, part[c].h[k].g2);
    free(part[c].h);
  }
}

/* Pass 2's start: every copy becomes U without its own pass-1 changes. */
static void init_pass2(const uint8_t *R, uint8_t *const *copy, int ng, uint64_t n, const uint8_t *U) {
  for (int g = 0; g < ng; g++) {
    uint8_t *c = copy[g];
    for (uint64_t x = 0; x < n; x++) c[x] = c[x] != R[x] ? R[x] : U[x];
  }
}

/* Pass 2's check: a copy that differs from U (outside write-write bytes,
 * already reported) saw another group's writes.  One hit per (group, byte). */
static void check_rw(uint8_t *const *copy, int ng, uint64_t n, const uint8_t *U, const uint8_t *ww, hits *out) {
  for (int g = 0; g < ng; g++)
    for (uint64_t x = 0; x < n; x++)
      if (!ww[x] && copy[g][x] != U[x]) hits_push(out, x, g, g);
}

/* ---------------------------------------------------------------- reports */

static gr_dim3 block_coords(const ld *d, uint32_t lin) {
  gr_dim3 c = {lin % d->grid.x, lin / d->grid.x % d->grid.y, lin / (d->grid.x * d->grid.y)};
  return c;
}

static void side(ld *d, gr_race_access *a, srcpos pos, uint32_t block, uint32_t warp, const char *role) {
  memset(a, 0, sizeof *a);
  a->file = pos.file;
  a->line = pos.line;
  a->col = pos.col;
  a->block = block_coords(d, block);
  a->warp = warp;
  a->lane = -1;
  a->kind = GR_STORE;
  a->role = role;
}

static void mark_unit(ld *d, uint32_t block, uint32_t warp) {
  if (warp == RACE_WHOLE_BLOCK) {
    if (!d->seen_block[block]) { d->seen_block[block] = 1; d->st.units++; }
  } else {
    uint64_t k = (uint64_t)block * d->wpb + warp;
    if (!d->seen_warp[k]) { d->seen_warp[k] = 1; d->st.units++; }
  }
}

/* One racy byte of image offset x: the image is [shared (ssz bytes, only
 * in the inter-warp run)] then the global targets. */
static void report(ld *d, int ww, int interwarp, uint64_t x, uint32_t block, uint32_t u1, uint32_t u2, srcpos from,
                   srcpos to) {
  gr_race r;
  memset(&r, 0, sizeof r);
  r.detector = d->name;
  if (interwarp) r.cls = ww ? "write-write (inter-warp)" : "read-write (inter-warp)";
  else r.cls = ww ? "write-write (inter-block)" : "read-write (inter-block)";
  uint64_t gx = x;
  if (interwarp && x < d->ssz) {
    r.space = GR_SPACE_SHARED;
    r.offset = x;
    d->st.shared_bytes_racy++;
    if (!d->seen_s[x]) { d->seen_s[x] = 1; d->st.addresses++; }
  } else {
    if (interwarp) gx = x - d->ssz;
    size_t lo = 0, hi = d->nt;
    while (hi - lo > 1) { size_t mid = (lo + hi) / 2; if (d->t[mid].off <= gx) lo = mid; else hi = mid; }
    r.space = GR_SPACE_GLOBAL;
    r.buffer = d->t[lo].name;
    r.offset = gx - d->t[lo].off;
    d->st.global_bytes_racy++;
    if (!d->seen_g[gx]) { d->seen_g[gx] = 1; d->st.addresses++; }
  }
  uint32_t b1 = interwarp ? block : u1, b2 = interwarp ? block : u2;
  uint32_t w1 = interwarp ? u1 : RACE_WHOLE_BLOCK, w2 = interwarp ? u2 : RACE_WHOLE_BLOCK;
  if (ww) {
    side(d, &r.first, from, b1, w1, "region begins; this unit's private copy changed the byte");
    side(d, &r.second, to, b2, w2, "region ends; this unit's private copy changed it too");
  } else {
    side(d, &r.first, from, b1, w1, "region begins; this unit read others' pass-1 writes in pass 2");
    side(d, &r.second, to, b2, w2, "region ends; and its private copy came out different");
  }
  mark_unit(d, b1, w1);
  if (ww) mark_unit(d, b2, w2);
  if (ww) d->st.ww_bytes++;
  else d->st.rw_bytes++;
  race_log_add(d->log, &r);
}

/* ---------------------------------------------------------------- the targets run */

static void on_access_targets(ld *d, const gr_event *ev) {
  if (ev->access == GR_LOAD) return;
  for (int l = 0; l < 32; l++) {
    if (!(ev->mask >> l & 1)) continue;
    if (ev->space == GR_SPACE_GLOBAL) {
      size_t id = gr_allocation_id(ev->addr[l]);
      if (id < d->nalloc) d->written[id] = 1;
    } else if (ev->space == GR_SPACE_SHARED) {
      uint64_t off = ev->addr[l] - gr_shared_base();
      for (int b = 0; b < ev->size; b++) if (off + (uint64_t)b < d->ssz) d->shared_written[off + (uint64_t)b] = 1;
    }
  }
  if (ev->access != GR_STORE || ev->space == GR_SPACE_LOCAL) return;
  /* intra-warp (§4.7): the lanes of one store instruction against each
   * other, as GRace checks them; sorted by address, overlaps are neighbours */
  int lane[32], n = 0;
  for (int l = 0; l < 32; l++) if (ev->mask >> l & 1) lane[n++] = l;
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && ev->addr[lane[j - 1]] > ev->addr[lane[j]]; j--) { int x = lane[j]; lane[j] = lane[j - 1]; lane[j - 1] = x; }
  for (int i = 0; i + 1 < n; i++) {
    uint64_t a = ev->addr[lane[i]], b = ev->addr[lane[i + 1]];
    if (b >= a + (uint64_t)ev->size) continue;
    gr_race r;
    memset(&r, 0, sizeof r);
    r.detector = d->name;
    r.cls = "write-write (intra-warp)";
    r.space = ev->space;
    if (ev->space == GR_SPACE_GLOBAL) gr_describe_address(d->ctx, b, &r.buffer, &r.offset);
    else r.offset = b - gr_shared_base();
    race_access_from_event(&r.first, ev, lane[i]);
    race_access_from_event(&r.second, ev, lane[i + 1]);
    race_log_add(d->log, &r);
    d->st.intra_bytes += a + (uint64_t)ev->size - b;
  }
}

static int find_target_names(ld *d) {
  size_t n = gr_allocation_count(d->ctx);
  const char *p = d->o.ld_targets;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    int found = 0;
    for (size_t id = 1; id <= n; id++) {
      const char *nm;
      if (gr_allocation_info(d->ctx, id, NULL, &nm) == GR_OK && nm && strlen(nm) == len && !strncmp(nm, p, len)) {
        d->written[id] = 1;
        found = 1;
      }
    }
    if (!found) {
      char msg[300];
      snprintf(msg, sizeof msg, "error: --ld-targets names '%.*s', which is no buffer or __device__ variable of this launch",
               (int)(len > 200 ? 200 : len), p);
      gr_launch_fail(d->ctx, GR_EINPUT, msg);
      return -1;
    }
    if (!e) break;
    p = e + 1;
  }
  return 0;
}

/* The global image: the targets in allocation order. */
static void build_targets(ld *d) {
  for (size_t id = 1; id < d->nalloc; id++) {
    uint64_t size;
    const char *nm;
    if (!d->written[id] || gr_allocation_info(d->ctx, id, &size, &nm) != GR_OK) continue;
    d->t = xrealloc(d->t, (d->nt + 1) * sizeof *d->t);
    d->t[d->nt] = (target){id, gr_allocation_base(id), size, d->G, nm};
    d->G += size;
    d->nt++;
  }
}

static int shared_is_target(const ld *d) {
  if (d->o.ld_deterministic) return d->ssz > 0;
  for (uint32_t x = 0; x < d->ssz; x++) if (d->shared_written[x]) return 1;
  return 0;
}

/* ---------------------------------------------------------------- runs */

static void view_targets(ld *d, uint32_t warp, uint8_t *image) {
  for (size_t k = 0; k < d->nt; k++) gr_view_add(d->ctx, warp, d->t[k].base, d->t[k].size, image + d->t[k].off);
}

static void note_copies(ld *d) {
  if (d->copy_bytes > d->st.copy_bytes_peak) d->st.copy_bytes_peak = d->copy_bytes;
}

/* The inter-block run's copies for this round: every group starts from S. */
static void init_block_round(ld *d) {
  if (!d->bcopy) {
    d->bcopy = xcalloc((size_t)d->bgroups, sizeof *d->bcopy);
    for (int g = 0; g < d->bgroups; g++) d->bcopy[g] = xmalloc(d->G ? d->G : 1);
    d->bU = xmalloc(d->G ? d->G : 1);
    d->bww = xmalloc(d->G ? d->G : 1);
    d->bgrp = xmalloc(d->nblocks * sizeof *d->bgrp);
    d->copy_bytes += (uint64_t)d->bgroups * d->G;
    note_copies(d);
  }
  for (int g = 0; g < d->bgroups; g++) memcpy(d->bcopy[g], d->S, d->G);
  groups_for(d, d->nblocks, d->bgroups, d->bround, 1, d->bgrp);
}

static void install_warp_views(ld *d, uint32_t lin, ldblk *b) {
  for (uint32_t j = 0; j < d->wpb; j++) {
    uint32_t gid = lin * d->wpb + j;
    uint8_t *c = b->copy[d->wgrp[(size_t)b->round * d->wpb + j]];
    gr_view_clear(d->ctx, gid);
    if (d->ssz) gr_view_add(d->ctx, gid, gr_shared_base(), d->ssz, c);
    view_targets(d, gid, c + d->ssz);
  }
}

static void begin_region(ld *d, uint32_t lin, srcpos start) {
  ldblk *b = &d->blk[lin];
  uint64_t n = (uint64_t)d->ssz + d->G;
  gr_snapshot_free(b->snap);
  b->snap = gr_snapshot_take_block(d->ctx, lin);
  b->start = start;
  b->pass = 1;
  b->round = 0;
  b->racy = 0;
  for (int g = 0; g < d->wgroups; g++) memcpy(b->copy[g], b->R, n);
  install_warp_views(d, lin, b);
}

static void block_begin_warp_run(ld *d, uint32_t lin) {
  ldblk *b = &d->blk[lin];
  uint64_t n = (uint64_t)d->ssz + d->G;
  b->live = 1;
  b->R = xcalloc(n ? n : 1, 1);   /* shared memory starts zeroed, as the emulator's does */
  memcpy(b->R + d->ssz, d->S, d->G);
  b->U = xmalloc(n ? n : 1);
  b->ww = xmalloc(n ? n : 1);
  b->copy = xcalloc((size_t)d->wgroups, sizeof *b->copy);
  for (int g = 0; g < d->wgroups; g++) b->copy[g] = xmalloc(n ? n : 1);
  d->copy_bytes += (uint64_t)d->wgroups * n;
  note_copies(d);
  begin_region(d, lin, d->kdecl);
}

/* A local AP region of block lin ended (at a barrier, or the block's end). */
static void end_region(ld *d, uint32_t lin, srcpos end, int is_end) {
  ldblk *b = &d->blk[lin];
  if (!b->live) return;
  uint64_t n = (uint64_t)d->ssz + d->G;
  int ng = d->wgroups;
  const uint32_t *grp = &d->wgrp[(size_t)b->round * d->wpb];
  if (ng == 1) {
    memcpy(b->U, b->copy[0], n);
  } else if (b->pass == 1) {
    hits h = {0};
    check_ww(b->R, b->copy, ng, n, b->U, b->ww, d->o.ld_deterministic, &h);
    if (d->o.ld_deterministic) d->st.merge_conflicts += h.n;   /* merged, not reported */
    else {
      for (size_t k = 0; k < h.n; k++)
        report(d, 1, 1, h.h[k].x, lin, unit_of(grp, d->wpb, (uint32_t)h.h[k].g1), unit_of(grp, d->wpb, (uint32_t)h.h[k].g2), b->start,
               end);
      b->racy |= h.n > 0;
    }
    free(h.h);
    tick(d, LD_PH_CHECK);
    if (!d->o.ld_deterministic) {
      init_pass2(b->R, b->copy, ng, n, b->U);
      b->pass = 2;
      gr_snapshot_restore(d->ctx, b->snap);
      tick(d, LD_PH_INIT2);
      return;
    }
  } else {
    hits h = {0};
    check_rw(b->copy, ng, n, b->U, b->ww, &h);
    for (size_t k = 0; k < h.n; k++) {
      uint32_t u = unit_of(grp, d->wpb, (uint32_t)h.h[k].g1);
      report(d, 0, 1, h.h[k].x, lin, u, u, b->start, end);
    }
    b->racy |= h.n > 0;
    free(h.h);
    tick(d, LD_PH_CHECK2);
    if (++b->round < d->wrounds) {
      for (int g = 0; g < ng; g++) memcpy(b->copy[g], b->R, n);
      b->pass = 1;
      install_warp_views(d, lin, b);
      gr_snapshot_restore(d->ctx, b->snap);
      tick(d, LD_PH_INIT);
      return;
    }
  }
  /* the region is done: its union goes on */
  memcpy(b->R, b->U, n);
  d->st.regions++;
  d->st.racy_regions += (uint64_t)b->racy;
  if (!is_end) {
    begin_region(d, lin, end);
    tick(d, LD_PH_INIT);
    return;
  }
  /* the block is done: its global copy joins the others in block order */
  const uint8_t *bg = b->R + d->ssz;
  for (uint64_t x = 0; x < d->G; x++) {
    if (bg[x] == d->S[x]) continue;
    if (d->owner[x]) d->st.merge_conflicts++;
    if (d->owner[x] <= lin) { d->final[x] = bg[x]; d->owner[x] = lin + 1; }
  }
  for (uint32_t j = 0; j < d->wpb; j++) gr_view_clear(d->ctx, lin * d->wpb + j);
  blk_free(d, b);
  d->done_blocks++;
  tick(d, LD_PH_COPYBACK);
}

static void start_warp_run(ld *d) {
  d->run = RUN_WARP;
  d->blk = xcalloc(d->nblocks, sizeof *d->blk);
  d->final = xmalloc(d->G ? d->G : 1);
  memcpy(d->final, d->S, d->G);
  d->owner = xcalloc(d->G ? d->G : 1, sizeof *d->owner);
  d->done_blocks = 0;
}

/* Copies per pass: one per unit, or --ld-copies, or what the budget allows. */
static int copies_for(const ld *d, uint32_t units, uint64_t bytes_per_copy, uint64_t copies_at_once) {
  uint64_t m = d->o.ld_copies > 0 ? (uint64_t)d->o.ld_copies : units;
  if (!d->o.ld_copies && !d->o.ld_deterministic && bytes_per_copy && m * bytes_per_copy * copies_at_once > LD_MEMORY_BUDGET)
    m = LD_MEMORY_BUDGET / (bytes_per_copy * copies_at_once);
  if (m < 2) m = 2;
  if (m > units) m = units;
  return (int)m;
}

/* After the targets run: the targets, the plan, and the first run's start. */
static void plan(ld *d) {
  build_targets(d);
  uint32_t resident = d->nblocks < 64 ? d->nblocks : 64;
  d->bgroups = copies_for(d, d->nblocks, d->G, 1);
  d->brounds = rounds_for(d->nblocks, d->bgroups);
  d->wgroups = copies_for(d, d->wpb, (uint64_t)d->ssz + d->G, resident);
  d->wrounds = d->o.ld_deterministic ? 1 : rounds_for(d->wpb, d->wgroups);
  if (d->o.ld_shuffle && d->o.ld_rounds > 0) {
    if (d->bgroups < (int)d->nblocks) d->brounds = d->o.ld_rounds;
    if (d->wgroups < (int)d->wpb) d->wrounds = d->o.ld_rounds;
  }
  d->wgrp = xmalloc((size_t)d->wrounds * d->wpb * sizeof *d->wgrp);
  for (int r = 0; r < d->wrounds; r++) groups_for(d, d->wpb, d->wgroups, r, 2, &d->wgrp[(size_t)r * d->wpb]);
  int interblock = d->nblocks > 1 && d->G && !d->o.ld_deterministic;
  d->st.block_rounds = interblock ? d->brounds : 0;
  d->st.warp_rounds = d->wrounds;
  d->st.block_copies = interblock ? d->bgroups : 0;
  d->st.warp_copies = d->wgroups;
  d->seen_g = xcalloc(d->G ? d->G : 1, 1);
  d->seen_s = xcalloc(d->ssz ? d->ssz : 1, 1);
  d->seen_block = xcalloc(d->nblocks, 1);
  d->seen_warp = xcalloc((size_t)d->nblocks * d->wpb, 1);
}

/* The global image of the targets, read from memory at a run's start
 * (global memory is then as it was at launch). */
static void read_S(ld *d) {
  d->S = xmalloc(d->G ? d->G : 1);
  for (size_t k = 0; k < d->nt; k++) gr_memcpy_dtoh(d->ctx, d->S + d->t[k].off, d->t[k].base, d->t[k].size);
}

/* The last block of a run ended: check, and start the next run. */
static void end_of_run(ld *d) {
  int next;
  if (d->run == RUN_TARGETS) {
    if (d->o.ld_targets) {
      memset(d->written, 0, d->nalloc);
      if (find_target_names(d)) { d->run = RUN_DONE; return; }
    }
    plan(d);
    tick(d, LD_PH_INIT);
    if (!d->nt && !shared_is_target(d)) {
      /* nothing is written: nothing can race between units */
      d->run = RUN_DONE;
      return;
    }
    next = d->nblocks > 1 && d->G ? RUN_BLOCK_WW : RUN_WARP;
  } else if (d->run == RUN_BLOCK_WW) {
    hits h = {0};
    check_ww(d->S, d->bcopy, d->bgroups, d->G, d->bU, d->bww, 0, &h);
    for (size_t k = 0; k < h.n; k++)
      report(d, 1, 0, h.h[k].x, 0, unit_of(d->bgrp, d->nblocks, (uint32_t)h.h[k].g1), unit_of(d->bgrp, d->nblocks, (uint32_t)h.h[k].g2),
             d->kdecl, d->kdecl);
    if (h.n) d->st.first_round_ww |= 1ull << (d->bround < 63 ? d->bround : 63);
    d->global_racy |= h.n > 0;
    free(h.h);
    tick(d, LD_PH_CHECK);
    init_pass2(d->S, d->bcopy, d->bgroups, d->G, d->bU);
    tick(d, LD_PH_INIT2);
    next = RUN_BLOCK_RW;
  } else if (d->run == RUN_BLOCK_RW) {
    hits h = {0};
    check_rw(d->bcopy, d->bgroups, d->G, d->bU, d->bww, &h);
    for (size_t k = 0; k < h.n; k++) {
      uint32_t u = unit_of(d->bgrp, d->nblocks, (uint32_t)h.h[k].g1);
      report(d, 0, 0, h.h[k].x, 0, u, u, d->kdecl, d->kdecl);
    }
    d->global_racy |= h.n > 0;
    free(h.h);
    tick(d, LD_PH_CHECK2);
    next = ++d->bround < d->brounds ? RUN_BLOCK_WW : RUN_WARP;
    if (next == RUN_WARP) {   /* the global AP region is analysed: one region, whatever the rounds */
      d->st.regions++;
      d->st.racy_regions += (uint64_t)d->global_racy;
    }
  } else {
    d->run = RUN_DONE;
    return;
  }
  d->run = next;
  d->need_init = 1;
  gr_snapshot_restore(d->ctx, d->start);
}

/* The first block of a run begins: global memory is as at launch. */
static void init_run(ld *d) {
  d->need_init = 0;
  if (!d->S) read_S(d);
  if (d->run == RUN_BLOCK_WW) init_block_round(d);
  else if (d->run == RUN_WARP) start_warp_run(d);
  d->done_blocks = 0;
  tick(d, LD_PH_INIT);
}

static void on_launch_begin(ld *d, const gr_event *ev) {
  launch_free(d);
  d->grid = ev->grid;
  d->nblocks = ev->grid.x * ev->grid.y * ev->grid.z;
  d->wpb = (ev->blockdim.x * ev->blockdim.y * ev->blockdim.z + 31) / 32;
  d->ssz = ev->shared_bytes;
  d->kdecl = (srcpos){ev->file, ev->line, ev->col};
  d->nalloc = gr_allocation_count(d->ctx) + 1;
  d->written = xcalloc(d->nalloc, 1);
  d->shared_written = xcalloc(d->ssz ? d->ssz : 1, 1);
  d->stopped[0] = 0;
  d->done_blocks = 0;
  d->start = gr_snapshot_take(d->ctx);
  if (d->o.ld_deterministic) {
    /* every allocation: a racy kernel's write set depends on the schedule */
    for (size_t id = 1; id < d->nalloc; id++) d->written[id] = gr_allocation_info(d->ctx, id, NULL, NULL) == GR_OK;
    if (d->o.ld_targets) {
      memset(d->written, 0, d->nalloc);
      if (find_target_names(d)) { d->run = RUN_DONE; return; }
    }
    plan(d);
    d->run = RUN_WARP;
    d->need_init = 1;
  } else {
    d->run = RUN_TARGETS;
  }
}

static void on_launch_end(ld *d) {
  if (d->run == RUN_DONE && d->final) {
    for (size_t k = 0; k < d->nt; k++) gr_memcpy_htod(d->ctx, d->t[k].base, d->final + d->t[k].off, d->t[k].size);
    tick(d, LD_PH_COPYBACK);
  }
  if (d->run != RUN_DONE && d->run != RUN_IDLE)
    snprintf(d->stopped, sizeof d->stopped, "the launch stopped during %s: %s", run_names[d->run], gr_error(d->ctx));
  launch_free(d);   /* the statistics and the stop message stay for the summary */
}

/* Engine time between events goes to the pass the event's unit is in. */
static int exec_phase(const ld *d, const gr_event *ev) {
  switch (d->run) {
  case RUN_TARGETS: return LD_PH_TARGETS;
  case RUN_BLOCK_RW: return LD_PH_PASS2;
  case RUN_WARP:
    return d->blk && ev->block < d->nblocks && d->blk[ev->block].pass == 2 ? LD_PH_PASS2 : LD_PH_PASS1;
  default: return LD_PH_PASS1;
  }
}

void ld_on_event(void *self, const gr_event *ev) {
  ld *d = self;
  if (ev->kind == GR_EV_LAUNCH_BEGIN) {
    if (d->o.ld_timing) d->mark = now();
    on_launch_begin(d, ev);
    tick(d, LD_PH_INIT);
    return;
  }
  if (d->run == RUN_IDLE) return;
  tick(d, exec_phase(d, ev));
  switch (ev->kind) {
  case GR_EV_ACCESS:
    if (d->run == RUN_TARGETS) on_access_targets(d, ev);
    break;
  case GR_EV_BLOCK_BEGIN:
    if (d->need_init) init_run(d);
    if (d->run == RUN_BLOCK_WW || d->run == RUN_BLOCK_RW) {
      uint8_t *c = d->bcopy[d->bgrp[ev->block]];
      for (uint32_t j = 0; j < d->wpb; j++) view_targets(d, ev->block * d->wpb + j, c);
    } else if (d->run == RUN_WARP) {
      block_begin_warp_run(d, ev->block);
    }
    tick(d, LD_PH_INIT);
    break;
  case GR_EV_BARRIER:
    if (d->run == RUN_WARP) end_region(d, ev->block, (srcpos){ev->file, ev->line, ev->col}, 0);
    break;
  case GR_EV_BLOCK_END:
    if (d->run == RUN_WARP) end_region(d, ev->block, (srcpos){ev->file, ev->line, ev->col}, 1);
    else if (d->run != RUN_DONE) d->done_blocks++;
    if (d->run != RUN_DONE && d->done_blocks == d->nblocks) end_of_run(d);
    break;
  case GR_EV_LAUNCH_END:
    on_launch_end(d);
    break;
  default:
    break;
  }
}

int ld_check_options(const det_options *o, char *err, size_t n) {
  if (o->ld_deterministic && o->ld_copies) {
    snprintf(err, n, "%s", "--ld-deterministic needs a private copy per warp: it cannot take --ld-copies");
    return -1;
  }
  if (o->ld_rounds && !o->ld_shuffle) {
    snprintf(err, n, "%s", "--ld-rounds sets the rounds of --ld-shuffle; the base-M digits need ceil(log_M N)");
    return -1;
  }
  return 0;
}

void ld_get_stats(void *self, ld_stats *out) { *out = ((ld *)self)->st; }

void ld_summary(void *self, FILE *out) {
  ld *d = self;
  const ld_stats *s = &d->st;
  if (d->stopped[0]) fprintf(out, "ld: %s\n", d->stopped);
  fprintf(out, "ld: %llu AP region%s analysed, %llu racy; write-write %llu bytes, read-write %llu bytes, intra-warp %llu bytes; "
               "shared %llu, global %llu; %llu distinct addresses, %llu units (warps or blocks)\n",
          (unsigned long long)s->regions, s->regions == 1 ? "" : "s", (unsigned long long)s->racy_regions, (unsigned long long)s->ww_bytes,
          (unsigned long long)s->rw_bytes, (unsigned long long)s->intra_bytes, (unsigned long long)s->shared_bytes_racy,
          (unsigned long long)s->global_bytes_racy, (unsigned long long)s->addresses, (unsigned long long)s->units);
  fprintf(out, "ld: private copies: %d per inter-block round (%d round%s), %d per block in the inter-warp run (%d round%s); "
               "at most %llu bytes of copies at once\n",
          s->block_copies, s->block_rounds, s->block_rounds == 1 ? "" : "s", s->warp_copies, s->warp_rounds,
          s->warp_rounds == 1 ? "" : "s", (unsigned long long)s->copy_bytes_peak);
  if (d->o.ld_deterministic)
    fprintf(out, "ld: deterministic mode: copies merged in warp order and block order, not checked; %llu byte%s written by more "
                 "than one warp or block (the last one's value kept)\n",
            (unsigned long long)s->merge_conflicts, s->merge_conflicts == 1 ? "" : "s");
  if (d->o.ld_timing) {
    double tot = 0;
    for (int p = 0; p < LD_NPHASES; p++) tot += s->seconds[p];
    fprintf(out, "ld: time %.6f s:", tot);
    for (int p = 0; p < LD_NPHASES; p++) fprintf(out, " %s %.6f", ld_phase_name(p), s->seconds[p]);
    fputc('\n', out);
  }
}
