// KNAP (Section VI-D 7): 0-1 knapsack by dynamic programming, 64 items,
// weight 40 (scripts/loops-apps.py, seed 2018), with the outer loop
// over items parallelised by mistake: item i reads best[c - wt[i]], which
// earlier items write.  The dependency is real; the schemes should find it
// early and hand the loop back to the CPU.
//@ meta seq knap
//@ loop best
#define LOOP_T int
#define LOOP_ELEMS 41
#define LOOP_ITERS 64
#define PARAGON_SET 82
#define TWOPASS_READ_VALUES   // the condition reads best[]: the inspector's slice keeps those loads
#include "loop.cuh"
//@ launch knap grid(1) block(64) if TWOPASS TWOPASS_FP
//@ launch knap grid(1) block(64) if TWOPASS TWOPASS_FP
//@ launch knap grid(1) block(64)
//@ launch paragon_check grid(1) block(64) if PARAGON
//@ buffer wt i32[64] = {8, 5, 6, 5, 4, 3, 6, 10, 3, 5, 8, 4, 1, 6, 7, 4, 3, 7, 8, 3, 1, 4, 5, 2, 10, 4, 5, 1, 10, 6, 8, 10, 1, 3, 2, 10, 1, 10, 5, 3, 2, 2, 7, 3, 3, 6, 9, 6, 2, 1, 2, 7, 1, 7, 9, 9, 3, 9, 10, 3, 1, 2, 6, 4}
//@ buffer val i32[64] = {47, 94, 29, 17, 90, 4, 36, 84, 48, 3, 38, 100, 57, 35, 38, 57, 19, 8, 90, 50, 1, 56, 83, 16, 24, 26, 10, 15, 8, 23, 100, 48, 52, 72, 90, 83, 37, 33, 44, 4, 59, 67, 61, 64, 53, 53, 89, 51, 88, 66, 81, 99, 69, 74, 85, 65, 51, 98, 51, 56, 43, 82, 44, 17}
//@ buffer best i32[41]
//@ arg items = 64
//@ arg cap = 40
//@ expect dependency
__global__ void knap(const int *wt, const int *val, int *best, int items, int cap) {
  LOOP_BEGIN();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= items) return;
  for (int c = cap; c >= wt[i]; c--) {
    int without, with;
    LOOP_READ(without, best, c);
    LOOP_READ(with, best, c - wt[i]);
    if (with + val[i] > without) LOOP_WRITE(best, c, with + val[i]);
  }
}
