// ScoR MM as a program (scor/apps/mm/mm.c is its C driver): C = A * B.
#include "../apps/mm/mm.cu"
#include "programs.h"

int main(int argc, char **argv) {
  prog p = prog_args("mm", argc, argv);
  int rA = p.paper ? 800 : 24, cA = p.paper ? 500 : 160, cB = p.paper ? 30 : 40;
  unsigned blocks = p.paper ? 120 : 8, threads = 128;
  int *A = new int[(size_t)rA * cA], *B = new int[(size_t)cA * cB], *C = new int[(size_t)rA * cB]();
  int *ref = new int[(size_t)rA * cB]();
  glibc_rand g;
  glibc_srand(&g, p.input_seed);
  for (int i = 0; i < rA * cA; i++) A[i] = glibc_rand_next(&g) % 100;
  for (int i = 0; i < cA * cB; i++) B[i] = glibc_rand_next(&g) % 100;
  ref_mm(A, B, rA, cA, cB, ref);
  int *dA = dev_alloc((size_t)rA * cA, A), *dB = dev_alloc((size_t)cA * cB, B), *dC = dev_alloc((size_t)rA * cB, C);
  int *sh_locks = dev_alloc<int>(blocks * 32, NULL), *tempC = dev_alloc<int>(blocks * 32, NULL), *gl_lock = dev_alloc<int>(1024, NULL);
  mm<<<blocks, threads>>>(dA, dB, dC, sh_locks, tempC, gl_lock, rA, cA, cB);
  LAUNCHED();
  dev_read(C, dC, (size_t)rA * cB);
  long long sum = 0;
  int bad = 0, first = -1;
  for (int i = 0; i < rA * cB; i++) {
    sum += C[i];
    if (C[i] != ref[i]) { if (first < 0) first = i; bad++; }
  }
  printf("mm %dx%d * %dx%d on %ux%u: ", rA, cA, cA, cB, blocks, threads);
  if (!bad) printf("C matches the CPU reference exactly (sum %lld, C[0][0] = %d, C[%d][%d] = %d)\n", sum, C[0], rA - 1, cB - 1, C[rA * cB - 1]);
  else printf("%d of %d elements differ from the CPU reference; first C[%d][%d] = %d, expected %d\n", bad, rA * cB, first / cB,
              first % cB, C[first], ref[first]);
  return bad ? 1 : 0;
}
