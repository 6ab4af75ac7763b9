// Listing 2 of the paper: the index array is computed by the loop itself
// (here a permutation, i * 37 mod N, through a deliberately long chain), so
// the two-pass inspector's slice must keep that computation (`gpurace ir
// --slice array` keeps the stores to ind that the index loads read back):
// the case the paper gives for WISE over two-pass.  No dependency.
//@ meta seq heavy_index
//@ loop array
#include "loop.cuh"
//@ launch heavy_index grid(2) block(32) if TWOPASS TWOPASS_FP
//@ launch heavy_index grid(2) block(32) if TWOPASS TWOPASS_FP
//@ launch heavy_index grid(2) block(32)
//@ launch paragon_check grid(2) block(32) if PARAGON
//@ buffer array f64[64]
//@ buffer ind i32[64]
//@ arg n = 64
//@ expect nodependency
__device__ int heavy(int i, int n) {
  int h = i;
  for (int k = 0; k < 8; k++) h = (h * 5 + k) % n;   // work the slice cannot drop ...
  return (h - h + i) * 37 % n;                        // ... and a permutation in the end
}

__global__ void heavy_index(double *array, int *ind, int n) {
  LOOP_BEGIN();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ind[i] = heavy(i, n);
  LOOP_WRITE(array, ind[i], 1.0 * i);
}
