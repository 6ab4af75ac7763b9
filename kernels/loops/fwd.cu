// FWD (Section VI-D 4): the rows of one level (16 of 64) of a level-scheduled forward
// elimination on a lower-triangular CSR matrix (scripts/loops-apps.py, seed 2018), updating x in place: a row reads x at
// earlier levels and writes its own, so no dependency, which the CSR indirection hides.
//@ meta seq fwd
//@ loop x
#define LOOP_T int
#define LOOP_ELEMS 64
#define LOOP_ITERS 16
#define PARAGON_SET 1
#include "loop.cuh"
//@ launch fwd grid(1) block(16) if TWOPASS TWOPASS_FP
//@ launch fwd grid(1) block(16) if TWOPASS TWOPASS_FP
//@ launch fwd grid(1) block(16)
//@ launch paragon_check grid(1) block(16) if PARAGON
//@ buffer rows i32[65] = {0, 1, 2, 4, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 18, 19, 21, 23, 24, 26, 30, 33, 35, 37, 39, 40, 44, 46, 48, 51, 54, 56, 58, 62, 65, 70, 73, 75, 76, 79, 81, 85, 87, 91, 94, 97, 101, 102, 105, 106, 108, 114, 123, 125, 128, 132, 134, 136, 140, 142, 147, 150, 156, 160, 164}
//@ buffer cols i32[164] = {0, 1, 1, 2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 7, 11, 12, 4, 13, 14, 10, 15, 2, 16, 17, 15, 18, 7, 8, 15, 19, 8, 17, 20, 19, 21, 20, 22, 4, 23, 24, 0, 5, 11, 25, 8, 26, 22, 27, 6, 7, 28, 9, 22, 29, 2, 30, 20, 31, 15, 16, 20, 32, 8, 27, 33, 17, 20, 25, 26, 34, 6, 10, 35, 34, 36, 37, 4, 36, 38, 0, 39, 1, 8, 22, 40, 38, 41, 11, 15, 36, 42, 18, 23, 43, 7, 22, 44, 15, 25, 44, 45, 46, 20, 26, 47, 48, 23, 49, 1, 13, 20, 31, 32, 50, 2, 5, 7, 8, 20, 22, 23, 36, 51, 31, 52, 1, 11, 53, 9, 11, 16, 54, 43, 55, 46, 56, 15, 19, 37, 57, 6, 58, 2, 7, 27, 33, 59, 20, 57, 60, 4, 13, 57, 59, 60, 61, 24, 39, 53, 62, 38, 45, 56, 63}
//@ buffer vals i32[164] = {8, 4, 5, 1, 9, 7, 7, 9, 9, 2, 8, 5, 2, 6, 4, 3, 2, 4, 1, 9, 8, 5, 2, 4, 5, 9, 6, 9, 1, 4, 2, 5, 8, 2, 6, 8, 1, 7, 1, 2, 8, 6, 2, 6, 8, 8, 1, 5, 2, 8, 4, 7, 4, 9, 9, 1, 8, 9, 7, 1, 7, 8, 3, 4, 5, 5, 9, 9, 9, 3, 4, 1, 3, 5, 8, 9, 1, 3, 3, 1, 3, 9, 6, 9, 6, 8, 2, 5, 8, 1, 8, 4, 4, 3, 9, 6, 7, 5, 2, 1, 9, 7, 2, 5, 3, 3, 1, 7, 3, 5, 7, 8, 6, 1, 2, 8, 5, 2, 7, 4, 5, 4, 9, 4, 5, 9, 9, 6, 2, 2, 6, 6, 8, 7, 6, 8, 6, 9, 3, 8, 9, 4, 6, 2, 2, 5, 6, 7, 8, 7, 7, 9, 9, 8, 8, 9, 8, 8, 2, 1, 5, 3, 5, 8}
//@ buffer members i32[16] = {0, 1, 4, 5, 6, 7, 8, 9, 10, 12, 14, 17, 24, 37, 46, 48}
//@ buffer x i32[64] = {0, 5, 0, 3, 5, 3, 4, 8, 2, 8, 7, 5, 6, 5, 7, 5, 3, 3, 5, 8, 2, 5, 5, 0, 6, 8, 9, 5, 4, 7, 1, 9, 4, 4, 9, 2, 6, 6, 3, 9, 8, 8, 2, 3, 2, 7, 2, 6, 6, 0, 1, 7, 1, 1, 5, 1, 4, 6, 6, 3, 9, 2, 6, 8}
//@ arg nm = 16
//@ expect nodependency
//@ check x = {0, 1, 0, 3, 0, 0, 0, 4, 0, 1, 3, 5, 2, 5, 7, 5, 3, 0, 5, 8, 2, 5, 5, 0, 3, 8, 9, 5, 4, 7, 1, 9, 4, 4, 9, 2, 6, 0, 3, 9, 8, 8, 2, 3, 2, 7, 0, 6, 2, 0, 1, 7, 1, 1, 5, 1, 4, 6, 6, 3, 9, 2, 6, 8}
__global__ void fwd(const int *rows, const int *cols, const int *vals, const int *members, int *x, int nm) {
  LOOP_BEGIN();
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nm) return;
  int i = members[t], s, v;
  LOOP_READ(s, x, i);
  for (int k = rows[i]; k < rows[i + 1] - 1; k++) { LOOP_READ(v, x, cols[k]); s -= vals[k] * v; }
  LOOP_WRITE(x, i, s / vals[rows[i + 1] - 1]);
}
