/* wmem: the weak memory system of one launch (global memory only; shared
 * and local memory stay sequentially consistent).
 *
 * Three levels, as in DESIGN.md:
 *   - per thread: a store buffer, and loads that have issued but not yet
 *     performed (their register is marked pending until they do);
 *   - per SM: the block-level queue of writes that have left their thread
 *     but not reached L2 (what the threads of that SM already see), and an
 *     incoherent L1 of 32-byte lines, filled from L2 and never told when
 *     another SM writes;
 *   - L2, the coherence point: the allocation's bytes themselves.
 * Stores, drains and loads to different addresses may be reordered at each
 * level; same-address order is kept wherever a store or a strong access is
 * involved (coherence).  docs/memory-model.md states the rules and how the
 * litmus verdicts follow from them. */
#ifndef GR_WMEM_H
#define GR_WMEM_H

#include <stdint.h>

#include "explore.h"

#define WM_SB_CAP 8       /* stores a thread may have in flight */
#define WM_LD_CAP 8       /* loads a thread may have in flight */

/* rel: 0, or 1 + the scope of a release fence between this write and the
 * older ones in its buffer, which must all leave it first (wm_fence) */
typedef struct { uint64_t addr; uint8_t *p; uint8_t b[8]; uint8_t size, rel; } wm_write;
/* strong: 0 for a plain load, else 1 + its scope.  xs: 0, or 1 + the
 * widest scope of the fences the load has been left pending across (see
 * wm_fence); xwait: those were release fences only (fence.acq_rel, the
 * release half of st.release), and its thread has made no strong write
 * since, so no acquire can synchronise with them yet */
typedef struct {
  uint64_t addr; uint8_t *p; int32_t pc; int32_t reg; uint8_t size, strong, sk, xs, xwait;
  /* a relaxed atomic left pending (wm_atomic_defer): 0, or 1 + its
   * operation, with its operands; strong is then 1 + its scope */
  uint8_t rmw;
  uint64_t arg[2];
} wm_load;

typedef struct wm_warp wm_warp;

typedef struct wm_lane {
  wm_write sb[WM_SB_CAP];   /* oldest first */
  wm_load ld[WM_LD_CAP];    /* in issue order */
  int nsb, nld;
  int relpend;              /* 0, or 1 + the widest scope of the release fences since its last store */
  int apos;                 /* index in the active list, or -1 */
  int sm;
  void *owner;              /* the engine's warp */
  int lane;
  wm_warp *warp;
} wm_lane;

/* The 32 lanes of a warp, and a count of the entries they have in flight
 * (buffered stores, pending loads) per bucket of 4-byte words: under
 * lockstep every access asks whether another lane of its warp has
 * something in flight there (wm_warp_order), and the count answers "no"
 * without looking at the 31 lanes.  A bucket may be shared (a "yes" is
 * then checked lane by lane); the counts are all zero when no lane has
 * anything in flight, which is how a warp is handed to wm_warp_init.
 * Entries past a lane's counts are never read, so need no clearing. */
#define WM_WARP_BUCKETS 1024
struct wm_warp {
  wm_lane lane[32];
  uint16_t inflight[WM_WARP_BUCKETS];
  uint32_t entries;   /* all its lanes' entries in flight: 0, none has anything to perform or drain */
  uint32_t rel_lanes; /* lanes whose relpend may be set */
  int block;          /* the block's linear index: the extent of block scope */
  int sm;             /* where its lanes were last set up (wm_warp_init), or -1 */
  void *owner;
};

typedef struct wm wm;

typedef struct {
  /* a load performed: the engine writes its register and reports it */
  void (*load_done)(void *user, wm_lane *t, const wm_load *ld, uint64_t value);
  void *user;
  uint64_t *write_epoch;    /* bumped whenever what some thread can read changes */
  /* fences perform every pending load of their thread, as they did before
   * PTX's weaker rule: set while observers watch, whose clocks take a
   * thread's accesses in the order of its fences */
  int fence_waits_loads;
  /* trace mode (the axiomatic checker): when set, memory is neither read
   * nor written; every load and atomic takes the value this returns, and
   * nothing is ever in flight */
  uint64_t (*supply)(void *user, wm_lane *t, uint64_t addr, int size);
  /* trace mode: what an atomic would write (stored: 0 for a failed CAS) */
  void (*rmw_result)(void *user, wm_lane *t, uint64_t value, int stored);
  /* a deferred atomic performs: the value it writes (clear *store when
   * it writes nothing); its old value then goes to load_done */
  uint64_t (*rmw_apply)(void *user, const wm_load *ld, uint64_t old, int *store);
} wm_hooks;

wm *wm_new(int nsms, const wm_hooks *h, chooser *ch);
/* wm_new for the next launch, in the memory of old where it can (old: a
 * finished launch's memory system or NULL; freed where it cannot be
 * reused): a launch's set-up was a large part of a short test's run. */
wm *wm_renew(wm *old, int nsms, const wm_hooks *h, chooser *ch);
void wm_free(wm *m);
/* A new warp's lanes, with nothing in flight (free() frees it). */
wm_warp *wm_warp_new(void);
/* A warp's lanes start, on SM sm in block `block`: a new warp, or one
 * whose lanes have all retired (wm_warp_retire) or been reset.  A retired
 * warp's next block on the same SM, for the same owner, touches no lane. */
void wm_warp_init(wm_warp *w, int sm, int block, void *owner);

/* Whether SM sm's queue may hold a write overlapping [addr[l],
 * addr[l]+size) for a lane l of `lanes` (0 is exact). */
int wm_sm_may_hold(const wm *m, int sm, const uint64_t *addr, uint32_t lanes, int size);

/* A lane's accesses.  `p` is the L2 byte of `addr` (the allocation's data). */
uint64_t wm_load_now(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, int strong);
/* wm_load_now for all 32 lanes of a warp, in lane order, where none of
 * them has anything in flight (w->entries == 0) and no hook supplies
 * values: lane l's value into out[l] (as wm_load_now returns it), from
 * addr[l], whose L2 bytes are at base + (addr[l] & mask). */
void wm_load_now_warp(wm *m, const wm_warp *w, const uint64_t *addr, uint8_t *base, uint64_t mask, int size, int strong,
                      uint64_t *out);
/* wm_load_defer of a plain load for all 32 lanes of a warp, in lane
 * order, where none of them has anything in flight. */
void wm_load_defer_warp(wm *m, wm_warp *w, const uint64_t *addr, uint8_t *base, uint64_t mask, int size, int sk, int reg,
                        int pc);
/* Queues a load (performing the lane's oldest one if the queue is full);
 * the caller marks the register pending. */
void wm_load_defer(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, int strong, int sk, int reg, int pc);
void wm_store(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, uint64_t v, int strong);
/* An atomic read-modify-write at the level of its scope: the old value is
 * read, apply gives the new one, all in one step; apply clears *store when
 * the operation writes nothing (a compare-and-swap that failed). */
uint64_t wm_atomic(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, int scope, int order,
                   uint64_t (*apply)(void *u, uint64_t old, int *store), void *u);
/* Queues a relaxed atomic like a load: it performs later, atomically at
 * the level of its scope, when its register is needed, at the thread's
 * next access to its location, fence, release or barrier, or as a
 * background action.  Until then the thread's later accesses to other
 * locations may pass it (PTX: SB with relaxed atomics is allowed).  The
 * caller marks the register pending. */
void wm_atomic_defer(wm *m, wm_lane *t, uint64_t addr, uint8_t *p, int size, int scope, int sk,
                     int op, uint64_t a, uint64_t b, int reg, int pc);
/* A fence of the given scope: fence.sc (kind FENCE_SC, which
 * __threadfence_block, __threadfence and __threadfence_system are) or
 * fence.acq_rel (FENCE_ACQ_REL). */
void wm_fence(wm *m, wm_lane *t, int scope, int kind);
/* The two halves of acquire and release operations, around the access:
 * wm_acquire before an ld.acquire reads, wm_release before an st.release
 * writes (the strong store then waits for what the release orders). */
void wm_acquire(wm *m, wm_lane *t, int scope);
void wm_release(wm *m, wm_lane *t, int scope);
/* Lockstep, where a warp is one agent: before lane `self` of warp w
 * accesses [addr, addr+size), the other lanes' earlier accesses
 * there take effect as if they were its own; before it releases, their
 * stores and loads are ordered as its own. */
void wm_warp_order(wm *m, wm_warp *w, int self, uint64_t addr, int size, int write, int strong);
void wm_warp_release(wm *m, wm_warp *w, int self, int scope);
/* A lane arrives at a barrier (__syncthreads, __syncwarp): its loads
 * perform and its stores reach the block's view. */
void wm_barrier(wm *m, wm_lane *t);

/* Performs the lane's pending loads up to and including the last one into
 * register reg (a use of the register needs its value). */
void wm_perform_reg(wm *m, wm_lane *t, int reg);
void wm_perform_all(wm *m, wm_lane *t);
/* The lane ends: its loads perform and its buffer drains to its SM. */
void wm_lane_retire(wm *m, wm_lane *t);
/* Every lane of the warp ends (wm_lane_retire): nothing to do for a lane
 * with nothing in flight, so a warp with none is done without a look at them. */
void wm_warp_retire(wm *m, wm_warp *w);

/* Background actions.  wm_busy: whether anything is in flight.  A sampled
 * run calls wm_random_action (which performs a chosen pending load only
 * with odds load_odds of 1024, and else drains a store of the lane); an
 * exhaustive run enumerates the enabled actions and performs the k-th. */
int wm_busy(const wm *m);
/* Stress for sampled runs: the SM hold_sm (if < the SM count) drains
 * only one time in 16 that it is chosen, and with newest set, buffers and
 * queues drain their newest eligible entry rather than a random one: writes
 * then linger, and later ones overtake earlier ones (WRC, ISA2). */
void wm_random_action(wm *m, rng *r, uint32_t load_odds, int hold_sm, int newest);
int wm_count_actions(const wm *m);
void wm_do_action(wm *m, int k);

/* Drains everything to L2 and invalidates every L1.  Returns whether that
 * changed what any thread can read (a pending write or a stale line). */
int wm_quiesce(wm *m);
/* Forgets everything in flight (a snapshot restore replaces memory). */
void wm_reset(wm *m);

/* Appends the memory system's state (SM queues and L1 contents; lanes are
 * written by wm_serialize_lane) for exhaustive exploration. */
void wm_serialize(const wm *m, bytes *out);
void wm_serialize_lane(const wm_lane *t, bytes *out);

#endif
