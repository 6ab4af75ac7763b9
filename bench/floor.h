/* floor.h: what gpurace's design costs on triad with no interpreter at all
 * (issue 23's one missed goal: triad within 10x of PoCL).
 *
 * gpurace keeps a warp's registers in memory, 32 lanes of 64 bits each,
 * and every KIR instruction reads its operands' lanes there and writes its
 * destination's.  floor_triad runs bench/peer/triad.cu's KIR (`gpurace ir
 * bench/peer/triad.cu`: 17 instructions of arithmetic, a branch, two loads and a
 * store a warp) as straight-line C over one warp's register file, always
 * in L1: no decoding, no dispatch, no scheduling, no address checks, no
 * statistics.  Whatever an interpreter of this design adds, it cannot run
 * faster than that.  FLOOR_UNIFORM also keeps the values that are the
 * same in every lane of the launch or block (the constant, the parameters,
 * blockIdx.x * blockDim.x) as scalars, the uniform registers a redesign
 * would add, leaving 12 lane loops. */
#ifndef GR_BENCH_FLOOR_H
#define GR_BENCH_FLOOR_H

enum { FLOOR_REGISTERS, FLOOR_UNIFORM };

/* c = 2a + b over n floats (n a multiple of 256, 256-thread blocks, as
 * bench/peer.c launches triad), the best of reps runs: seconds, or -1
 * where c came out wrong. */
double floor_triad(int variant, const float *a, const float *b, float *c, int n, int reps);

#endif
