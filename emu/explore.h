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
 * for byte, never by hash alone, so a finished exploration is a proof. */
#ifndef GR_EXPLORE_H
#define GR_EXPLORE_H

#include <stddef.h>
#include <stdint.h>

#include "gpurace.h"
#include "util.h"

typedef struct {
  rng *r;            /* sampled runs */
  gr_explore *x;     /* exhaustive runs, or NULL */
} chooser;

int explore_choose(gr_explore *x, int n);

/* One choice of a run: the alternative taken, of n. */
typedef struct { int choice, n; } explore_step;

typedef struct explore_set explore_set;

/* A search split into subtrees (explore_split in litmus.c).  The frontier
 * mode is a search cut at a horizon of `depth` choices: each run stops at
 * the first scheduling point past them; states above it are recorded in
 * set (and prune as in any search).  explore_at_frontier then gives the
 * run's choices and the state at the horizon (1), or says the run ended
 * above it (0; *prefix is then the whole run), or stopped at a known state
 * (-1).  gr_explore_next goes on to the next prefix. */
gr_explore *explore_new_frontier(explore_set *set, size_t depth);
int explore_at_frontier(const gr_explore *x, const explore_step **prefix, size_t *len, const uint8_t **key, size_t *klen);
/* The visited states of a search: exact (keys compared byte for byte),
 * bounded by max_states, shared by the searches of the subtrees of one
 * process, on any of its threads.  A complete search's set is the set of
 * states reachable at scheduling points whatever the order of the search,
 * so its count is too. */
explore_set *explore_set_new(uint64_t max_states);
void explore_set_free(explore_set *s);
uint64_t explore_set_count(const explore_set *s);
int explore_set_full(const explore_set *s);       /* a state was refused at the bound */
/* 1: key added; 0: there already; -1: refused at the bound.  h: hash_bytes(key, len). */
int explore_set_add(explore_set *s, const void *key, size_t len, uint64_t h);
int explore_set_has(explore_set *s, const void *key, size_t len, uint64_t h);
void explore_set_each(const explore_set *s, void (*fn)(void *user, const uint8_t *key, size_t len), void *user);

/* The subtree under a prefix, recording its states in set: every run
 * replays the prefix, and the search never backtracks into it.  Its root
 * is the scheduling point `skip` points after the prefix's last choice
 * (a point that offers one alternative makes no choice). */
gr_explore *explore_new_subtree(explore_set *set, const explore_step *prefix, size_t len, uint64_t skip);

/* Across processes, each state belongs to one (its hash modulo nshards):
 * a search that meets another's state stops there and hands it, with the
 * choices that lead to it, to fn, for the owner to explore (after skip
 * more scheduling points than the choices take: see explore_new_subtree). */
typedef void (*explore_forward_fn)(void *user, const void *key, size_t len, const explore_step *prefix, size_t plen,
                                   uint64_t skip);
void explore_set_owner(gr_explore *x, int shard, int nshards, explore_forward_fn fn, void *user);

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
