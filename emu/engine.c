/* The SIMT engine: grids of blocks of warps, executed one warp instruction
 * at a time in pre-Volta lockstep.  Each warp has a reconvergence stack of
 * (pc, reconvergence pc, mask) entries; a divergent branch parks the warp's
 * mask at the branch's immediate post-dominator and runs each side in turn.
 * Registers are stored lane-major (32 lanes of one register together), so
 * one dispatch does the work of the whole warp.
 *
 * Memory is sequentially consistent (every access goes straight to its
 * backing store, in issue order) or weak: global accesses then go through
 * the memory system of wmem.c, whose loads may perform after later
 * instructions of their thread.  Such a load marks its register pending
 * for the lane, and an instruction that reads or overwrites a pending
 * register first performs the loads into it (a scoreboard).  A warp's
 * loads, stores and atomics are access.c's; its own instructions simt.c's;
 * independent thread scheduling its.c's; snapshots snapshot.c's. */
#include "engine.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "explore.h"
#include "jit.h"
#include "its.h"
#include "kir_sem.h"
#include "prov.h"
#include "simt.h"
#include "whole.h"
#include "wmem.h"


/* ------------------------------------------------------------- observers */

int emu_observe(emu_dev *ctx, const gr_observer *obs) {
  for (int k = 0; k < GR_MAX_OBSERVERS; k++) {
    if (!ctx->obs_live[k]) {
      ctx->obs[k] = *obs;
      ctx->obs_live[k] = 1;
      if (k >= ctx->nobs) ctx->nobs = k + 1;
      return k;
    }
  }
  return emu_fail(ctx, -1, "error: too many observers");
}

void emu_unobserve(emu_dev *ctx, int h) {
  if (h < 0 || h >= GR_MAX_OBSERVERS) return;
  ctx->obs_live[h] = 0;
  while (ctx->nobs && !ctx->obs_live[ctx->nobs - 1]) ctx->nobs--;
}

/* Whether access event ev meets an allocation with accesses left
 * unshown (L->unseen_ids): a write one whose loads were, any access one
 * whose reductions were.  Only once the proof that no other access
 * reaches them failed (prov.h: an address outside its roots): before,
 * none does, and the access that fails it is checked before its event. */
static void unseen_check(launch *L, const gr_event *ev) {
  if (L->unseen_many) { L->unseen_met = 1; return; }
  for (uint32_t mm = ev->mask; mm && !L->unseen_met; mm &= mm - 1) {
    uint32_t id = (uint32_t)(ev->addr[__builtin_ctz(mm)] >> 32) & 0xffffff;
    for (int red = ev->access == GR_LOAD; red < 2; red++)
      for (int k = 0; k < L->n_unseen_ids[red]; k++) if (L->unseen_ids[red][k] == id) L->unseen_met = 1;
  }
}

void engine_deliver(launch *L, gr_event *ev) {
  emu_dev *ctx = L->ctx;
  if (L->silent && ev->kind != GR_EV_LAUNCH_BEGIN && ev->kind != GR_EV_LAUNCH_END && ev->kind != GR_EV_UNSEEN) return;
  if ((L->n_unseen_ids[0] | L->n_unseen_ids[1]) && ev->kind == GR_EV_ACCESS && ev->space == GR_SPACE_GLOBAL && L->prov && L->prov->off && !L->unseen_met)
    unseen_check(L, ev);
  for (int k = 0; k < ctx->nobs; k++) if (ctx->obs_live[k]) ctx->obs[k].on_event(ctx->obs[k].user, ev);
}

void engine_ev_init(launch *L, gr_event *ev, gr_event_kind kind, warp *w, int pc) {
  memset(ev, 0, sizeof *ev);
  ev->kind = kind;
  ev->kernel = L->f->name;
  ev->grid = L->grid;
  ev->blockdim = L->bdim;
  ev->shared_bytes = L->shared_size;
  ev->pc = pc;
  if (w) {
    ev->block = w->b->lin;
    ev->block_idx.x = w->b->idx[0]; ev->block_idx.y = w->b->idx[1]; ev->block_idx.z = w->b->idx[2];
    ev->warp = w->gid;
    ev->warp_in_block = w->wib;
  }
  if (pc >= 0 && pc < L->f->ncode) {
    ev->file = L->f->pos[pc].file;
    ev->line = L->f->pos[pc].line;
    ev->col = L->f->pos[pc].col;
  } else {
    /* no instruction (launch and block begin and end): the kernel's declaration */
    ev->file = L->f->decl.file;
    ev->line = L->f->decl.line;
    ev->col = L->f->decl.col;
  }
}

/* ------------------------------------------------------------- faults */

void engine_lane_coords(const warp *w, int lane, char *buf, size_t n) {
  snprintf(buf, n, "thread (%u,%u,%u) of block (%u,%u,%u) [warp %u lane %d]",
           w->tid[0][lane], w->tid[1][lane], w->tid[2][lane], w->b->idx[0], w->b->idx[1], w->b->idx[2], w->wib, lane);
}

/* "file:line:col: error: body" for the instruction at pc (pc -1: no position). */
static int fault_line(launch *L, int pc, const char *body, char *out, size_t n) {
  if (pc >= 0 && pc < L->f->ncode) {
    srcpos p = L->f->pos[pc];
    return snprintf(out, n, "%s:%d:%d: error: %s", p.file, p.line, p.col, body);
  }
  return snprintf(out, n, "error: %s", body);
}

void engine_fault(launch *L, int pc, const char *fmt, ...) {
  if (L->failed) return;
  char body[700], line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  fault_line(L, pc, body, line, sizeof line);
  emu_fail(L->ctx, GR_EEMU, "%s", line);
  L->failed = GR_EEMU;
}

/* A memory error: under --keep-going it is logged and the access dropped
 * (the caller sees NULL with the launch not failed); else it ends the run. */
#define MAX_LOGGED_ERRORS 1000
void engine_mem_fault(launch *L, int pc, const char *fmt, ...) {
  if (L->failed) return;
  char body[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  if (!L->ctx->cfg.keep_going) { engine_fault(L, pc, "%s", body); return; }
  emu_dev *ctx = L->ctx;
  if (L->kept_errors++ >= MAX_LOGGED_ERRORS) return;
  char line[1024];
  int n = fault_line(L, pc, body, line, sizeof line - 1);
  if (n < 0) return;
  if ((size_t)n >= sizeof line - 1) n = (int)sizeof line - 2;
  line[n++] = '\n';
  line[n] = 0;
  if (ctx->log_len + (size_t)n + 1 > ctx->log_cap) {
    ctx->log_cap = (ctx->log_len + (size_t)n + 1) * 2;
    ctx->log = xrealloc(ctx->log, ctx->log_cap);
  }
  memcpy(ctx->log + ctx->log_len, line, (size_t)n + 1);
  ctx->log_len += (size_t)n;
}

/* ------------------------------------------------------------- warps and blocks */

void engine_ready_add(launch *L, warp *w) {
  if (w->rpos >= 0) { emu_assert(L->ready[w->rpos] == w); return; }
  emu_assert(w->state == W_READY && L->nready < L->nslots * (int)L->wpb);
  w->rpos = L->nready;
  L->ready[L->nready++] = w;
}
void engine_ready_remove(launch *L, warp *w) {
  if (w->rpos < 0) return;
  emu_assert(w->rpos < L->nready && L->ready[w->rpos] == w);
  warp *last = L->ready[--L->nready];
  L->ready[w->rpos] = last;
  last->rpos = w->rpos;
  w->rpos = -1;
}

void engine_rebuild_run(launch *L) {
  L->nrun = 0;
  for (int s = 0; s < L->nslots; s++) {
    blk *b = L->slots[s];
    if (!b) continue;
    for (int k = 0; k < b->nwarps; k++) L->run[L->nrun++] = &b->warps[k];
  }
  if (L->rr >= L->nrun) L->rr = 0;
}

/* A new block `lin` for `slot`: its coordinates and SM. */
blk *engine_block_new(launch *L, int slot, uint64_t lin) {
  blk *b = xcalloc(1, sizeof *b);
  b->lin = (uint32_t)lin;
  b->idx[0] = (uint32_t)(lin % L->grid.x);
  b->idx[1] = (uint32_t)(lin / L->grid.x % L->grid.y);
  b->idx[2] = (uint32_t)(lin / ((uint64_t)L->grid.x * L->grid.y));
  b->sm = slot % L->ctx->cfg.sms;
  b->bar_and = 1;
  return b;
}

/* A retired block's memory made as a fresh block's (zeroed, as calloc
 * leaves it), for the next block of its slot: the same launch sizes it the
 * same, and the allocator is the larger part of a short block's cost. */
static blk *block_recycle(launch *L, blk *old, int slot, uint64_t lin) {
  const kir_func *f = L->f;
  size_t nr = (size_t)(f->nregs ? f->nregs : 1);
  warp *warps = old->warps;
  uint8_t *shared = old->shared;
  if (!L->first_read) L->first_read = kir_regs_read_first(f, &L->nfirst_read);
  for (uint32_t k = 0; k < L->wpb; k++) {
    warp *w = &warps[k];
    uint64_t *r = w->r;
    uint8_t *local = w->local;
    wm_warp *wm = w->wm;
    uint32_t *pend = w->pend;
    free(w->views);
    if (w->cp) free(w->cp->q);
    free(w->cp);
    /* registers start at 0; a register every path writes before reading
     * keeps the last block's values (a search's state keys read them all) */
    if (L->ctx->explore || L->nfirst_read == f->nregs) memset(r, 0, nr * 32 * sizeof(uint64_t));
    else
      for (int j = 0; j < L->nfirst_read; j++) memset(r + (size_t)L->first_read[j] * 32, 0, 32 * sizeof(uint64_t));
    memset(local, 0, (size_t)(f->frame ? f->frame : 1) * 32);
    if (pend) memset(pend, 0, nr * sizeof(uint32_t));
    /* the slot's shared memory and the launch's allocations stay where
     * they are: the warp's spans hold for its next block too */
    xspan spans[WARP_SPANS];
    memcpy(spans, w->spans, sizeof spans);
    memset(w, 0, offsetof(warp, stk));   /* entries past stk[0] are never read before written */
    if (L->ctx->cfg.warps == GR_WARPS_ITS)
      memset(w->lback, 0, offsetof(warp, lsync) + sizeof w->lsync - offsetof(warp, lback));
    w->r = r, w->local = local, w->wm = wm, w->pend = pend;
    memcpy(w->spans, spans, sizeof spans);
  }
  memset(shared, 0, L->shared_size ? L->shared_size : 1);
  memset(old, 0, sizeof *old);
  blk *b = old;
  b->lin = (uint32_t)lin;
  b->idx[0] = (uint32_t)(lin % L->grid.x);
  b->idx[1] = (uint32_t)(lin / L->grid.x % L->grid.y);
  b->idx[2] = (uint32_t)(lin / ((uint64_t)L->grid.x * L->grid.y));
  b->sm = slot % L->ctx->cfg.sms;
  b->bar_and = 1;
  b->warps = warps;
  b->shared = shared;
  return b;
}

void engine_launch_tids(launch *L) {
  if (L->tids) return;
  L->tids = xcalloc(L->wpb, sizeof *L->tids);
  for (uint32_t j = 0; j < L->wpb; j++)
    for (int l = 0; l < 32; l++) {
      uint32_t t = j * 32 + (uint32_t)l;
      if (t >= L->nthreads) continue;
      L->tids[j].alive |= 1u << l;
      L->tids[j].tid[0][l] = t % L->bdim.x;
      L->tids[j].tid[1][l] = t / L->bdim.x % L->bdim.y;
      L->tids[j].tid[2][l] = t / (L->bdim.x * L->bdim.y);
    }
}

/* Starts block lin in slot, in the memory of a retired block where there
 * is one (reuse), else in new memory. */
static void block_start_in(launch *L, int slot, uint64_t lin, blk *reuse) {
  blk *b = reuse ? block_recycle(L, reuse, slot, lin) : engine_block_new(L, slot, lin);
  b->nwarps = (int)L->wpb;
  b->live = b->nwarps;
  if (!reuse) {
    b->warps = xcalloc(L->wpb, sizeof(warp));
    b->shared = xcalloc(L->shared_size ? L->shared_size : 1, 1);
  }
  const kir_func *f = L->f;
  engine_launch_tids(L);
  for (uint32_t k = 0; k < L->wpb; k++) {
    warp *w = &b->warps[k];
    w->b = b;
    w->wib = k;
    w->gid = b->lin * L->wpb + k;
    if (!reuse) {
      /* on a line: a vector of lanes never straddles two (hash 15%, by where the heap put it) */
      w->r = xcalloc_lines((size_t)(f->nregs ? f->nregs : 1) * 32, sizeof(uint64_t));
      w->local = xcalloc((size_t)(f->frame ? f->frame : 1) * 32, 1);
    }
    w->rpos = -1;
    w->bar_pc = -1;
    if (L->mem) {
      /* a recycled warp's lanes all retired (warp_finish): wm_warp_init's precondition */
      if (!w->wm) w->wm = wm_warp_new();
      wm_warp_init(w->wm, b->sm, (int)b->lin, w);
      if (!w->pend) w->pend = xcalloc((size_t)(f->nregs ? f->nregs : 1), sizeof(uint32_t));
      w->speed = 1u << rng_below(&L->rng, 4);
    }
    w->alive = L->tids[k].alive;
    w->tid = L->tids[k].tid;
    w->stk[0].pc = 0;
    w->stk[0].rpc = -1;
    w->stk[0].mask = w->alive;
    w->sp = 1;
    if (L->ctx->cfg.warps == GR_WARPS_ITS) its_warp_begin(w);
    w->state = W_READY;
    engine_ready_add(L, w);
  }
  L->slots[slot] = b;
  if (L->ctx->nobs) {
    gr_event ev;
    engine_ev_init(L, &ev, GR_EV_BLOCK_BEGIN, &b->warps[0], -1);
    ev.mask = b->warps[0].alive;
    engine_deliver(L, &ev);
  }
}

void engine_block_start(launch *L, int slot, uint64_t lin) { block_start_in(L, slot, lin, NULL); }

void engine_block_free(blk *b) {
  for (int k = 0; k < b->nwarps; k++) {
    warp *w = &b->warps[k];
    free(w->r); free(w->local); free(w->views); free(w->wm); free(w->pend);
    if (w->cp) free(w->cp->q);
    free(w->cp);
  }
  free(b->warps);
  free(b->shared);
  free(b);
}

static void barrier_maybe_release(launch *L, blk *b, int pc) {
  if (b->at_bar == 0 || b->at_bar < b->live) return;
  b->at_bar = 0;
  b->quiet = 0;   /* its warps go on to where they may write */
  /* the writes before it are ordered before whatever follows it; a copy
   * in flight is ordered by nothing until its thread waits for it */
  b->sh_written = b->copies > 0;
  for (int k = 0; k < b->nwarps; k++) {
    warp *w = &b->warps[k];
    if (w->state != W_BAR) continue;
    const kir_ins *in = w->bar_pc >= 0 ? &L->f->code[w->bar_pc] : NULL;
    if (in && in->imm != BAR_SYNC && in->dst >= 0) {   /* __syncthreads_count/_and/_or: the block's result */
      uint64_t v = in->imm == BAR_COUNT ? b->bar_count : in->imm == BAR_AND ? b->bar_and : b->bar_or;
      uint64_t *d = w->r + (size_t)in->dst * 32;
      for (int l = 0; l < 32; l++) if (w->alive >> l & 1) d[l] = v;
    }
    w->state = W_READY; w->bar_pc = -1; engine_ready_add(L, w);
  }
  b->bar_count = 0; b->bar_and = 1; b->bar_or = 0;
  L->ctx->stats.barriers++;
  if (L->ctx->nobs) {
    gr_event ev;
    engine_ev_init(L, &ev, GR_EV_BARRIER, &b->warps[0], pc);
    engine_deliver(L, &ev);
  }
}


/* The k-th block a launch starts. */
static uint64_t block_lin(const launch *L, uint64_t k) { return L->lins ? L->lins[k] : k; }

static void warp_finish(launch *L, warp *w) {
  L->finished = w;
  /* its stores drain to the SM, whose queue outlives the warp */
  if (L->mem) wm_warp_retire(L->mem, w->wm);
  w->state = W_DONE;
  engine_ready_remove(L, w);
  blk *b = w->b;
  b->live--;
  if (b->live > 0) { barrier_maybe_release(L, b, -1); return; }
  if (L->ctx->nobs) {
    gr_event ev;
    engine_ev_init(L, &ev, GR_EV_BLOCK_END, w, -1);
    engine_deliver(L, &ev);
    /* an observer that wants the block to run again keeps it resident */
    const gr_snapshot *p = L->pending_restore;
    if (p && snapshot_is_block(p, b->lin)) return;
  }
  for (int s = 0; s < L->nslots; s++) {
    if (L->slots[s] != b) continue;
    L->slots[s] = NULL;
    /* the next block in the same memory and slot: the run list stays as it is */
    if (L->next_block < L->nblocks) { block_start_in(L, s, block_lin(L, L->next_block++), b); return; }
    engine_block_free(b);
    break;
  }
  engine_rebuild_run(L);
}

/* ------------------------------------------------------------- livelock detection */

/* FNV-1a's step over words, in eight independent streams folded at the
 * end: one multiply chain a word made a warp's hash (its registers, 32
 * words each) a microsecond, and the hash loop spent half its time here;
 * eight chains run at once and vectorise. */
static uint64_t hash_words(uint64_t h, const uint64_t *p, size_t n) {
  uint64_t acc[8];
  for (int j = 0; j < 8; j++) acc[j] = h + (uint64_t)j;
  size_t k = 0;
  for (; k + 8 <= n; k += 8)
    for (int j = 0; j < 8; j++) acc[j] = (acc[j] ^ p[k + j]) * 1099511628211ull;
  for (; k < n; k++) acc[0] = (acc[0] ^ p[k]) * 1099511628211ull;
  for (int j = 0; j < 8; j++) h = (h ^ acc[j]) * 1099511628211ull;
  return h;
}

/* The registers live before pc (kir_liveness: those some path from pc
 * reads before it writes them), L->live_w words; none at pc -1.  Made at
 * the launch's first look. */
static const uint64_t *live_before(launch *L, int pc) {
  if (!L->live) {
    L->live_w = (size_t)(L->f->nregs > 0 ? (L->f->nregs + 63) / 64 : 1);
    L->live = kir_liveness(L->f->code, L->f->ncode, L->live_w);
  }
  return &L->live[(size_t)(pc >= 0 && pc <= L->f->ncode ? pc : L->f->ncode) * L->live_w];
}

/* Runs the statement for each register r (a size_t) live before pc. */
#define FOR_LIVE(L, pc, r, ...) do { const uint64_t *lv_ = live_before(L, pc); \
    for (size_t k_ = 0; k_ < (L)->live_w; k_++) \
      for (uint64_t b_ = lv_[k_]; b_; b_ &= b_ - 1) { size_t r = k_ * 64 + (size_t)__builtin_ctzll(b_); __VA_ARGS__; } \
  } while (0)

/* Where lane l of w is: the pc of its next instruction, or -1 where it
 * has exited.  Under lockstep the topmost stack entry that holds it (the
 * entries below are where its path goes on after it reconverges); under
 * ITS its own pc, or for the one group that runs together the entry's,
 * which its_step keeps for them. */
static int lane_at(const launch *L, const warp *w, int l) {
  if (!(w->alive >> l & 1)) return -1;
  if (L->ctx->cfg.warps == GR_WARPS_ITS)
    return w->sp > 0 && w->its_one && (w->stk[0].mask >> l & 1) ? w->stk[0].pc : w->lpc[l];
  for (int k = w->sp - 1; k >= 0; k--)
    if (w->stk[k].mask >> l & 1) return w->stk[k].pc;
  return -1;
}

/* h, on the values of the registers that w's live lanes may still read,
 * each lane's at where it is: a register no later instruction reads
 * before writing it is not part of the warp's state (its future does not
 * depend on it), and compiled code need not store it (jit.c), so that the
 * livelock detector must not look at it to see the same states in both
 * engines.  A full warp at one pc (the common case) by register rows. */
static uint64_t hash_live(launch *L, const warp *w, uint64_t h) {
  int at[32];
  uint32_t same = 0;
  for (int l = 0; l < 32; l++) at[l] = lane_at(L, w, l), same |= (uint32_t)(at[l] == at[0]) << l;
  if (same == FULL && at[0] >= 0) {
    FOR_LIVE(L, at[0], r, h = hash_words(h, w->r + r * 32, 32));
    return h;
  }
  for (int l = 0; l < 32; l++) {
    if (at[l] < 0) continue;
    h = (h ^ (uint64_t)l) * 1099511628211ull;
    FOR_LIVE(L, at[l], r, h = (h ^ w->r[r * 32 + (size_t)l]) * 1099511628211ull);
  }
  return h;
}

static uint64_t hash_warp(launch *L, warp *w) {
  uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
  MIX(w->sp);
  for (int k = 0; k < w->sp; k++) { MIX(w->stk[k].pc); MIX(w->stk[k].rpc); MIX(w->stk[k].mask); }
  h = hash_live(L, w, h);
  if (L->ctx->cfg.warps == GR_WARPS_ITS) {
    MIX(w->alive);
    for (int l = 0; l < 32; l++) { MIX(w->lpc[l]); MIX(w->lwait[l]); MIX(w->lsync[l]); }
  }
#undef MIX
  return h;
}

/* A part of the warp's state that hash_warp hashes (its stack and lane
 * 0's live registers): where it differs from the sample's, the whole
 * does, and a back edge in the window after a sample costs nregs words,
 * not 32 times as many. */
static uint64_t sig_warp(launch *L, const warp *w) {
  uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
  MIX(w->sp);
  for (int k = 0; k < w->sp; k++) { MIX(w->stk[k].pc); MIX(w->stk[k].mask); }
  int at = lane_at(L, w, 0);
  if (at >= 0) FOR_LIVE(L, at, r, MIX(w->r[r * 32]));
#undef MIX
  return h;
}

/* One lane's own state under ITS at a back edge at pc: what its future
 * depends on besides memory (and, at a *_sync, the other lanes). */
static uint64_t hash_lane(launch *L, const warp *w, int l, int pc) {
  uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
  MIX(pc);
  MIX(w->nexchange);   /* values from other lanes came in: the lane's state is not all its future depends on */
  MIX(w->lwait[l]);
  MIX(w->lsync[l]);
  FOR_LIVE(L, pc, r, MIX(w->r[r * 32 + (size_t)l]));   /* (hash_live's registers) */
  if (w->npend) for (int r = 0; r < L->f->nregs; r++) MIX(w->pend[r] >> l & 1);   /* its loads in flight */
#undef MIX
  return h;
}

/* On a backward jump: a warp that comes back to the same complete state
 * while no byte of memory has changed anywhere is spinning, and will spin
 * until another warp writes.  The state is sampled at exponentially
 * spaced back edges and compared at the SPIN_WINDOW back edges after each
 * sample (a loop nest whose cycle is up to that many back edges), so
 * ordinary loops pay O(log n) hashes.
 *
 * Under ITS the warp's state rarely repeats whole: lanes spinning in
 * different loops are sampled at different points of each.  So each lane
 * that takes the edge (m) is also sampled on its own: a lane whose own
 * state (registers, where it is) repeats with memory unchanged spins, its
 * future fixed by that state and memory; once every live lane spins or
 * waits for lanes that do (its_blocked), the warp is stuck. */
#define SPIN_PATIENCE 1024
#define SPIN_WINDOW 64
/* a lane's own hash is a column of the registers, and a lane may get one
 * step in a thousand of its warp's (its.c's sequential mode): sooner */
#define LANE_PATIENCE 64

static void note_backedge(launch *L, warp *w, uint32_t m, int pc) {
  int its = L->ctx->cfg.warps == GR_WARPS_ITS;
  if (w->spin_epoch != L->write_epoch) {
    w->spin_epoch = L->write_epoch;
    w->backedges = w->spin_at = 0;
    w->stuck = 0;
    if (its) {
      memset(w->lback, 0, sizeof w->lback);
      w->lspin = 0;
    }
  }
  /* a warp that has gone around its loops SPIN_PATIENCE times without any
   * memory changing is hashed, then again at every power of two and the
   * edges just after it: a warp making progress costs a counter, never a
   * hash of its registers */
  uint64_t n = ++w->backedges;
  /* a converged warp's lanes share one state: the warp's own hash does,
   * and its edges may have run ahead of their turns (ran_ahead) */
  if (its && !w->its_conv && pc >= 0) {
    int sampled = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
      int l = __builtin_ctz(mm);
      uint32_t k = ++w->lback[l];
      w->ledge_pc[l] = pc;
      int at_sample = !(k & (k - 1));
      if (k < LANE_PATIENCE || (!at_sample && k - w->lhash_at[l] > SPIN_WINDOW)) continue;
      sampled = 1;
      if (w->lspin >> l & 1) continue;
      uint64_t h = hash_lane(L, w, l, pc);
      if (k > LANE_PATIENCE && h == w->lhash[l]) {
        w->lspin |= 1u << l;
      }
      if (at_sample) {
        w->lhash[l] = h;
        w->lhash_at[l] = k;
      }
    }
    if (sampled && w->lspin && !w->stuck && !(w->alive & ~w->lspin & ~its_blocked(L, w))) {
      w->stuck = 1;
      L->deadlock_check = 1;
    }
  }
  if (n < SPIN_PATIENCE) return;
  int sample = !(n & (n - 1));
  if (w->stuck || (!sample && n - w->spin_at > SPIN_WINDOW)) return;
  /* under ITS the state repeating proves a spin only if every lane that
   * could run ran in between: else the scheduler merely left some out */
  int whole = 1;
  if (its)
    for (uint32_t al = w->alive; al; al &= al - 1)
      if (w->lwait[__builtin_ctz(al)] == LW_RUN && !(w->its_ran >> __builtin_ctz(al) & 1)) whole = 0;
  uint64_t sig = sig_warp(L, w);
  int same = n > SPIN_PATIENCE && whole && sig == w->spin_sig;
  if (!same && !sample) return;
  uint64_t h = hash_warp(L, w);
  if (same && h == w->spin_hash) {
    w->stuck = 1;
    L->deadlock_check = 1;
  }
  if (sample) {
    w->spin_hash = h;
    w->spin_sig = sig;
    w->spin_at = n;
    w->its_ran = 0;
  }
}

int engine_live_regs_differ(launch *L, const warp *a, const warp *b) {
  for (int l = 0; l < 32; l++) {
    int at = lane_at(L, a, l);
    if (at != lane_at(L, b, l)) return 1;
    if (at < 0) continue;
    int differ = 0;
    FOR_LIVE(L, at, r, differ |= a->r[r * 32 + (size_t)l] != b->r[r * 32 + (size_t)l]);
    if (differ) return 1;
  }
  return 0;
}

int engine_fmt_mask_lanes(char *buf, size_t n, uint32_t m) {
  int len = 0, first = 1;
  for (int l = 0; l < 32 && (size_t)len < n - 16;) {
    if (!(m >> l & 1)) { l++; continue; }
    int e = l;
    while (e + 1 < 32 && (m >> (e + 1) & 1)) e++;
    len += snprintf(buf + len, n - (size_t)len, e > l ? "%s%d-%d" : "%s%d", first ? "" : ",", l, e);
    first = 0;
    l = e + 1;
  }
  if (first) len += snprintf(buf, n, "none");
  return len;
}

/* All resident warps spin or wait: nothing can ever change again. */
static void check_deadlock(launch *L) {
  L->deadlock_check = 0;
  for (int k = 0; k < L->nrun; k++) {
    warp *w = L->run[k];
    if (w->state == W_READY && !(w->stuck && w->spin_epoch == L->write_epoch)) return;
  }
  /* a spinner may wait for a write still in a buffer, or read a stale L1
   * line: memory makes progress eventually, so let it, and look again */
  if (L->mem && wm_quiesce(L->mem)) { L->write_epoch++; return; }
  char msg[900];
  int len = snprintf(msg, sizeof msg, "deadlock: no warp can make progress");
  for (int k = 0; k < L->nrun && len < (int)sizeof msg - 160; k++) {
    warp *w = L->run[k];
    if (w->state == W_DONE) continue;
    if (w->state == W_READY && L->ctx->cfg.warps == GR_WARPS_ITS) {
      len = its_describe_stuck(L, w, msg, sizeof msg, len);
      continue;
    }
    int pc = w->state == W_BAR ? w->bar_pc : w->stk[w->sp - 1].pc;
    srcpos p = pc >= 0 && pc < L->f->ncode ? L->f->pos[pc] : L->f->decl;
    char lanes[96];
    engine_fmt_mask_lanes(lanes, sizeof lanes, w->state == W_BAR ? w->alive : w->stk[w->sp - 1].mask);
    len += snprintf(msg + len, sizeof msg - (size_t)len, "\n  block (%u,%u,%u) warp %u lanes %s: %s at %s:%d:%d", w->b->idx[0],
                    w->b->idx[1], w->b->idx[2], w->wib, lanes, w->state == W_BAR ? "waits at __syncthreads" : "spins",
                    p.file, p.line, p.col);
    if (w->state == W_READY && w->sp > 1) {
      uint32_t parked = w->alive & ~w->stk[w->sp - 1].mask;
      if (parked) {
        engine_fmt_mask_lanes(lanes, sizeof lanes, parked);
        len += snprintf(msg + len, sizeof msg - (size_t)len, " (lanes %s wait for them to reconverge)", lanes);
      }
    }
  }
  if (L->next_block < L->nblocks)
    snprintf(msg + len, sizeof msg - (size_t)len, "\n  %llu blocks not yet started wait for these to finish",
             (unsigned long long)(L->nblocks - L->next_block));
  emu_fail(L->ctx, GR_EEMU, "error: %s", msg);
  L->failed = GR_EEMU;
}

/* ------------------------------------------------------------- the interpreter */

/* The member mask of a *_sync warp intrinsic or __syncwarp, per lane: it
 * names the calling lane, and every lane it names executes this very
 * instruction with it (under lockstep, the lanes converged here).  Anything
 * else is undefined in CUDA, and an error here, as in synccheck. */
static int warp_mask_ok(launch *L, warp *w, int pc, const uint64_t *M, uint32_t m, const char *what) {
  uint32_t mm = m;
  while (mm) {
    int l = __builtin_ctz(mm);
    mm &= mm - 1;
    uint32_t mask = (uint32_t)M[l];
    const char *why = NULL;
    char lanes[96];
    if (!mask) why = "the mask is 0";
    else if (!(mask >> l & 1)) why = "the mask does not name the calling lane";
    else if (mask & w->alive & ~m) {   /* exited lanes may be named (CUDA: "all non-exited threads named") */
      engine_fmt_mask_lanes(lanes, sizeof lanes, mask & w->alive & ~m);
      why = "the mask names live lanes that are not executing it with this lane";
    }
    if (why) {
      char where[160];
      uint32_t away = mask & w->alive & ~m;
      engine_lane_coords(w, l, where, sizeof where);
      engine_fault(L, pc, "%s(0x%08x) by %s: %s%s%s%s", what, mask, where, why, away ? " (lanes " : "", away ? lanes : "", away ? ")" : "");
      return 0;
    }
  }
  return 1;
}

/* Executes the warp's next instruction. */
void engine_warp_step(launch *L, warp *w) {
  const kir_func *f = L->f;
  emu_assert(w->sp > 0 && w->sp <= STACK_MAX && w->state == W_READY);
  simt_entry *top = &w->stk[w->sp - 1];
  int pc = top->pc;
  uint32_t m = top->mask;
  emu_assert(pc >= 0 && pc < f->ncode);
  const kir_ins *in = &f->code[pc];
  uint64_t *R = w->r;
  uint64_t *d = in->dst >= 0 ? R + (size_t)in->dst * 32 : NULL;
  const uint64_t *A = in->a >= 0 ? R + (size_t)in->a * 32 : NULL;
  const uint64_t *B = in->b >= 0 ? R + (size_t)in->b * 32 : NULL;
  const uint64_t *C = in->c >= 0 ? R + (size_t)in->c * 32 : NULL;
  int next = pc + 1;
  /* a warp is one agent of the memory model under lockstep, each lane is under ITS */
  int lockstep = L->ctx->cfg.warps != GR_WARPS_ITS;
  if (w->npend && access_needs_pending(w, in, m)) access_resolve_pending(L, w, in, m);
  L->steps++;
  /* a full warp needs no popcount (a libgcc call where the target lacks the instruction) */
  L->ctx->stats.thread_instructions += m == FULL ? 32u : (uint64_t)__builtin_popcount(m);

  switch (in->op) {
  case OP_LD: case OP_ST:
    if (access_ldst(L, w, in, m, pc, lockstep)) return;
    break;
  case OP_ATOM:
    if (access_atom(L, w, in, m, pc, lockstep)) return;
    break;
  case OP_FENCE:
    /* lockstep: the warp is one agent, and its fence is also that of its
     * inactive lanes with accesses in flight */
    if (L->mem) {
      uint32_t fm = m;
      if (lockstep) for (int k = 0; k < 32; k++) if (w->wm->lane[k].apos >= 0) fm |= 1u << k;
      LANES(fm, wm_fence(L->mem, &w->wm->lane[l], (int)in->imm, in->flags));
    }
    if (L->ctx->nobs) {
      gr_event ev;
      engine_ev_init(L, &ev, GR_EV_FENCE, w, pc);
      ev.scope = (gr_scope)in->imm;
      ev.order = in->flags == FENCE_ACQ_REL ? GR_ORDER_ACQ_REL : GR_ORDER_SC;
      ev.mask = m;
      engine_deliver(L, &ev);
    }
    break;
  case OP_BAR: {
    if (m != w->alive) {
      char act[96], rest[96];
      engine_fmt_mask_lanes(act, sizeof act, m);
      engine_fmt_mask_lanes(rest, sizeof rest, w->alive & ~m);
      engine_fault(L, pc, "barrier divergence: __syncthreads reached by lanes %s of warp %u in block (%u,%u,%u) while lanes %s of the same warp are elsewhere",
            act, w->wib, w->b->idx[0], w->b->idx[1], w->b->idx[2], rest);
      return;
    }
    /* a barrier orders memory for the block as a block-scope fence does
     * (nothing to do where none of the warp's lanes has an entry in flight) */
    if (L->mem && w->wm->entries) LANES(m, wm_barrier(L->mem, &w->wm->lane[l]));
    if (in->imm != BAR_SYNC) {
      uint32_t t = 0;
      LANES(m, if (A[l]) t |= 1u << l);
      w->b->bar_count += (uint32_t)__builtin_popcount(t);
      if (t != m) w->b->bar_and = 0;
      if (t) w->b->bar_or = 1;
    }
    if (L->ctx->nobs) {
      gr_event ev;
      engine_ev_init(L, &ev, GR_EV_ARRIVE, w, pc);
      ev.mask = m;
      engine_deliver(L, &ev);
    }
    top->pc = next;
    w->state = W_BAR;
    w->bar_pc = pc;
    engine_ready_remove(L, w);
    w->b->at_bar++;
    barrier_maybe_release(L, w->b, pc);
    return;
  }
  case OP_MALLOC:
    LANES(m, d[l] = engine_heap_malloc(L, w, l, A[l]));
    break;
  case OP_PRINTF: {   /* the lanes print in lane order */
    const uint64_t *B = R + (size_t)in->b * 32;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
      int l = __builtin_ctz(mm);
      int k = engine_printf(L, w, l, A[l], B[l], pc);
      if (L->failed) return;
      if (d) d[l] = (uint64_t)(int64_t)(k < 0 ? -1 : k);
    }
    break;
  }
  case OP_FREE: {
    /* weak memory: what is in flight lands first (a legal run of the memory
     * system), so that no buffered store outlives the block it writes */
    if (L->mem) wm_quiesce(L->mem);
    int bad = -1;
    LANES(m, if (bad < 0 && !engine_heap_free(L, A[l])) bad = l);
    if (bad >= 0) {
      char where[160];
      engine_lane_coords(w, bad, where, sizeof where);
      engine_fault(L, pc, "free of 0x%llx by %s, which device malloc did not return (or freed already)", (unsigned long long)A[bad], where);
      return;
    }
    break;
  }
  case OP_SYNCWARP:
    if (!warp_mask_ok(L, w, pc, A, m, "__syncwarp")) return;
    if (L->mem && w->wm->entries) LANES(m, wm_barrier(L->mem, &w->wm->lane[l]));
    if (L->ctx->nobs) {
      /* each lane synchronises with the lanes its own mask names: lanes that
       * run it together under lockstep with different masks (two halves of
       * a warp) are separate __syncwarps, one event each */
      uint32_t todo = m;
      while (todo) {
        uint32_t v = A ? (uint32_t)A[__builtin_ctz(todo)] : FULL, same = 0;
        LANES(todo, if ((A ? (uint32_t)A[l] : FULL) == v) same |= 1u << l);
        todo &= ~same;
        gr_event ev;
        engine_ev_init(L, &ev, GR_EV_SYNCWARP, w, pc);
        ev.mask = v & w->alive;
        engine_deliver(L, &ev);
      }
    }
    break;
  case OP_VOTE: {
    w->nexchange++;
    if (B && !warp_mask_ok(L, w, pc, B, m, in->imm == VOTE_ALL ? "__all_sync" : in->imm == VOTE_ANY ? "__any_sync" : "__ballot_sync")) return;
    uint32_t ballot = 0;
    LANES(m, if (A && A[l]) ballot |= 1u << l);
    uint64_t v;
    switch (in->imm) {
    case VOTE_ALL: v = ballot == m; break;
    case VOTE_ANY: v = ballot != 0; break;
    case VOTE_BALLOT: v = ballot; break;
    default: v = m;
    }
    LANES(m, d[l] = v);
    break;
  }
  case OP_SHFL: {
    w->nexchange++;
    int kind = (int)(in->imm & 0xff);
    if (in->imm >> 8 && !warp_mask_ok(L, w, pc, R + (size_t)((in->imm >> 8) - 1) * 32, m, "__shfl_sync")) return;
    uint32_t bad = 0;
    LANES(m, { int wd = (int)(int32_t)C[l]; if (wd < 1 || wd > 32 || (wd & (wd - 1))) bad |= 1u << l; });
    if (bad) {
      int l = __builtin_ctz(bad);
      char where[160];
      engine_lane_coords(w, l, where, sizeof where);
      engine_fault(L, pc, "shuffle width %d by %s: the width must be a power of two from 1 to 32", (int)(int32_t)C[l], where);
      return;
    }
    uint64_t src[32];
    memcpy(src, A, sizeof src);
    LANES(m, {
      int width = (int)(int32_t)C[l];
      int seg = l & ~(width - 1), x = (int)(int32_t)B[l], s = l;
      switch (kind) {
      case SHFL_IDX: s = seg + (x & (width - 1)); break;
      case SHFL_UP: s = (l - seg) - x >= 0 ? l - x : l; break;
      case SHFL_DOWN: s = (l - seg) + x < width ? l + x : l; break;
      case SHFL_XOR: s = l ^ x; if (s < seg || s >= seg + width || s > 31) s = l; break;
      }
      if (s < 0 || s > 31 || !(m >> s & 1)) s = l;  /* an inactive source yields the lane's own value */
      d[l] = src[s];
    });
    break;
  }
  case OP_JMP: case OP_BRT: case OP_BRF:
    if (in->a <= pc) note_backedge(L, w, m, pc);
    if (simt_branch(L, w, in, pc, m)) {
      engine_fault(L, pc, "reconvergence stack overflow (more than %d nested divergent paths)", STACK_MAX);
      return;
    }
    goto reconverge;
  case OP_CPASYNC:
    if (access_cp_issue(L, w, in, m, pc)) return;
    break;
  case OP_CPCOMMIT:
    access_cp_commit(w, m);
    break;
  case OP_CPWAIT:
    if (access_cp_wait(L, w, m, (uint32_t)in->imm, pc)) return;
    break;
  case OP_EXIT: {
    if (w->cp && access_cp_exit(L, w, m)) return;   /* the copies still in flight land */
    if (L->mem && w->wm->entries) LANES(m, wm_perform_all(L->mem, &w->wm->lane[l]));
    w->alive &= ~m;
    for (int k = 0; k < w->sp; k++) w->stk[k].mask &= ~m;
    goto reconverge;
  }
  case OP_TRAP: {
    char where[160];
    engine_lane_coords(w, __builtin_ctz(m), where, sizeof where);
    if (in->imm == TRAP_ASSERT && in->a >= 0) {
      int l = __builtin_ctz(m);
      char text[1200];
      engine_assert_text(L, w, l, R[(size_t)in->a * 32 + l], R[(size_t)in->b * 32 + l], R[(size_t)in->c * 32 + l], pc, text, sizeof text);
      if (!L->failed) engine_fault(L, pc, "%s in %s", text, where);
    } else if (in->imm == TRAP_ASSERT) engine_fault(L, pc, "assertion failed in %s", where);
    else if (in->imm == TRAP_BARRIER_ID) engine_fault(L, pc, "barrier with an id other than 0 in %s: named barriers are not supported", where);
    else engine_fault(L, pc, "__trap() executed by %s", where);
    return;
  }
  default:
    if (!kir_is_alu(in->op)) {
      engine_fault(L, pc, "internal error: unknown opcode %d", in->op);
      return;
    }
    simt_alu(L, w, in, m);
  }
  top->pc = next;
reconverge:
  simt_reconverge(L, w);
  /* under ITS the stack holds only the lanes that just ran */
  if (w->alive == 0 || (w->sp == 0 && L->ctx->cfg.warps == GR_WARPS_LOCKSTEP)) warp_finish(L, w);
}

/* One step of a warp in the launch's warp model.  Sampled (under ITS,
 * round-robin), a warp at a run of its own instructions runs them all at
 * once (simt.h; while observers watch, those that tell them nothing) and
 * spends its next turns on them; at most this many at a time: */
#define RUN_AHEAD_MAX 4096

/* The next store among the due events from edge_due[k] on: its turn, or 0. */
static uint32_t next_write(const warp *w, int k) {
  for (; k < w->nedge; k++)
    if (w->edge_due[k] & EDGE_WRITE) return w->edge_due[k] & ~EDGE_WRITE;
  return 0;
}

/* The due events of a stretch, edge_at's entries (simt_run_ahead: j for a
 * backward branch, ~j for a store that changed memory) made turns: the
 * j-th instruction's is where ahead is n - j; at j = 0 (this turn, where
 * first) now. */
static void ran_due(launch *L, warp *w, int n, const int *edge_at, int nedge, int first) {
  w->nedge = w->edge_next = 0;
  for (int k = 0; k < nedge; k++) {
    int write = edge_at[k] < 0, j = write ? ~edge_at[k] : edge_at[k];
    if (first && j == 0) {
      if (write) L->write_epoch++;
      else note_backedge(L, w, w->alive, -1);
    } else
      w->edge_due[w->nedge++] = (uint32_t)(n - j) | (write ? EDGE_WRITE : 0);
  }
  w->next_due = w->nedge ? w->edge_due[0] & ~EDGE_WRITE : 0;
  w->write_due = next_write(w, 0);
}

/* A stretch of n instructions just ran ahead of their turns, the first in
 * this one; each backward branch among them (its index j in edge_at) meets
 * the livelock detector at its own turn, as engine_warp_step would have it: now
 * for j = 0, else at the turn where ahead is n - j.  The stretch ran them
 * only while the detector's count stays below SPIN_PATIENCE through their
 * turns, so the detector does not hash the warp's (later) state there: its
 * count and epoch are all it keeps. */
static void ran_ahead(launch *L, warp *w, int n, const int *edge_at, int nedge) {
  L->steps++;
  w->ahead = (uint32_t)n - 1;
  ran_due(L, w, n, edge_at, nedge, 1);
}

/* ran_ahead for a stretch run at the end of a turn that executed an
 * access: all n of its instructions have turns to come (the j-th at the
 * turn where ahead is n - j). */
static void ran_ahead_after(launch *L, warp *w, int n, const int *edge_at, int nedge) {
  w->ahead = (uint32_t)n;
  ran_due(L, w, n, edge_at, nedge, 0);
}

/* The event due at this turn: a backward branch meets the livelock
 * detector; a store's change to memory is seen. */
static void edge_met(launch *L, warp *w) {
  if (w->edge_due[w->edge_next] & EDGE_WRITE) {
    L->write_epoch++;
    w->write_due = next_write(w, w->edge_next + 1);
  } else
    note_backedge(L, w, w->alive, -1);
  w->next_due = ++w->edge_next < w->nedge ? w->edge_due[w->edge_next] & ~EDGE_WRITE : 0;
}

/* The backward branches a stretch may run: none of them meets the
 * detector at a count where it hashes the warp (note_backedge: from
 * SPIN_PATIENCE on, at each power of two and the SPIN_WINDOW edges after
 * the last), whatever the writes before their turns (a write resets the
 * count, and a count below SPIN_PATIENCE hashes nothing). */
static int edges_allowed(const warp *w) {
  uint64_t k = w->backedges + 1, next;   /* the count at the next edge's turn, and the next that hashes */
  if (k < SPIN_PATIENCE) next = SPIN_PATIENCE;
  else if (w->spin_at && k - w->spin_at <= SPIN_WINDOW) return 0;
  else next = k & (k - 1) ? (uint64_t)1 << (64 - __builtin_clzll(k)) : k;
  uint64_t room = next - k;
  return room < WARP_EDGES ? (int)room : WARP_EDGES;
}

/* Whether the warp may run ahead at this turn (a spinning warp stays
 * exact where it is: a deadlock report shows where it spins); while
 * observers watch, only from its stack's bottom entry (simt.h's
 * SIMT_OBSERVED). */
static inline int ahead_ok(const launch *L, const warp *w) {
  return w->sp > 0 && !w->stuck && (!L->ctx->nobs || (w->sp == 1 && w->stk[0].rpc < 0));
}
static inline int ahead_how(const launch *L) {
  return L->ctx->nobs ? SIMT_OBSERVED | (L->race_free_unseen ? SIMT_READONLY : 0) : 0;
}

static void warp_run(launch *L, warp *w) {
  if (w->ahead) {   /* its instruction already ran (simt.h): the turn only counts */
    if (w->ahead == w->next_due) edge_met(L, w);
    w->ahead--;
    L->steps++;
    return;
  }
  int edge_at[WARP_EDGES], nedge;
  if (L->ctx->cfg.warps == GR_WARPS_ITS) {
    /* ITS, round-robin: a converged warp's stretch runs ahead as under
     * lockstep while its lanes agree at every branch, each of those steps
     * the one its_step_converged would take; so does the one group of a
     * warp whose other lanes wait at __syncthreads, short of a backward
     * branch (there the livelock detector counts lane by lane) */
    if (L->ahead && w->its_one && ahead_ok(L, w) && L->ahead->marks[w->stk[w->sp - 1].pc]) {
      int n = simt_run_ahead(L, w, RUN_AHEAD_MAX, SIMT_UNIFORM | ahead_how(L), w->its_conv ? edges_allowed(w) : 0, edge_at,
                             &nedge);
      if (n) {
        its_ran_ahead(w, n);
        ran_ahead(L, w, n, edge_at, nedge);
        return;
      }
    }
    its_step(L, w);
    return;
  }
  /* a turn at a memory access or barrier (most turns that are not
   * counted) goes straight to engine_warp_step */
  int can = L->ahead && ahead_ok(L, w);
  if (can && L->ahead->marks[w->stk[w->sp - 1].pc]) {
    int n = simt_run_ahead(L, w, RUN_AHEAD_MAX, ahead_how(L), edges_allowed(w), edge_at, &nedge);
    if (n) {
      ran_ahead(L, w, n, edge_at, nedge);
      return;
    }
  }
  int op = can ? L->f->code[w->stk[w->sp - 1].pc].op : OP_NOP;
  engine_warp_step(L, w);
  /* after an access, the stretch that follows runs now, while the warp is
   * in the cache, its turns all to come: the next turn only counts, and
   * rounds of such turns are skipped at once (skip_rounds) */
  if (can && (op == OP_LD || op == OP_ST || op == OP_ATOM) && !L->failed && w->state == W_READY && ahead_ok(L, w) &&
      L->ahead->marks[w->stk[w->sp - 1].pc]) {
    int n = simt_run_ahead(L, w, RUN_AHEAD_MAX, ahead_how(L), edges_allowed(w), edge_at, &nedge);
    if (n) ran_ahead_after(L, w, n, edge_at, nedge);
  }
}

/* ------------------------------------------------------------- scheduling */

/* Round-robin, at the start of a round: where every ready warp has run
 * ahead, the rounds in which each only counts a turn are counted at once
 * (a round gives each ready warp one turn, so they leave the scheduler
 * where it was). */
static void skip_rounds(launch *L) {
  uint64_t k = UINT64_MAX;
  for (int j = 0; j < L->nrun && k; j++) {
    const warp *w = L->run[j];
    if (w->state != W_READY) continue;
    if (w->ahead < k) k = w->ahead;
    /* a store's change to memory, seen at its turn, is not skipped: the
     * backward branches of those turns meet the detector in turn order */
    if (w->write_due && w->ahead - w->write_due < k) k = w->ahead - w->write_due;
  }
  if (!k || k == UINT64_MAX) return;
  /* the step limit stays where it would be met */
  uint64_t room = L->steps < L->ctx->cfg.max_steps ? (L->ctx->cfg.max_steps - L->steps - 1) / (uint64_t)L->nready : 0;
  if (k > room) k = room;
  for (int j = 0; j < L->nrun; j++) {
    warp *w = L->run[j];
    if (w->state != W_READY) continue;
    /* a backward branch due in these turns: nothing writes memory in them,
     * so the detector sees the epoch it would see at its turn */
    while (w->next_due && w->next_due + (uint32_t)k > w->ahead) edge_met(L, w);
    w->ahead -= (uint32_t)k;
  }
  L->steps += k * (uint64_t)L->nready;
}

/* --engine auto: the warp steps a launch runs before the kernel is
 * compiled (about 0.1 s of the interpreter: shorter launches never pay the
 * compiler), and between two looks at the compiler, which runs in the
 * background while the interpreter goes on (docs/engine.md). */
#define JIT_AUTO_STEPS 4000000u
#define JIT_POLL_STEPS 250000u

/* The launch's kernel's key for the compiled engine, kept by its module
 * (emitting the C text to hash it costs as much as a short launch). */
static uint64_t engine_jit_key(launch *L, int whole) {
  emu_module *m = L->mod;
  const kir_module *km = m->km;
  for (int k = 0; k < km->nfuncs; k++) {
    if (km->funcs[k] != L->f) continue;
    if (!m->jit_keys) m->jit_keys = xcalloc(2 * (size_t)km->nfuncs, sizeof *m->jit_keys);
    uint64_t *key = &m->jit_keys[2 * k + whole];
    if (!*key) *key = whole ? jit_whole_key(L->f) : jit_key(L->f);
    return *key;
  }
  return whole ? jit_whole_key(L->f) : jit_key(L->f);
}

const jit_code *engine_jit_whole(launch *L) {
  emu_dev *ctx = L->ctx;
  uint64_t key = engine_jit_key(L, 1);
  char why[160];
  int failed;
  if (!key) return NULL;
  if (ctx->cfg.engine == GR_ENGINE_COMPILED)
    return jit_whole_get(L->f, key, ctx->cfg.jit_cache, &ctx->stats.compile_seconds, why, sizeof why);
  const jit_code *c = jit_ready(L->f, key, ctx->cfg.jit_cache, &ctx->stats.compile_seconds, &failed, why, sizeof why);
  if (!c && !failed) jit_whole_begin(L->f, key, ctx->cfg.jit_cache, why, sizeof why);
  return c;
}

/* Why compiled code cannot run, for the host's note (said once a process). */
static void jit_note(launch *L, const char *why) {
  snprintf(L->ctx->stats.engine_note, sizeof L->ctx->stats.engine_note, "the compiled engine is not available (%s): the interpreter runs",
           why);
  L->jit_due = 0;
}

/* auto: the compiled code where it is ready (the disk's cache, or a
 * background compile that ended) */
static void jit_poll(launch *L) {
  emu_dev *ctx = L->ctx;
  char why[160];
  int failed;
  L->jit = jit_ready(L->f, L->jit_key, ctx->cfg.jit_cache, &ctx->stats.compile_seconds, &failed, why, sizeof why);
  if (L->jit) ctx->stats.compiled = 1, L->jit_due = 0;
  if (failed) jit_note(L, why);
}

/* auto, at JIT_AUTO_STEPS: the compiler starts, then every JIT_POLL_STEPS a look */
static void jit_auto(launch *L) {
  emu_dev *ctx = L->ctx;
  char why[160];
  if (L->jit_due == JIT_AUTO_STEPS &&   /* (later looks are due past it) */
      jit_begin(L->f, L->jit_key, ctx->cfg.jit_cache, why, sizeof why)) {
    jit_note(L, why);
    return;
  }
  jit_poll(L);
  if (!L->jit && L->jit_due) L->jit_due = L->steps + JIT_POLL_STEPS;
}

/* compiled: the code, compiled now where no cache has it */
static void jit_attach(launch *L) {
  emu_dev *ctx = L->ctx;
  char why[160];
  L->jit = jit_get(L->f, L->jit_key, ctx->cfg.jit_cache, &ctx->stats.compile_seconds, why, sizeof why);
  if (L->jit) ctx->stats.compiled = 1;
  else jit_note(L, why);
}

static warp *pick(launch *L) {
  if (L->nready == 0) return NULL;
  if (L->ctx->cfg.sched == GR_SCHED_RANDOM) {
    if (!L->mem) return L->ready[rng_below(&L->rng, (uint32_t)L->nready)];
    /* weak memory: warps issue at different rates, so that one thread's
     * writes can drain, and another's run ahead, while a third waits */
    for (;;) {
      warp *w = L->ready[rng_below(&L->rng, (uint32_t)L->nready)];
      if (rng_below(&L->rng, 8) < w->speed) return w;
    }
  }
  /* weak memory: every iteration of the launch's loop may draw a
   * background action instead of a turn, but not while nothing is in
   * flight (it asks wm_busy first), and counted turns put nothing in
   * flight: rounds of them are skipped then too */
  if (L->rr == 0 && L->ahead && (!L->mem || !wm_busy(L->mem))) skip_rounds(L);
  for (int k = 0; k < L->nrun; k++) {
    warp *w = L->run[L->rr];
    L->rr = L->rr + 1 == L->nrun ? 0 : L->rr + 1;
    if (w->state == W_READY) {
      /* the next warp's lines, while this one runs: the round-robin
       * visits hundreds of warps between two turns of one */
      const warp *nx = L->run[L->rr];
      __builtin_prefetch(&nx->state);
      __builtin_prefetch(&nx->ahead);
      __builtin_prefetch(&nx->stk[0]);
      return w;
    }
  }
  return NULL;
}


/* ------------------------------------------------------------- exhaustive runs */

/* Instructions that another warp can observe, or that depend on memory:
 * the only points where interleaving matters. */
static int at_visible(const launch *L, const warp *w) {
  if (L->ctx->cfg.warps == GR_WARPS_ITS) {
    /* which lanes run is itself a choice, except at an instruction that
     * none can observe: its_step runs that one first, whole */
    for (uint32_t al = w->alive; al; al &= al - 1) {
      int l = __builtin_ctz(al);
      if (w->lwait[l] != LW_RUN) continue;
      uint32_t group = 0;
      for (uint32_t o = w->alive; o; o &= o - 1) {
        int k = __builtin_ctz(o);
        if (w->lwait[k] == LW_RUN && w->lpc[k] == w->lpc[l]) group |= 1u << k;
      }
      if (!its_visible(L, w, &L->f->code[w->lpc[l]], group)) return 0;
    }
    return 1;
  }
  const simt_entry *top = &w->stk[w->sp - 1];
  const kir_ins *in = &L->f->code[top->pc];
  switch (in->op) {
  case OP_LD: case OP_ST: case OP_ATOM: case OP_FENCE: case OP_BAR: case OP_SYNCWARP: case OP_MALLOC: case OP_FREE: case OP_CPASYNC: case OP_CPWAIT: case OP_PRINTF: return 1;
  default: return w->npend && access_needs_pending(w, in, top->mask);
  }
}

static void put_u64(bytes *k, uint64_t v) { bytes_put(k, &v, sizeof v); }

/* The whole machine state, in a canonical byte form: two runs that reach
 * equal keys have the same futures. */
static void state_key(launch *L) {
  bytes *k = &L->key;
  k->len = 0;
  put_u64(k, explore_launches(L->ctx->explore));
  put_u64(k, L->next_block);
  const kir_func *f = L->f;
  for (int s = 0; s < L->nslots; s++) {
    blk *b = L->slots[s];
    put_u64(k, b ? b->lin : UINT64_MAX);
    if (!b) continue;
    put_u64(k, (uint64_t)b->at_bar << 32 | (uint32_t)b->live);
    put_u64(k, (uint64_t)b->bar_count << 2 | b->bar_and << 1 | b->bar_or);
    bytes_put(k, b->shared, L->shared_size);
    for (int j = 0; j < b->nwarps; j++) {
      warp *w = &b->warps[j];
      put_u64(k, (uint64_t)w->state << 32 | (uint32_t)w->sp);
      put_u64(k, w->alive);
      bytes_put(k, w->stk, sizeof(simt_entry) * (size_t)w->sp);
      if (L->ctx->cfg.warps == GR_WARPS_ITS)
        for (uint32_t al = w->alive; al; al &= al - 1) {
          int l = __builtin_ctz(al);
          put_u64(k, (uint64_t)(uint32_t)w->lpc[l] << 32 | w->lwait[l]);
          put_u64(k, w->lsync[l]);
        }
      for (uint32_t al = w->alive; al;) {
        int l = __builtin_ctz(al);
        al &= al - 1;
        for (int r = 0; r < f->nregs; r++) put_u64(k, w->r[(size_t)r * 32 + (size_t)l]);
        bytes_put(k, w->local + (size_t)l * f->frame, f->frame);
      }
      if (w->wm) for (int l = 0; l < 32; l++) wm_serialize_lane(&w->wm->lane[l], k);
    }
  }
  emu_dev *ctx = L->ctx;
  for (size_t a = 1; a < ctx->allocs.len; a++) {
    galloc *g = vec_at(&ctx->allocs, a);
    if (g->live) bytes_put(k, g->data, g->size);
  }
  if (L->mem) wm_serialize(L->mem, k);
}

/* Runs every warp up to its next visible instruction, then makes the one
 * choice of this point: a warp to issue (returned), or a memory action
 * (performed here; returns NULL).  NULL with nothing ready ends the run. */
static warp *explore_pick(launch *L) {
  for (int k = 0; k < L->nready && !L->failed;) {
    warp *w = L->ready[k];
    if (at_visible(L, w)) { k++; continue; }
    warp_run(L, w);   /* may retire the warp and reorder the list: rescan */
    k = 0;
    if (L->steps >= L->ctx->cfg.max_steps) return NULL;   /* the caller reports it */
  }
  if (L->failed || L->nready == 0) return NULL;
  int nm = L->mem ? wm_count_actions(L->mem) : 0;
  /* a replayed prefix's states were keyed when it was first run */
  if (!explore_replaying(L->ctx->explore) && (state_key(L), explore_visit(L->ctx->explore, L->key.p, L->key.len))) {
    explore_mark_pruned(L->ctx->explore);
    L->pruned = 1;
    return NULL;
  }
  int c = choose(&L->ch, L->nready + nm);
  if (c < L->nready) return L->ready[c];
  wm_do_action(L->mem, c - L->nready);
  L->ctx->stats.memory_actions++;
  return NULL;
}

void emu_explore(emu_dev *ctx, gr_explore *x) { ctx->explore = x; }

/* The launch turn by turn: the scheduler picks each warp instruction's
 * warp, until every block has ended or the run fails. */
static void run_turns(launch *L) {
  emu_dev *ctx = L->ctx;
  const gr_config *cfg = &ctx->cfg;
  const char *kernel = L->f->name;
  /* block b goes to SM b mod sms, so that neighbouring blocks land on different SMs */
  for (int s = 0; s < L->nslots; s++) engine_block_start(L, s, block_lin(L, L->next_block++));
  engine_rebuild_run(L);
  uint64_t max_steps = cfg->max_steps;
  while (!L->failed && !L->pruned) {
    warp *w;
    if (ctx->explore) {
      w = explore_pick(L);
      if (!w && (L->failed || L->pruned || L->nready == 0)) break;
    } else {
      /* weak memory: a background action (a drain, a deferred load) comes
       * with this launch's odds */
      if (L->mem && wm_busy(L->mem) && rng_below(&L->rng, 1024) < L->mem_odds) {
        wm_random_action(L->mem, &L->rng, L->load_odds, L->hold_sm, L->newest);
        ctx->stats.memory_actions++;
        continue;
      }
      w = pick(L);
      if (!w) break;
    }
    if (w) warp_run(L, w);
    if (L->jit_due && L->steps >= L->jit_due) jit_auto(L);
    if (L->pending_restore) snapshot_apply_restore(L);
    if (L->deadlock_check) check_deadlock(L);
    if (L->steps >= max_steps && !L->failed) {
      emu_fail(ctx, GR_EEMU, "error: step limit reached: '%s' ran %llu warp instructions without finishing (raise it with --max-steps)",
               kernel, (unsigned long long)max_steps);
      L->failed = GR_EEMU;
    }
  }
  if (!L->failed && !L->pruned) {
    /* everything left is waiting: cannot happen with exited warps ignored, but be exact */
    for (int s = 0; s < L->nslots; s++) if (L->slots[s]) { check_deadlock(L); if (!L->failed) engine_fault(L, -1, "internal error: blocks left unfinished"); break; }
  }
}

void engine_run_blocks(launch *L, const uint64_t *lins, uint64_t n) {
  uint64_t nb = L->nblocks;
  int ns = L->nslots;
  L->lins = lins;
  L->nblocks = n;
  if ((uint64_t)L->nslots > n) L->nslots = (int)n;
  run_turns(L);
  L->lins = NULL;
  L->nblocks = nb;
  L->nslots = ns;
}

/* emu_launch's: the launch to run again, turn by turn (whole.c) */
#define LAUNCH_AGAIN 100

static int launch_once(emu_module *mod, const kir_func *f, gr_dim3 grid, gr_dim3 bdim, size_t dyn_shared, unsigned flags,
                       const uint64_t *args, const void *const *argdata, int again);

int emu_launch(emu_module *mod, const kir_func *f, gr_dim3 grid, gr_dim3 bdim, size_t dyn_shared, unsigned flags, const uint64_t *args,
               const void *const *argdata) {
  int rc = launch_once(mod, f, grid, bdim, dyn_shared, flags, args, argdata, 0);
  if (rc != LAUNCH_AGAIN) return rc;
  /* (the compiler ran in the first, if at all) */
  double compiled_s = mod->ctx->stats.compile_seconds;
  rc = launch_once(mod, f, grid, bdim, dyn_shared, flags, args, argdata, 1);
  mod->ctx->stats.compile_seconds += compiled_s;
  return rc;
}

/* The launch; again: its second run, turn by turn, whose observers were
 * given its begin already (whole_launch). */
static int launch_once(emu_module *mod, const kir_func *f, gr_dim3 grid, gr_dim3 bdim, size_t dyn_shared, unsigned flags,
                       const uint64_t *args, const void *const *argdata, int again) {
  emu_dev *ctx = mod->ctx;
  const gr_config *cfg = &ctx->cfg;
  const char *kernel = f->name;
  int nargs = f->nparams;
  memset(&ctx->stats, 0, sizeof ctx->stats);
  if (ctx->L) return emu_fail(ctx, GR_EINPUT, "error: gr_launch called during a launch");
  if (dyn_shared && !mod->km->uses_dyn_shared)
    return emu_fail(ctx, GR_EINPUT, "error: dynamic shared memory requested but '%s' declares no extern __shared__ array", mod->path);
  uint64_t shared = ((uint64_t)mod->km->shared_static + 15) / 16 * 16 + dyn_shared;
  if (shared > cfg->shared_per_sm)
    return emu_fail(ctx, GR_EINPUT, "error: block needs %llu bytes of shared memory, an SM has %u", (unsigned long long)shared, cfg->shared_per_sm);
  /* residency: blocks per SM by threads, shared memory and the block limit */
  uint32_t wpb = (bdim.x * bdim.y * bdim.z + 31) / 32;
  int per_sm = cfg->max_blocks_per_sm;
  int by_threads = cfg->max_threads_per_sm / (int)(wpb * 32);
  if (by_threads < per_sm) per_sm = by_threads;
  if (shared && (int)(cfg->shared_per_sm / shared) < per_sm) per_sm = (int)(cfg->shared_per_sm / shared);
  if (per_sm < 1) per_sm = 1;
  uint64_t nslots = (uint64_t)per_sm * (uint64_t)cfg->sms, nblocks = (uint64_t)grid.x * grid.y * grid.z;
  /* a cooperative grid runs whole or not at all (cudaErrorCooperativeLaunchTooLarge) */
  if ((flags & GR_LAUNCH_COOPERATIVE) && nblocks > nslots)
    return emu_fail(ctx, GR_EINPUT, "error: cooperative launch of '%s' with %llu blocks: the device holds %llu of them at once (%d SMs x %d blocks of %u threads; --sms raises it)",
                    kernel, (unsigned long long)nblocks, (unsigned long long)nslots, cfg->sms, per_sm, wpb * 32);
  /* the grid workspace cooperative_groups::this_grid() finds through
   * %envreg1/%envreg2: its size, then the grid barrier's arrival count.
   * Every launch of a kernel that reads it has one, as CUDA 13's driver
   * gives one (an H200 runs grid.sync() in an ordinary launch whose blocks
   * are all resident: reports/programs-hw.md); only a cooperative launch
   * is refused when the grid cannot be resident at once; an ordinary one
   * whose blocks wait at the grid barrier for blocks that cannot start
   * deadlocks, as the GPU hangs. */
  gr_ptr gridws = 0;
  if ((flags & GR_LAUNCH_COOPERATIVE) || f->uses_gridws) {
    const uint32_t ws[2] = {8, 0};
    if (emu_malloc(ctx, sizeof ws, "grid workspace", &gridws) != GR_OK) return GR_EINPUT;
    emu_htod(ctx, gridws, ws, sizeof ws);
  }
  launch *L = xcalloc(1, sizeof *L);
  L->gridws = gridws;
  L->ctx = ctx; L->mod = mod; L->f = f; L->grid = grid; L->bdim = bdim;
  L->nthreads = bdim.x * bdim.y * bdim.z;
  L->wpb = wpb;
  L->nblocks = nblocks;
  L->shared_size = (uint32_t)shared;
  rng_seed(&L->rng, cfg->seed);
  L->ch.r = &L->rng;
  L->ch.x = ctx->explore;
  ctx->log_len = 0;
  ctx->log_shown = 0;
  L->args = xcalloc((size_t)nargs + 1, sizeof *L->args);
  L->argdata = xcalloc((size_t)nargs + 1, sizeof *L->argdata);
  for (int k = 0; k < nargs; k++) {
    L->args[k] = args[k];
    if (f->params[k].sk == SK_COUNT) {
      L->argdata[k] = xmalloc(f->params[k].size + 1u);
      memcpy(L->argdata[k], argdata[k], f->params[k].size);
    }
  }
  if (nslots > L->nblocks) nslots = L->nblocks;
  L->nslots = (int)nslots;
  L->slots = xcalloc(nslots, sizeof(blk *));
  L->run = xcalloc(nslots * L->wpb, sizeof(warp *));
  L->ready = xcalloc(nslots * L->wpb, sizeof(warp *));
  if (cfg->memory == GR_MEMORY_WEAK) {
    wm_hooks h = access_hooks(L);
    L->mem = wm_renew(ctx->wm_spare, cfg->sms, &h, &L->ch);
    ctx->wm_spare = NULL;
    /* each sampled run stresses the memory system differently: how often
     * it acts in the background, and how many loads are left pending */
    static const uint32_t odds[] = {128, 256, 512, 768, 896};
    L->mem_odds = odds[rng_below(&L->rng, 5)];
    L->defer_odds = odds[rng_below(&L->rng, 5)];
    L->load_odds = 1024u >> (2 * rng_below(&L->rng, 4));   /* 1024, 256, 64 or 16 */
    /* in half the runs one SM's writes linger; in half, newer writes go first */
    L->hold_sm = (int)rng_below(&L->rng, 2u * (uint32_t)cfg->sms);
    L->newest = (int)rng_below(&L->rng, 2);
  }
  /* ITS, sampled: each launch draws one way for lanes to drift, so that
   * what GPUs make of racy warp-synchronous code is within reach: groups
   * split at random; one lane of each warp runs ahead of the others (a
   * compiler keeping values in registers); groups run whole, as converged
   * hardware runs them; or the lowest runnable lane runs alone, lane after
   * lane (a compiler hoisting every load above the stores: the H100's 70) */
  L->its_lead = -1;
  L->its_mode = ITS_SPLIT;
  if (cfg->warps == GR_WARPS_ITS && cfg->sched == GR_SCHED_RANDOM && !ctx->explore) {
    L->its_mode = (int)rng_below(&L->rng, 4);
    if (L->its_mode == ITS_LEAD) L->its_lead = (int)rng_below(&L->rng, 32);
  }
  ctx->L = L;
  if (ctx->explore) explore_launch_begun(ctx->explore);
  /* ITS draws the lanes of each step from the seed under the random scheduler: no run-ahead there */
  int ahead = (cfg->warps != GR_WARPS_ITS || cfg->sched != GR_SCHED_RANDOM) && !ctx->explore && !cfg->one_per_turn;
  /* which accesses read memory that holds still, or no thread can tell
   * apart from performing at once (prov.h): for weak memory, and for the
   * run-ahead's loads; not while observers watch each access (but for
   * the loads of allocations nothing writes, under sc memory, where each
   * observer needs no event of them), an exhaustive run enumerates every
   * order, or a trace supplies the values */
  L->race_free_unseen = ctx->nobs && cfg->memory == GR_MEMORY_SC && !ctx->explore && !ctx->supply;
  for (int k = 0; k < ctx->nobs; k++)
    if (ctx->obs_live[k] && !(ctx->obs[k].flags & GR_OBSERVE_SKIP_RACE_FREE)) L->race_free_unseen = 0;
  /* a reduction races with nothing, but after a fence of its thread it
   * carries what the thread knew, and another thread's reduction that
   * reads it, then fences, learns it (the PTX model's release and acquire
   * patterns: tests/data/hb_cover/fence_reduce.cu, where hb-ptx saw a race
   * that the fences and reductions order) */
  L->red_unseen = L->race_free_unseen;
  for (int pc = 0; pc < f->ncode && L->red_unseen; pc++) if (f->code[pc].op == OP_FENCE) L->red_unseen = 0;
  if ((!ctx->nobs || L->race_free_unseen) && !ctx->explore && !ctx->supply) L->prov = prov_new(mod, f, L->args, grid, bdim);
  if (ahead) L->ahead = simt_plan_new(f, L->args, L->prov ? L->prov->cls : NULL);
  /* (not --one-per-turn, which shows every access) */
  L->order_free = whole_silent(L);
  L->silent = L->race_free_unseen && !cfg->one_per_turn && L->order_free;
  /* compiled code runs the run-ahead's stretches; auto compiles a kernel
   * not cached yet once the launch has run long enough to pay for it
   * (the switch is exact at any step: the code is the interpreter's) */
  if (L->ahead && cfg->engine != GR_ENGINE_INTERP) L->jit_key = engine_jit_key(L, 0);
  if (L->ahead && cfg->engine == GR_ENGINE_COMPILED) jit_attach(L);
  else if (L->ahead && cfg->engine == GR_ENGINE_AUTO) {
    jit_poll(L);
    if (!L->jit) L->jit_due = JIT_AUTO_STEPS;
  }
  if (ctx->nobs && !again) {
    gr_event ev;
    engine_ev_init(L, &ev, GR_EV_LAUNCH_BEGIN, NULL, -1);
    engine_deliver(L, &ev);
  }
  /* a launch no schedule can tell apart: its warps one after another (whole.h) */
  int whole = again ? 0 : whole_launch(L);
  if (!whole) run_turns(L);
  /* the end of a kernel orders everything: the host reads L2 (a run cut
   * short by the explorer has no outcome, and must make no more choices) */
  if (L->mem && !L->pruned) wm_quiesce(L->mem);
  ctx->stats.warp_steps = L->steps;
  if (ctx->nobs && whole >= 0) {
    gr_event ev;
    /* an access the proof missed met those left unshown; in a silent
     * launch, every access was */
    if (L->unseen_met || (L->silent && L->prov->off)) {
      engine_ev_init(L, &ev, GR_EV_UNSEEN, NULL, -1);
      engine_deliver(L, &ev);
    }
    engine_ev_init(L, &ev, GR_EV_LAUNCH_END, NULL, -1);
    engine_deliver(L, &ev);
  }
  if (L->kept_errors && !L->failed && whole >= 0) {
    /* --keep-going: the run went to its end; it still failed, with every error */
    unsigned long long n = L->kept_errors, shown = n < MAX_LOGGED_ERRORS ? n : MAX_LOGGED_ERRORS;
    char sum[256];
    snprintf(sum, sizeof sum, "error: %llu memory error%s in '%s' (accesses dropped, loads read 0)%s", n, n == 1 ? "" : "s",
             L->f->name, n > shown ? "; the first 1000 are shown" : "");
    emu_fail(ctx, GR_EEMU, "%s", sum);
    size_t sl = strlen(sum);
    if (ctx->log_len + sl + 1 > ctx->log_cap) { ctx->log_cap = ctx->log_len + sl + 1; ctx->log = xrealloc(ctx->log, ctx->log_cap); }
    memcpy(ctx->log + ctx->log_len, sum, sl + 1);
    ctx->log_len += sl;
    ctx->log_shown = 1;
    L->failed = GR_EEMU;
  }
  int rc = whole < 0 ? LAUNCH_AGAIN : L->failed;
  for (int s = 0; s < L->nslots; s++) if (L->slots[s]) engine_block_free(L->slots[s]);
  free(L->slots); free(L->run); free(L->ready);
  simt_plan_free(L->ahead);
  free(L->live);
  if (L->prov && L->prov->off) ctx->stats.memory_at_once_stopped++;
  prov_free(L->prov);
  free(L->tids);
  free(L->first_read);
  free(L->its_group);
  if (L->mem && !wm_busy(L->mem)) ctx->wm_spare = L->mem;
  else wm_free(L->mem);
  free(L->key.p);
  for (int k = 0; k < f->nparams; k++) free(L->argdata[k]);
  free(L->argdata);
  free(L->args);
  free(L);
  ctx->L = NULL;
  if (gridws) emu_free_ptr(ctx, gridws);
  return rc;
}

