// Figure 3 of the paper (left), in CUDA: every thread reads and writes
// A[x] for x in 0..M.  Racy, and well-typed: a true alarm.
//@ launch fig3 grid(1) block(4)
//@ buffer A i32[8]
//@ arg M = 4
//@ assume M >= 1 && M <= 8
//@ expect race
//@ meta babycuda racy
__global__ void fig3(int *A, int M) {
  for (int x = 0; x < M; x++) {
    int y = A[x];
    A[x] = y + 1;
  }
}
