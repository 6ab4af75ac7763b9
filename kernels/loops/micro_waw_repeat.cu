// Iterations 2k and 2k+1 both write a[k], M = 2 times: iteration 2k's second write comes after iteration 2k+1's first, against the sequential order: an intra-warp WAW violation.
//@ meta seq listing3_w
//@ loop a
#include "loop.cuh"
//@ launch micro_waw_repeat grid(2) block(32) if TWOPASS TWOPASS_FP
//@ launch micro_waw_repeat grid(2) block(32) if TWOPASS TWOPASS_FP
//@ launch micro_waw_repeat grid(2) block(32)
//@ launch paragon_check grid(2) block(32) if PARAGON
//@ buffer a f64[64] = iota
//@ buffer r i32[64] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63}
//@ buffer w i32[64] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24, 25, 25, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31}
//@ buffer out f64[64]
//@ arg n = 64
//@ arg m = 2
//@ expect dependency
__global__ void micro_waw_repeat(double *a, const int *r, const int *w, double *out, int n, int m) {
  LOOP_BEGIN();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int j = 0; j < m; j++) {
    LOOP_WRITE(a, w[i], 0.5 * i + j);   // writes only
  }
}
