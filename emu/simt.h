/* simt: a warp's own instructions, for the engine (engine-internal).
 *
 * Arithmetic, conversions, constants, special registers and branches read
 * and write nothing but their warp's registers and reconvergence stack, and
 * values fixed for the launch.  So an instruction of that kind can run at
 * any time before its turn without anyone telling the difference, which is
 * what the run-ahead does: at a warp's turn, under lockstep warps (and
 * converged ones under ITS, round-robin), short of a register a
 * weak-memory load is pending into, the warp runs its whole
 * stretch of such instructions in one tight loop, and its next turns, one
 * per instruction run ahead, only count the step.  The schedule (which
 * warp issues at each step), the step count and every visible effect are
 * those of running them one per turn.  So is a load from shared memory
 * that no thread can write before its turn (quiet, below), which the
 * stretch runs too where no observer watches (SIMT_OBSERVED, below). */
#ifndef GR_SIMT_H
#define GR_SIMT_H

/* Lane loops built three times, for AVX-512, AVX2 and the baseline, the
 * loader picking the best the machine runs (GCC's function
 * multiversioning): eight or four 64-bit lanes a vector instead of two,
 * the same results (integer arithmetic, and IEEE operations that are
 * never contracted: the AVX-512 target has FMA, but -ffp-contract=off in
 * Makefile.am keeps a*b+c two roundings).  AVX-512's masks also vectorise
 * the loops with a choice per lane (hash's ALU loop: 6%).  SIMT_SCALAR: a
 * lane loop kept scalar, where vector code would compute both sides of a
 * choice. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SIMT_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#define SIMT_SCALAR __attribute__((noinline, optimize("no-tree-vectorize")))
#else
#define SIMT_CLONES
#define SIMT_SCALAR __attribute__((noinline))
#endif

#include "engine.h"

/* Runs an op of kir_is_alu for the lanes m. */
void simt_alu(launch *L, warp *w, const kir_ins *in, uint32_t m);
/* A branch or jump at pc by the lanes m at the top of the warp's stack:
 * the stack after it (divergence pushes the two sides).  0, or -1 where the
 * stack would overflow. */
int simt_branch(launch *L, warp *w, const kir_ins *in, int pc, uint32_t m);
/* Pops the entries that reached their reconvergence point, or emptied. */
void simt_reconverge(launch *L, warp *w);

/* What the run-ahead needs of a launch's code, per pc.  marks: nonzero
 * where it may execute the instruction: the ops of kir_is_alu but the
 * clock (it reads the step count) and a struct parameter's copy into
 * local memory, and branches.  A branch's mark is AHEAD_BRANCH; another's
 * is the length of the run of such non-branch instructions it starts (at
 * most AHEAD_RUN_MAX), which the run-ahead dispatches in one loop.
 * kb: 1 where the instruction is a binary op whose b is a register that
 * holds one value for the whole launch (its only write a constant or a
 * scalar parameter in the entry's straight line, before the instruction):
 * that value is kv, and a full warp's lane loop reads it instead of 32
 * copies (hash's loop: six of its eight operations).  args: the launch's
 * parameter values, or NULL to take constants only (after a snapshot
 * restore, whose registers may hold another launch's parameters).
 *
 * quiet: 1 where no path from the pc reaches a store, an atomic, a
 * struct parameter's copy, a wait for asynchronous copies or (in a
 * kernel with copies) an exit, which perform copies into shared memory,
 * before it reaches a __syncthreads (every KIR barrier is the whole
 * block's).  While every warp of a block that is not
 * waiting at the barrier is at quiet pcs (all its stack's entries; under
 * ITS, every live lane's pc), no thread of the block writes memory until
 * the barrier releases, and shared memory, which only the block's threads
 * can write, holds still: a load from it reads at once what it would read
 * at its turn.  A load at a quiet pc is marked AHEAD_LOAD: the run-ahead
 * performs it where it falls in shared memory and the block holds still
 * (access_ahead_load), and stops at it otherwise.  So is a load that cls
 * (prov.h's classes, or NULL) says reads an allocation nothing writes
 * during the launch (PROV_RO): it reads at once what it reads at its turn,
 * wherever it falls in one span of global memory.  A store that cls says
 * writes an allocation nothing reads during the launch, one writer an
 * address (PROV_WO), is AHEAD_STORE: a lockstep warp's stretch performs
 * it (access_ahead_store) under sequentially consistent memory, with the
 * memory's change due at its turn (edge_at, below), so that a grid-stride
 * loop's output store no longer ends its stretch. */
#define AHEAD_BRANCH 255
#define AHEAD_LOAD 254
#define AHEAD_STORE 253
#define AHEAD_RUN_MAX 252
/*
 * fused: 1 at a comparison that a conditional branch on its result
 * follows, the result read nowhere else (written again before it is read,
 * and before any backward branch, where the livelock detector hashes every
 * register, on every path from the branch, as far as 64 instructions show):
 * a full warp runs the pair as one, the lanes' results going straight
 * into the branch's mask instead of through the register (loop tests:
 * hash's loop, `lt` then `brf`).  Where the run-ahead stops at the branch,
 * it writes the comparison's register first. */
/* Whether the instruction reads and writes nothing but its warp's
 * registers and reconvergence stack and values fixed for the launch: the
 * ops of kir_is_alu but the clock (it reads the step count) and a struct
 * parameter's copy into local memory, and branches.  What the run-ahead
 * runs of itself, compiled code runs (jit.c) and a whole launch allows
 * besides its accesses (whole.h). */
int simt_own(const kir_ins *in);
/* Per register of f: the pc of its only write where that is a constant or
 * a scalar parameter in the entry's straight line (kb's registers: at
 * every later pc each lane holds that value), else -1.  malloc'd. */
int *simt_launch_defs(const kir_func *f);
/* Whether the instruction at pc is such a comparison (whatever the marks). */
int simt_fused_at(const kir_func *f, int pc);
struct simt_plan {
  uint8_t *marks, *kb;
  uint64_t *kv;
  uint8_t *quiet, *fused;
};
simt_plan *simt_plan_new(const kir_func *f, const uint64_t *args, const uint8_t *cls);
void simt_plan_free(simt_plan *p);

/* Runs the warp's instructions from its pc while L->ahead's marks allow, at most cap:
 * how many it ran (0 where the first is not allowed).  how: SIMT_UNIFORM
 * (a converged warp under ITS) stops before a branch its lanes would take
 * different ways.  SIMT_OBSERVED (observers watch the launch) runs only
 * what tells them nothing: it performs no load (an access is an event) and
 * stops before a branch its lanes would part at (GR_EV_DIVERGE); the
 * caller runs it only for a warp whose stack is its bottom entry, which
 * never reaches a reconvergence point (GR_EV_RECONVERGE).  So every event
 * comes at the turn, and in the order, of one instruction per turn: an
 * event carries no step count, and no observer sees registers.  Backward
 * branches (where the livelock detector counts) it runs at most `edges` of
 * (at most WARP_EDGES): their indices in the stretch into edge_at, their
 * count into *nedge; among them, as ~index, each store it performed that
 * changed memory (whose change the detector sees at the store's turn).
 * SIMT_READONLY (with SIMT_OBSERVED: L->race_free_unseen) performs the
 * plain loads of global allocations nothing writes (prov.h's PROV_RO),
 * and the plain shared loads at quiet pcs of a block that holds still and
 * has written no shared memory since its last barrier released nor has a
 * copy to it in flight (blk's sh_written), which the observers need no event of
 * (GR_OBSERVE_SKIP_RACE_FREE): neither meets a write that no barrier
 * orders before or after it. */
enum { SIMT_UNIFORM = 1, SIMT_OBSERVED = 2, SIMT_READONLY = 4 };
/* (hidden by name: gcc gives a target_clones function's dispatcher default
 * visibility whatever -fvisibility says) */
__attribute__((visibility("hidden"))) int simt_run_ahead(launch *L, warp *w, int cap, int how, int edges, int *edge_at,
                                                         int *nedge);

#endif
