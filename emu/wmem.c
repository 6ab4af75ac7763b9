/* The weak memory system: store buffers, pending loads, per-SM queues and
 * incoherent L1s in front of the L2 coherence point.  See wmem.h and
 * docs/memory-model.md.
 *
 * Invariants that the litmus verdicts rest on:
 *   - a thread's store buffer, an SM's queue and a thread's pending loads
 *     only ever let an entry overtake older entries it does not overlap
 *     (loads: unless both are plain, which is what CoRR allows);
 *   - what a thread reads is its own newest buffered bytes, over its SM's
 *     newest queued bytes, over its SM's L1 line or L2: each level is newer
 *     than the one below, so the block-level view only moves forward in
 *     coherence order, and only another SM's write can leave an L1 stale;
 *   - every write that reaches L2 from an SM updates that SM's L1 line. */
#include "wmem.h"
#include "invariant.h"

#include <stdlib.h>
#include <string.h>

#include "kir.h"

#define LINE 32
#define L1_LINES 256
#define SMQ_CAP 64

typedef struct { uint64_t tag; uint8_t *hp; uint32_t epoch; uint8_t data[LINE]; } l1line;

typedef struct {
  wm_write q[SMQ_CAP];      /* a ring: entry i, oldest first, is Q(S, i) */
  int head, n;
  int apos;
  uint32_t epoch;           /* an L1 line is valid while its epoch is this */
  uint16_t inflight[WM_WARP_BUCKETS];   /* q's entries per bucket of words (see wm_warp) */
  l1line l1[L1_LINES];
} smstate;

#define Q(S, i) ((S)->q[((S)->head + (i)) & (SMQ_CAP - 1)])

typedef struct { wm_lane *t; int sm; } active;

struct wm {
  int nsms;
  smstate *sm;
  wm_hooks h;
  chooser *ch;
  active *act;              /* lanes and SMs with something in flight */
  int nact, actcap;
  int nxs;                  /* pending loads marked as crossing a fence (wm_fence) */
};

wm *wm_new(int nsms, const wm_hooks *h, chooser *ch) {
  wm *m = xcalloc(1, sizeof *m);
  m->nsms = nsms;
  m->sm = xcalloc((size_t)nsms, sizeof(smstate));
  for (int s = 0; s < nsms; s++) { m->sm[s].apos = -1; m->sm[s].epoch = 1; }
  m->h = *h;
  m->ch = ch;
  m->actcap = nsms + 64;
  m->act = xcalloc((size_t)m->actcap, sizeof(active));
  return m;
}

wm *wm_renew(wm *old, int nsms, const wm_hooks *h, chooser *ch) {
  if (!old || old->nsms != nsms || old->nact) {
    wm_free(old);
    return wm_new(nsms, h, ch);
  }
  /* nothing in flight: every queue and count is empty already */
  for (int s = 0; s < nsms; s++) old->sm[s].epoch++;
  old->h = *h;
  old->ch = ch;
  old->nxs = 0;
  return old;
}

void wm_free(wm *m) {
  if (!m) return;
  free(m->sm);
  free(m->act);
  free(m);
}

wm_warp *wm_warp_new(void) {
  wm_warp *w = xmalloc(sizeof *w);
  memset(w->inflight, 0, sizeof w->inflight);
  w->entries = 0;
  w->sm = -1;
  w->rel_lanes = 0;   /* wm_warp_init reads it before anything sets it */
  w->owner = NULL;
  return w;
}

void wm_warp_init(wm_warp *w, int sm, int block, void *owner) {
  w->block = block;
  for (uint32_t r = w->rel_lanes; r; r &= r - 1) w->lane[__builtin_ctz(r)].relpend = 0;
  w->rel_lanes = 0;
  if (w->sm == sm && w->owner == owner) return;   /* retired lanes are as the loop below leaves them */
  w->sm = sm;
  w->owner = owner;
  for (int l = 0; l < 32; l++) {
    wm_lane *t = &w->lane[l];
    t->nsb = t->nld = 0;
    t->relpend = 0;
    t->apos = -1;
    t->sm = sm;
    t->owner = owner;
    t->lane = l;
    t->warp = w;
  }
}

/* ------------------------------------------------------------- in-flight counts */

static unsigned bucket_of(uint64_t word) { return (unsigned)((word * 0x9E3779B97F4A7C15ull) >> 54) & (WM_WARP_BUCKETS - 1); }

/* An entry over [addr, addr+size) comes (delta 1) or goes (-1). */
static void inflight(uint16_t *c, uint64_t addr, int size, int delta) {
  for (uint64_t wd = addr >> 2; wd <= (addr + (uint64_t)size - 1) >> 2; wd++) {
    emu_assert(delta > 0 ? c[bucket_of(wd)] < UINT16_MAX : c[bucket_of(wd)] > 0);   /* an entry goes only after it came */
    c[bucket_of(wd)] += (uint16_t)delta;
  }
}

/* An entry of lane t comes (1) or goes (-1): its warp's counts. */
static void warp_entry(wm_lane *t, uint64_t addr, int size, int delta) {
  emu_assert(delta > 0 || t->warp->entries > 0);
  inflight(t->warp->inflight, addr, size, delta);
  t->warp->entries += (uint32_t)delta;
}

/* Whether an entry might overlap [addr, addr+size): 0 is exact. */
static int inflight_any(const uint16_t *c, uint64_t addr, int size) {
  for (uint64_t wd = addr >> 2; wd <= (addr + (uint64_t)size - 1) >> 2; wd++)
    if (c[bucket_of(wd)]) return 1;
  return 0;
}

int wm_sm_may_hold(const wm *m, int sm, const uint64_t *addr, uint32_t lanes, int size) {
  const smstate *S = &m->sm[sm];
  if (!S->n) return 0;
  for (; lanes; lanes &= lanes - 1)
    if (inflight_any(S->inflight, addr[__builtin_ctz(lanes)], size)) return 1;
  return 0;
}

/* ------------------------------------------------------------- the active list */

static void act_add(wm *m, wm_lane *t, int sm, int *apos) {
  if (*apos >= 0) return;
  if (m->nact == m->actcap) {
    m->actcap *= 2;
    m->act = xrealloc(m->act, (size_t)m->actcap * sizeof(active));
  }
  *apos = m->nact;
  m->act[m->nact].t = t;
  m->act[m->nact].sm = sm;
  m->nact++;
}

static int *apos_of(wm *m, active a) { return a.t ? &a.t->apos : &m->sm[a.sm].apos; }

static void act_remove(wm *m, int *apos) {
  int i = *apos;
  if (i < 0) return;
  active last = m->act[--m->nact];
  m->act[i] = last;
  *apos_of(m, last) = i;
  *apos = -1;
}

static void lane_update(wm *m, wm_lane *t) {
  if (t->nsb || t->nld) act_add(m, t, t->sm, &t->apos);
  else act_remove(m, &t->apos);
}

static void sm_update(wm *m, int s) {
  if (m->sm[s].n) act_add(m, NULL, s, &m->sm[s].apos);
  else act_remove(m, &m->sm[s].apos);
}

/* ------------------------------------------------------------- bytes */

static int overlap(uint64_t a, int as, uint64_t b, int bs) { return a < b + (uint64_t)bs && b < a + (uint64_t)as; }

/* memcmp and memcpy of an access's 1, 2, 4 or 8 bytes, which the compiler
 * inlines for a constant size (a libc call per lane otherwise) */
static int bytes_differ(const uint8_t *a, const uint8_t *b, int size) {
  switch (size) {
  case 1: return *a != *b;
  case 2: { uint16_t x, y; memcpy(&x, a, 2); memcpy(&y, b, 2); return x != y; }
  case 4: { uint32_t x, y; memcpy(&x, a, 4); memcpy(&y, b, 4); return x != y; }
  case 8: { uint64_t x, y; memcpy(&x, a, 8); memcpy(&y, b, 8); return x != y; }
  default: return memcmp(a, b, (size_t)size) != 0;
  }
}

static void bytes_copy(uint8_t *dst, const uint8_t *src, int size) {
  switch (size) {
  case 1: *dst = *src; break;
  case 2: memcpy(dst, src, 2); break;
  case 4: memcpy(dst, src, 4); break;
  case 8: memcpy(dst, src, 8); break;
  default: memcpy(dst, src, (size_t)size);
  }
}

/* Puts e's bytes that fall in [addr, addr+size) into buf. */
static void overlay(uint8_t *buf, uint64_t addr, int size, const wm_write *e) {
  uint64_t lo = addr > e->addr ? addr : e->addr;
  uint64_t hi = addr + (uint64_t)size < e->addr + e->size ? addr + (uint64_t)size : e->addr + e->size;
  for (uint64_t b = lo; b < hi; b++) buf[b - addr] = e->b[b - e->addr];
}

static l1line *l1_slot(smstate *S, uint64_t addr) {
  uint64_t ln = addr / LINE;
  return &S->l1[(ln ^ (ln >> 27)) & (L1_LINES - 1)];
}

static l1line *l1_find(smstate *S, uint64_t addr) {
  l1line *L = l1_slot(S, addr);
  return L->epoch == S->epoch && L->tag == addr / LINE ? L : NULL;
}

/* A write reaches L2 from SM s; that SM's own L1 copy follows it. */
static void l2_write(wm *m, int s, uint64_t addr, uint8_t *p, int size, const uint8_t *b) {
  if (bytes_differ(p, b, size)) { bytes_copy(p, b, size); ++*m->h.write_epoch; }
  l1line *L = l1_find(&m->sm[s], addr);
  if (L) bytes_copy(L->data + addr % LINE, b, size);
}

/* ------------------------------------------------------------- draining */

static void smq_drain(wm *m, int s, int i) {
  smstate *S = &m->sm[s];
  wm_write e = Q(S, i);
  /* close the gap from the nearer end */
  if (i < S->n / 2) {
    for (int k = i; k > 0; k--) Q(S, k) = Q(S, k - 1);
    S->head = (S->head + 1) & (SMQ_CAP - 1);
  } else {
    for (int k = i; k < S->n - 1; k++) Q(S, k) = Q(S, k + 1);
  }
  S->n--;
  inflight(S->inflight, e.addr, e.size, -1);
  l2_write(m, s, e.addr, e.p, e.size, e.b);
  sm_update(m, s);
}

static void smq_push(wm *m, int s, const wm_write *e) {
  smstate *S = &m->sm[s];
  if (S->n == SMQ_CAP) smq_drain(m, s, 0);
  Q(S, S->n) = *e;
  Q(S, S->n).rel = 0;
  S->n++;
  inflight(S->inflight, e->addr, e->size, 1);
  ++*m->h.write_epoch;
  sm_update(m, s);
}

static void smq_drain_all(wm *m, int s) { while (m->sm[s].n) smq_drain(m, s, 0); }

/* What a release of scope `scope` waits for once the thread's older
 * stores have left its buffer: at device scope and wider, everything its
 * SM has seen reaches L2 first (cumulativity); at block scope the SM's
 * view already is the block's. */
static void release_complete(wm *m, wm_lane *t, int scope) {
  if (scope != SCOPE_BLOCK) smq_drain_all(m, t->sm);
}

static void sb_drain(wm *m, wm_lane *t, int i) {
  wm_write e = t->sb[i];
  for (int k = i + 1; k < t->nsb; k++) t->sb[k - 1] = t->sb[k];
  t->nsb--;
  warp_entry(t, e.addr, e.size, -1);
  smq_push(m, t->sm, &e);
  /* the writes older than a release fence have all left: the release
   * completes before any younger write may leave */
  if (t->nsb && t->sb[0].rel) {
    release_complete(m, t, t->sb[0].rel - 1);
    t->sb[0].rel = 0;
  }
  lane_update(m, t);
}

static int sb_marked(const wm_lane *t) {
  for (int i = 0; i < t->nsb; i++) if (t->sb[i].rel) return 1;
  return 0;
}

/* A strong write or an atomic of the thread: the release fences before it
 * now form release patterns, with which a later acquire may synchronise. */
static void arm_marks(wm_lane *t) {
  for (int i = 0; i < t->nld; i++) t->ld[i].xwait = 0;
}

/* Before a strong write or an atomic: the release fences before it
 * complete (a release pattern: fence, then a strong write). */
static void release_enforce(wm *m, wm_lane *t) {
  if (!t->relpend && !sb_marked(t)) return;
  while (t->nsb) sb_drain(m, t, 0);
  if (t->relpend) release_complete(m, t, t->relpend - 1);
  t->relpend = 0;
}

/* Drains, oldest first, everything up to the newest entry overlapping
 * [addr, addr+size): in-order draining is always allowed. */
static void smq_drain_upto(wm *m, int s, uint64_t addr, int size) {
  smstate *S = &m->sm[s];
  int last = -1;
  for (int i = 0; i < S->n; i++) if (overlap(Q(S, i).addr, Q(S, i).size, addr, size)) last = i;
  for (int k = 0; k <= last; k++) smq_drain(m, s, 0);
}

static void sb_drain_upto(wm *m, wm_lane *t, uint64_t addr, int size) {
  int last = -1;
  for (int i = 0; i < t->nsb; i++) if (overlap(t->sb[i].addr, t->sb[i].size, addr, size)) last = i;
  for (int k = 0; k <= last; k++) sb_drain(m, t, 0);
}

/* ------------------------------------------------------------- reading */

/* What a thread of SM S with no store in flight reads at addr now.  A
 * strong read bypasses L1 and drops the line, so that no later plain read
 * of the thread finds older data. */
static void read_view_sm(wm *m, smstate *S, uint64_t addr, uint8_t *p, int size, int strong, uint8_t *buf) {
  l1line *L = l1_slot(S, addr);
  int valid = L->epoch == S->epoch && L->tag == addr / LINE;
  if (strong) {
    bytes_copy(buf, p, size);
    if (valid) L->epoch = 0;
  } else {
    unsigned off = (unsigned)(addr % LINE);
    /* a line that differs from L2 is stale: hit it or miss, as chosen */
    if (!valid || (bytes_differ(L->data + off, p, size) && choose(m->ch, 2) == 1)) {
      L->tag = addr / LINE;
      L->hp = p - off;
      L->epoch = S->epoch;
      memcpy(L->data, L->hp, LINE);
    }
    bytes_copy(buf, L->data + off, size);
  }
  if (S->n && inflight_any(S->inflight, addr, size))
    for (int i = 0; i < S->n; i++) overlay(buf, addr, size, &Q(S, i));
}

/* What thread t reads at addr now: its SM's view, then its own stores. */
static void read_view(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, int strong, uint8_t *buf) {
  read_view_sm(m, &m->sm[t->sm], addr, p, size, strong, buf);
  for (int i = 0; i < t->nsb; i++) overlay(buf, addr, size, &t->sb[i]);
}

static uint64_t from_bytes(const uint8_t *b, int size) {
  uint64_t v = 0;
  for (int k = size - 1; k >= 0; k--) v = v << 8 | b[k];
  return v;
}

static void to_bytes(uint8_t *b, uint64_t v, int size) {
  for (int k = 0; k < size; k++) { b[k] = (uint8_t)v; v >>= 8; }
}

/* ------------------------------------------------------------- atomics */

/* An atomic is a strong read: the line it may have left stale goes, so
 * that no later plain load of the thread reads anything older (CoRR
 * through a failed compare-and-swap). */
static void l1_drop(smstate *S, uint64_t addr) {
  l1line *L = l1_find(S, addr);
  if (L) L->epoch = 0;
}

/* The atomic itself, once the thread's older accesses to its location
 * have performed: the old value is read and the new one written in one
 * step, at the SM (block scope) or at L2. */
static uint64_t atomic_perform(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, int scope,
                               uint64_t (*apply)(void *u, uint64_t old, int *store), void *u) {
  sb_drain_upto(m, t, addr, size);
  smstate *S = &m->sm[t->sm];
  uint8_t buf[8];
  if (scope == SCOPE_BLOCK) {
    /* performed at the SM: atomic for the threads of this SM, not for
     * another SM's, whose updates it may overwrite when it drains */
    bytes_copy(buf, p, size);
    for (int i = 0; i < S->n; i++) overlay(buf, addr, size, &Q(S, i));
    uint64_t old = from_bytes(buf, size);
    int store = 1;
    wm_write e;
    e.addr = addr; e.p = p; e.size = (uint8_t)size; e.rel = 0;
    to_bytes(e.b, apply(u, old, &store), size);
    /* a failed compare-and-swap reads only: writing back the value it saw
     * would overwrite newer values of other SMs with a stale one */
    if (store) smq_push(m, t->sm, &e);
    l1_drop(S, addr);
    return old;
  }
  smq_drain_upto(m, t->sm, addr, size);
  bytes_copy(buf, p, size);
  uint64_t old = from_bytes(buf, size);
  int store = 1;
  to_bytes(buf, apply(u, old, &store), size);
  if (store) l2_write(m, t->sm, addr, p, size, buf);
  l1_drop(S, addr);
  return old;
}

/* ------------------------------------------------------------- pending loads */

static int load_conflict(const wm_load *a, const wm_load *b) {
  return (a->strong || b->strong) && overlap(a->addr, a->size, b->addr, b->size);
}

typedef struct { wm *m; const wm_load *ld; } deferred_rmw;
static uint64_t deferred_apply(void *u, uint64_t old, int *store) {
  deferred_rmw *d = u;
  return d->m->h.rmw_apply(d->m->h.user, d->ld, old, store);
}

static void perform(wm *m, wm_lane *t, int i) {
  wm_load l = t->ld[i];
  for (int k = i + 1; k < t->nld; k++) t->ld[k - 1] = t->ld[k];
  t->nld--;
  warp_entry(t, l.addr, l.size, -1);
  if (l.xs) m->nxs--;
  uint64_t v;
  if (l.rmw) {
    deferred_rmw d = {m, &l};
    v = atomic_perform(m, t, l.addr, l.p, l.size, l.strong - 1, deferred_apply, &d);
  } else {
    uint8_t buf[8];
    read_view(m, t, l.addr, l.p, l.size, l.strong, buf);
    v = from_bytes(buf, l.size);
  }
  lane_update(m, t);
  m->h.load_done(m->h.user, t, &l, v);
}

static void perform_prefix(wm *m, wm_lane *t, int last) {
  /* an observer may quiesce the memory system from load_done: re-check */
  for (int k = 0; k <= last && t->nld; k++) perform(m, t, 0);
}

/* Before an access of the thread to [addr, addr+size): its older pending
 * loads there perform first (a load may not read a later store of its own
 * thread; two loads with a strong one among them stay in order). */
static void perform_overlapping(wm *m, wm_lane *t, uint64_t addr, int size, int any) {
  int last = -1;
  for (int i = 0; i < t->nld; i++)
    if ((any || t->ld[i].strong) && overlap(t->ld[i].addr, t->ld[i].size, addr, size)) last = i;
  perform_prefix(m, t, last);
}

void wm_perform_reg(wm *m, wm_lane *t, int reg) {
  int last = -1;
  for (int i = 0; i < t->nld; i++) if (t->ld[i].reg == reg) last = i;
  perform_prefix(m, t, last);
}

void wm_perform_all(wm *m, wm_lane *t) { perform_prefix(m, t, t->nld - 1); }

/* ------------------------------------------------------------- accesses */

uint64_t wm_load_now(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, int strong) {
  if (m->h.supply) return m->h.supply(m->h.user, t, addr, size);
  perform_overlapping(m, t, addr, size, strong);
  uint8_t buf[8];
  read_view(m, t, addr, p, size, strong, buf);
  return from_bytes(buf, size);
}

void wm_load_now_warp(wm *m, const wm_warp *w, const uint64_t *addr, uint8_t *base, uint64_t mask, int size, int strong,
                      uint64_t *out) {
  smstate *S = &m->sm[w->sm];
  uint8_t buf[8];
  for (int l = 0; l < 32; l++) {
    read_view_sm(m, S, addr[l], base + (addr[l] & mask), size, strong, buf);
    out[l] = from_bytes(buf, size);
  }
}

void wm_load_defer_warp(wm *m, wm_warp *w, const uint64_t *addr, uint8_t *base, uint64_t mask, int size, int sk, int reg,
                        int pc) {
  for (int l = 0; l < 32; l++) wm_load_defer(m, &w->lane[l], addr[l], base + (addr[l] & mask), size, 0, sk, reg, pc);
}

void wm_load_defer(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, int strong, int sk, int reg, int pc) {
  if (t->nld == WM_LD_CAP) perform(m, t, 0);
  wm_load *l = &t->ld[t->nld++];
  l->addr = addr; l->p = p; l->size = (uint8_t)size; l->strong = (uint8_t)strong; l->sk = (uint8_t)sk;
  l->reg = reg; l->pc = pc; l->xs = l->xwait = 0; l->rmw = 0;
  l->arg[0] = l->arg[1] = 0;
  warp_entry(t, addr, size, 1);
  lane_update(m, t);
}

void wm_store(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, uint64_t v, int strong) {
  if (m->h.supply) return;
  perform_overlapping(m, t, addr, size, 1);
  wm_write e;
  e.addr = addr; e.p = p; e.size = (uint8_t)size; e.rel = 0;
  to_bytes(e.b, v, size);
  if (strong) {
    release_enforce(m, t);
    arm_marks(t);
    /* a relaxed strong store is performed at its SM at once (the warp's
     * other lanes see it at the next instruction, which warp-synchronous
     * code written for lockstep relies on), but it may wait there before
     * L2 like any write: other SMs need not see it in order with the
     * thread's other locations (SB with volatiles) */
    sb_drain_upto(m, t, addr, size);
    smq_push(m, t->sm, &e);
    return;
  }
  if (t->relpend) {
    /* a release fence since the last store: this store and every later
     * one wait in the buffer until the older ones have left (SB with
     * fence.acq_rel stays reachable: the fence itself waits for nothing) */
    if (t->nsb) e.rel = (uint8_t)t->relpend;
    else release_complete(m, t, t->relpend - 1);
    t->relpend = 0;
  }
  if (t->nsb == WM_SB_CAP) sb_drain(m, t, 0);
  t->sb[t->nsb++] = e;
  warp_entry(t, addr, size, 1);
  lane_update(m, t);
}

void wm_atomic_defer(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, int scope, int sk,
                     int op, uint64_t a, uint64_t b, int reg, int pc) {
  /* what the atomic completes or arms as a strong write happens now: a
   * release pattern it closes is then complete before it performs */
  release_enforce(m, t);
  arm_marks(t);
  wm_load_defer(m, t, addr, p, size, 1 + scope, sk, reg, pc);
  wm_load *l = &t->ld[t->nld - 1];
  l->rmw = (uint8_t)(1 + op);
  l->arg[0] = a;
  l->arg[1] = b;
}

uint64_t wm_atomic(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, int scope, int order,
                   uint64_t (*apply)(void *u, uint64_t old, int *store), void *u) {
  if (m->h.supply) {
    uint64_t old = m->h.supply(m->h.user, t, addr, size);
    int store = 1;
    uint64_t nv = apply(u, old, &store);
    m->h.rmw_result(m->h.user, t, nv, store);
    return old;
  }
  if (order == MO_RELEASE || order == MO_ACQ_REL) wm_release(m, t, scope);
  if (order == MO_ACQUIRE || order == MO_ACQ_REL) wm_acquire(m, t, scope);
  release_enforce(m, t);
  arm_marks(t);
  perform_overlapping(m, t, addr, size, 1);
  return atomic_perform(m, t, addr, p, size, scope, apply, u);
}

/* Whether two sequentially consistent fences are morally strong: each
 * lies in the other's scope.  Only such pairs are ordered by PTX's
 * fence-SC order. */
static int fences_strong(int block_a, int scope_a, int block_b, int scope_b) {
  return (scope_a != SCOPE_BLOCK && scope_b != SCOPE_BLOCK) || block_a == block_b;
}

/* Before an acquire of thread t (a fence, or an acquire load or atomic):
 * the loads of every thread left pending across a fence morally strong
 * with it perform.  PTX orders a plain load before a fence with an access
 * after it only through fence-SC order with another thread's fence, or
 * through synchronisation by strong operations.  So a plain load may stay
 * pending across the fence (CoRR+fence, LB+F.cta across blocks), but it
 * must perform before any later acquire that could synchronise with that
 * fence (or follow it in fence-SC order), wherever it runs. */
static void perform_crossing(wm *m, wm_lane *t, int scope) {
  for (int k = 0; k < m->nact && m->nxs; k++) {
    wm_lane *u = m->act[k].t;
    if (!u) continue;
    int last = -1;
    for (int i = 0; i < u->nld; i++)
      if (u->ld[i].xs && !u->ld[i].xwait && fences_strong(u->warp->block, u->ld[i].xs - 1, t->warp->block, scope)) last = i;
    /* performing may empty u and reorder the active list: look at slot k again */
    if (last >= 0) { perform_prefix(m, u, last); k = -1; }
  }
}

/* The thread's own pending loads at a fence or release: strong ones
 * perform (they may be the acquire half of a pattern); plain ones stay
 * pending, marked with the fence's scope (perform_crossing).  A fence.sc
 * may synchronise with a later fence at once (fence-SC order); a release
 * only through a strong write after it, which arms the mark (arm_marks).
 * While observers watch, every load performs. */
static void loads_cross(wm *m, wm_lane *t, int scope, int sc) {
  int last = -1;
  for (int i = 0; i < t->nld; i++) if (t->ld[i].strong || m->h.fence_waits_loads) last = i;
  perform_prefix(m, t, last);
  for (int i = 0; i < t->nld; i++) {
    wm_load *l = &t->ld[i];
    if (!l->xs) { m->nxs++; l->xwait = 1; }
    if (l->xs < scope + 1) l->xs = (uint8_t)(scope + 1);
    if (sc) l->xwait = 0;
  }
}


void wm_acquire(wm *m, wm_lane *t, int scope) {
  if (m->h.supply) return;
  if (m->h.fence_waits_loads) wm_perform_all(m, t);
  perform_crossing(m, t, scope);
  /* later plain loads miss the SM's L1, which may hold lines older than
   * what the release it synchronises with made visible at L2 */
  if (scope != SCOPE_BLOCK) m->sm[t->sm].epoch++;
}

void wm_release(wm *m, wm_lane *t, int scope) {
  if (m->h.supply) return;
  loads_cross(m, t, scope, 0);
  if (t->relpend < scope + 1) t->relpend = scope + 1;
  t->warp->rel_lanes |= 1u << t->lane;
}

/* A fence.sc waits for the thread's stores (and, at device scope, its
 * SM's) to be performed before the thread goes on: store buffering with
 * fence.sc is forbidden.  A fence.acq_rel is an acquire now and a release
 * for the thread's later stores (wm_store), waiting for nothing itself. */
void wm_fence(wm *m, wm_lane *t, int scope, int kind) {
  if (m->h.supply) return;
  perform_crossing(m, t, scope);
  loads_cross(m, t, scope, kind == FENCE_SC);
  if (kind == FENCE_ACQ_REL) {
    if (t->relpend < scope + 1) t->relpend = scope + 1;
    t->warp->rel_lanes |= 1u << t->lane;
    if (scope != SCOPE_BLOCK) m->sm[t->sm].epoch++;
    return;
  }
  while (t->nsb) sb_drain(m, t, 0);
  if (t->relpend > scope + 1) scope = t->relpend - 1;
  t->relpend = 0;
  /* cumulative: what the block has seen reaches L2 first */
  release_complete(m, t, scope);
  if (scope != SCOPE_BLOCK) m->sm[t->sm].epoch++;
}

/* Lockstep: a warp is one agent.  Before lane `self` accesses [addr,
 * addr+size), what the warp's other lanes did there earlier takes effect
 * as if it were the lane's own: their buffered stores there leave for the
 * SM (where the lane reads them; an entry may leave before older ones it
 * does not overlap, unless a release fence lies between), and their
 * pending loads there perform as the lane's own would (wm_load_now,
 * wm_store). */
void wm_warp_order(wm *m, wm_warp *w, int self, uint64_t addr, int size, int write, int strong) {
  if (m->h.supply || !inflight_any(w->inflight, addr, size)) return;
  for (int k = 0; k < 32; k++) {
    wm_lane *u = &w->lane[k];
    if (k == self || u->apos < 0) continue;
    perform_overlapping(m, u, addr, size, write || strong);
    for (int i = 0; i < u->nsb;) {
      if (!overlap(u->sb[i].addr, u->sb[i].size, addr, size)) { i++; continue; }
      int marked = 0;
      for (int j = 1; j <= i; j++) marked |= u->sb[j].rel != 0;
      if (marked) {
        for (int c = 0; c <= i; c++) sb_drain(m, u, 0);
        i = 0;
      } else sb_drain(m, u, i);
    }
  }
}

/* Lockstep: before a release by lane `self`, the warp's other lanes'
 * stores leave their buffers and their loads are ordered as the lane's
 * own (loads_cross), armed at once by the lane's strong write. */
void wm_warp_release(wm *m, wm_warp *w, int self, int scope) {
  if (m->h.supply) return;
  for (int k = 0; k < 32; k++) {
    wm_lane *u = &w->lane[k];
    if (k == self || u->apos < 0) continue;
    loads_cross(m, u, scope, 1);
    while (u->nsb) sb_drain(m, u, 0);
  }
}

void wm_barrier(wm *m, wm_lane *t) {
  if (m->h.supply) return;
  wm_perform_all(m, t);
  while (t->nsb) sb_drain(m, t, 0);
}

void wm_lane_retire(wm *m, wm_lane *t) {
  wm_perform_all(m, t);
  while (t->nsb) sb_drain(m, t, 0);
  t->relpend = 0;
  act_remove(m, &t->apos);
}

void wm_warp_retire(wm *m, wm_warp *w) {
  if (w->entries)
    for (int l = 0; l < 32; l++) wm_lane_retire(m, &w->lane[l]);
  else   /* no lane has anything in flight, so none is on the active list */
    for (uint32_t r = w->rel_lanes; r; r &= r - 1) w->lane[__builtin_ctz(r)].relpend = 0;
  w->rel_lanes = 0;
}

/* ------------------------------------------------------------- background actions */

int wm_busy(const wm *m) { return m->nact > 0; }

/* A write may leave the buffer before older ones to other locations,
 * unless a release fence lies between (a marked entry at or before it). */
static int sb_eligible(const wm_lane *t, int i) {
  for (int j = 0; j < i; j++)
    if (t->sb[j + 1].rel || overlap(t->sb[j].addr, t->sb[j].size, t->sb[i].addr, t->sb[i].size)) return 0;
  return 1;
}
static int ld_eligible(const wm_lane *t, int i) {
  for (int j = 0; j < i; j++) if (load_conflict(&t->ld[j], &t->ld[i])) return 0;
  return 1;
}
static int smq_eligible(const smstate *S, int i) {
  for (int j = 0; j < i; j++) if (overlap(Q(S, j).addr, Q(S, j).size, Q(S, i).addr, Q(S, i).size)) return 0;
  return 1;
}

void wm_random_action(wm *m, rng *r, uint32_t load_odds, int hold_sm, int newest) {
  if (!m->nact) return;
  active a = m->act[rng_below(r, (uint32_t)m->nact)];
  if (a.t) {
    wm_lane *t = a.t;
    int k = (int)rng_below(r, (uint32_t)(t->nsb + t->nld));
    /* a load left pending for long lets later stores overtake it (LB) */
    if (k >= t->nsb && rng_below(r, 1024) >= load_odds) {
      if (!t->nsb) return;
      k = newest ? t->nsb - 1 : (int)rng_below(r, (uint32_t)t->nsb);
    } else if (newest) k = k < t->nsb ? t->nsb - 1 : t->nsb + t->nld - 1;
    if (k < t->nsb) {
      while (!sb_eligible(t, k)) k--;
      sb_drain(m, t, k);
    } else {
      k -= t->nsb;
      while (!ld_eligible(t, k)) k--;
      perform(m, t, k);
    }
  } else {
    if (a.sm == hold_sm && rng_below(r, 16)) return;
    smstate *S = &m->sm[a.sm];
    int k = newest ? S->n - 1 : (int)rng_below(r, (uint32_t)S->n);
    while (!smq_eligible(S, k)) k--;
    smq_drain(m, a.sm, k);
  }
}

/* The enabled actions in a fixed order; with want >= 0, performs that one. */
static int actions(wm *m, int want) {
  int n = 0;
  for (int k = 0; k < m->nact; k++) {
    active a = m->act[k];
    if (a.t) {
      wm_lane *t = a.t;
      for (int i = 0; i < t->nsb; i++) if (sb_eligible(t, i) && n++ == want) { sb_drain(m, t, i); return n; }
      for (int i = 0; i < t->nld; i++) if (ld_eligible(t, i) && n++ == want) { perform(m, t, i); return n; }
    } else {
      smstate *S = &m->sm[a.sm];
      for (int i = 0; i < S->n; i++) if (smq_eligible(S, i) && n++ == want) { smq_drain(m, a.sm, i); return n; }
    }
  }
  return n;
}

int wm_count_actions(const wm *m) { return actions((wm *)m, -1); }
void wm_do_action(wm *m, int k) { actions(m, k); }

int wm_quiesce(wm *m) {
  int changed = m->nact > 0;
  while (m->nact) {
    active a = m->act[0];
    if (a.t) wm_lane_retire(m, a.t);
    else while (m->sm[a.sm].n) smq_drain(m, a.sm, 0);
  }
  for (int s = 0; s < m->nsms; s++) {
    smstate *S = &m->sm[s];
    for (int k = 0; k < L1_LINES && !changed; k++)
      if (S->l1[k].epoch == S->epoch && memcmp(S->l1[k].data, S->l1[k].hp, LINE)) changed = 1;
    S->epoch++;
  }
  return changed;
}

void wm_reset(wm *m) {
  for (int k = 0; k < m->nact; k++) {
    wm_lane *t = m->act[k].t;
    if (t) {
      for (int i = 0; i < t->nsb; i++) warp_entry(t, t->sb[i].addr, t->sb[i].size, -1);
      for (int i = 0; i < t->nld; i++) warp_entry(t, t->ld[i].addr, t->ld[i].size, -1);
      t->nsb = t->nld = 0;
      t->apos = -1;
    }
    else {
      smstate *S = &m->sm[m->act[k].sm];
      S->n = S->head = 0;
      S->apos = -1;
      memset(S->inflight, 0, sizeof S->inflight);
    }
  }
  m->nact = 0;
  m->nxs = 0;
  for (int s = 0; s < m->nsms; s++) m->sm[s].epoch++;
}

/* ------------------------------------------------------------- state keys */

static void put_store(bytes *out, const wm_write *e) {
  bytes_put(out, &e->addr, sizeof e->addr);
  bytes_put(out, &e->size, 1);
  bytes_put(out, &e->rel, 1);
  bytes_put(out, e->b, e->size);
}

void wm_serialize_lane(const wm_lane *t, bytes *out) {
  uint8_t n[3] = {(uint8_t)t->nsb, (uint8_t)t->nld, (uint8_t)t->relpend};
  bytes_put(out, n, 3);
  for (int i = 0; i < t->nsb; i++) put_store(out, &t->sb[i]);
  for (int i = 0; i < t->nld; i++) {
    const wm_load *l = &t->ld[i];
    bytes_put(out, &l->addr, sizeof l->addr);
    bytes_put(out, &l->reg, sizeof l->reg);
    bytes_put(out, &l->pc, sizeof l->pc);
    uint8_t f[5] = {l->size, l->strong, l->xs, l->xwait, l->rmw};
    bytes_put(out, f, 5);
    if (l->rmw) bytes_put(out, l->arg, sizeof l->arg);
  }
}

void wm_serialize(const wm *m, bytes *out) {
  for (int s = 0; s < m->nsms; s++) {
    const smstate *S = &m->sm[s];
    bytes_put(out, &S->n, sizeof S->n);
    for (int i = 0; i < S->n; i++) put_store(out, &Q(S, i));
    for (int k = 0; k < L1_LINES; k++) {
      const l1line *L = &S->l1[k];
      if (L->epoch != S->epoch) continue;
      bytes_put(out, &k, sizeof k);
      bytes_put(out, &L->tag, sizeof L->tag);
      bytes_put(out, L->data, LINE);
    }
    int end = -1;
    bytes_put(out, &end, sizeof end);
  }
}
