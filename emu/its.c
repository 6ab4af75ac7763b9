/* its: independent thread scheduling (--warps its), the warp model of
 * Volta and later: every lane has its own program counter, and a step runs
 * one group of the lanes at one pc, chosen by the scheduler from the seed
 * (or by the exhaustive search); the groups meet again at __syncwarp and
 * __syncthreads.  A warp whose live lanes are all runnable at one pc steps
 * them as one group (its_step_converged).  See its.h. */
#include "its.h"

#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "explore.h"
#include "simt.h"
#include "wmem.h"

/* Lane l of w now waits at what (LW_*), the masks of waiting lanes with it. */
static inline void its_wait(warp *w, int l, int what) {
  uint32_t bit = 1u << l;
  w->lwait[l] = (uint8_t)what;
  w->wait_sync = what == LW_SYNCWARP ? w->wait_sync | bit : w->wait_sync & ~bit;
  w->wait_bar = what == LW_BAR ? w->wait_bar | bit : w->wait_bar & ~bit;
}

/* Whether in is a *_sync warp intrinsic with a member mask (a register). */
static int its_has_members(const kir_ins *in) {
  return (in->op == OP_VOTE && in->b >= 0) || (in->op == OP_SHFL && in->imm >> 8);
}

/* The lanes that must run an instruction together: the member mask of a
 * *_sync warp intrinsic (as the group's first lane holds it), or 0. */
static uint32_t its_members(const launch *L, const warp *w, const kir_ins *in, uint32_t group) {
  (void)L;
  if (!its_has_members(in)) return 0;
  int l = __builtin_ctz(group);
  return (uint32_t)w->r[(size_t)(in->op == OP_VOTE ? in->b : (int)(in->imm >> 8) - 1) * 32 + (size_t)l];
}

/* The lanes of w whose pc is pc (of the 32, live or not): one compare of
 * the lanes, in vectors where the machine has them */
SIMT_CLONES static uint32_t its_lanes_at(const warp *w, int pc) {
  uint32_t same = 0;
  for (int l = 0; l < 32; l++) same |= (uint32_t)(w->lpc[l] == pc) << l;
  return same;
}

/* The one stack entry other code looks at: the lanes that can run now,
 * at the program counter of the first of them. */
static void its_stack(warp *w) {
  uint32_t run = w->alive & ~(w->wait_sync | w->wait_bar);
  uint32_t any = run ? run : w->alive;
  w->sp = 1;
  w->stk[0].pc = any ? w->lpc[__builtin_ctz(any)] : 0;
  w->stk[0].rpc = -1;
  w->stk[0].mask = run;
  int one = run && !(w->alive & w->wait_sync);
  if (one) one = !(run & ~its_lanes_at(w, w->stk[0].pc));
  w->its_one = one;
  w->its_conv = one && run == w->alive;
}

void its_warp_begin(warp *w) { its_stack(w); }

static int its_release(launch *L, warp *w);

/* The whole warp, its live lanes all at the __syncthreads at pc, arrives
 * at the block barrier as under lockstep (its lanes waiting there, as an
 * observer's snapshot during the arrival sees them); its lanes go on
 * together after it. */
static void its_bar_whole(launch *L, warp *w, int pc) {
  uint32_t S = w->alive;
  LANES(S, w->lwait[l] = LW_BAR);
  w->wait_bar |= S;
  w->sp = 1;
  w->stk[0] = (simt_entry){pc, -1, S};
  engine_warp_step(L, w);
  int npc = w->stk[0].pc;
  LANES(S, (w->lwait[l] = LW_RUN, w->lpc[l] = npc));
  w->wait_bar &= ~S;
}

/* After lanes S of w ran an instruction: each goes where its path went,
 * the topmost stack entry that holds it. */
static void its_lanes_follow(warp *w, uint32_t S) {
  uint32_t todo = S & w->alive;
  for (int k = w->sp - 1; k >= 0 && todo; k--) {
    for (uint32_t mm = w->stk[k].mask & todo; mm; mm &= mm - 1) w->lpc[__builtin_ctz(mm)] = w->stk[k].pc;
    todo &= ~w->stk[k].mask;
  }
}

/* The end of a step: waiting lanes released while any can be, and the
 * stack entry other code reads. */
static void its_settle(launch *L, warp *w) {
  while (!L->failed && w->state == W_READY && its_release(L, w)) {
  }
  if (w->state != W_DONE) its_stack(w);
}

/* Round-robin over lane groups when the one group is S: its_next after
 * it runs, as its_step's choice among groups leaves it. */
static void its_rr_advance(warp *w, uint32_t S) {
  uint32_t at = w->its_next < 32 ? S & ~((1u << w->its_next) - 1) : 0;
  int first = at ? __builtin_ctz(at) : 32 + __builtin_ctz(S);
  w->its_next = first % 32 + 1;
}

/* After n steps of a converged warp run ahead (warp_run): what n calls of
 * its_step_converged leave, the lanes where the warp's entry is. */
void its_ran_ahead(warp *w, int n) {
  uint32_t S = w->stk[0].mask;
  if (n > 0 && S) {
    /* n advances over the one group: the first goes to a lane of S, each
     * later one to S's next lane, cyclically (a stretch is thousands of
     * steps; one advance at a time was a sixth of hash's run under ITS) */
    its_rr_advance(w, S);
    int cur = w->its_next - 1;
    if (S == FULL) w->its_next = (cur + n - 1) % 32 + 1;
    else {
      int p = __builtin_popcount(S), k = (__builtin_popcount(S & ((1u << cur) - 1)) + (n - 1) % p) % p;
      uint32_t m = S;
      while (k--) m &= m - 1;
      w->its_next = __builtin_ctz(m) + 1;
    }
  }
  w->its_ran |= S;
  int pc = w->stk[0].pc;
  LANES(S, w->lpc[l] = pc);
}

/* its_step for a converged warp under round-robin, not exploring: the one
 * group is every live lane, and it runs whole, as the general path would
 * choose it (the same lanes, the same its_next); the per-lane bookkeeping
 * is skipped while the warp stays converged.  Returns 0, having done
 * nothing, where the general path must run (a __syncwarp). */
static int its_step_converged(launch *L, warp *w) {
  int pc = w->stk[0].pc;
  const kir_ins *in = &L->f->code[pc];
  if (in->op == OP_SYNCWARP) return 0;
  if (!w->its_conv) {
    /* one group, the warp's other live lanes waiting at __syncthreads
     * (its_one): the general path's step of that group, without forming
     * groups lane by lane (a reduction's last rounds, whose halves of warp
     * 0 wait for each other at every level).  No lane waits at a
     * __syncwarp and the op names no members, so no lane is awaited: the
     * general path's its_passed stays as it is.  A barrier or a warp
     * intrinsic goes the general way. */
    if (in->op == OP_BAR || in->op == OP_VOTE || in->op == OP_SHFL) return 0;
    uint32_t S = w->stk[0].mask;
    its_rr_advance(w, S);
    w->its_ran |= S;
    w->stk[0] = (simt_entry){pc, -1, S};
    L->finished = NULL;
    engine_warp_step(L, w);
    if (L->failed || L->finished == w) return 1;
    its_lanes_follow(w, S);
    its_settle(L, w);
    return 1;
  }
  uint32_t S = w->alive;
  if (its_has_members(in)) {
    /* the general path groups a *_sync intrinsic's lanes by their member
     * masks: they are one group only where every live lane names the same
     * (a mask from __activemask after a divergence differs: it ran whole,
     * tests/test_turns) */
    uint32_t m0 = its_members(L, w, in, S);
    for (uint32_t mm = S & (S - 1); mm; mm &= mm - 1)
      if (its_members(L, w, in, mm & -mm) != m0) return 0;
  }
  its_rr_advance(w, S);
  w->its_ran |= S;
  if (in->op == OP_BAR) {
    /* every lane arrives (a step, as its_step counts it), then the warp
     * does, as its_release has it when all its lanes wait there: the lanes
     * are back at LW_RUN, converged after the barrier, so their waits are
     * not written down in between */
    L->steps++;
    L->ctx->stats.thread_instructions += (uint64_t)__builtin_popcount(S);
    its_bar_whole(L, w, pc);
    return 1;
  }
  w->stk[0] = (simt_entry){pc, -1, S};
  L->finished = NULL;
  engine_warp_step(L, w);
  if (L->failed || L->finished == w) return 1;   /* retired: w may be freed with its block */
  if (w->sp == 1 && w->stk[0].mask == w->alive && w->alive) {
    /* still converged: every live lane is at the entry's pc, none waits */
    int npc = w->stk[0].pc;
    LANES(w->alive, w->lpc[l] = npc);
    w->stk[0].rpc = -1;
    return 1;
  }
  /* diverged (or lanes exited): as its_step goes on */
  its_lanes_follow(w, S);
  its_settle(L, w);
  return 1;
}

/* Lanes waiting at __syncwarp go on once every live lane their mask names
 * waits there too; a warp whose live lanes all wait at __syncthreads
 * arrives at the block barrier.  Returns whether anything was released. */
static int its_release(launch *L, warp *w) {
  int any = 0;
  for (uint32_t al = w->alive & w->wait_sync; al; al &= al - 1) {
    int l = __builtin_ctz(al);
    if (w->lwait[l] != LW_SYNCWARP) continue;   /* released by an earlier lane's __syncwarp */
    uint32_t named = w->lsync[l] & w->alive, ready = 1;
    /* a __syncwarp matches those of the same mask (CUDA: "with the same
     * mask"), wherever they are in the code */
    for (uint32_t nm = named; nm && ready; nm &= nm - 1)
      ready = w->lwait[__builtin_ctz(nm)] == LW_SYNCWARP && w->lsync[__builtin_ctz(nm)] == w->lsync[l];
    if (!ready) continue;
    for (uint32_t nm = named; nm; nm &= nm - 1) {
      int k = __builtin_ctz(nm);
      its_wait(w, k, LW_RUN);
      w->lpc[k]++;
      if (L->mem) wm_barrier(L->mem, &w->wm->lane[k]);
    }
    if (L->ctx->nobs) {
      gr_event ev;
      engine_ev_init(L, &ev, GR_EV_SYNCWARP, w, w->lpc[l] - 1);
      ev.mask = named;
      engine_deliver(L, &ev);
    }
    any = 1;
  }
  if (w->alive && w->state == W_READY && (w->wait_bar & w->alive) == w->alive) {
    int pc = -1, all = 1;
    for (uint32_t al = w->alive; al && all; al &= al - 1) {
      int l = __builtin_ctz(al);
      if (w->lwait[l] != LW_BAR) all = 0;
      else if (pc < 0) pc = w->lpc[l];
      else if (w->lpc[l] != pc) {
        engine_fault(L, w->lpc[l], "barrier divergence under independent thread scheduling: lanes of warp %u of block (%u,%u,%u) wait at different __syncthreads",
              w->wib, w->b->idx[0], w->b->idx[1], w->b->idx[2]);
        return 0;
      }
    }
    if (all && pc >= 0) {
      its_bar_whole(L, w, pc);
      any = 1;
    }
  }
  return any;
}

/* Whether lanes `group` of w, at instruction in, do something another
 * lane or warp can observe or that depends on them: a memory access, a
 * fence, a barrier, a warp intrinsic, or the use of a pending load. */
int its_visible(const launch *L, const warp *w, const kir_ins *in, uint32_t group) {
  switch (in->op) {
  case OP_LD: case OP_ST: case OP_ATOM: case OP_FENCE: case OP_BAR: case OP_SYNCWARP: case OP_VOTE: case OP_SHFL:
  case OP_MALLOC: case OP_FREE: case OP_CPASYNC: case OP_CPWAIT: case OP_PRINTF: return 1;
  default: return its_members(L, w, in, group) || (w->npend && access_needs_pending(w, in, group));
  }
}

/* A *_sync at pc run by lanes S with lanes `away` that reached the same
 * intrinsic (same operation, qualifiers and mask) at other call sites:
 * each away lane's operands are staged into pc's registers, the
 * instruction runs for all of them at once, and its result goes to the
 * away lane's own destination, its registers as they were otherwise. */
static void its_sync_across(launch *L, warp *w, int pc, uint32_t S, uint32_t away) {
  const kir_ins *in = &L->f->code[pc];
  int regs[5] = {in->a, in->b, in->c, in->dst, in->op == OP_SHFL && in->imm >> 8 ? (int)(in->imm >> 8) - 1 : -1};
  uint64_t saved[32][5], stage[32][5];
  for (uint32_t o = away; o; o &= o - 1) {
    int l = __builtin_ctz(o);
    const kir_ins *oi = &L->f->code[w->lpc[l]];
    int oregs[5] = {oi->a, oi->b, oi->c, oi->dst, oi->op == OP_SHFL && oi->imm >> 8 ? (int)(oi->imm >> 8) - 1 : -1};
    for (int r = 0; r < 5; r++) {
      saved[l][r] = regs[r] >= 0 ? w->r[(size_t)regs[r] * 32 + (size_t)l] : 0;
      stage[l][r] = oregs[r] >= 0 ? w->r[(size_t)oregs[r] * 32 + (size_t)l] : 0;
    }
    for (int r = 0; r < 5; r++) if (regs[r] >= 0 && r != 3) w->r[(size_t)regs[r] * 32 + (size_t)l] = stage[l][r];
  }
  w->sp = 1;
  w->stk[0] = (simt_entry){pc, -1, S | away};
  engine_warp_step(L, w);
  if (L->failed) return;
  for (uint32_t o = away; o; o &= o - 1) {
    int l = __builtin_ctz(o);
    const kir_ins *oi = &L->f->code[w->lpc[l]];
    uint64_t v = in->dst >= 0 ? w->r[(size_t)in->dst * 32 + (size_t)l] : 0;
    for (int r = 0; r < 5; r++) if (regs[r] >= 0) w->r[(size_t)regs[r] * 32 + (size_t)l] = saved[l][r];
    if (oi->dst >= 0) w->r[(size_t)oi->dst * 32 + (size_t)l] = v;
    w->lpc[l]++;
  }
  for (uint32_t m = S; m; m &= m - 1) w->lpc[__builtin_ctz(m)] = pc + 1;
}

static const char *its_sync_name(const kir_ins *in) {
  return in->op == OP_SYNCWARP ? "__syncwarp" : in->op == OP_BAR ? "__syncthreads" : in->op == OP_SHFL ? "__shfl_sync" :
         in->imm == VOTE_ALL ? "__all_sync" : in->imm == VOTE_ANY ? "__any_sync" : "__ballot_sync";
}

/* The lanes that lanes of w wait for at a *_sync or __syncwarp: named by
 * its mask, live, and not there.  With gone, the lanes of gone that the
 * first such wait names are reported there (its_skipped): *at is its pc,
 * *by its waiting lanes, *mask its mask. */
static uint32_t its_awaited_at(const launch *L, const warp *w, const int *gpc, const uint32_t *gmask, int ng,
                               uint32_t gone, int *at, uint32_t *by, uint32_t *mask) {
  uint32_t awaited = 0;
  for (int g = 0; g < ng; g++) {
    uint32_t need = its_members(L, w, &L->f->code[gpc[g]], gmask[g]), away = need & ~gmask[g];
    awaited |= away;
    if (away & gone && at && *at < 0) { *at = gpc[g]; *by = gmask[g]; *mask = need; }
  }
  for (uint32_t al = w->alive & w->wait_sync; al; al &= al - 1) {
    int l = __builtin_ctz(al);
    uint32_t here = 0;
    for (uint32_t nm = w->lsync[l]; nm; nm &= nm - 1) {
      int k = __builtin_ctz(nm);
      if ((w->wait_sync >> k & 1) && w->lsync[k] == w->lsync[l]) here |= 1u << k;
    }
    uint32_t away = w->lsync[l] & ~here;
    awaited |= away;
    if (away & gone && at && *at < 0) { *at = w->lpc[l]; *by = here & w->alive; *mask = w->lsync[l]; }
  }
  return awaited;
}

static uint32_t its_awaited(const launch *L, const warp *w, const int *gpc, const uint32_t *gmask, int ng) {
  return its_awaited_at(L, w, gpc, gmask, ng, 0, NULL, NULL, NULL) & w->alive;
}

/* Lanes gone of w exited after doing something visible while lanes waited
 * for them at a *_sync or __syncwarp that names them: they skipped it while
 * live, which CUDA leaves undefined ("all non-exited threads named in mask
 * must execute the same intrinsic"); lockstep reports the same program
 * where the lanes diverge.  A lane that only exits while named (an early
 * return) is as if it had exited before the others arrived: no error. */
static void its_skipped(launch *L, warp *w, const int *gpc, const uint32_t *gmask, int ng, uint32_t gone) {
  int at = -1;
  uint32_t by = 0, mask = 0;
  its_awaited_at(L, w, gpc, gmask, ng, gone, &at, &by, &mask);
  emu_assert(at >= 0);
  const char *what = its_sync_name(&L->f->code[at]);
  char waiting[96], skipped[96];
  engine_fmt_mask_lanes(waiting, sizeof waiting, by);
  engine_fmt_mask_lanes(skipped, sizeof skipped, gone & mask);
  engine_fault(L, at, "%s(0x%08x) by lanes %s of warp %u in block (%u,%u,%u): lanes %s, which the mask names, went on past it and exited (every non-exited lane the mask names must execute it; undefined in CUDA)",
        what, mask, waiting, w->wib, w->b->idx[0], w->b->idx[1], w->b->idx[2], skipped);
}

uint32_t its_blocked(const launch *L, const warp *w) {
  uint32_t at_sync = 0, blocked = w->alive & (w->wait_sync | w->wait_bar);
  for (uint32_t al = w->alive & ~blocked; al; al &= al - 1)
    if (its_members(L, w, &L->f->code[w->lpc[__builtin_ctz(al)]], al & -al)) at_sync |= al & -al;
  for (uint32_t al = at_sync; al; al &= al - 1) {
    int l = __builtin_ctz(al);
    if (its_members(L, w, &L->f->code[w->lpc[l]], 1u << l) & w->alive & ~at_sync) blocked |= 1u << l;
  }
  return blocked;
}

int its_describe_stuck(const launch *L, const warp *w, char *buf, size_t n, int len) {
  uint32_t blocked = its_blocked(L, w), todo = w->alive;
  while (todo && len < (int)n - 200) {
    int l = __builtin_ctz(todo), spins = !(blocked >> l & 1);
    /* a spinning lane is shown at the back edge of its loop */
    int pc = spins && w->lback[l] ? w->ledge_pc[l] : w->lpc[l];
    uint32_t same = 0;
    for (uint32_t mm = todo; mm; mm &= mm - 1) {
      int k = __builtin_ctz(mm), ks = !(blocked >> k & 1);
      int kpc = ks && w->lback[k] ? w->ledge_pc[k] : w->lpc[k];
      if (ks == spins && kpc == pc && w->lwait[k] == w->lwait[l] && w->lsync[k] == w->lsync[l]) same |= 1u << k;
    }
    todo &= ~same;
    char lanes[96], what[64];
    engine_fmt_mask_lanes(lanes, sizeof lanes, same);
    const kir_ins *in = &L->f->code[pc];
    if (spins) snprintf(what, sizeof what, "spins");
    else if (w->lwait[l] == LW_SYNCWARP) snprintf(what, sizeof what, "waits at __syncwarp(0x%08x)", w->lsync[l]);
    else if (w->lwait[l] == LW_BAR) snprintf(what, sizeof what, "waits at __syncthreads");
    else snprintf(what, sizeof what, "waits at %s(0x%08x)", its_sync_name(in), its_members(L, w, in, 1u << l));
    srcpos p = pc >= 0 && pc < L->f->ncode ? L->f->pos[pc] : L->f->decl;
    len += snprintf(buf + len, n - (size_t)len, "\n  block (%u,%u,%u) warp %u lanes %s: %s at %s:%d:%d", w->b->idx[0], w->b->idx[1],
                    w->b->idx[2], w->wib, lanes, what, p.file, p.line, p.col);
  }
  return len;
}

/* One step of a warp under ITS: a group of its lanes at one instruction,
 * or some of them, runs it.  The choices (which group, which lanes) are
 * the scheduler's: drawn from the seed, or made by the explorer. */
void its_step(launch *L, warp *w) {
  if (w->its_one && !L->ctx->explore && L->ctx->cfg.sched != GR_SCHED_RANDOM && !L->ctx->cfg.one_per_turn &&
      its_step_converged(L, w))
    return;
  const kir_func *f = L->f;
  int gpc[32], ng = 0;
  uint32_t gmask[32], gmem[32];
  /* groups: the lanes at one pc, and at a *_sync with a member mask, of one
   * mask (two coalesced groups may shuffle at the same instruction, each
   * among its own lanes), in the order of their first lanes.  One pass
   * over the lanes, each pc's group found by the pc in a table of the
   * launch's (a warp whose lanes ran apart under the random scheduler has
   * a dozen groups, and one compare of the 32 lanes a group took a third
   * of such a run); where a pc holds a warp intrinsic with a member mask,
   * lane by lane */
  uint32_t runnable = w->alive & ~(w->wait_sync | w->wait_bar);
  if (!L->its_group) {
    L->its_group = xmalloc((size_t)f->ncode);
    memset(L->its_group, -1, (size_t)f->ncode);
  }
  int8_t *grp = L->its_group;
  int members = 0;
  for (uint32_t left = runnable; left; left &= left - 1) {
    int l = __builtin_ctz(left), pc = w->lpc[l];
    emu_assert(pc >= 0 && pc < f->ncode);
    int g = grp[pc];
    if (g < 0) {
      if ((members = its_has_members(&f->code[pc]))) break;
      grp[pc] = (int8_t)(g = ng);
      gpc[ng] = pc, gmem[ng] = 0, gmask[ng++] = 0;
    }
    gmask[g] |= 1u << l;
  }
  for (int g = 0; g < ng; g++) grp[gpc[g]] = -1;
  if (members) ng = -1;
  if (ng < 0) {
    ng = 0;
    for (uint32_t al = runnable; al; al &= al - 1) {
      int l = __builtin_ctz(al), g = 0;
      uint32_t mem = its_members(L, w, &f->code[w->lpc[l]], 1u << l);
      while (g < ng && (gpc[g] != w->lpc[l] || gmem[g] != mem)) g++;
      if (g == ng) { gpc[ng] = w->lpc[l]; gmem[ng] = mem; gmask[ng++] = 0; }
      gmask[g] |= 1u << l;
    }
  }
  /* a *_sync intrinsic runs once every live lane it names is there, and
   * then with all of them; another group may also run some of its lanes */
  int en[32], ne = 0, split[32];
  uint32_t with[32];   /* lanes at other call sites that join the group's *_sync */
  uint32_t awaited = its_awaited(L, w, gpc, gmask, ng);
  for (int g = 0; g < ng; g++) {
    const kir_ins *gi = &f->code[gpc[g]];
    uint32_t need = its_members(L, w, gi, gmask[g]), away = need & w->alive & ~gmask[g];
    int mk = gi->op == OP_SHFL ? (int)(gi->imm >> 8) - 1 : -1;   /* a shuffle's mask register */
    /* PTX: lanes meet at a *_sync "with the same qualifiers and same
     * membermask value", wherever each executes it */
    for (uint32_t o = away; o; o &= o - 1) {
      int l = __builtin_ctz(o);
      const kir_ins *oi = &f->code[w->lpc[l]];
      if (w->lwait[l] == LW_RUN && oi->op == gi->op && oi->imm == gi->imm && its_members(L, w, oi, 1u << l) == need &&
          (gi->a == gi->b) == (oi->a == oi->b) && (gi->a == gi->c) == (oi->a == oi->c) && (gi->b == gi->c) == (oi->b == oi->c) &&
          (gi->op != OP_SHFL || (gi->a == mk) == (oi->a == mk) || !(gi->imm >> 8)) &&
          (gi->op != OP_SHFL || (gi->b == mk) == (oi->b == mk) || !(gi->imm >> 8)) &&
          (gi->op != OP_SHFL || (gi->c == mk) == (oi->c == mk) || !(gi->imm >> 8)))
        away &= ~(1u << l);   /* operands staged into gi's registers must not collide (its_sync_across) */
    }
    if (away) continue;
    with[ne] = need & w->alive & ~gmask[g];
    split[ne] = !need && (gmask[g] & (gmask[g] - 1)) != 0;   /* two lanes or more */
    en[ne++] = g;
  }
  if (ne == 0) {
    char lanes[96];
    engine_fmt_mask_lanes(lanes, sizeof lanes, w->alive);
    engine_fault(L, w->stk[0].pc, "deadlock within warp %u of block (%u,%u,%u): lanes %s wait at __syncwarp or a *_sync intrinsic for lanes that cannot arrive",
          w->wib, w->b->idx[0], w->b->idx[1], w->b->idx[2], lanes);
    return;
  }
  int g;
  uint32_t S;
  int eager = -1;
  if (L->ctx->explore)
    for (int k = 0; k < ne && eager < 0; k++)
      if (!its_visible(L, w, &f->code[gpc[en[k]]], gmask[en[k]])) eager = en[k];
  if (eager >= 0) {
    /* an instruction no other lane or warp can observe: running its lanes
     * together or apart, now or later, reaches the same states */
    g = eager;
    S = gmask[g];
  } else if (L->ctx->explore) {
    /* a group whole, or one lane of it alone: lanes running one at a time
     * give every interleaving of a group's lanes */
    int n = 0, k = 0;
    for (int j = 0; j < ne; j++) n += 1 + (split[j] ? __builtin_popcount(gmask[en[j]]) : 0);
    int c = choose(&L->ch, n);
    while (c >= 1 + (split[k] ? __builtin_popcount(gmask[en[k]]) : 0)) c -= 1 + (split[k] ? __builtin_popcount(gmask[en[k]]) : 0), k++;
    g = en[k];
    S = gmask[g];   /* choice 0: the whole group; choice c: its c-th lane alone */
    if (c) {
      for (int j = 1; j < c; j++) S &= S - 1;
      S &= -S;
    }
  } else if (L->ctx->cfg.sched == GR_SCHED_RANDOM) {
    int k = (int)rng_below(&L->rng, (uint32_t)ne), lead = L->its_lead;
    /* stress: in some launches one lane of each warp runs ahead alone */
    int ahead = 0;
    if (lead >= 0 && (w->alive >> lead & 1) && w->lwait[lead] == LW_RUN && rng_below(&L->rng, 16))
      for (int j = 0; j < ne && !ahead; j++) if (gmask[en[j]] >> lead & 1) { k = j; ahead = 1; }
    g = en[k];
    S = gmask[g];
    if (L->its_mode == ITS_SEQUENTIAL && rng_below(&L->rng, 1024)) {
      /* the lowest runnable lane, alone (or its whole group where it cannot
       * split); one step in 1024 goes elsewhere, so that a spinning lane
       * cannot starve the lane it waits for */
      int low = 32;
      for (int j = 0; j < ne; j++)
        if (__builtin_ctz(gmask[en[j]]) < low) { low = __builtin_ctz(gmask[en[j]]); k = j; }
      g = en[k];
      S = split[k] ? 1u << low : gmask[g];
    } else if (ahead && split[k]) S = 1u << lead;
    /* else half the time some of the group's lanes only: converged lanes drift apart */
    else if (!ahead && L->its_mode == ITS_SPLIT && split[k] && rng_below(&L->rng, 2))
      do S = gmask[g] & (uint32_t)rng_next(&L->rng); while (!S);
  } else {
    /* round-robin over the groups, whole, by lane: fair to divergent paths */
    g = en[0];
    int best = 64;
    for (int k = 0; k < ne; k++) {
      uint32_t at = w->its_next < 32 ? gmask[en[k]] & ~((1u << w->its_next) - 1) : 0;
      int first = at ? __builtin_ctz(at) : 32 + __builtin_ctz(gmask[en[k]]);
      if (first < best) { best = first; g = en[k]; }
    }
    S = gmask[g];
    w->its_next = best % 32 + 1;
  }
  int pc = gpc[g];
  const kir_ins *in = &f->code[pc];
  uint32_t sel_with = 0;
  for (int k = 0; k < ne; k++) if (en[k] == g) sel_with = with[k];
  w->its_ran |= S | sel_with;
  if (in->op == OP_SYNCWARP || its_members(L, w, in, S)) w->its_passed &= ~(S | sel_with);
  else if (awaited & S && its_visible(L, w, in, S)) w->its_passed |= awaited & S;
  if (in->op == OP_SYNCWARP || in->op == OP_BAR) {
    L->steps++;
    L->ctx->stats.thread_instructions += (uint64_t)__builtin_popcount(S);
    for (uint32_t mm = S; mm; mm &= mm - 1) {
      int l = __builtin_ctz(mm);
      if (in->op == OP_BAR) { its_wait(w, l, LW_BAR); continue; }
      uint32_t mask = in->a >= 0 ? (uint32_t)w->r[(size_t)in->a * 32 + (size_t)l] : FULL;
      if (!mask || !(mask >> l & 1)) {
        char where[160];
        engine_lane_coords(w, l, where, sizeof where);
        engine_fault(L, pc, "__syncwarp(0x%08x) by %s: %s", mask, where, mask ? "the mask does not name the calling lane" : "the mask is 0");
        return;
      }
      its_wait(w, l, LW_SYNCWARP);
      w->lsync[l] = mask;
    }
  } else if (sel_with) {
    its_sync_across(L, w, pc, S, sel_with);
  } else {
    uint32_t was = w->alive;
    w->sp = 1;
    w->stk[0] = (simt_entry){pc, -1, S};
    L->finished = NULL;
    engine_warp_step(L, w);
    if (L->failed || L->finished == w) return;   /* retired: w may be freed with its block */
    if (was & ~w->alive & w->its_passed & awaited) {
      its_skipped(L, w, gpc, gmask, ng, was & ~w->alive & w->its_passed & awaited);
      return;
    }
    its_lanes_follow(w, S);
  }
  its_settle(L, w);
}
