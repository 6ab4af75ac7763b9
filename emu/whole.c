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

/* Warp k of block lin through fn (the check or the run), at most cap
 * instructions: 1 where it reached its exit, its counts added to *s. */
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
  if (!fn(&F)) return 0;
  s[W_STEPS] += (uint64_t)F.n;
  s[W_LD_LANES] += F.gld_lanes, s[W_LD_BYTES] += F.gld_bytes;
  s[W_ST_LANES] += F.gst_lanes, s[W_ST_BYTES] += F.gst_bytes;
  return 1;
}

/* Every warp of the launch through fn: 1 where each reached its exit and
 * the steps stay under the step limit (the launch fails at the limit's
 * step, its last one included), the sums in *s.  The warps share nothing
 * (whole.h): the blocks are split among threads, and the sums are the
 * same whatever the split. */
static int whole_pass(launch *L, jit_whole_fn fn, const jit_span *span, uint64_t *s) {
  uint64_t limit = L->ctx->cfg.max_steps, nb = L->nblocks;
  /* a warp's own bound, so that one that loops stops: the limit itself
   * (compiled code counts in 32 bits) */
  int32_t cap = limit - 1 < (uint64_t)INT32_MAX / 2 ? (int32_t)(limit - 1) : INT32_MAX / 2;
  int ok = 1;
  memset(s, 0, W_SUMS * sizeof *s);
#pragma omp parallel for schedule(static) reduction(+ : s[:W_SUMS]) reduction(& : ok) if (nb >= 64)
  for (uint64_t lin = 0; lin < nb; lin++)
    for (uint32_t k = 0; k < L->wpb && ok; k++) ok = whole_warp(L, fn, span, lin, k, cap, s);
  return ok && s[W_STEPS] < limit;
}

int whole_launch(launch *L) {
  emu_dev *ctx = L->ctx;
  const jit_code *jit = L->jit;
  const kir_func *f = L->f;
  /* L->ahead: no exhaustive run, no --one-per-turn.  ITS under the random
   * scheduler splits a warp's lanes at random, its steps the seed's; under
   * round-robin a warp whose lanes never part runs as under lockstep.  Weak
   * memory performs these accesses at once (prov.h), and with nothing in
   * flight it draws no background action.  Observers, where they need no
   * event of the launch (L->silent). */
  if (!jit || !jit->whole_check || !L->ahead || (ctx->nobs && !L->silent) || ctx->explore || ctx->supply || !L->prov || L->prov->off ||
      L->nthreads % 32 || (ctx->cfg.warps == GR_WARPS_ITS && ctx->cfg.sched == GR_SCHED_RANDOM))
    return 0;
  jit_span *span = xcalloc((size_t)f->ncode + 1, sizeof *span);
  for (int pc = 0; pc < f->ncode; pc++)
    if (f->code[pc].op == OP_LD || f->code[pc].op == OP_ST) span[pc] = span_at(L, pc);
  engine_launch_tids(L);
  uint64_t s[W_SUMS], run[W_SUMS];
  int ok = whole_pass(L, jit->whole_check, span, s);
  if (ok) {
    /* the run stops where the check did, and the check did nowhere */
    if (!whole_pass(L, jit->whole_run, span, run) || memcmp(s, run, sizeof s))
      engine_fault(L, -1, "internal error: a whole-warp run of '%s' stopped where its check did not", f->name);
    L->steps = s[W_STEPS];
    ctx->stats.whole = 1;
    ctx->stats.thread_instructions += 32 * s[W_STEPS];
    ctx->stats.mem_ops[0][GR_LOAD] += s[W_LD_LANES], ctx->stats.mem_bytes[0][GR_LOAD] += s[W_LD_BYTES];
    ctx->stats.mem_ops[0][GR_STORE] += s[W_ST_LANES], ctx->stats.mem_bytes[0][GR_STORE] += s[W_ST_BYTES];
    if (L->mem) ctx->stats.memory_at_once += s[W_LD_LANES] + s[W_ST_LANES];
  }
  free(span);
  return ok;
}
