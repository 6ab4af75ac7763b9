/* explore: where a run's nondeterministic choices come from.
 *
 * Every choice the emulator makes (which warp issues next, when a store
 * buffer drains, whether a load hits a stale L1 line) is a call
 * choose(ch, n) returning a number in [0, n).  A sampled run draws them from
 * the seeded RNG.  An exhaustive run draws them from a gr_explore, which
 * enumerates every sequence of choices depth first, by re-running the launch
 * with a replayed prefix and the next alternative at its end (stateless
 * model checking), and prunes a run as soon as it reaches a machine state
 * that an earlier run already reached: the outcomes reachable from a state
 * depend on the state alone, so nothing is lost.  States are compared byte
 * for byte, never by hash alone, so a finished exploration is a proof.
 * Private to emu/; emu.h declares what the split searches of tools/ use. */
#ifndef GR_EXPLORE_H
#define GR_EXPLORE_H

#include <stddef.h>
#include <stdint.h>

#include "emu.h"
#include "gpurace.h"
#include "util.h"

typedef struct {
  rng *r;            /* sampled runs */
  gr_explore *x;     /* exhaustive runs, or NULL */
} chooser;

int explore_choose(gr_explore *x, int n);

/* A run is one script run, which may launch several kernels: the launch's
 * ordinal is part of every state, so that two launches' states never meet. */
void explore_launch_begun(gr_explore *x);
uint64_t explore_launches(const gr_explore *x);

static inline int choose(chooser *c, int n) {
  if (n <= 1) return 0;
  return c->x ? explore_choose(c->x, n) : (int)rng_below(c->r, (uint32_t)n);
}

/* At a scheduling point of an exhaustive run: 1 if the run should stop
 * here, because the state `key` was seen before (or the state bound is
 * reached).  Points inside the replayed prefix are not checked: their
 * states were recorded when the prefix was first run. */
int explore_visit(gr_explore *x, const void *key, size_t len);
/* Whether the run is inside its replayed prefix, where explore_visit
 * checks nothing: the caller need not build the key there. */
int explore_replaying(const gr_explore *x);
/* The launch in progress stopped at a visited state: its outcome is not new. */
void explore_mark_pruned(gr_explore *x);

#endif
