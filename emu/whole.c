/* A launch that no schedule can tell apart, a warp at a time (whole.h). */
#include "whole.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jit.h"
#include "prov.h"
#include "simt.h"

/* The allocation the access at pc reaches at once: its only root's, where
 * the launch's analysis (prov.h) says it reads what nothing writes
 * (PROV_RO) or writes what nothing reads, one writer an address
 * (PROV_WO); else none (end 0: a warp that reaches it stops there). */
static jit_span span_at(const launch *L, int pc) {
  const kir_ins *in = &L->f->code[pc];
  const prov *pv = L->prov;
  jit_span s = {0, 0, NULL};
  uint64_t r = pv->roots[pc];
  if (pv->cls[pc] != (in->op == OP_LD ? PROV_RO : PROV_WO) || (r & PROV_UNKNOWN) || !r || (r & (r - 1))) return s;
  uint32_t id = pv->src_alloc[__builtin_ctzll(r)];
  galloc *a = id ? emu_alloc_of(L->ctx, KIR_GLOBAL_ADDR(id, 0)) : NULL;
  uint64_t size = (uint64_t)kir_sk_size[in->flags & 0x7f];
  if (!a || a->size < size) return s;
  s.tag = KIR_GLOBAL_ADDR(id, 0);
  s.end = a->size - size + 1;
  s.base = a->data;
  return s;
}

int whole_silent(const launch *L) {
  const kir_func *f = L->f;
  if (!L->prov) return 0;
  for (int pc = 0; pc < f->ncode; pc++) {
    const kir_ins *in = &f->code[pc];
    int ok = in->op == OP_LD ? L->prov->cls[pc] == PROV_RO : in->op == OP_ST ? L->prov->cls[pc] == PROV_WO
                                                                             : in->op == OP_EXIT || simt_own(in);
    if (!ok) return 0;
  }
  return 1;
}

/* What a pass over the launch's warps sums: steps, then the global
 * loads' lanes and bytes and the stores'. */
enum { W_STEPS, W_LD_LANES, W_LD_BYTES, W_ST_LANES, W_ST_BYTES, W_SUMS };

/* A block's warps through the check: all reached their exits, some
 * parted their lanes (and none stopped otherwise), or one stopped. */
enum { B_DONE, B_PARTS, B_STOPS };

/* Warp k of block lin through fn (the check or the run), at most cap
 * instructions: B_DONE where it reached its exit, its counts added to s;
 * else B_PARTS where its lanes parted, B_STOPS where it stopped otherwise. */
static int whole_warp(launch *L, jit_whole_fn fn, const jit_span *span, uint64_t lin, uint32_t k, int32_t cap, uint64_t *s) {
  const gr_dim3 g = L->grid, bd = L->bdim;
  jit_frame F = {0};
  F.tid = L->tids[k].tid;
  F.ctaid[0] = lin % g.x, F.ctaid[1] = lin / g.x % g.y, F.ctaid[2] = lin / ((uint64_t)g.x * g.y);
  F.ntid[0] = bd.x, F.ntid[1] = bd.y, F.ntid[2] = bd.z;
  F.nctaid[0] = g.x, F.nctaid[1] = g.y, F.nctaid[2] = g.z;
  F.gridws = L->gridws;
  F.args = L->args;
  F.gaddr = L->mod->gaddr;
  F.cap = cap;
  F.rpc = -1;
  F.span = span;
  if (!fn(&F)) return F.stopped == 2 ? B_PARTS : B_STOPS;
  s[W_STEPS] += (uint64_t)F.n;
  s[W_LD_LANES] += F.gld_lanes, s[W_LD_BYTES] += F.gld_bytes;
  s[W_ST_LANES] += F.gst_lanes, s[W_ST_BYTES] += F.gst_bytes;
  return B_DONE;
}

/* Every warp of the blocks whose st[] is B_DONE through fn, the sums of
 * those that reached their exits in s; where one did not, its block's
 * st[] says why (the check: st all B_DONE on entry), and its block's
 * sums are not in s.  A warp's own bound is the step limit (compiled code
 * counts in 32 bits), so that one that loops stops.  The warps share
 * nothing (whole.h): the blocks are split among threads, and the sums
 * are the same whatever the split. */
static void whole_pass(launch *L, jit_whole_fn fn, const jit_span *span, uint8_t *st, uint64_t *s) {
  uint64_t limit = L->ctx->cfg.max_steps, nb = L->nblocks;
  int32_t cap = limit - 1 < (uint64_t)INT32_MAX / 2 ? (int32_t)(limit - 1) : INT32_MAX / 2;
  memset(s, 0, W_SUMS * sizeof *s);
#pragma omp parallel for schedule(static) reduction(+ : s[:W_SUMS]) if (nb >= 64)
  for (uint64_t lin = 0; lin < nb; lin++) {
    if (st[lin] != B_DONE) continue;
    uint64_t b[W_SUMS] = {0};
    for (uint32_t k = 0; k < L->wpb; k++) {
      int r = whole_warp(L, fn, span, lin, k, cap, b);
      if (r == B_DONE) continue;
      /* (a warp that stopped otherwise outweighs one whose lanes parted) */
      if (r > st[lin]) st[lin] = (uint8_t)r;
      if (r == B_STOPS) break;
    }
    if (st[lin] == B_DONE)
      for (int j = 0; j < W_SUMS; j++) s[j] += b[j];
  }
}

/* A launch whose warps mostly ran to their exits in the check, but in
 * some blocks a warp's lanes parted, runs those blocks turn by turn
 * first, as a launch of them alone, the rest a warp at a time after: but
 * not where they are more than one in WHOLE_PARTS_MAX, or what the
 * launch writes, kept aside meanwhile, is in more than WHOLE_KEPT_IDS
 * allocations or WHOLE_KEPT_BYTES bytes. */
#define WHOLE_PARTS_MAX 8
#define WHOLE_KEPT_IDS 64
#define WHOLE_KEPT_BYTES ((uint64_t)256 << 20)

/* The allocations the launch's stores reach (ids, at most WHOLE_KEPT_IDS),
 * their count; -1 where they are more or larger than may be kept. */
static int kept_ids(const launch *L, const jit_span *span, uint32_t *ids) {
  int n = 0;
  uint64_t bytes = 0;
  for (int pc = 0; pc < L->f->ncode; pc++) {
    if (L->f->code[pc].op != OP_ST || !span[pc].end) continue;
    uint32_t id = (uint32_t)(span[pc].tag >> 32) & 0xffffff;
    int seen = 0;
    for (int k = 0; k < n; k++) seen |= ids[k] == id;
    if (seen) continue;
    if (n == WHOLE_KEPT_IDS) return -1;
    ids[n++] = id;
    bytes += emu_alloc_of(L->ctx, span[pc].tag)->size;
  }
  return bytes > WHOLE_KEPT_BYTES ? -1 : n;
}

int whole_launch(launch *L) {
  emu_dev *ctx = L->ctx;
  const kir_func *f = L->f;
  /* L->jit: the compiled engine's (its stretches' code).  L->ahead: no exhaustive run, no --one-per-turn.  ITS under the random
   * scheduler splits a warp's lanes at random, its steps the seed's; under
   * round-robin a warp whose lanes never part runs as under lockstep.  Weak
   * memory performs these accesses at once (prov.h), and with nothing in
   * flight it draws no background action.  Observers, where they need no
   * event of the launch (L->silent). */
  if (!L->jit || !L->ahead || (ctx->nobs && !L->silent) || ctx->explore || ctx->supply || !L->prov || L->prov->off ||
      L->nthreads % 32 || (ctx->cfg.warps == GR_WARPS_ITS && ctx->cfg.sched == GR_SCHED_RANDOM) || !L->order_free)
    return 0;
  /* (compiled only for a launch that can run whole) */
  const jit_code *jit = engine_jit_whole(L);
  if (!jit) return 0;
  jit_span *span = xcalloc((size_t)f->ncode + 1, sizeof *span);
  for (int pc = 0; pc < f->ncode; pc++)
    if (f->code[pc].op == OP_LD || f->code[pc].op == OP_ST) span[pc] = span_at(L, pc);
  engine_launch_tids(L);
  uint64_t s[W_SUMS], run[W_SUMS], nb = L->nblocks, nparts = 0;
  uint8_t *st = xcalloc(nb, 1), *st2 = NULL;
  whole_pass(L, jit->whole_check, span, st, s);
  int ok = 1, nids = 0;
  uint32_t ids[WHOLE_KEPT_IDS];
  for (uint64_t b = 0; b < nb && ok; b++) ok = st[b] != B_STOPS, nparts += st[b] == B_PARTS;
  if (ok && nparts) nids = kept_ids(L, span, ids);
  if (!ok || nparts * WHOLE_PARTS_MAX > nb || nids < 0 || s[W_STEPS] >= ctx->cfg.max_steps) {
    free(span);
    free(st);
    return 0;
  }
  int rc = 1;
  L->steps = s[W_STEPS];   /* (the step limit counts the whole launch's: the turns below add theirs) */
  if (nparts) {
    /* the blocks whose lanes part, turn by turn, the memory they write kept
     * to be put back where they fail (a fault, a livelock, the step limit,
     * --keep-going's errors): then the launch runs again, turn by turn
     * from its start, the failure the turns' (emu_launch) */
    uint64_t *lins = xmalloc(nparts * sizeof *lins), n = 0;
    for (uint64_t b = 0; b < nb; b++) if (st[b] == B_PARTS) lins[n++] = b;
    uint8_t *kept[WHOLE_KEPT_IDS];
    for (int k = 0; k < nids; k++) {
      galloc *a = emu_alloc_of(ctx, KIR_GLOBAL_ADDR(ids[k], 0));
      kept[k] = xmalloc(a->size ? a->size : 1);
      memcpy(kept[k], a->data, a->size);
    }
    engine_run_blocks(L, lins, n);
    if (L->failed || L->kept_errors) {
      for (int k = 0; k < nids; k++) {
        galloc *a = emu_alloc_of(ctx, KIR_GLOBAL_ADDR(ids[k], 0));
        memcpy(a->data, kept[k], a->size);
      }
      rc = -1;
    }
    for (int k = 0; k < nids; k++) free(kept[k]);
    free(lins);
  }
  if (rc > 0) {
    /* the run stops where the check did, and the check did nowhere */
    st2 = xmalloc(nb);
    memcpy(st2, st, nb);
    whole_pass(L, jit->whole_run, span, st2, run);
    if (memcmp(st, st2, nb) || memcmp(s, run, sizeof s))
      engine_fault(L, -1, "internal error: a whole-warp run of '%s' stopped where its check did not", f->name);
    ctx->stats.whole = 1;
    ctx->stats.thread_instructions += 32 * s[W_STEPS];
    ctx->stats.mem_ops[0][GR_LOAD] += s[W_LD_LANES], ctx->stats.mem_bytes[0][GR_LOAD] += s[W_LD_BYTES];
    ctx->stats.mem_ops[0][GR_STORE] += s[W_ST_LANES], ctx->stats.mem_bytes[0][GR_STORE] += s[W_ST_BYTES];
    if (L->mem) ctx->stats.memory_at_once += s[W_LD_LANES] + s[W_ST_LANES];
  }
  free(st);
  free(st2);
  free(span);
  return rc;
}
