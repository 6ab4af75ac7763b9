// Data-dependent indexing: out[perm[i]] = in[i] with perm a permutation,
// so no two threads write one element: DRF.  The index is read from
// memory, so the program is not well-typed, and its MAP (where perm[i] is
// any number) is racy: the checker's alarm is a possible false alarm, and
// here a false one (the kind of the paper's equation 2).
//@ launch scatter_perm grid(1) block(16)
//@ buffer perm i32[16] = {3, 7, 11, 15, 2, 6, 10, 14, 1, 5, 9, 13, 0, 4, 8, 12}
//@ buffer in i32[16] = iota
//@ buffer out i32[16]
//@ expect norace
//@ meta babycuda possible
__global__ void scatter_perm(const int *perm, const int *in, int *out) {
  int i = threadIdx.x;
  out[perm[i]] = in[i];
}
