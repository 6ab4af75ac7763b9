// Loops that shrink and loops whose test is !=: a for of the calculus,
// the counter j = lo - x in the same order (the phases follow it).  Each
// iteration reads the half of A the iteration before wrote, at the next
// thread's slot: race-free with the barrier, racy without (-D NOSYNC).
// -D NE counts up with j != n, whose obligation is START <= n (from above,
// j would pass its type's end first): -D NE -D START=9 has no proof.
//@ launch k grid(1) block(32)
//@ buffer A i32[64]
//@ arg n = 4
//@ assume n >= 1 && n <= 8
#ifndef START
#define START 1
#endif
__global__ void k(int *A, int n) {
#ifdef UNSIGNED
  for (unsigned j = n; j > 0u; j--) {
#elif defined(NE)
  for (int j = START; j != n; j++) {
#else
  for (int j = n; j >= 1; j--) {
#endif
    A[threadIdx.x + 32 * (j & 1)] = A[(threadIdx.x + 1) % 32 + 32 * ((j + 1) & 1)] + 1;
#ifndef NOSYNC
    __syncthreads();
#endif
  }
}
