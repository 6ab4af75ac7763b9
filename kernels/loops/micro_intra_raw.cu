// Each iteration reads a[i-1] before writing a[i] (read, then write): in lockstep iteration i reads before iteration i-1 writes, against the sequential order: an intra-warp RAW violation (Figure 1, case 2).
//@ meta seq listing3_rw
//@ loop a
#include "loop.cuh"
//@ launch micro_intra_raw grid(2) block(32) if TWOPASS TWOPASS_FP
//@ launch micro_intra_raw grid(2) block(32) if TWOPASS TWOPASS_FP
//@ launch micro_intra_raw grid(2) block(32)
//@ launch paragon_check grid(2) block(32) if PARAGON
//@ buffer a f64[64] = iota
//@ buffer r i32[64] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 32, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62}
//@ buffer w i32[64] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63}
//@ buffer out f64[64]
//@ arg n = 64
//@ arg m = 1
//@ expect dependency
__global__ void micro_intra_raw(double *a, const int *r, const int *w, double *out, int n, int m) {
  LOOP_BEGIN();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int j = 0; j < m; j++) {
    double temp;
    LOOP_READ(temp, a, r[i]);
    LOOP_WRITE(a, w[i], temp * 0.5 + j);
  }
}
