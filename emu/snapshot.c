/* Snapshots and memory views, the steering API of detectors: a snapshot
 * holds global memory and, during a launch, every resident block's shared
 * and local memory and warp state (or one block's); a restore asked for by
 * an observer takes effect after the current instruction.  A view
 * redirects one warp's accesses to a range of memory to a private copy. */
#include "engine.h"
#include "simt.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- snapshots and views */

typedef struct { uint64_t id; uint8_t *data; uint64_t size; int live, heap; } snap_alloc;
typedef struct {
  warp w;                 /* copied state; pointers below are owned copies */
  size_t nr;
} snap_warp;
typedef struct {
  blk b;                  /* copied state; b.shared is an owned copy, b.warps unused */
  int slot;
  snap_warp *warps;
} snap_block;

struct gr_snapshot {
  snap_alloc *allocs;
  size_t nallocs;
  int in_launch;
  int block_only;         /* gr_snapshot_take_block: one block, no global memory */
  const kir_func *f;
  gr_dim3 grid, bdim;     /* in_launch: the launch's shape, which a restore must have */
  snap_block *blocks;
  int nblocks;
  uint64_t next_block, steps;
  int rr;
  rng rng;
  size_t output_len;      /* the device's printf text then: a whole-machine restore takes back what came after */
};

/* An owned copy of a warp's asynchronous copies in flight (a block
 * restored from a snapshot performs them again), or NULL. */
static cp_state *cp_clone(const cp_state *c) {
  if (!c) return NULL;
  cp_state *n = xmalloc(sizeof *n);
  *n = *c;
  n->cap = c->n;
  n->q = c->n ? xmalloc(c->n * sizeof *n->q) : NULL;
  if (c->n) memcpy(n->q, c->q, c->n * sizeof *n->q);
  return n;
}

static void cp_free(cp_state *c) {
  if (c) free(c->q);
  free(c);
}

static void snap_block_take(launch *L, int slot, snap_block *sb) {
  blk *b = L->slots[slot];
  sb->b = *b;
  sb->b.warps = NULL;
  sb->slot = slot;
  sb->b.shared = xmalloc(L->shared_size ? L->shared_size : 1);
  memcpy(sb->b.shared, b->shared, L->shared_size);
  sb->warps = xcalloc((size_t)b->nwarps, sizeof(snap_warp));
  for (int j = 0; j < b->nwarps; j++) {
    warp *w = &b->warps[j];
    snap_warp *sw = &sb->warps[j];
    sw->w = *w;
    sw->nr = (size_t)(L->f->nregs ? L->f->nregs : 1) * 32;
    sw->w.r = xmalloc(sw->nr * sizeof(uint64_t));
    memcpy(sw->w.r, w->r, sw->nr * sizeof(uint64_t));
    size_t ln = (size_t)(L->f->frame ? L->f->frame : 1) * 32;
    sw->w.local = xmalloc(ln);
    memcpy(sw->w.local, w->local, ln);
    sw->w.views = NULL; sw->w.nviews = 0;
    sw->w.wm = NULL; sw->w.pend = NULL; sw->w.npend = 0;
    sw->w.cp = cp_clone(w->cp);
  }
}

gr_snapshot *emu_snapshot_take(emu_dev *ctx) {
  /* weak memory: everything in flight lands first (a legal run of the
   * memory system), so that the snapshot is global memory and warps alone */
  if (ctx->L && ctx->L->mem) wm_quiesce(ctx->L->mem);
  gr_snapshot *s = xcalloc(1, sizeof *s);
  s->output_len = ctx->output.len;
  s->nallocs = ctx->allocs.len;
  s->allocs = xcalloc(s->nallocs, sizeof(snap_alloc));
  for (size_t k = 1; k < ctx->allocs.len; k++) {
    galloc *a = vec_at(&ctx->allocs, k);
    s->allocs[k].id = k;
    s->allocs[k].live = a->live;
    s->allocs[k].heap = a->heap;
    s->allocs[k].size = a->size;
    if (a->live) { s->allocs[k].data = xmalloc(a->size ? a->size : 1); memcpy(s->allocs[k].data, a->data, a->size); }
  }
  launch *L = ctx->L;
  if (L) {
    s->in_launch = 1;
    s->f = L->f;
    s->grid = L->grid;
    s->bdim = L->bdim;
    s->next_block = L->next_block;
    s->steps = L->steps;
    s->rr = L->rr;
    s->rng = L->rng;
    s->blocks = xcalloc((size_t)L->nslots + 1, sizeof(snap_block));
    for (int k = 0; k < L->nslots; k++)
      if (L->slots[k]) snap_block_take(L, k, &s->blocks[s->nblocks++]);
  }
  return s;
}

int snapshot_is_block(const gr_snapshot *s, uint32_t lin) { return s->block_only && s->blocks[0].b.lin == lin; }

static int slot_of_block(const launch *L, uint32_t lin) {
  for (int k = 0; k < L->nslots; k++) if (L->slots[k] && L->slots[k]->lin == lin) return k;
  return -1;
}

gr_snapshot *emu_snapshot_take_block(emu_dev *ctx, uint32_t block) {
  launch *L = ctx->L;
  if (!L) { emu_fail(ctx, GR_EINPUT, "error: a block snapshot exists only during a launch"); return NULL; }
  int slot = slot_of_block(L, block);
  if (slot < 0) { emu_fail(ctx, GR_EINPUT, "error: block %u is not resident", block); return NULL; }
  if (L->mem) wm_quiesce(L->mem);
  gr_snapshot *s = xcalloc(1, sizeof *s);
  s->in_launch = 1;
  s->block_only = 1;
  s->f = L->f;
  s->grid = L->grid;
  s->bdim = L->bdim;
  s->blocks = xcalloc(1, sizeof(snap_block));
  s->nblocks = 1;
  snap_block_take(L, slot, &s->blocks[0]);
  return s;
}

int emu_snapshot_restore(emu_dev *ctx, const gr_snapshot *s) {
  if (s->in_launch && (!ctx->L || ctx->L->f != s->f))
    return emu_fail(ctx, GR_EINPUT, "error: snapshot was taken during another launch");
  if (s->in_launch && (memcmp(&ctx->L->grid, &s->grid, sizeof s->grid) || memcmp(&ctx->L->bdim, &s->bdim, sizeof s->bdim)))
    return emu_fail(ctx, GR_EINPUT, "error: snapshot was taken during a launch of another grid or block shape");
  if (s->block_only && slot_of_block(ctx->L, s->blocks[0].b.lin) < 0)
    return emu_fail(ctx, GR_EINPUT, "error: block %llu of the snapshot is no longer resident", (unsigned long long)s->blocks[0].b.lin);
  if (ctx->L) { ctx->L->pending_restore = s; return GR_OK; }
  if (ctx->output.len > s->output_len) ctx->output.len = s->output_len;
  for (size_t k = 1; k < s->nallocs && k < ctx->allocs.len; k++) {
    galloc *a = vec_at(&ctx->allocs, k);
    if (a->live && s->allocs[k].live && a->size == s->allocs[k].size) memcpy(a->data, s->allocs[k].data, a->size);
  }
  return GR_OK;
}

/* Rebuilds a block in its slot from the snapshot.  The warps take over
 * the views of the block `keep` replaces (NULL: no views). */
static void block_restore(launch *L, const snap_block *sb, blk *keep) {
  engine_launch_tids(L);
  blk *b = engine_block_new(L, sb->slot, sb->b.lin);
  *b = sb->b;   /* every scalar of the block, as taken */
  b->quiet = 0;   /* asked again of the restored warps */
  b->shared = xmalloc(L->shared_size ? L->shared_size : 1);
  memcpy(b->shared, sb->b.shared, L->shared_size);
  b->warps = xcalloc((size_t)b->nwarps, sizeof(warp));
  for (int j = 0; j < b->nwarps; j++) {
    warp *w = &b->warps[j];
    const snap_warp *sw = &sb->warps[j];
    *w = sw->w;
    w->b = b;
    w->tid = L->tids[w->wib].tid;   /* this launch's (the shape is the snapshot's) */
    w->r = xcalloc_lines(sw->nr, sizeof(uint64_t));
    memcpy(w->r, sw->w.r, sw->nr * sizeof(uint64_t));
    size_t ln = (size_t)(L->f->frame ? L->f->frame : 1) * 32;
    w->local = xmalloc(ln);
    memcpy(w->local, sw->w.local, ln);
    w->cp = cp_clone(sw->w.cp);
    w->views = NULL; w->nviews = 0;
    if (keep && j < keep->nwarps) {
      w->views = keep->warps[j].views; w->nviews = keep->warps[j].nviews;
      keep->warps[j].views = NULL; keep->warps[j].nviews = 0;
    }
    w->rpos = -1;
    w->stuck = 0; w->backedges = 0;
    memset(w->spans, 0, sizeof w->spans);   /* the block's shared memory is new */
    if (L->mem) {
      w->wm = wm_warp_new();
      wm_warp_init(w->wm, b->sm, (int)b->lin, w);
      w->pend = xcalloc((size_t)(L->f->nregs ? L->f->nregs : 1), sizeof(uint32_t));
    }
    if (w->state == W_READY) engine_ready_add(L, w);
  }
  L->slots[sb->slot] = b;
}

void snapshot_apply_restore(launch *L) {
  const gr_snapshot *s = L->pending_restore;
  emu_dev *ctx = L->ctx;
  L->pending_restore = NULL;
  /* the registers may come from another launch of the kernel, whose
   * parameters were other values: the run-ahead no longer takes them as
   * this launch's (simt_plan) */
  if (L->ahead) { simt_plan_free(L->ahead); L->ahead = simt_plan_new(L->f, NULL, NULL); }
  if (s->block_only) {
    /* one block goes back; the rest of the machine runs on, and the block
     * keeps the views its detector gave it */
    const snap_block *sb = &s->blocks[0];
    blk *old = L->slots[sb->slot];   /* a resident block never changes slot */
    for (int j = 0; j < old->nwarps; j++) engine_ready_remove(L, &old->warps[j]);
    if (L->mem) wm_quiesce(L->mem);
    block_restore(L, sb, old);
    engine_block_free(old);
    L->write_epoch++;
    engine_rebuild_run(L);
    return;
  }
  /* device malloc and free since the snapshot are undone, and what printf printed (a detector's re-run prints it again) */
  if (ctx->output.len > s->output_len) ctx->output.len = s->output_len;
  engine_allocs_truncate(ctx, s->nallocs);
  for (size_t k = 1; k < s->nallocs && k < ctx->allocs.len; k++) {
    galloc *a = vec_at(&ctx->allocs, k);
    if (!a->live && s->allocs[k].live && s->allocs[k].heap) {
      a->data = xcalloc(a->size ? (a->size + 31) / 32 * 32 : 32, 1);
      a->live = a->heap = 1;
      ctx->live_bytes += a->size;
      ctx->heap_used += (a->size + 15) / 16 * 16;
    }
    if (a->live && s->allocs[k].live && a->size == s->allocs[k].size) memcpy(a->data, s->allocs[k].data, a->size);
  }
  if (L->mem) wm_reset(L->mem);
  for (int k = 0; k < L->nslots; k++) if (L->slots[k]) { engine_block_free(L->slots[k]); L->slots[k] = NULL; }
  L->nready = 0;
  for (int k = 0; k < s->nblocks; k++) block_restore(L, &s->blocks[k], NULL);
  L->next_block = s->next_block;
  L->rr = s->rr;
  L->rng = s->rng;
  L->write_epoch++;
  /* a snapshot from before the first blocks started (LAUNCH_BEGIN) runs
   * the kernel again: its free slots take the next blocks, as at launch */
  for (int k = 0; k < L->nslots; k++)
    if (!L->slots[k] && L->next_block < L->nblocks) engine_block_start(L, k, L->next_block++);
  engine_rebuild_run(L);
}

void gr_snapshot_free(gr_snapshot *s) {
  if (!s) return;
  for (size_t k = 0; k < s->nallocs; k++) free(s->allocs[k].data);
  free(s->allocs);
  for (int k = 0; k < s->nblocks; k++) {
    for (int j = 0; j < s->blocks[k].b.nwarps; j++) {
      free(s->blocks[k].warps[j].w.r);
      free(s->blocks[k].warps[j].w.local);
      cp_free(s->blocks[k].warps[j].w.cp);
    }
    free(s->blocks[k].warps);
    free(s->blocks[k].b.shared);
  }
  free(s->blocks);
  free(s);
}

static warp *find_warp(launch *L, uint32_t gid) {
  int s = slot_of_block(L, gid / L->wpb);
  return s < 0 ? NULL : &L->slots[s]->warps[gid % L->wpb];
}

int emu_view_add(emu_dev *ctx, uint32_t gid, gr_ptr base, size_t len, void *copy) {
  if (!ctx->L) return emu_fail(ctx, GR_EINPUT, "error: memory views exist only during a launch");
  warp *w = find_warp(ctx->L, gid);
  if (!w) return emu_fail(ctx, GR_EINPUT, "error: warp %u is not resident", gid);
  w->views = xrealloc(w->views, sizeof(mview) * (size_t)(w->nviews + 1));
  w->views[w->nviews].base = base;
  w->views[w->nviews].len = len;
  w->views[w->nviews].copy = copy;
  w->nviews++;
  return GR_OK;
}

void emu_launch_fail(emu_dev *ctx, int code, const char *msg) {
  launch *L = ctx->L;
  if (!L || L->failed) return;
  snprintf(ctx->err, ctx->errlen, "%s", msg);
  L->failed = code ? code : GR_EEMU;
}

gr_ptr gr_shared_base(void) { return KIR_ADDR(SPACE_SHARED, 0); }

void emu_view_clear(emu_dev *ctx, uint32_t gid) {
  if (!ctx->L) return;
  warp *w = find_warp(ctx->L, gid);
  if (!w) return;
  free(w->views);
  w->views = NULL;
  w->nviews = 0;
}

