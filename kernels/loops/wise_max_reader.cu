// A dependency WISE's read shadow can lose (found by comparing wise with the
// oracle on generated microbenchmarks, scripts/loops-gen.py).  Iteration 5
// (warp 0) reads a[40]; iteration 40 (warp 1) reads a[40], then writes it.
// Iterations 5 < 40 in two warps on one address with a write: a dependency
// whose order no warp schedule fixes (loopdep reports it on every run).
// WISE's read shadow keeps the largest reader only (Algorithm 2, line 12):
// when both reads come before the write, it holds 40, iteration 40's own
// read, and the write's check (Algorithm 1, lines 14-21) finds nothing; when
// warp 1 writes before warp 0 reads, the read's check finds the write.  So
// wise misses the dependency on some schedules (round-robin among them),
// and the instrumented WISE (-DWISE) misses it on the same ones.
//@ meta seq listing3_rw
//@ loop a
#include "loop.cuh"
//@ launch wise_max_reader grid(2) block(32) if TWOPASS TWOPASS_FP
//@ launch wise_max_reader grid(2) block(32) if TWOPASS TWOPASS_FP
//@ launch wise_max_reader grid(2) block(32)
//@ launch paragon_check grid(2) block(32) if PARAGON
//@ buffer a f64[64] = iota
//@ buffer r i32[64] = {0, 1, 2, 3, 4, 40, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63}
//@ buffer w i32[64] = {0, 1, ..., 63}
//@ buffer out f64[64]
//@ arg n = 64
//@ arg m = 1
//@ expect dependency
__global__ void wise_max_reader(double *a, const int *r, const int *w, double *out, int n, int m) {
  LOOP_BEGIN();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int j = 0; j < m; j++) {
    double temp;
    LOOP_READ(temp, a, r[i]);
    LOOP_WRITE(a, w[i], temp * 0.5 + j);
  }
}
