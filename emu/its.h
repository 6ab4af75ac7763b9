/* its: independent thread scheduling, for the engine (engine-internal). */
#ifndef GR_ITS_H
#define GR_ITS_H

#include "engine.h"

/* One step of the warp under ITS: one group of its lanes at one pc, or
 * the release of lanes a __syncwarp or barrier let go. */
void its_step(launch *L, warp *w);
/* A new warp, its live lanes at pc 0: its stack entry and whether it is
 * converged, as its_step leaves them after a step (its first turn then
 * takes the converged path, and its stretch starts at compiled code's
 * entry). */
void its_warp_begin(warp *w);
/* A converged warp ran n instructions ahead (simt_run_ahead): its lanes
 * follow its stack's pc, and the round-robin over them moves on as the n
 * steps would have moved it. */
void its_ran_ahead(warp *w, int n);
/* Whether lanes `group` of w, at instruction in, do something another
 * lane or warp can observe or that depends on them (a memory access, a
 * fence, a barrier, a warp intrinsic, the use of a pending load): where
 * an exhaustive search must choose which group runs. */
int its_visible(const launch *L, const warp *w, const kir_ins *in, uint32_t group);

/* The live lanes of w that cannot run now: waiting at __syncwarp or
 * __syncthreads, or at a *_sync for lanes its mask names that are at none. */
uint32_t its_blocked(const launch *L, const warp *w);
/* Appends to buf (of n bytes, len used) a line per place where lanes of w,
 * proven stuck, wait or spin; returns the new length. */
int its_describe_stuck(const launch *L, const warp *w, char *buf, size_t n, int len);

#endif
