/* The happens-before oracle, in two models.  Nothing is bounded: counters
 * and clocks are 32 bits and never wrap in a run the step limit allows,
 * lock sets are exact, and shadow state is kept per byte.
 *
 * Shadow state: for each byte, the accesses that a later access may still
 * race with.  An access replaces the earlier access of its agent that has
 * the same signature (kind, strength, scope, lock set), since anything
 * ordered after the later one is ordered after the earlier; in the ScoRD
 * model it also covers what it is ordered after (below).  Every racy
 * access is found, with at least one partner.
 *
 * ScoRD model (scor-spec.md §0.2), agents are warps.  No clocks: an access
 * records its warp's fence counts (any scope, device) and its block's
 * barrier count, and is ordered before a later access of another warp once
 * its warp has fenced since (a device fence for another block), or its
 * block has passed a barrier: release side only, no acquire.  A pair
 * ordered by a barrier needs nothing more; one ordered by a fence must be
 * strong (volatile or atomic) on both sides and, where either side held an
 * inferred lock, hold one in common.  Transitivity is per location: an
 * access covers the earlier accesses to its byte that are ordered before
 * it when either writes (a read covers other warps' writes only), as
 * ScoRD's last-accessor metadata does.  An earlier block-scope atomic
 * races with a later atomic of another block whatever fences came
 * between; a later block-scope atomic races with an earlier device atomic
 * of another block that was not released to it (§0.2 point 3, R110-2).
 *
 * PTX model, agents are threads with vector clocks C (own entry: the
 * thread's synchronisation epochs).  A fence is an acquire (it joins the clocks its thread's
 * earlier strong reads observed) and a release (the clock it leaves is what
 * its thread's later strong writes carry).  A strong read that reads a
 * location observes the release clock of the write it reads from, taken as
 * the last write to the location in event order.  An atomic read-modify-
 * write continues the release sequence of the write it read.  An acquire
 * access (ld.acquire, atom.acquire or .acq_rel) joins what it observed at
 * once; a release access (st.release, atom.release or .acq_rel) carries
 * its thread's clock at the access.  Barriers join their block, __syncwarp
 * its lanes.  In the ScoRD model, which has no acquire, a release access is
 * a fence of its scope followed by the access.  Conflicting accesses race unless
 * ordered or morally strong (both strong, each in the other's scope).
 */
#include <stdlib.h>
#include <string.h>

#include "hb.h"
#include "util.h"

#define MAX_AGENTS 4096     /* clocks are N x N words */
#define SNAPSHOT_LIMIT (2048ull << 20)

/* access info bits */
#define I_WRITE 1u
#define I_ATOM 2u
#define I_STRONG 4u
#define I_SCOPE_SHIFT 3          /* 2 bits: gr_scope (volatile: system) */
#define I_KIND_SHIFT 5           /* 2 bits: gr_access_kind */
#define I_OP_SHIFT 7             /* 4 bits: atomic op */
#define I_ORDER_SHIFT 11         /* 2 bits: gr_order of a strong access */

typedef struct {
  uint32_t agent, clock, pc;  /* clock: the agent's epoch (PTX), its block's barrier count (ScoRD) */
  uint32_t fblk, fdev;        /* ScoRD: the agent's fence counts at the access */
  uint16_t info;
  uint16_t locks;            /* lock set id (ScoRD model) */
  uint8_t lane;
} acc;

typedef struct { acc *e; uint32_t n, cap; } loc;

/* PTX: the release clock a location's last write carries. */
typedef struct { const uint32_t *clock; uint32_t block; uint8_t scope; } rel;

typedef struct { loc *bytes; rel *rels; uint64_t size; } shadow;

typedef struct { uint64_t word; uint32_t key; int enabled; } lock;    /* word: allocation id << 32 | offset >> 2 */
typedef struct { lock *l; int n, cap; uint16_t set; } lockset;

typedef struct { const uint32_t *clock; uint32_t block; } pending;

typedef struct {
  gr_context *ctx;
  race_log *log;
  const char *name;
  hb_model model;
  int disabled;
  /* launch */
  gr_dim3 grid;
  uint32_t nblocks, per_block, n;   /* agents per block, agents */
  uint32_t *C, *B;                  /* PTX: n x n */
  /* ScoRD model: fences of any scope and device fences per agent, barriers per block */
  uint32_t *fblk, *fdev, *bars;
  lockset *locks;                   /* per agent */
  /* interned lock sets: sorted (word, key) lists */
  struct { lock *l; int n; } *sets;
  size_t nsets;
  /* PTX model */
  const uint32_t **release;         /* per agent: clock at its last fence, or NULL */
  uint8_t *release_scope;
  pending **pend;
  uint32_t *npend, *cappend;
  uint32_t **snaps;                 /* every clock copy, freed at launch end */
  size_t nsnaps, capsnaps;
  uint64_t snap_bytes;
  /* shadow, by allocation id; shared memory's by block, from its first
   * shared access to its end */
  shadow *sh;
  size_t nsh;
  shadow *shared;
  uint32_t shared_bytes;
  pc_table pcs;
} hb;

static void *hb_new(gr_context *ctx, race_log *log, const char *name, hb_model model) {
  hb *h = xcalloc(1, sizeof *h);
  h->ctx = ctx;
  h->log = log;
  h->name = name;
  h->model = model;
  return h;
}

void *hb_create(gr_context *ctx, const det_options *o, race_log *log, const char *name) {
  return hb_new(ctx, log, name, o->hb_model);
}
void *hb_create_ptx(gr_context *ctx, const det_options *o, race_log *log, const char *name) {
  (void)o;
  return hb_new(ctx, log, name, HB_MODEL_PTX);
}

static void shadow_free(shadow *s) {
  if (s->bytes) for (uint64_t i = 0; i < s->size; i++) free(s->bytes[i].e);
  free(s->bytes);
  free(s->rels);
  memset(s, 0, sizeof *s);
}

static void hb_free_launch(hb *h) {
  free(h->C); h->C = NULL;
  free(h->B); h->B = NULL;
  free(h->fblk); h->fblk = NULL;
  free(h->fdev); h->fdev = NULL;
  free(h->bars); h->bars = NULL;
  if (h->locks) for (uint32_t a = 0; a < h->n; a++) free(h->locks[a].l);
  free(h->locks); h->locks = NULL;
  for (size_t k = 0; k < h->nsets; k++) free(h->sets[k].l);
  free(h->sets); h->sets = NULL; h->nsets = 0;
  free(h->release); h->release = NULL;
  free(h->release_scope); h->release_scope = NULL;
  if (h->pend) for (uint32_t a = 0; a < h->n; a++) free(h->pend[a]);
  free(h->pend); h->pend = NULL;
  free(h->npend); h->npend = NULL;
  free(h->cappend); h->cappend = NULL;
  for (size_t k = 0; k < h->nsnaps; k++) free(h->snaps[k]);
  free(h->snaps); h->snaps = NULL; h->nsnaps = h->capsnaps = 0;
  h->snap_bytes = 0;
  for (size_t k = 0; k < h->nsh; k++) shadow_free(&h->sh[k]);
  free(h->sh); h->sh = NULL; h->nsh = 0;
  if (h->shared) for (uint32_t b = 0; b < h->nblocks; b++) shadow_free(&h->shared[b]);
  free(h->shared); h->shared = NULL;
  pc_table_free(&h->pcs);
  h->n = 0;
}

void hb_destroy(void *self) {
  hb *h = self;
  hb_free_launch(h);
  free(h);
}

static uint32_t *clk(uint32_t *m, hb *h, uint32_t a) { return m + (size_t)a * h->n; }

static void hb_launch(hb *h, const gr_event *ev) {
  hb_free_launch(h);
  h->disabled = 0;
  h->grid = ev->grid;
  h->nblocks = ev->grid.x * ev->grid.y * ev->grid.z;
  uint32_t threads = ev->blockdim.x * ev->blockdim.y * ev->blockdim.z;
  h->per_block = h->model == HB_MODEL_PTX ? threads : (threads + 31) / 32;
  uint64_t n = (uint64_t)h->nblocks * h->per_block;
  if (h->model == HB_MODEL_PTX && n > MAX_AGENTS) {
    char why[160];
    snprintf(why, sizeof why, "%llu threads exceed its limit of %d; it watched nothing in this launch", (unsigned long long)n, MAX_AGENTS);
    race_log_unwatched(h->log, h->name, why);
    h->disabled = 1;
    return;
  }
  if (n > UINT32_MAX / 2) {
    race_log_unwatched(h->log, h->name, "more than 2^31 agents in one launch; it watched nothing in this launch");
    h->disabled = 1;
    return;
  }
  if (n == 0) { h->disabled = 1; return; }
  h->n = (uint32_t)n;
  h->locks = xcalloc(n, sizeof *h->locks);
  if (h->model == HB_MODEL_SCORD) {
    h->fblk = xcalloc(n, sizeof *h->fblk);
    h->fdev = xcalloc(n, sizeof *h->fdev);
    h->bars = xcalloc(h->nblocks, sizeof *h->bars);
  } else {
    h->C = xcalloc((size_t)n * n, sizeof *h->C);
    h->B = xcalloc((size_t)n * n, sizeof *h->B);
    for (uint32_t a = 0; a < h->n; a++) clk(h->C, h, a)[a] = clk(h->B, h, a)[a] = 1;
    h->release = xcalloc(n, sizeof *h->release);
    h->release_scope = xcalloc(n, sizeof *h->release_scope);
    h->pend = xcalloc(n, sizeof *h->pend);
    h->npend = xcalloc(n, sizeof *h->npend);
    h->cappend = xcalloc(n, sizeof *h->cappend);
  }
  h->nsh = gr_allocation_count(h->ctx) + 1;
  h->sh = xcalloc(h->nsh, sizeof *h->sh);
  h->shared_bytes = ev->shared_bytes;
  h->shared = xcalloc(h->nblocks, sizeof *h->shared);
  /* lock set 0 is the empty set */
  h->sets = xcalloc(1, sizeof *h->sets);
  h->nsets = 1;
}

static void join(uint32_t *dst, const uint32_t *src, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) if (src[i] > dst[i]) dst[i] = src[i];
}

static uint32_t block_of(const hb *h, uint32_t agent) { return agent / h->per_block; }

static void tick(hb *h, uint32_t a) {
  clk(h->C, h, a)[a]++;
  clk(h->B, h, a)[a] = clk(h->C, h, a)[a];
}

static const uint32_t *snapshot(hb *h, const uint32_t *c) {
  if (h->nsnaps == h->capsnaps) {
    h->capsnaps = h->capsnaps ? 2 * h->capsnaps : 64;
    h->snaps = xrealloc(h->snaps, h->capsnaps * sizeof *h->snaps);
  }
  uint32_t *s = xcalloc(h->n, sizeof *s);
  memcpy(s, c, (size_t)h->n * sizeof *s);
  h->snaps[h->nsnaps++] = s;
  /* A clock per release: a launch with many threads that fence often
   * (MM's per-lane locks) would take tens of GiB; past the limit the
   * detector says so and stops watching the launch. */
  h->snap_bytes += (uint64_t)h->n * sizeof *s;
  if (h->snap_bytes > SNAPSHOT_LIMIT && !h->disabled) {
    char why[160];
    snprintf(why, sizeof why, "its release clocks exceeded %d MiB in a launch; it watched nothing more in it", (int)(SNAPSHOT_LIMIT >> 20));
    race_log_unwatched(h->log, h->name, why);
    h->disabled = 1;
  }
  return s;
}

static int scope_includes(const hb *h, int scope, uint32_t a, uint32_t b) {
  return scope != GR_SCOPE_BLOCK || block_of(h, a) == block_of(h, b);
}

/* ---------------------------------------------------------------- locks (ScoRD model) */

static int lock_cmp(const lock *a, const lock *b) {
  if (a->word != b->word) return a->word < b->word ? -1 : 1;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return 0;
}

/* The id of the set of enabled locks the agent holds. */
static void lockset_update(hb *h, lockset *s) {
  lock tmp[64];
  int n = 0;
  for (int k = 0; k < s->n && n < 64; k++) {
    if (!s->l[k].enabled) continue;
    int i = n++;
    while (i > 0 && lock_cmp(&tmp[i - 1], &s->l[k]) > 0) { tmp[i] = tmp[i - 1]; i--; }
    tmp[i] = s->l[k];
  }
  for (size_t id = 0; id < h->nsets; id++) {
    if (h->sets[id].n != n) continue;
    int same = 1;
    for (int k = 0; k < n && same; k++) same = !lock_cmp(&h->sets[id].l[k], &tmp[k]);
    if (same) { s->set = (uint16_t)id; return; }
  }
  if (h->nsets >= 65535) { s->set = 0; return; }
  h->sets = xrealloc(h->sets, (h->nsets + 1) * sizeof *h->sets);
  h->sets[h->nsets].l = xcalloc((size_t)n, sizeof(lock));
  memcpy(h->sets[h->nsets].l, tmp, (size_t)n * sizeof(lock));
  h->sets[h->nsets].n = n;
  s->set = (uint16_t)h->nsets++;
}

static int sets_meet(const hb *h, uint16_t a, uint16_t b) {
  const lock *x = h->sets[a].l, *y = h->sets[b].l;
  int i = 0, j = 0;
  while (i < h->sets[a].n && j < h->sets[b].n) {
    int c = lock_cmp(&x[i], &y[j]);
    if (!c) return 1;
    if (c < 0) i++; else j++;
  }
  return 0;
}

static void lock_acquire(hb *h, uint32_t a, uint64_t word, uint32_t key) {
  lockset *s = &h->locks[a];
  for (int k = 0; k < s->n; k++) if (s->l[k].word == word && s->l[k].key == key) return;
  if (s->n == s->cap) { s->cap = s->cap ? 2 * s->cap : 4; s->l = xrealloc(s->l, (size_t)s->cap * sizeof *s->l); }
  s->l[s->n++] = (lock){word, key, 0};
}

static void lock_release(hb *h, uint32_t a, uint64_t word, uint32_t key) {
  lockset *s = &h->locks[a];
  for (int k = 0; k < s->n; k++) {
    if (s->l[k].word == word && s->l[k].key == key) {
      s->l[k] = s->l[--s->n];
      lockset_update(h, s);
      return;
    }
  }
}

/* ---------------------------------------------------------------- reports */

static void side_of(const hb *h, const acc *e, gr_race_access *s) {
  memset(s, 0, sizeof *s);
  pc_table_fill(&h->pcs, e->pc, s);
  uint32_t b = block_of(h, e->agent), in = e->agent % h->per_block;
  s->block.x = b % h->grid.x;
  s->block.y = b / h->grid.x % h->grid.y;
  s->block.z = b / h->grid.x / h->grid.y;
  s->warp = h->model == HB_MODEL_PTX ? in / 32 : in;
  s->lane = e->lane;
  s->kind = (gr_access_kind)(e->info >> I_KIND_SHIFT & 3);
  s->atomic_op = e->info >> I_OP_SHIFT & 15;
  s->scope = (gr_scope)(e->info >> I_SCOPE_SHIFT & 3);
  s->order = (gr_order)(e->info >> I_ORDER_SHIFT & 3);
  s->strong = (e->info & I_STRONG) != 0;
}

/* ---------------------------------------------------------------- the check */

/* ScoRD model: e's agent has released e to x's agent, by a barrier of
 * their block (2), or by a fence of sufficient scope since e (1); else 0. */
static int released_scord(const hb *h, const acc *e, const acc *x) {
  uint32_t b = block_of(h, e->agent);
  if (b != block_of(h, x->agent)) return h->fdev[e->agent] > e->fdev;
  if (h->bars[b] > e->clock) return 2;
  return h->fblk[e->agent] > e->fblk;
}

static int block_atomic(const acc *e) { return (e->info & I_ATOM) && (e->info >> I_SCOPE_SHIFT & 3) == GR_SCOPE_BLOCK; }

static const char *classify_scord(hb *h, const acc *e, const acc *x) {
  int both_atomic = (e->info & I_ATOM) && (x->info & I_ATOM);
  int rel = released_scord(h, e, x);
  if (rel == 2) return NULL;   /* barriers need nothing more */
  int ordered = rel == 1;
  int scoped = block_atomic(e) || block_atomic(x);
  int same_block = block_of(h, e->agent) == block_of(h, x->agent);
  /* An earlier block-scope atomic was not coherent outside its block: a
   * later atomic of another block races with it whatever fences came
   * between.  A later block-scope atomic races with an earlier device one
   * that was not released to it (R110-2), not with one that was (N4). */
  if (both_atomic) return !same_block && (block_atomic(e) || (block_atomic(x) && !ordered)) ? "scoped atomic" : NULL;
  if (!ordered) {
    if (scoped && !same_block) return "scoped atomic";
    return same_block ? "missing block fence" : "missing device fence";
  }
  if (!(e->info & I_STRONG) || !(x->info & I_STRONG)) return "not a strong access";
  if ((e->locks || x->locks) && !sets_meet(h, e->locks, x->locks))
    return (x->info & I_WRITE) ? "missing common lock on store" : "missing common lock on load";
  return NULL;
}

static const char *classify_ptx(hb *h, const acc *e, const acc *x) {
  int es = e->info >> I_SCOPE_SHIFT & 3, xs = x->info >> I_SCOPE_SHIFT & 3;
  int strong = (e->info & I_STRONG) && (x->info & I_STRONG);
  if (strong && scope_includes(h, es, e->agent, x->agent) && scope_includes(h, xs, x->agent, e->agent)) return NULL;
  if (clk(h->C, h, x->agent)[e->agent] >= e->clock) return NULL;
  return strong ? "scope too narrow" : "not morally strong";
}

typedef struct { uint32_t agent, pc; const char *cls; } seen;

static void check_byte(hb *h, loc *L, const acc *x, const gr_event *ev, int lane, uint64_t addr, seen *done, int *ndone) {
  for (uint32_t k = 0; k < L->n; k++) {
    const acc *e = &L->e[k];
    if (e->agent == x->agent) continue;
    if (!((e->info | x->info) & I_WRITE)) continue;
    const char *cls = h->model == HB_MODEL_PTX ? classify_ptx(h, e, x) : classify_scord(h, e, x);
    if (!cls) continue;
    int dup = 0;
    for (int d = 0; d < *ndone && !dup; d++) dup = done[d].agent == e->agent && done[d].pc == e->pc && done[d].cls == cls;
    if (dup || *ndone >= 32) continue;
    done[(*ndone)++] = (seen){e->agent, e->pc, cls};
    gr_race r;
    memset(&r, 0, sizeof r);
    r.detector = h->name;
    r.cls = cls;
    r.space = ev->space;
    if (ev->space == GR_SPACE_GLOBAL) {
      const char *buf = "?";
      uint64_t off = 0;
      gr_describe_address(h->ctx, addr, &buf, &off);
      r.buffer = buf;
      r.offset = off;
    } else r.offset = (uint32_t)addr;   /* shared memory: the offset in the block's */
    side_of(h, e, &r.first);
    race_access_from_event(&r.second, ev, lane);
    race_log_add(h->log, &r);
  }
  /* The access replaces its agent's earlier one of the same signature.  In
   * the ScoRD model it also covers the earlier accesses it is ordered
   * after, when either writes (a read covers another agent's write, which
   * ScoRD forgets once read, but not its own): later accesses are checked
   * against it, so ordering is transitive along the location's accesses
   * (scor-spec.md §0.2 point 6), not along everything its agent learnt. */
  uint32_t keep = 0;
  for (uint32_t k = 0; k < L->n; k++) {
    acc *e = &L->e[k];
    int covered = e->agent == x->agent && e->info == x->info && e->locks == x->locks;
    if (!covered && h->model == HB_MODEL_SCORD) {
      int xw = (x->info & I_WRITE) != 0, ew = (e->info & I_WRITE) != 0;
      if (e->agent == x->agent) covered = xw;
      else covered = (xw || ew) && released_scord(h, e, x);
    }
    if (!covered) L->e[keep++] = *e;
  }
  L->n = keep;
  if (L->n == L->cap) { L->cap = L->cap ? 2 * L->cap : 2; L->e = xrealloc(L->e, L->cap * sizeof *L->e); }
  L->e[L->n++] = *x;
}

static shadow *shadow_of(hb *h, size_t id, int want_rels) {
  if (id == 0 || id >= h->nsh) return NULL;
  shadow *s = &h->sh[id];
  if (!s->bytes) {
    uint64_t size;
    if (gr_allocation_info(h->ctx, id, &size, NULL)) return NULL;
    s->size = size;
    s->bytes = xcalloc(size, sizeof *s->bytes);
  }
  if (want_rels && !s->rels) s->rels = xcalloc(s->size, sizeof *s->rels);
  return s;
}

/* The block's shared memory: every thread of it may touch it, none other. */
static shadow *shared_of(hb *h, uint32_t block, int want_rels) {
  if (block >= h->nblocks || !h->shared_bytes) return NULL;
  shadow *s = &h->shared[block];
  if (!s->bytes) {
    s->size = h->shared_bytes;
    s->bytes = xcalloc(s->size, sizeof *s->bytes);
  }
  if (want_rels && !s->rels) s->rels = xcalloc(s->size, sizeof *s->rels);
  return s;
}

static uint32_t agent_of(const hb *h, const gr_event *ev, int lane) {
  if (h->model == HB_MODEL_PTX) return ev->block * h->per_block + ev->warp_in_block * 32 + (uint32_t)lane;
  return ev->block * h->per_block + ev->warp_in_block;
}

static void ptx_pending_add(hb *h, uint32_t a, const rel *r) {
  if (h->npend[a] == h->cappend[a]) {
    h->cappend[a] = h->cappend[a] ? 2 * h->cappend[a] : 4;
    h->pend[a] = xrealloc(h->pend[a], h->cappend[a] * sizeof *h->pend[a]);
  }
  h->pend[a][h->npend[a]++] = (pending){r->clock, r->block};
}

static void scord_fence(hb *h, uint32_t a, int device);

/* Global and shared memory.  Local memory is the thread's own: no other
 * thread can reach it (a local address names the accessor's own frame), so
 * it has no race to find. */
static void on_access(hb *h, const gr_event *ev) {
  if (ev->space != GR_SPACE_GLOBAL && ev->space != GR_SPACE_SHARED) return;
  int shared = ev->space == GR_SPACE_SHARED;
  int atom = ev->access == GR_ATOMIC, write = ev->access != GR_LOAD, strong = atom || ev->is_volatile;
  int scope = strong ? (int)ev->scope : GR_SCOPE_SYSTEM;
  int acquire = strong && (ev->order == GR_ORDER_ACQUIRE || ev->order == GR_ORDER_ACQ_REL);
  int release = strong && write && (ev->order == GR_ORDER_RELEASE || ev->order == GR_ORDER_ACQ_REL);
  uint16_t info = (uint16_t)((write ? I_WRITE : 0) | (atom ? I_ATOM : 0) | (strong ? I_STRONG : 0) |
                             (unsigned)scope << I_SCOPE_SHIFT | (unsigned)ev->access << I_KIND_SHIFT |
                             (unsigned)(atom ? ev->atomic_op & 15 : 0) << I_OP_SHIFT |
                             (unsigned)(strong ? ev->order & 3 : 0) << I_ORDER_SHIFT);
  pc_table_note(&h->pcs, ev);
  for (uint32_t mm = ev->mask; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    uint32_t a = agent_of(h, ev, l);
    if (a >= h->n) continue;
    if (release && h->model == HB_MODEL_SCORD && l == __builtin_ctz(ev->mask)) scord_fence(h, a, scope != GR_SCOPE_BLOCK);
    acc x = {a, 0, (uint32_t)ev->pc, 0, 0, info, h->locks[a].set, (uint8_t)l};
    if (h->model == HB_MODEL_PTX) x.clock = clk(h->C, h, a)[a];
    else { x.clock = h->bars[block_of(h, a)]; x.fblk = h->fblk[a]; x.fdev = h->fdev[a]; }
    uint64_t addr = ev->addr[l];
    size_t id = shared ? 0 : gr_allocation_id(addr);
    shadow *s = shared ? shared_of(h, ev->block, h->model == HB_MODEL_PTX) : shadow_of(h, id, h->model == HB_MODEL_PTX);
    if (!s) continue;
    uint64_t off = (uint32_t)addr;
    seen done[32];
    int ndone = 0;
    /* a release access carries the clock its thread has at the access */
    const uint32_t *mine = !strong || h->model != HB_MODEL_PTX ? NULL : release ? snapshot(h, clk(h->C, h, a)) : h->release[a];
    int mine_scope = release ? scope : h->release_scope ? h->release_scope[a] : scope;
    for (int i = 0; i < ev->size && off + (uint64_t)i < s->size; i++) {
      check_byte(h, &s->bytes[off + (uint64_t)i], &x, ev, l, addr + (uint64_t)i, done, &ndone);
      if (h->model != HB_MODEL_PTX) continue;
      rel *r = &s->rels[off + (uint64_t)i];
      /* acquire side: a strong read observes the release its write carried */
      if (strong && !(write && !atom) && r->clock && scope_includes(h, scope, a, r->block * h->per_block) &&
          (r->scope != GR_SCOPE_BLOCK || r->block == block_of(h, a))) {
        if (acquire) join(clk(h->C, h, a), r->clock, h->n);
        else ptx_pending_add(h, a, r);
      }
      if (!write) continue;
      /* release side */
      if (mine) {
        int sc = mine_scope < scope ? mine_scope : scope;
        if (atom && r->clock) {   /* a read-modify-write continues the release sequence */
          uint32_t tmp[MAX_AGENTS];
          memcpy(tmp, r->clock, (size_t)h->n * sizeof *tmp);
          join(tmp, mine, h->n);
          r->clock = snapshot(h, tmp);
          if (sc < r->scope) r->scope = (uint8_t)sc;
        } else {
          r->clock = mine;
          r->scope = (uint8_t)sc;
          r->block = block_of(h, a);
        }
      } else if (!atom) {
        r->clock = NULL;          /* a plain or unreleased write ends the release sequence */
      }
    }
    /* the thread's later accesses are not covered by what it released */
    if (release && h->model == HB_MODEL_PTX) tick(h, a);
    /* lock inference (ScoRD model): successful atomicCAS(L, 0, v != 0)
     * acquires L, atomicExch(L, 0) releases it; a device-scope lock is also
     * a block-scope lock of the holder's block */
    if (atom && h->model == HB_MODEL_SCORD) {
      /* a lock in shared memory is its block's: its word names the block */
      uint64_t word = shared ? (uint64_t)(0x80000000u | ev->block) << 32 | off >> 2 : (uint64_t)id << 32 | off >> 2;
      uint32_t bkey = block_of(h, a) + 1;
      int device = ev->scope != GR_SCOPE_BLOCK;
      if (ev->atomic_op == 7 && ev->operand[l] == 0 && ev->value[l] == 0 && ev->operand2[l] != 0) {
        if (device) lock_acquire(h, a, word, 0);
        lock_acquire(h, a, word, bkey);
      } else if (ev->atomic_op == 2 && ev->operand[l] == 0) {
        if (device) lock_release(h, a, word, 0);
        lock_release(h, a, word, bkey);
      }
    }
  }
}

/* ScoRD model: warp a fences. */
static void scord_fence(hb *h, uint32_t a, int device) {
  h->fblk[a]++;
  if (device) h->fdev[a]++;
  lockset *s = &h->locks[a];
  for (int k = 0; k < s->n; k++) if (device || s->l[k].key != 0) s->l[k].enabled = 1;
  lockset_update(h, s);
}

static void on_fence(hb *h, const gr_event *ev) {
  int device = ev->scope != GR_SCOPE_BLOCK;
  if (h->model == HB_MODEL_SCORD) {
    uint32_t a = agent_of(h, ev, 0);
    if (a < h->n) scord_fence(h, a, device);
    return;
  }
  for (uint32_t mm = ev->mask; mm; mm &= mm - 1) {
    uint32_t a = agent_of(h, ev, __builtin_ctz(mm));
    if (a >= h->n) continue;
    uint32_t *c = clk(h->C, h, a);
    uint32_t keep = 0;
    for (uint32_t k = 0; k < h->npend[a]; k++) {
      pending *p = &h->pend[a][k];
      if (device || p->block == block_of(h, a)) join(c, p->clock, h->n);
      else h->pend[a][keep++] = *p;
    }
    h->npend[a] = keep;
    h->release[a] = snapshot(h, c);
    h->release_scope[a] = (uint8_t)ev->scope;
    tick(h, a);
  }
}

/* Joins the clocks of agents [first, first+count) where `member` says so. */
static void join_group(hb *h, uint32_t first, uint32_t count, uint32_t member_mask, int use_mask) {
  uint32_t *J = xcalloc(h->n, sizeof *J), *JB = xcalloc(h->n, sizeof *JB);
  for (uint32_t i = 0; i < count; i++) {
    if (use_mask && !(member_mask >> i & 1)) continue;
    uint32_t a = first + i;
    if (a >= h->n) continue;
    join(J, clk(h->C, h, a), h->n);
    join(JB, clk(h->B, h, a), h->n);
  }
  for (uint32_t i = 0; i < count; i++) {
    if (use_mask && !(member_mask >> i & 1)) continue;
    uint32_t a = first + i;
    if (a >= h->n) continue;
    memcpy(clk(h->C, h, a), J, (size_t)h->n * sizeof *J);
    memcpy(clk(h->B, h, a), JB, (size_t)h->n * sizeof *JB);
    tick(h, a);
  }
  free(J);
  free(JB);
}

void hb_on_event(void *self, const gr_event *ev) {
  hb *h = self;
  if (ev->kind == GR_EV_LAUNCH_BEGIN) { hb_launch(h, ev); return; }
  if (h->disabled || !h->n) return;
  switch (ev->kind) {
  case GR_EV_ACCESS: on_access(h, ev); break;
  case GR_EV_FENCE: on_fence(h, ev); break;
  case GR_EV_BARRIER:
    if (h->model == HB_MODEL_PTX) {
      /* bar.sync: a block-scope fence of each thread, then the join */
      gr_event f = *ev;
      f.kind = GR_EV_FENCE;
      f.scope = GR_SCOPE_BLOCK;
      for (uint32_t w = 0; w * 32 < h->per_block; w++) {
        f.warp_in_block = w;
        uint32_t lanes = h->per_block - w * 32 >= 32 ? 32 : h->per_block - w * 32;
        f.mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
        on_fence(h, &f);
      }
    }
    if (h->model == HB_MODEL_SCORD) {
      if (ev->block < h->nblocks) h->bars[ev->block]++;
    } else {
      join_group(h, ev->block * h->per_block, h->per_block, 0, 0);
    }
    break;
  case GR_EV_SYNCWARP:
    if (h->model == HB_MODEL_PTX) join_group(h, ev->block * h->per_block + ev->warp_in_block * 32, 32, ev->mask, 1);
    break;
  case GR_EV_BLOCK_END:   /* its shared memory ends with it */
    if (h->shared && ev->block < h->nblocks) shadow_free(&h->shared[ev->block]);
    break;
  case GR_EV_LAUNCH_END: hb_free_launch(h); break;
  default: break;
  }
}
