/* ScoRD as a golden model.
 *
 * The detector watches global memory only, and its agent is a warp: two
 * accesses of one warp never race (the design assumes pre-Volta lockstep).
 * Each tracked granule (4 bytes by default; 8 or 16 as an option) has one
 * 8-byte metadata word, packed exactly as below, so that every bound of the
 * hardware holds here too: fence IDs wrap at 64, barrier IDs at 256, a lock
 * set is a 16-bit bloom filter, and the metadata cache is direct-mapped
 * over the device memory (a sixteenth as many entries as its granules),
 * interleaved (granule g in entry g mod entries, as the paper indexes the
 * metadata region with the address), each with a 4-bit tag that says
 * which granule it describes (another granule's access evicts it, and its
 * history is lost).
 *
 *   bit  0     Modified      the last owner wrote
 *   bit  1     BlkShared     read by several warps of one block since
 *   bit  2     DevShared     read by several blocks since
 *   bit  3     IsAtom        the last owner's access was atomic
 *   bit  4     Scope         ... with block scope
 *   bit  5     Strong        every access since the owner's was volatile or atomic
 *   bits 6-11  block fence ID of the owner at its access
 *   bits 12-17 device fence ID of the owner at its access
 *   bits 18-25 barrier ID of the owner's block at its access
 *   bits 26-41 lock bloom filter: locks held by every access since
 *   bits 42-45 tag (metadata cache)
 *   bits 46-50 owner warp, in its block
 *   bits 51-63 owner block
 *
 * Modified, BlkShared and DevShared all set is the state "no owner" that a
 * granule starts in and returns to after a race is declared.
 *
 * Beside the metadata, the detector keeps for each granule where its owner's
 * access was in the source.  That table is for the report only: no decision
 * reads it.
 */
#include <stdlib.h>
#include <string.h>

#include "scord.h"
#include "util.h"

/* ---------------------------------------------------------------- metadata */

#define F_M 1u
#define F_BS 2u
#define F_DS 4u
#define F_ATOM 8u
#define F_SCOPE 16u
#define F_STRONG 32u
#define MD_NONE (F_M | F_BS | F_DS)

uint64_t scord_md_pack(const scord_md *m) {
  uint64_t w = 0;
  w |= (uint64_t)(m->modified & 1) << 0;
  w |= (uint64_t)(m->blk_shared & 1) << 1;
  w |= (uint64_t)(m->dev_shared & 1) << 2;
  w |= (uint64_t)(m->is_atom & 1) << 3;
  w |= (uint64_t)(m->block_scope & 1) << 4;
  w |= (uint64_t)(m->strong & 1) << 5;
  w |= (uint64_t)(m->blk_fence & 63) << 6;
  w |= (uint64_t)(m->dev_fence & 63) << 12;
  w |= (uint64_t)(m->barrier & 255) << 18;
  w |= (uint64_t)(m->bloom & 0xffff) << 26;
  w |= (uint64_t)(m->tag & 15) << 42;
  w |= (uint64_t)(m->warp & 31) << 46;
  w |= (uint64_t)(m->block & 0x1fff) << 51;
  return w;
}

void scord_md_unpack(uint64_t w, scord_md *m) {
  m->modified = w & 1;
  m->blk_shared = w >> 1 & 1;
  m->dev_shared = w >> 2 & 1;
  m->is_atom = w >> 3 & 1;
  m->block_scope = w >> 4 & 1;
  m->strong = w >> 5 & 1;
  m->blk_fence = w >> 6 & 63;
  m->dev_fence = w >> 12 & 63;
  m->barrier = w >> 18 & 255;
  m->bloom = w >> 26 & 0xffff;
  m->tag = w >> 42 & 15;
  m->warp = w >> 46 & 31;
  m->block = w >> 51 & 0x1fff;
}

/* Two 8-bit bins, each indexed by three bits of (lock word ^ scope key). */
unsigned scord_lock_bloom(uint64_t lock_word, uint64_t key) {
  uint64_t v = lock_word ^ key;
  return 1u << (v & 7) | 1u << (8 + (v >> 3 & 7));
}

static int bloom_empty(unsigned b) { return (b & 0xff) == 0 || (b >> 8) == 0; }
static unsigned bloom_and(unsigned a, unsigned b) { return a & b; }

/* ---------------------------------------------------------------- state */

/* A lock table entry: the bloom bits of one inferred lock, its scope, and
 * whether a fence of sufficient scope has enabled it. */
typedef struct { unsigned bloom; unsigned char block_scope, enabled; } lock_entry;
#define LOCK_TABLE 4

typedef struct {
  unsigned blk_fence, dev_fence;   /* 6-bit counters */
  lock_entry lock[LOCK_TABLE];     /* oldest first */
  int nlock;
} warp_state;

/* Who an access was, for reports: 24 bytes, its source position by pc
 * (pc_table).  Three per granule (owner, last, other) beside 8 bytes of
 * metadata: the report tables are most of the detector's memory (a 2^22
 * triad's 12.6 million granules: 1.0 GB, 1.6 GB when a site named its
 * file, line and column). */
typedef struct {
  uint64_t granule;
  uint32_t pc, block;
  unsigned char warp, lane, kind, atomic_op, scope, order, strong, valid;
} site;

typedef struct {
  gr_context *ctx;
  race_log *log;
  const char *name;
  int cached;
  unsigned gran;                   /* bytes per granule */
  uint64_t devmem;                 /* the device memory the metadata region covers */
  uint64_t entries;                /* metadata cache entries: granule g is in entry g mod entries */
  /* linear layout of global memory, as the hardware's heap */
  uint64_t *base;                  /* by allocation id */
  size_t nbase;
  uint64_t heap;
  /* shadow */
  uint64_t *md;
  site *who;                       /* the owner's access */
  /* report only: the last access of the entry's granule, and the last one
   * by another warp than that, so that a race found against a shared
   * granule whose owner is the accessor itself names a warp it races with */
  site *last, *other;
  uint64_t nmd;
  pc_table pcs;
  /* fence file */
  uint32_t nblocks, wpb;
  warp_state *warps;
  unsigned *barrier;               /* per block, 8 bits */
  gr_dim3 grid;
} scord;

static void *scord_new(gr_context *ctx, const det_options *o, race_log *log, const char *name, int cached) {
  scord *s = xcalloc(1, sizeof *s);
  s->ctx = ctx;
  s->log = log;
  s->name = name;
  s->cached = cached;
  s->gran = o->scord_granularity == 8 || o->scord_granularity == 16 ? (unsigned)o->scord_granularity : 4;
  s->devmem = o->scord_device_memory ? o->scord_device_memory : (uint64_t)1536 << 20;
  return s;
}

void *scord_create_cached(gr_context *ctx, const det_options *o, race_log *log, const char *name) {
  return scord_new(ctx, o, log, name, 1);
}
void *scord_create_nocache(gr_context *ctx, const det_options *o, race_log *log, const char *name) {
  return scord_new(ctx, o, log, name, 0);
}

static void scord_free_launch(scord *s) {
  free(s->base); s->base = NULL;
  free(s->md); s->md = NULL;
  free(s->who); s->who = NULL;
  free(s->last); s->last = NULL;
  free(s->other); s->other = NULL;
  free(s->warps); s->warps = NULL;
  free(s->barrier); s->barrier = NULL;
  pc_table_free(&s->pcs);
}

void scord_destroy(void *self) {
  scord *s = self;
  scord_free_launch(s);
  free(s);
}

/* The shadow is laid out at each launch over the allocations that exist,
 * which is when the hardware design allocates it too. */
static void scord_launch(scord *s, const gr_event *ev) {
  scord_free_launch(s);
  s->nbase = gr_allocation_count(s->ctx) + 1;
  s->base = xcalloc(s->nbase, sizeof *s->base);
  uint64_t at = 0;
  for (size_t id = 1; id < s->nbase; id++) {
    uint64_t size;
    if (gr_allocation_info(s->ctx, id, &size, NULL)) continue;
    s->base[id] = at;
    at += (size + 255) / 256 * 256;
  }
  s->heap = at;
  uint64_t granules = (at + s->gran - 1) / s->gran;
  /* the metadata region is a sixteenth of the device memory (the heap if
   * larger, so that a 4-bit tag tells its granules apart); only the
   * entries the heap's granules map to are kept */
  uint64_t devg = ((at > s->devmem ? at : s->devmem) + s->gran - 1) / s->gran;
  s->entries = (devg + 15) / 16;
  s->nmd = s->cached && s->entries < granules ? s->entries : granules;
  if (s->nmd == 0) s->nmd = 1;
  s->md = xcalloc(s->nmd, sizeof *s->md);
  s->who = xcalloc(s->nmd, sizeof *s->who);
  s->last = xcalloc(s->nmd, sizeof *s->last);
  s->other = xcalloc(s->nmd, sizeof *s->other);
  for (uint64_t k = 0; k < s->nmd; k++) s->md[k] = MD_NONE;
  s->grid = ev->grid;
  s->nblocks = ev->grid.x * ev->grid.y * ev->grid.z;
  s->wpb = (ev->blockdim.x * ev->blockdim.y * ev->blockdim.z + 31) / 32;
  s->warps = xcalloc((size_t)s->nblocks * s->wpb, sizeof *s->warps);
  s->barrier = xcalloc(s->nblocks, sizeof *s->barrier);
}

static warp_state *warp_of(scord *s, uint32_t block, uint32_t warp) {
  return &s->warps[(size_t)block * s->wpb + warp];
}

/* The owner's entry in the fence file, from the IDs in the metadata. */
static warp_state *owner_of(scord *s, const scord_md *m) {
  uint32_t block = m->block, warp = m->warp;
  if (block >= s->nblocks || warp >= s->wpb) return NULL;
  return warp_of(s, block, warp);
}

static unsigned held_bloom(const warp_state *w) {
  unsigned b = 0;
  for (int k = 0; k < w->nlock; k++) if (w->lock[k].enabled) b |= w->lock[k].bloom;
  return b;
}

static void lock_insert(warp_state *w, unsigned bloom, int block_scope) {
  for (int k = 0; k < w->nlock; k++) if (w->lock[k].bloom == bloom && w->lock[k].block_scope == block_scope) return;
  if (w->nlock == LOCK_TABLE) {   /* full: the oldest entry goes */
    memmove(&w->lock[0], &w->lock[1], (LOCK_TABLE - 1) * sizeof w->lock[0]);
    w->nlock--;
  }
  w->lock[w->nlock++] = (lock_entry){bloom, (unsigned char)block_scope, 0};
}

static void lock_erase(warp_state *w, unsigned bloom, int block_scope) {
  for (int k = 0; k < w->nlock; k++) {
    if (w->lock[k].bloom == bloom && w->lock[k].block_scope == block_scope) {
      memmove(&w->lock[k], &w->lock[k + 1], (size_t)(w->nlock - k - 1) * sizeof w->lock[0]);
      w->nlock--;
      return;
    }
  }
}

/* A fence enables the locks it covers: a device fence all, a block fence
 * the block-scoped ones. */
static void locks_enable(warp_state *w, int device) {
  for (int k = 0; k < w->nlock; k++) if (device || w->lock[k].block_scope) w->lock[k].enabled = 1;
}

/* ---------------------------------------------------------------- checks */

/* The accessor, as the request packet carries it. */
typedef struct {
  uint32_t block, warp;
  unsigned barrier, bloom;
  int write, atom, block_scope, strong;
  const gr_event *ev;
  int lane;
  uint64_t granule;
} access;

static void site_of(site *t, const access *x) {
  t->pc = (uint32_t)x->ev->pc;
  t->block = x->block;
  t->warp = (unsigned char)x->warp;
  t->granule = x->granule;
  t->lane = (unsigned char)x->lane;
  t->kind = (unsigned char)x->ev->access;
  t->atomic_op = (unsigned char)x->ev->atomic_op;
  t->scope = (unsigned char)x->ev->scope;
  t->order = (unsigned char)x->ev->order;
  t->strong = (unsigned char)(x->ev->is_volatile || x->ev->access == GR_ATOMIC);
  t->valid = 1;
}

static int other_warp(const site *t, const access *x) {
  return t->valid && t->granule == x->granule && (t->block != x->block || t->warp != x->warp);
}

static const char *const C_BLOCK_FENCE = "missing block fence";
static const char *const C_DEVICE_FENCE = "missing device fence";
static const char *const C_NOT_STRONG = "not a strong access";
static const char *const C_SCOPED_ATOMIC = "scoped atomic";
static const char *const C_LOCK_LOAD = "missing common lock on load";
static const char *const C_LOCK_STORE = "missing common lock on store";

static void set_owner(scord *s, uint64_t idx, scord_md *m, const access *x) {
  warp_state *w = warp_of(s, x->block, x->warp);
  m->warp = x->warp;
  m->block = x->block;
  m->barrier = x->barrier;
  m->blk_fence = w->blk_fence;
  m->dev_fence = w->dev_fence;
  m->is_atom = (unsigned)x->atom;
  m->block_scope = (unsigned)x->block_scope;
  site_of(&s->who[idx], x);
}

/* The granule becomes the accessor's alone: a first access, one after a
 * barrier of its block, or one after a declared race. */
static void take_fresh(scord *s, uint64_t idx, scord_md *m, const access *x) {
  set_owner(s, idx, m, x);
  m->modified = (unsigned)x->write;
  m->blk_shared = m->dev_shared = 0;
  m->bloom = x->bloom;
  m->strong = (unsigned)x->strong;
}

static void declare(scord *s, uint64_t idx, const scord_md *m, const access *x, const char *cls, uint64_t addr) {
  gr_race r;
  memset(&r, 0, sizeof r);
  r.detector = s->name;
  r.cls = cls;
  r.space = GR_SPACE_GLOBAL;
  const char *buf = "?";
  uint64_t off = 0;
  gr_describe_address(s->ctx, addr, &buf, &off);
  r.buffer = buf;
  r.offset = off;
  /* the partner: the owner's access, unless the owner is the accessor's
   * own warp (a granule it shared with readers since): then the latest
   * access of another warp, which is the one it races with */
  const site *t = &s->who[idx];
  uint32_t b = m->block, warp = m->warp;
  if (!other_warp(t, x)) {
    const site *o = other_warp(&s->last[idx], x) ? &s->last[idx] : other_warp(&s->other[idx], x) ? &s->other[idx] : NULL;
    if (o) { t = o; b = o->block; warp = o->warp; }
  }
  pc_table_fill(&s->pcs, t->pc, &r.first);
  r.first.block.x = s->grid.x ? b % s->grid.x : 0;
  r.first.block.y = s->grid.x && s->grid.y ? b / s->grid.x % s->grid.y : 0;
  r.first.block.z = s->grid.x && s->grid.y ? b / s->grid.x / s->grid.y : 0;
  r.first.warp = warp;
  r.first.lane = t->lane;
  r.first.kind = (gr_access_kind)t->kind;
  r.first.atomic_op = t->atomic_op;
  r.first.scope = (gr_scope)t->scope;
  r.first.order = (gr_order)t->order;
  r.first.strong = t->strong;
  race_access_from_event(&r.second, x->ev, x->lane);
  race_log_add(s->log, &r);
}

/* Table III (preliminary checks), then Table IV (race conditions), for one
 * access to one granule.  After a race the granule returns to "no owner"
 * and the access takes it, so the run goes on and every later race is
 * found against the new owner. */
static void check(scord *s, uint64_t idx, unsigned tag, const access *x, uint64_t addr) {
  scord_md m;
  scord_md_unpack(s->md[idx], &m);
  if (s->cached && m.tag != tag) {   /* another granule's entry: its history is lost */
    scord_md_unpack(MD_NONE, &m);
    m.tag = tag;
  }
  int same_block = m.block == (x->block & 0x1fff);   /* as wide as the metadata holds */
  int same_warp = same_block && m.warp == x->warp;
  const warp_state *o = owner_of(s, &m);
  unsigned o_blk = o ? o->blk_fence : 0, o_dev = o ? o->dev_fence : 0;
  const char *race = NULL;

  /* Table III: no owner, or a barrier of the owner's block since its access */
  if ((m.modified && m.blk_shared && m.dev_shared) || (same_block && m.barrier != x->barrier && !m.dev_shared)) {
    take_fresh(s, idx, &m, x);
    goto done;
  }
  /* Table III: the owner again, and no one shared the granule since */
  if (same_warp && !m.blk_shared && !m.dev_shared) {
    if (!x->write && m.modified && (m.blk_fence != o_blk || m.dev_fence != o_dev)) m.modified = 0;
    if (x->write) m.modified = 1;
    set_owner(s, idx, &m, x);
    m.strong = (unsigned)x->strong;
    m.bloom = x->bloom;
    goto done;
  }
  /* Table IV: the owner's atomic had block scope, and this access comes from another block */
  if (m.is_atom && m.block_scope && !same_block) { race = C_SCOPED_ATOMIC; goto done; }
  if (x->write && m.is_atom && x->atom) {   /* atomics of sufficient scope never race with each other */
    set_owner(s, idx, &m, x);
    m.strong = m.strong && x->strong;
    m.modified = 1;
    goto done;
  }
  /* Table IV: fences.  A read needs them after a write; a write after any
   * access (a shared granule counts as accessed by others). */
  if (x->write ? (!same_warp || m.blk_shared || m.dev_shared) : (m.modified && !same_warp)) {
    if (same_block && (m.blk_fence == o_blk || (x->write && m.dev_shared)) && m.dev_fence == o_dev) { race = C_BLOCK_FENCE; goto done; }
    if (!same_block && m.dev_fence == o_dev) { race = C_DEVICE_FENCE; goto done; }
    if (!m.strong || !x->strong) { race = C_NOT_STRONG; goto done; }
  }
  if (bloom_empty(m.bloom) && bloom_empty(x->bloom)) {
    /* unprotected: ordered by fences, so barrier-style ownership */
    if (x->write) {
      set_owner(s, idx, &m, x);
      m.modified = 1;
      m.blk_shared = m.dev_shared = 0;
      m.strong = m.strong && x->strong;
    } else if (m.modified) {
      if (!same_warp) take_fresh(s, idx, &m, x);
    } else if (same_block && !m.dev_shared) {
      m.blk_shared = 1;
    } else {
      m.dev_shared = 1;
      m.blk_shared = 0;
    }
    goto done;
  }
  /* Table IV: lock sets.  A read of written data, or any write, needs a
   * lock in common with the owner's accesses. */
  if (bloom_empty(bloom_and(m.bloom, x->bloom)) && (x->write || m.modified)) {
    race = x->write ? C_LOCK_STORE : C_LOCK_LOAD;
    goto done;
  }
  if (x->write) {
    set_owner(s, idx, &m, x);
    m.modified = 1;
    m.strong = m.strong && x->strong;
    m.bloom = bloom_and(m.bloom, x->bloom);
  } else {
    m.bloom = bloom_empty(m.bloom) ? x->bloom : bloom_empty(x->bloom) ? m.bloom : bloom_and(m.bloom, x->bloom);
  }
  if (!same_block) {
    m.dev_shared = 1;
    m.blk_shared = 0;
  } else if (!same_warp && !m.dev_shared) {
    m.blk_shared = 1;
  }

done:
  if (race) {
    declare(s, idx, &m, x, race, addr);
    take_fresh(s, idx, &m, x);
  }
  if (s->cached) m.tag = tag;
  s->md[idx] = scord_md_pack(&m);
  site *l = &s->last[idx];
  if (!l->valid || l->granule != x->granule || l->block != x->block || l->warp != x->warp) s->other[idx] = *l;
  site_of(l, x);
}

/* ---------------------------------------------------------------- events */

/* A fence of the warp: ScoRD's fence file counts it. */
static void warp_fence(warp_state *w, int scope) {
  if (scope == GR_SCOPE_BLOCK) {
    w->blk_fence = (w->blk_fence + 1) & 63;
    locks_enable(w, 0);
  } else {
    w->dev_fence = (w->dev_fence + 1) & 63;
    locks_enable(w, 1);
  }
}

static void on_access(scord *s, const gr_event *ev) {
  if (ev->space != GR_SPACE_GLOBAL) return;
  uint32_t block = ev->block, warp = ev->warp_in_block;
  if (block >= s->nblocks || warp >= s->wpb) return;
  warp_state *w = warp_of(s, block, warp);
  /* ScoRD knows fences, not release accesses: st.release and atom.release
   * are a fence of their scope followed by the access */
  if (ev->access != GR_LOAD && (ev->order == GR_ORDER_RELEASE || ev->order == GR_ORDER_ACQ_REL)) warp_fence(w, ev->scope);
  access x;
  x.block = block;
  x.warp = warp;
  x.barrier = s->barrier[block];
  x.atom = ev->access == GR_ATOMIC;
  x.write = ev->access != GR_LOAD;
  x.block_scope = x.atom && ev->scope == GR_SCOPE_BLOCK;
  x.strong = x.atom || ev->is_volatile;
  x.ev = ev;
  pc_table_note(&s->pcs, ev);
  for (uint32_t mm = ev->mask; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    x.lane = l;
    x.bloom = held_bloom(w);
    uint64_t a = ev->addr[l];
    size_t id = gr_allocation_id(a);
    if (id == 0 || id >= s->nbase) continue;
    uint64_t lin = s->base[id] + (uint32_t)a;
    for (uint64_t g = lin / s->gran; g <= (lin + (uint64_t)ev->size - 1) / s->gran; g++) {
      /* the cache, direct-mapped as ScoRD's: a sixteenth as many entries
       * as granules, granule g in entry g mod entries, interleaved (the
       * granules that share an entry lie an entry count apart, not side
       * by side), with the 4-bit tag g / entries saying which one it
       * describes now */
      uint64_t idx = s->cached ? g % s->entries : g;
      unsigned tag = s->cached ? (unsigned)(g / s->entries) : 0;
      if (idx >= s->nmd) continue;
      x.granule = g;
      check(s, idx, tag, &x, a);
    }
    /* lock inference: a successful atomicCAS(L, 0, v != 0) acquires L, an
     * atomicExch(L, 0) releases it.  A device-scope lock is entered with
     * both scopes, so that a block-scope holder in the same block shares it. */
    if (x.atom) {
      uint64_t word = lin >> 2;
      int device = ev->scope != GR_SCOPE_BLOCK;
      unsigned dev_bloom = scord_lock_bloom(word, 0), blk_bloom = scord_lock_bloom(word, (uint64_t)block + 1);
      if (ev->atomic_op == 7 && ev->operand[l] == 0 && ev->value[l] == 0 && ev->operand2[l] != 0) {
        if (device) lock_insert(w, dev_bloom, 0);
        lock_insert(w, blk_bloom, 1);
      } else if (ev->atomic_op == 2 && ev->operand[l] == 0) {
        if (device) lock_erase(w, dev_bloom, 0);
        lock_erase(w, blk_bloom, 1);
      }
    }
  }
}

void scord_on_event(void *self, const gr_event *ev) {
  scord *s = self;
  switch (ev->kind) {
  case GR_EV_LAUNCH_BEGIN: scord_launch(s, ev); break;
  case GR_EV_ACCESS: if (s->md) on_access(s, ev); break;
  case GR_EV_FENCE: {
    if (!s->md || ev->block >= s->nblocks || ev->warp_in_block >= s->wpb) break;
    warp_fence(warp_of(s, ev->block, ev->warp_in_block), ev->scope);
    break;
  }
  case GR_EV_BARRIER:
    if (s->md && ev->block < s->nblocks) s->barrier[ev->block] = (s->barrier[ev->block] + 1) & 255;
    break;
  case GR_EV_LAUNCH_END: scord_free_launch(s); break;
  default: break;
  }
}
