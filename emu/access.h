/* access: a warp's memory accesses, for the engine (engine-internal).
 *
 * A load, store or atomic of a warp runs lane by lane in lane order, each
 * lane's address translated (a fault named as compute-sanitizer's memcheck
 * would), in sequentially consistent memory or through the weak memory
 * system; a full warp's access whose addresses all fall in one of the
 * warp's spans (an allocation or the block's shared memory it accessed
 * before) runs in one pass where nothing could tell it apart: no
 * observer, and under weak memory only shared memory, or a relaxed global
 * load of a warp with nothing in flight.  GPURACE_ONE_PER_TURN=1 turns the
 * one-pass paths off (tests/cli.sh compares). */
#ifndef GR_ACCESS_H
#define GR_ACCESS_H

#include "engine.h"
#include "wmem.h"

/* The load or store at pc by the lanes m; lockstep: the warp is one agent
 * of the memory model.  0, or 1 where the instruction stops there (the
 * launch failed). */
int access_ldst(launch *L, warp *w, const kir_ins *in, uint32_t m, int pc, int lockstep);
/* The atomic at pc by the lanes m, serialised in lane order; as access_ldst. */
int access_atom(launch *L, warp *w, const kir_ins *in, uint32_t m, int pc, int lockstep);

/* Whether the instruction reads or overwrites a register with a load
 * pending for a lane of m (weak memory); access_resolve_pending performs those
 * loads (the scoreboard). */
int access_needs_pending(const warp *w, const kir_ins *in, uint32_t m);
/* Asynchronous copies (cp.async) of lanes m: issued (queued, open), the
 * open ones committed as a group, the due ones performed at a wait that
 * keeps `keep` groups in flight, all of them at the lanes' exit.  Nonzero
 * where the launch failed. */
int access_cp_issue(launch *L, warp *w, const kir_ins *in, uint32_t m, int pc);
void access_cp_commit(warp *w, uint32_t m);
int access_cp_wait(launch *L, warp *w, uint32_t m, uint32_t keep, int pc);
/* size bytes at a lane's address, read as a load would find them (faults
 * reported as a load's), into out, outside the memory model and unseen by
 * observers: for device printf's format and arguments.  0, or -1 after a
 * fault. */
int access_peek(launch *L, warp *w, int lane, uint64_t addr, void *out, int size, int pc);
int access_cp_exit(launch *L, warp *w, uint32_t m);
void access_resolve_pending(launch *L, warp *w, const kir_ins *in, uint32_t m);

/* For simt.c: the load at AHEAD_LOAD run ahead of its turn by a full warp
 * (under ITS, a converged one), where its 32 addresses fall in the block's
 * shared memory (in bounds, aligned; weak memory leaves shared memory
 * sequentially consistent) and the block holds still (simt.h's quiet),
 * with no observer or none that needs its event (a plain load while no
 * thread of the block has written shared memory since its last barrier:
 * it races with nothing); or in an allocation nothing writes (prov.h's
 * PROV_RO, with observers only where they need no event of it): 1, done
 * and counted as at its turn; else 0, nothing done. */
int access_ahead_load(launch *L, warp *w, const kir_ins *in);
/* For simt.c: the store at AHEAD_STORE run ahead of its turn by a full
 * lockstep warp, under sequentially consistent memory with no observer: a
 * plain store to an allocation nothing loads from or updates during the
 * launch, whose stores give no two threads one address (prov.h's
 * PROV_WO), its 32 addresses in one allocation of its roots.  Nobody can
 * tell it from the store at its turn but the livelock detector, which
 * sees memory change (the launch's write_epoch): that is left to the
 * store's turn (engine.c's ran_ahead).  1: done and counted, memory
 * changed; 0: done, nothing changed; -1: nothing done. */
int access_ahead_store(launch *L, warp *w, const kir_ins *in);
/* Whether a full warp's plain load from the block's shared memory, in
 * bounds and aligned, at a quiet pc, is one access_ahead_load performs:
 * the block holds still (simt.h), nothing supplies values, no view
 * redirects, and no observer needs its event. */
int access_ahead_quiet(launch *L, warp *w);

/* The weak memory system's hooks into the launch: a deferred load's
 * value into its register, values supplied in trace mode, deferred
 * atomics' operations. */
wm_hooks access_hooks(launch *L);

#endif
