/* engine: the device's internals shared by the emulator's modules.  Private
 * to emu/: the public face is emu.h. */
#ifndef GR_ENGINE_H
#define GR_ENGINE_H

#include "emu.h"
#include "explore.h"
#include "gpurace.h"
#include "invariant.h"
#include "kir.h"
#include "util.h"
#include "wmem.h"

typedef struct {
  uint8_t *data;
  uint64_t size;
  char *name;
  int live;
  int heap;             /* device malloc's: device free may free it */
} galloc;

struct emu_module {
  emu_dev *ctx;
  const kir_module *km;      /* the host's, borrowed */
  gr_ptr *gaddr;             /* device address of each module global (the host's array) */
  const char *path;
  struct prov_flow *flows;   /* prov's analyses of its kernels, by launch shape (prov.c) */
  uint64_t *jit_keys;        /* per kernel k of km: its compiled code's key at 2k (jit_key), its whole
                              * warp's at 2k + 1 (jit_whole_key); 0 until asked (or none) */
};

typedef struct launch launch;

#define GR_MAX_OBSERVERS 16

struct emu_dev {
  gr_config cfg;
  char *err;          /* the caller's error buffer (emu_new) */
  size_t errlen;
  vec allocs;         /* galloc; id 0 is never used, so no address is 0 */
  gr_observer obs[GR_MAX_OBSERVERS];
  int obs_live[GR_MAX_OBSERVERS];
  int nobs;
  gr_stats stats;
  launch *L;          /* the launch in progress, or NULL */
  struct wm *wm_spare;  /* the last launch's weak memory system, for the next (wm_renew) */
  gr_explore *explore; /* exhaustive runs draw their choices here */
  uint64_t live_bytes;  /* global memory allocated and not freed (bounded by cfg.max_memory) */
  uint64_t heap_used;   /* of it, device malloc's (bounded by heap_limit, cudaLimitMallocHeapSize) */
  uint64_t heap_limit;
  char *log;            /* --keep-going: the memory errors of the last launch, one a line */
  size_t log_len, log_cap;
  int log_shown;        /* emu_log gives the log (it ends with the summary) */
  bytes output;         /* device printf's text, until emu_output takes it */
  /* the axiomatic checker's trace runs (emu_supply) */
  emu_supply_fn supply;
  emu_rmw_fn rmw_result;
  void *supply_user;
};

int emu_fail(emu_dev *ctx, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The live allocation an address falls in, or NULL (inline: every global
 * access of the interpreter asks). */
static inline galloc *emu_alloc_of(emu_dev *ctx, uint64_t addr) {
  if (KIR_SPACE_OF(addr) != SPACE_GLOBAL || KIR_STATE_OF(addr) != KIR_INSIDE) return NULL;
  uint64_t id = (addr >> 32) & 0xffffff;
  if (id == 0 || id >= ctx->allocs.len) return NULL;
  galloc *a = (galloc *)ctx->allocs.data + id;
  return a->live ? a : NULL;
}

/* ---- the emulator's launch state, shared by engine.c and snapshot.c ---- */

#define FULL 0xffffffffu

/* How a sampled ITS launch lets lanes drift apart (launch.its_mode). */
enum { ITS_SPLIT, ITS_LEAD, ITS_WHOLE, ITS_SEQUENTIAL };
#define STACK_MAX 256

typedef struct { int32_t pc, rpc; uint32_t mask; } simt_entry;
typedef struct { uint64_t base, len; uint8_t *copy; } mview;

enum { W_READY, W_BAR, W_DONE };

/* What a translation shares with the lanes after it: addresses whose bits
 * outside mask equal tag (same space, state and allocation) and whose
 * offset (addr & mask) fits under limit are at base + offset.  Global and
 * shared memory only: a lane's local memory is its own. */
typedef struct {
  uint64_t tag, mask, limit;
  uint8_t *base;
} xspan;
#define WARP_SPANS 4
/* backward branches a stretch of run-ahead may run: as many as the warp's
 * count of them (nedge, 8 bits) holds, so that a loop of a few hundred
 * iterations is one or two stretches, not four or more (64 before: the ALU
 * hash loop's 256 iterations took four turns that ran code, 4% of its time) */
#define WARP_EDGES 255

typedef struct blk blk;
typedef struct simt_plan simt_plan;
typedef struct warp {
  uint64_t *r;             /* nregs x 32 */
  int sp;                  /* entries of stk in use */
  uint32_t alive;          /* lanes that exist and have not exited */
  int state;
  blk *b;
  uint32_t gid, wib;
  uint8_t *local;          /* 32 x frame bytes */
  const uint32_t (*tid)[32];   /* its lanes' threadIdx.x, .y, .z: its row of the launch's tids */
  /* livelock detection: see note_backedge */
  uint64_t spin_epoch, spin_hash, spin_sig, backedges, spin_at;
  int stuck;
  uint32_t lspin;          /* ITS: the lanes proven to spin (note_backedge) */
  uint32_t speed;          /* weak memory, random scheduler: relative issue rate, 1..8 */
  int32_t bar_pc;          /* where it waits, for reports */
  mview *views;
  int nviews;
  struct cp_state *cp;     /* asynchronous copies in flight (cp.async), or NULL */
  int rpos;                /* index in the ready list, -1 if not there */
  wm_warp *wm;             /* weak memory: the lanes' buffers and pending loads */
  uint32_t *pend;          /* weak memory: per register, lanes with a load pending into it */
  int npend;
  uint32_t wait_sync, wait_bar;   /* ITS: the lanes whose lwait is LW_SYNCWARP, LW_BAR (its_wait keeps them) */
  int its_next;            /* round-robin: the lane whose group runs next, or the first after it */
  uint32_t its_ran;         /* ITS: lanes run since the last sampled back edge (note_backedge) */
  int its_conv;             /* ITS: every live lane runnable, all at stk[0].pc (its_step's fast path) */
  int its_one;              /* ITS: the runnable lanes (stk[0].mask, not empty) all at stk[0].pc, none at a __syncwarp:
                             * one group, the others waiting at __syncthreads (its_conv implies it) */
  uint32_t its_passed;      /* ITS: lanes that did something visible while a *_sync naming them waited (its_step) */
  uint32_t nexchange;       /* shuffles and votes it ran: a lane's state that repeats across one proves no spin */
  uint32_t ahead;          /* instructions it ran ahead of its turns (simt.h) */
  /* edge_due[edge_next] while edge_next < nedge, else 0: kept by ahead, so
   * that a turn that only counts reads one cache line (edge_due lies past
   * stk; reading it there cost reduce 2%) */
  uint32_t next_due;
  /* the turn (the value of ahead) of the next store it ran ahead whose
   * change to memory the livelock detector sees then (EDGE_WRITE), else 0 */
  uint32_t write_due;
  uint8_t nedge, edge_next;   /* edge_due's entries, and the next due */
  /* the spans of its last accesses (an instruction's next access likely
   * falls in one: triad's three arrays take three): allocations and its
   * block's shared memory live as long as the launch, so they stay true */
  xspan spans[WARP_SPANS];
  uint8_t span_next;       /* the slot the next new span replaces */
  /* last, so that a new block clears the fields before it and stk[0] alone */
  simt_entry stk[STACK_MAX];
  /* Independent thread scheduling (--warps its) alone reads these, from
   * lback to lsync (a new block under lockstep leaves them as they are:
   * clearing them was most of a block's start).  Each lane's own livelock
   * detection (note_backedge): its back edges in this epoch, the state
   * sampled and when, the last back edge it took (where a report shows it
   * spin).  Each lane's program counter, what it waits at (LW_*), and the
   * member mask of the __syncwarp it waits at; the stack then holds one
   * entry, rebuilt at each step for the code that looks at it (its_stack). */
  uint32_t lback[32], lhash_at[32];
  uint64_t lhash[32];
  int32_t ledge_pc[32];
  int32_t lpc[32];
  uint8_t lwait[32];
  uint32_t lsync[32];
  /* the backward branches it ran ahead (simt_run_ahead): the value of ahead
   * at each one's turn, in order (read only while ahead is not 0, and set
   * with it: never cleared) */
  uint32_t edge_due[WARP_EDGES];
} warp;
_Static_assert(WARP_EDGES <= UINT8_MAX, "a warp counts its edges due in 8 bits (nedge, edge_next)");

/* edge_due's mark of a store's change to memory (simt.h's AHEAD_STORE)
 * among the backward branches: the launch's write_epoch moves at its turn */
#define EDGE_WRITE 0x80000000u

enum { LW_RUN, LW_SYNCWARP, LW_BAR };

/* A warp's asynchronous copies in flight, in issue order; group: the
 * lane's commit group, CP_OPEN before its commit. */
#define CP_OPEN UINT32_MAX
typedef struct { uint64_t dst, src; uint32_t group; int32_t pc; uint8_t lane, size, srcsize; } cp_copy;
typedef struct cp_state { cp_copy *q; uint32_t n, cap; uint32_t groups[32]; } cp_state;

struct blk {
  uint32_t idx[3], lin;
  int sm;
  warp *warps;
  int nwarps, live, at_bar;
  uint32_t bar_count, bar_and, bar_or;   /* __syncthreads_count/_and/_or of the barrier in progress */
  uint8_t *shared;
  int quiet;        /* 1: its threads write no memory before the next barrier releases (access_ahead_load) */
  int loud;         /* the warp that last kept it from holding still, checked first */
  int sh_written;   /* observers watch: a thread of it wrote shared memory since its last barrier released,
                     * or has a copy to it in flight (access_ahead_load) */
  uint32_t copies;  /* its threads' asynchronous copies in flight (issued, not performed) */
};

struct launch {
  emu_dev *ctx;
  emu_module *mod;
  const kir_func *f;
  gr_dim3 grid, bdim;
  gr_ptr gridws;                 /* a cooperative launch's grid workspace, else 0 */
  uint32_t nthreads, wpb;        /* threads and warps per block */
  uint64_t nblocks, next_block;
  const uint64_t *lins;          /* the blocks to run, next_block indexing it (engine_run_blocks), or NULL:
                                  * every block, in order */
  uint32_t shared_size;
  uint64_t *args;     /* one value per kernel parameter */
  uint8_t **argdata;  /* the bytes of each struct parameter, else NULL */
  blk **slots;                   /* resident blocks, per SM slot */
  int nslots;
  warp **run;                    /* resident warps in slot order */
  int nrun, rr;
  warp **ready;
  int nready;
  uint64_t steps, write_epoch;
  int failed;
  uint64_t kept_errors;          /* --keep-going: memory errors logged and dropped */
  int deadlock_check;
  const gr_snapshot *pending_restore;
  int pruned;                    /* an exhaustive run reached a known state: stop, no outcome */
  rng rng;
  uint64_t ev_addr[32], ev_val[32], ev_op[32], ev_op2[32];
  wm *mem;                       /* weak memory, or NULL for sc */
  uint32_t mem_odds, defer_odds, load_odds; /* weak memory, sampled: per-launch odds of 1024 (see gr_launch) */
  int hold_sm, newest;                      /* weak memory, sampled: wm_random_action's stress */
  chooser ch;
  bytes key;                     /* exhaustive runs: the state at a choice point */
  const warp *finished;          /* the last warp warp_finish retired (its block may be freed with it) */
  int its_lead;                  /* ITS, random scheduler: a lane that runs ahead of its warp, or -1 */
  int its_mode;                  /* ITS, random scheduler: how lanes drift apart (ITS_SPLIT...) */
  simt_plan *ahead;              /* where a warp may run ahead (simt.h), or NULL: never */
  const struct jit_code *jit;    /* the kernel's compiled code (jit.h), or NULL: the interpreter runs the stretches */
  uint64_t jit_due;              /* --engine auto: the step at which to start the compiler or look at it, or 0 */
  uint64_t jit_key;              /* --engine compiled and auto: the kernel's key (jit_key) */
  struct prov *prov;             /* weak memory: the accesses performed at L2 at once (prov.h), or NULL: none */
  int race_free_unseen;           /* observers watch, and need no event of an access that cannot race
                                  * (GR_OBSERVE_SKIP_RACE_FREE) */
  int red_unseen;                /* race_free_unseen, in a kernel without fences: a reduction orders nothing
                                  * (access_atom) */
  int order_free;                /* no access of the launch can race or tell its warps' order (whole_silent) */
  int silent;                    /* race_free_unseen and order_free: the observers are given the launch's begin
                                  * and end only */
  uint32_t unseen_ids[2][8];     /* the allocations such accesses performed without an event reached: [0] loads
                                  * (prov.h's PROV_RO), [1] reductions (PROV_RED) (unseen_many: more than 8) */
  int n_unseen_ids[2], unseen_many;
  int unseen_met;                /* an access met one of those allocations after all (engine_deliver) */
  struct { uint32_t alive, tid[3][32]; } *tids;   /* per warp of a block: its lanes and their threadIdx (launch_tids) */
  int *first_read, nfirst_read;   /* kir_regs_read_first, once blocks are recycled */
  int8_t *its_group;              /* ITS: per instruction, its group in the step being formed, or -1 (its_step) */
  uint64_t *live;                 /* the registers live before each pc (kir_liveness), live_w words a pc, or NULL:
                                  * not yet made (engine.c's live_before) */
  size_t live_w;
};

/* Runs the statement for each lane l of the mask m. */
#define LANES(m, ...) do { uint32_t mm_ = (m); \
    if (mm_ == FULL) { for (int l = 0; l < 32; l++) { __VA_ARGS__; } } \
    else while (mm_) { int l = __builtin_ctz(mm_); mm_ &= mm_ - 1; __VA_ARGS__; } } while (0)

/* engine.c, for simt.c and access.c: observers' events */
void engine_ev_init(launch *L, gr_event *ev, gr_event_kind kind, warp *w, int pc);
void engine_deliver(launch *L, gr_event *ev);
/* engine.c, for access.c: the run fails at pc ("file:line:col: error:
 * ..."); a memory error, which under --keep-going is logged instead and
 * the access dropped (the launch not failed); "thread (x,y,z) of block
 * (x,y,z) [warp w lane l]" */
void engine_fault(launch *L, int pc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void engine_mem_fault(launch *L, int pc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void engine_lane_coords(const warp *w, int lane, char *buf, size_t n);
/* Whether a and b, two warps of L's kernel whose lanes are at the same
 * places, hold different values in a register some lane may still read
 * there (a register no later instruction reads before it writes it is
 * none of the warp's state: compiled code need not keep it, jit.c) */
int engine_live_regs_differ(launch *L, const warp *a, const warp *b);
/* Device printf (printf.c): a lane's vprintf(fmt, args), its text appended
 * to the device's output; the characters printed, -1 on a bad format, or
 * -2 after a fault (reading memory it may not) that ended the launch. */
int engine_printf(launch *L, warp *w, int lane, uint64_t fmt, uint64_t args, int pc);
/* A failed assert's text, from __assertfail's message, file and line. */
void engine_assert_text(launch *L, warp *w, int lane, uint64_t msg, uint64_t file, uint64_t line, int pc, char *out, size_t n);
/* Device malloc and free (device.c): a new allocation of n bytes from the
 * heap, named by the lane's thread, or 0 where the heap is full; free: 1
 * where p is what malloc returned, live, or 0.  engine_allocs_truncate
 * drops the allocations from n on (a snapshot's restore). */
uint64_t engine_heap_malloc(launch *L, warp *w, int lane, uint64_t n);
int engine_heap_free(launch *L, uint64_t p);
void engine_allocs_truncate(emu_dev *e, size_t n);

/* engine.c, for its.c: one warp instruction for the top entry of the
 * warp's stack (ITS puts the group that runs there); lanes "0-3,8" */
void engine_warp_step(launch *L, warp *w);
int engine_fmt_mask_lanes(char *buf, size_t n, uint32_t m);

/* engine.c, for snapshot.c: warps, blocks and the resident set */
void engine_rebuild_run(launch *L);
/* The launch's tids, made on first use: every block's warp k has the same threads. */
void engine_launch_tids(launch *L);
void engine_block_free(blk *b);
void engine_ready_add(launch *L, warp *w);
void engine_ready_remove(launch *L, warp *w);
blk *engine_block_new(launch *L, int slot, uint64_t lin);
void engine_block_start(launch *L, int slot, uint64_t lin);
/* whole.c: the kernel's whole warp's functions (jit_whole_key): under
 * --engine compiled compiled now where no cache has them; under auto, where
 * they are ready, else their compile started in the background for a
 * later launch; or NULL. */
const struct jit_code *engine_jit_whole(launch *L);
/* whole.c: the n blocks lins (ascending) turn by turn, as a launch of them
 * alone: L fresh, no block started; the statistics and L->steps added to,
 * L->failed where the run failed. */
void engine_run_blocks(launch *L, const uint64_t *lins, uint64_t n);
/* snapshot.c, for engine.c: a block-only restore pending for block lin;
 * and the restore an observer asked for, after the current instruction */
int snapshot_is_block(const gr_snapshot *s, uint32_t lin);
void snapshot_apply_restore(launch *L);

#endif
