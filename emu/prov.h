/* prov: where a kernel's global addresses come from, and what a launch's
 * weak memory system may therefore do at once (engine-internal).
 *
 * Every global address derives from the values the launch fixes (pointer
 * parameters, module globals' addresses) by arithmetic that stays inside
 * their objects, or from pointers the kernel loads from memory.  The
 * analysis follows each register's roots through every instruction (flow
 * insensitive: a register's roots are those of all its writes): a
 * parameter or module global is a root; an 8-byte load or atomic yields
 * an unknown root (it may be a pointer), a narrower one none (its value
 * is an index: a global address has its allocation in its high 32 bits);
 * a constant in global space is unknown.  It follows each register's form
 * too (a thread's index times a stride, plus a loop's steps: see aff in
 * prov.c).  At a launch each root becomes
 * the allocation its value points into, and an access instruction may
 * reach the allocations of its address's roots, or any where a root is
 * unknown; an asynchronous copy reads its source's (as a load: so an
 * allocation a copy reads is no PROV_WO or PROV_RED one).
 *
 * Three kinds of access then have nothing any thread can tell apart from
 * performing them at L2 at once, which is what sequentially consistent
 * memory does (docs/memory-model.md says why each is exact):
 *   - a relaxed load from an allocation no instruction stores to or
 *     updates atomically (PROV_RO): its value never changes during the
 *     launch, so it is the same whenever it performs and through any
 *     cache;
 *   - a plain store to an allocation no instruction loads from or
 *     updates atomically, whose stores all have one form that gives no
 *     two threads one address (PROV_WO): nobody reads it during the
 *     launch, and each address's last write is its one writer's last in
 *     program order, whatever order the stores reach L2 in, provided
 *     nothing of the warp or its SM is in flight there;
 *   - a relaxed atomic of device scope or wider, whose result no
 *     instruction reads, to an allocation that only such atomics of one
 *     commutative integer operation reach (PROV_RED): the final value is
 *     the same in any order, and nobody sees the values between.
 *
 * The analysis trusts that a program forms its addresses from these
 * roots; one that rebuilds a pointer from narrow halves, or walks out of
 * one allocation into another, is caught at the first such access
 * (prov_check), after which the launch performs no access at once: the
 * accesses before it stay what the model allows, with fewer of the
 * model's schedules explored for them. */
#ifndef GR_PROV_H
#define GR_PROV_H

#include <stdint.h>

#include "engine.h"

enum { PROV_NONE, PROV_RO, PROV_WO, PROV_RED };

/* A launch's view of its kernel's analysis, whose arrays the module keeps
 * (prov_new) and no later launch changes before this one ends. */
typedef struct prov {
  const uint8_t *cls;       /* per pc: PROV_* of a global access there */
  const uint64_t *roots;    /* per pc of an access: its address's roots; bit 63: unknown */
  uint32_t src_alloc[63];   /* per root: the allocation id its value points into, 0 if none */
  int off;             /* an access fell outside its roots: nothing is performed at once */
} prov;

#define PROV_UNKNOWN ((uint64_t)1 << 63)

/* The launch's classes, or NULL where no access has one.  The analysis of
 * the control flow is kept in the module for the next launch of the
 * kernel with the same block and grid sizes and scalar arguments (a
 * sampled litmus test launches it thousands of times). */
prov *prov_new(emu_module *mod, const kir_func *f, const uint64_t *args, gr_dim3 grid, gr_dim3 bdim);
void prov_free(prov *p);
void prov_flows_free(struct prov_flow *fl);

/* Whether global address addr of the access at pc falls in an allocation
 * of its roots. */
static inline int prov_inside(const prov *p, int pc, uint64_t addr) {
  uint64_t r = p->roots[pc];
  if (r & PROV_UNKNOWN) return 1;
  uint32_t id = (uint32_t)(addr >> 32) & 0xffffff;
  for (; r; r &= r - 1)
    if (p->src_alloc[__builtin_ctzll(r)] == id) return 1;
  return 0;
}

/* prov_inside, turning p off where it does not. */
static inline int prov_check(prov *p, int pc, uint64_t addr) {
  if (prov_inside(p, pc, addr)) return 1;
  p->off = 1;
  return 0;
}

#endif
