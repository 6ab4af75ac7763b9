/* hb: the exact happens-before oracle.  Vector clocks with no bounded
 * counter, exact lock sets and byte granularity, in two semantics:
 *   HB_MODEL_SCORD  the model the ScoR labels assume (scor-spec.md §0.2):
 *                   warps are the agents, a fence releases the warp's past to
 *                   every later access in its scope (no acquire needed), a
 *                   barrier orders its block, inferred locks must be held in
 *                   common, fence-ordered conflicting accesses must be strong;
 *   HB_MODEL_PTX    the PTX memory model's data race: threads are the agents,
 *                   conflicting accesses race unless morally strong or ordered
 *                   by causality order (release and acquire patterns of
 *                   fences and strong accesses, barriers).
 * See docs/detectors.md. */
#ifndef GR_HB_H
#define GR_HB_H

#include "detectors.h"

void *hb_create(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void *hb_create_ptx(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void hb_on_event(void *self, const gr_event *ev);
void hb_destroy(void *self);
/* The most memory the detector held in its last launch (shadow, per-agent
 * state and clocks), in bytes: what `make bench` divides by the bytes the
 * kernel touched. */
uint64_t hb_memory_peak(void *self);

#endif
