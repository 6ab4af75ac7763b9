/* vclock: sparse, shared vector clocks for hb-ptx, whose agents are
 * threads.  A launch may have millions of threads, nearly all of which
 * learn about each other only through their block's barriers; so a
 * thread's clock is its block's barrier clock (one per block, shared, made
 * anew at each barrier) plus the few entries it learnt since (acquires,
 * __syncwarp) plus its own epoch.  Clocks released to memory are immutable
 * and reference-counted: an entry list over a parent (a block's barrier
 * clock).  Nothing is bounded; the cost of a clock is the number of agents
 * it knows about that its block's barrier clock does not. */
#ifndef GR_VCLOCK_H
#define GR_VCLOCK_H

#include <stddef.h>
#include <stdint.h>

typedef struct { uint32_t agent, clock; } vc_ent;

/* Immutable: clock(a) = max(e's entry for a, parent's).  A parent is a
 * block's barrier clock (block < UINT32_MAX, no parent of its own); a
 * barrier clock of generation g+1 includes that of generation g. */
typedef struct vclock {
  uint32_t refs, n;
  uint32_t block, gen;
  struct vclock *parent;
  vc_ent e[];
} vclock;

/* A growable sorted entry list (a thread's entries beyond its block's clock). */
typedef struct { vc_ent *e; uint32_t n, cap; } vc_list;

/* The memory of one detector's clocks: bytes in use and the most ever. */
typedef struct { uint64_t bytes, peak; } vc_heap;

vclock *vc_new(vc_heap *hp, uint32_t n, vclock *parent);   /* takes a reference to parent */
vclock *vc_ref(vclock *v);
void vc_unref(vc_heap *hp, vclock *v);
uint32_t vc_find(const vc_ent *e, uint32_t n, uint32_t agent);
uint32_t vc_get(const vclock *v, uint32_t agent);

/* dst = max(dst, src) entrywise, leaving out entries `base` already has
 * at least (base may be NULL). */
void vc_list_join(vc_heap *hp, vc_list *dst, const vc_ent *src, uint32_t n, const vclock *base);
void vc_list_free(vc_heap *hp, vc_list *l);

#endif
