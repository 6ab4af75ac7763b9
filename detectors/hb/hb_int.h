/* hb's private header: the record of one access, shared by hb.c and the
 * summary of hot words (hotword.c). */
#ifndef GR_HB_INT_H
#define GR_HB_INT_H

#include <stddef.h>
#include <stdint.h>

#include "gpurace.h"   /* gr_scope */

/* access info bits */
#define I_WRITE 1u
#define I_ATOM 2u
#define I_STRONG 4u
#define I_SCOPE_SHIFT 3          /* 2 bits: gr_scope (volatile: system) */
#define I_KIND_SHIFT 5           /* 2 bits: gr_access_kind */
#define I_OP_SHIFT 7             /* 4 bits: atomic op */
#define I_ORDER_SHIFT 11         /* 2 bits: gr_order of a strong access */

/* ScoRD model: what a write x may stand for of its own agent's earlier
 * accesses in the word's list, where a later access of another agent that
 * races with one must race with x or be ordered after it: a plain or
 * strong x races with whatever is not ordered after it (COVER_ALL); an
 * atomic x races with no atomic of its scope, so it stands only for
 * atomics whose races it has: a block-scope one for any (COVER_ATOMIC), a
 * device one for device ones (COVER_DEV_ATOMIC; a block-scope e races with
 * another block's atomics, a device x not).  A read stands for nothing.
 * (Another agent's e released to x is covered by any write x: per-location
 * transitivity, N4.)  By the accesses' info alone. */
enum { COVER_NONE = -1, COVER_ALL, COVER_ATOMIC, COVER_DEV_ATOMIC };

static inline int hb_block_atomic(uint16_t info) { return (info & I_ATOM) && (info >> I_SCOPE_SHIFT & 3) == GR_SCOPE_BLOCK; }

static inline int hb_cover_class(uint16_t x) {
  if (!(x & I_WRITE)) return COVER_NONE;
  if (!(x & I_ATOM)) return COVER_ALL;
  return hb_block_atomic(x) ? COVER_ATOMIC : COVER_DEV_ATOMIC;
}

static inline int hb_cover_takes(int cls, uint16_t e) {
  return cls == COVER_ALL || (cls == COVER_ATOMIC && (e & I_ATOM)) || (cls == COVER_DEV_ATOMIC && (e & I_ATOM) && !hb_block_atomic(e));
}

/* clock: in the PTX model the agent's epoch; in the ScoRD model the
 * launch's count of fences and barriers before the access, so that a
 * fence or barrier after it is one whose sequence number is larger */
typedef struct {
  uint32_t agent, clock, pc;
  uint16_t info;
  uint16_t locks;             /* lock set id (ScoRD model) */
  uint8_t lane;
  uint8_t mask;               /* the bytes of the word it touched */
} acc;

/* The first slot of key in an open-addressing table of cap slots (a power
 * of two): Fibonacci hashing, whose product's top bits depend on every bit
 * of the key (word_compact's maps, the summaries' tables). */
static inline size_t hb_slot(uint64_t key, size_t cap) {
  return (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - __builtin_ctzll(cap)));
}

/* ---------------------------------------------------------------- hot words */

/* A word's live entries, indexed for the oracle's scan while nothing can
 * order any of them before a later access of another agent (no release
 * since, none released): then an entry races with a later access, and
 * how, by its kind (source position, info, lock set, bytes) and where its
 * agent is from the accessor (the same warp, another warp of its block,
 * another block) alone, so one entry of each kind and relation gives every
 * report the whole list would (distinct source pairs and classes) in
 * constant time, where the list is as long as the agents that touched the
 * word.  Entries are grouped by kind; a group's agents by block and warp
 * (a warp is the agent itself where agents are warps).  While it stands
 * it is the word's entries (hb.c keeps no list beside it, and makes one
 * again from hw_entries when it stops). */
typedef struct hw_sum hw_sum;

/* per_warp: a warp holds several agents (threads); scord: the ScoRD
 * model's covering applies (hb_cover_takes); the summary's memory is
 * counted in *bytes as it grows and shrinks (its peak in *peak) */
hw_sum *hw_new(int per_warp, int scord, uint64_t *bytes, uint64_t *peak);
void hw_free(hw_sum *s);   /* its bytes leave *bytes */
/* Access x of an agent of block `block` and warp `warp` (launch-wide;
 * copy: the agent is a thread's asynchronous copies): the agent's earlier
 * entries lose its bytes where they have its signature (info, lock set),
 * or (scord) where x covers them, as the oracle replaces them; x is an entry.  0, or -1
 * where the summary cannot follow (an agent with too many kinds of entry
 * in one word, or the word with 2^16 kinds: x is not in it, and its
 * replacement may or may not be applied, which the caller's list applies
 * again). */
int hw_add(hw_sum *s, const acc *x, uint32_t block, uint32_t warp, int copy);
/* Blocks whose ended[b] is set (nended of them in the launch) never
 * access again: their agents' records leave the summary, their pieces
 * counted and represented per kind.  Nothing where nended has not changed
 * since the last call, else a pass over the records (the tables are made
 * again once half the records have left); hw_add and hw_access assume it
 * was made. */
void hw_retire(hw_sum *s, const uint8_t *ended, uint32_t nended);
/* Every entry the summary stands for, to fn: each living agent's pieces,
 * and one piece of each kind of the agents retired (their blocks have
 * ended: none of their entries can be ordered before a later access any
 * more, since none was while the summary stood, so each races with what
 * any other of its kind races with, and how). */
void hw_entries(const hw_sum *s, void (*fn)(const acc *e, void *ctx), void *ctx);
/* The relations of an entry's agent to an accessor's. */
enum { HW_SAME_WARP, HW_SAME_BLOCK, HW_OTHER_BLOCK };
/* A group's kind: an entry with its agent left out. */
typedef struct { uint32_t pc; uint16_t info, locks; uint8_t mask, copy; } hw_kind;
_Static_assert(offsetof(hw_kind, mask) == 8, "pc, info and locks fill hw_kind's first 8 bytes (hotword.c's kind_eq)");
/* Access x (of kind xk) to the summarised word: first, where want is not
 * NULL, for each group of live entries whose bytes meet x's, and each
 * relation to x's agent (its warp, its block's other warps, other blocks)
 * that want(kind, relation, ctx) asks for, one entry of an agent other
 * than x's in that relation, where there is one: fn(entry, ctx); then x
 * joins the entries, as hw_add (its answer).  want's answers must depend
 * on x only through xk, and a 0 must stay 0 while the summary stands: an
 * accessor of a kind for which want said 0 to everything is not asked
 * again until a kind is added; they are kept, and not asked again, while
 * ver is the same (the caller's count of what could change them). */
int hw_access(hw_sum *s, const acc *x, const hw_kind *xk, uint32_t block, uint32_t warp, uint64_t ver,
              int (*want)(const hw_kind *k, int rel, void *ctx), void (*fn)(const acc *e, void *ctx), void *ctx);

#endif
