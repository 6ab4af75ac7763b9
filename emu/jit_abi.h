/* jit_abi: what compiled code and the engine share (engine-internal).
 * This header is compiled twice: into gpurace, and (its text embedded in
 * gpurace, jit_text.c) into every kernel's compiled code, so that the two
 * sides can never disagree on the frame's layout.
 *
 * A kernel's compiled code is one function, jit_fn, that runs a full
 * warp's stretch of the instructions the run-ahead executes (simt.h):
 * arithmetic, conversions, constants, special registers but the clock,
 * parameters, global addresses, math, pointer arithmetic, selects, the
 * branches its lanes all take the same way, and the loads it performs at
 * once (through F->load, the interpreter's).  It enters at F->pc (one
 * of its entries, jit_code.entry) and stops, F->pc where it stopped, at
 * the first of: an instruction of another kind; a branch that parts the
 * lanes or, backward, would exceed F->edges back edges; the reconvergence
 * point F->rpc; F->cap instructions in all (F->n counts them, from the
 * value it had).  What it did is exactly what simt_run_ahead's own loop
 * would have done over those instructions, which then goes on from
 * F->pc: the same live registers (a register that no path from F->pc
 * reads before writing it may keep an older value: jit.c's kept_after;
 * the operands of a comparison fused with the branch at F->pc are kept,
 * which the loop may run again), the same back edges (F->edge_at, F->nedge),
 * the same fused comparison (simt.h: where F->have_ft, the branch at
 * F->pc reads its lanes F->ft instead of its register). */
#ifndef GR_JIT_ABI_H
#define GR_JIT_ABI_H

#include <stdint.h>

typedef struct jit_frame {
  uint64_t *R;                   /* the warp's registers, nregs x 32 */
  const uint32_t (*tid)[32];     /* its lanes' threadIdx.x, .y, .z */
  uint64_t ctaid[3], ntid[3], nctaid[3], gridws;
  const uint64_t *args;          /* the launch's parameter values */
  const uint64_t *gaddr;         /* the module's __device__ variables' addresses */
  int32_t pc, n, cap, rpc, edges, nedge;
  int32_t *edge_at;
  int32_t have_ft;
  uint32_t ft;
  /* A load the run-ahead may perform at once (simt.h's AHEAD_LOAD): the
   * interpreter's own access_ahead_load, on (launch, warp); 0 where it does
   * not apply (the stretch stops before it), 1 where it performed, 2
   * where it performed and left a load pending (the stretch stops after). */
  int (*load)(void *L, void *w, int32_t pc);
  void *L, *w;
  int32_t stopped;               /* set where a load declined: the run-ahead's stretch ends there; a whole
                                  * warp's function sets it to 2 where its lanes part */
  /* A full warp's load from shared memory that the run-ahead performs
   * (simt.h's quiet: marks[pc] is AHEAD_LOAD and the block holds still),
   * performed by the compiled code itself where its 32 addresses fall in
   * the block's shared memory, aligned: what access_ahead_load does
   * there.  sq: 0 until the stretch's first such load asks F->quiet (the
   * interpreter's block_quiet, and where observers watch, whether they need
   * the event of a plain shared load: access_ahead_quiet), then 1 where the
   * block holds still (it
   * does until its barrier releases: not within a stretch), -1 where not
   * (every load then goes to F->load).  sh_lanes: the lanes' loads
   * performed, sh_bytes their bytes, for the engine's statistics. */
  const uint8_t *marks;
  const uint8_t *shared;
  uint64_t shared_size;
  int (*quiet)(void *L, void *w);
  int32_t sq;
  /* observers watch: a strong shared load (volatile or acquire), whose
   * event they need, is left to F->load (which leaves it to its turn) */
  int32_t observed;
  uint64_t sh_lanes, sh_bytes;
  /* entries declined: a register the code holds as one scalar for the
   * warp (jit.c's jit_uniform) had different values in its lanes; the
   * code then ran nothing */
  uint64_t declined;
  /* A whole warp (JIT_WHOLE, below): per pc of a memory access, the
   * allocation its lanes' addresses must fall in, and the global loads'
   * and stores' lanes and bytes it performed (from 0). */
  const struct jit_span *span;
  uint64_t gld_lanes, gld_bytes, gst_lanes, gst_bytes;
} jit_frame;

/* An allocation an access may reach at once: lane addresses a with
 * a - tag < end, aligned, at base + (a - tag) (end 0: none). */
typedef struct jit_span {
  uint64_t tag, end;
  uint8_t *base;
} jit_span;

typedef void (*jit_fn)(jit_frame *F);

/* A kernel whose every instruction is one jit_fn runs, a global load, a
 * global store or the exit has two functions more, which run a full warp
 * of a launch that no schedule can tell apart (emu/whole.c) from its
 * first instruction to its exit, its registers its own (F->R unused,
 * those read before written 0): the check (JIT_WHOLE_CHECK) performs no
 * store, the run (JIT_WHOLE_RUN) performs them.  Each returns 1 where
 * the warp reached its exit, F->n its warp instructions and F->gld_*,
 * F->gst_* its accesses; 0 where it stopped: at a branch that parts its
 * lanes (F->stopped 2), an access outside F->span or misaligned, or past
 * F->cap instructions. */
typedef int (*jit_whole_fn)(jit_frame *F);
#define JIT_WHOLE_CHECK "gr_jit_whole_check"
#define JIT_WHOLE_RUN "gr_jit_whole_run"

/* The name of a compiled kernel's function in its shared object. */
#define JIT_SYMBOL "gr_jit_run"

#endif
