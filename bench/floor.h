/* floor.h: what a design costs with nothing but its own work, where a goal
 * was missed: triad with no interpreter at all (issue 23: triad within 10x
 * of PoCL), and the racy histogram's oracle with nothing but its records
 * (issue 43: hb within 3x of the plain run, floor_hot below).
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

/* The racy histogram's oracle (issue 43's goal: hb within 3x of the plain
 * run), floor_hot: the bookkeeping that any exact oracle which follows
 * each access does, in its densest form, with nothing else.  The plain
 * increment's load and store of a bin by each lane of a warp (the agent,
 * as hb's under lockstep) in the emulator's order by default (4 SMs of 8
 * resident 256-thread blocks, the resident warps round-robin, a warp's
 * load then its store, the next 32 blocks when these have ended); each
 * access finds or makes its (word, agent) record in one open-addressing
 * table of 16-byte entries, the store takes the load's place (a write
 * covers its agent's earlier entries), the word's count of each kind and
 * its resident block's change, the access asks the one question a
 * summary keeps asking (does another warp of its block hold the other
 * kind?), and a block's records leave the table as it ends.  No events,
 * no shadow lookup, no reports, no ordering: whatever an oracle of records
 * adds, it cannot follow the histogram in less.  bins: each element's bin
 * (0-255), n a multiple of 8192; the best of reps runs: seconds, or -1
 * where n is not or the table ended up holding a record (its retirement
 * is wrong). */
double floor_hot(const unsigned *bins, int n, int reps);

/* The same bookkeeping with a warp's access as one record (floor_warp):
 * its lanes' words, the lanes whose piece stands, its kind; the pieces a
 * warp's access replaces are found among the warp's own earlier records
 * by comparing words (a vector compare of 32 lanes), not looked up per
 * lane, and a block's end drops its warps' records whole.  The counts and
 * the question are floor_hot's.  Where it is far below floor_hot, an
 * oracle built that way has room that one of per-access records has not.
 * -1 where n is not whole waves, or where a word's pieces at the end are
 * not one store for each warp that touched it. */
double floor_warp(const unsigned *bins, int n, int reps);

#endif
