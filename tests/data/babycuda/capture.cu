// The reads of array x and the loop variable were both named x1, x2, ...:
// the loop variable captured the read, the index no longer mentioned
// memory, and the checker proved DRF.  Threads 0 and 1 write A[4..7].
//@ launch k grid(1) block(2)
//@ buffer x i32[2] = {4, 0}
//@ buffer A i32[16]
__global__ void k(const int *x, int *A) {
  int v = x[threadIdx.x];
  for (int i = 0; i < 4; i++) A[threadIdx.x * 4 + v + i] = 1;
}
