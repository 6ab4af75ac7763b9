// The paper's instrumented loop kernels (shared/papers/wise-twopass.txt): a
// loop body's accesses to its shared array go through LOOP_READ and
// LOOP_WRITE, after LOOP_BEGIN at the kernel's start.  Plain, they are
// plain accesses (the parallelised loop, "unsafe" in the paper).  A scheme
// is chosen by a -D macro:
//
//   -DWISE, -DWISE_FP, -DWISE_NO_LOCAL   wise.cuh: speculative reads and writes (Section IV)
//   -DTWOPASS, -DTWOPASS_FP              twopass.cuh: the two inspector passes, then the executor (Section III)
//   -DPARAGON                            paragon.cuh: logged read and write sets, compared pairwise
//
// Two-pass and Paragon need launches of their own, which a kernel file
// declares with knobs, so that a plain run does not make them:
//
//   //@ launch K grid(G) block(B) if TWOPASS TWOPASS_FP              the WAW inspector pass
//   //@ launch K grid(G) block(B) if TWOPASS TWOPASS_FP              the RAW/WAR inspector pass
//   //@ launch K grid(G) block(B)                                    the loop (the executor, the speculation)
//   //@ launch paragon_check grid(G) block(B) if PARAGON              Paragon's comparison and decision
//
// After the run, loop_flag is 1 where the scheme found a dependency (the
// loop goes back to the CPU).  LOOP_T is the shared array's element type,
// LOOP_ELEMS bounds its length, LOOP_ITERS the iterations (Paragon's sets).
#ifndef LOOPS_LOOP_CUH
#define LOOPS_LOOP_CUH

#ifndef LOOP_T
#define LOOP_T double
#endif
#ifndef LOOP_ELEMS
#define LOOP_ELEMS 4096
#endif
#ifndef LOOP_ITERS
#define LOOP_ITERS 4096
#endif
#define LOOP_WARP 32

#if defined(WISE) || defined(WISE_FP) || defined(WISE_NO_LOCAL)
#include "wise.cuh"
#elif defined(TWOPASS) || defined(TWOPASS_FP)
#include "twopass.cuh"
#elif defined(PARAGON)
#include "paragon.cuh"
#else
#define LOOP_BEGIN() do { } while (0)
#define LOOP_READ(dst, a, k) ((dst) = (a)[k])
#define LOOP_WRITE(a, k, v) ((a)[k] = (v))
#endif

#endif
