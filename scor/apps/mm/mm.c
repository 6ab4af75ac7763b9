/* The MM driver (scor-spec.md section 3.1): A (rA x cA) and B (cA x cB) drawn
 * with glibc's rand() % 100 as the ScoR host reads them, C = A * B on the
 * emulator, checked element by element against the CPU.  The paper's input
 * is 800 500 30 on 120 blocks of 128 threads; the small size keeps every
 * race site reachable (cA > blockDim, several warps, several blocks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

int main(int argc, char **argv) {
  app a;
  app_begin(&a, "mm", argc, argv);
  int rA = a.paper ? 800 : 24, cA = a.paper ? 500 : 160, cB = a.paper ? 30 : 40;
  unsigned blocks = a.paper ? 120 : 8, threads = 128;
  int *A = malloc(sizeof(int) * (size_t)rA * cA), *B = malloc(sizeof(int) * (size_t)cA * cB);
  int *C = calloc((size_t)rA * cB, sizeof(int)), *ref = calloc((size_t)rA * cB, sizeof(int));
  if (!A || !B || !C || !ref) { fputs("mm: out of memory\n", stderr); return 2; }
  glibc_rand g;
  glibc_srand(&g, (uint32_t)a.input_seed);
  for (int i = 0; i < rA * cA; i++) A[i] = glibc_rand_next(&g) % 100;
  for (int i = 0; i < cA * cB; i++) B[i] = glibc_rand_next(&g) % 100;
  ref_mm(A, B, rA, cA, cB, ref);

  app_load(&a, "mm.cu");
  gr_ptr dA = app_alloc(&a, sizeof(int) * (size_t)rA * cA, "A", A);
  gr_ptr dB = app_alloc(&a, sizeof(int) * (size_t)cA * cB, "B", B);
  gr_ptr dC = app_alloc(&a, sizeof(int) * (size_t)rA * cB, "C", C);
  gr_ptr sh = app_alloc(&a, sizeof(int) * blocks * 32, "sh_locks", NULL);   /* zero-filled */
  gr_ptr tc = app_alloc(&a, sizeof(int) * blocks * 32, "tempC", NULL);
  gr_ptr gl = app_alloc(&a, sizeof(int) * 1024, "gl_lock", NULL);
  gr_arg args[] = {gr_arg_ptr(dA), gr_arg_ptr(dB), gr_arg_ptr(dC), gr_arg_ptr(sh), gr_arg_ptr(tc), gr_arg_ptr(gl),
                   gr_arg_i32(rA), gr_arg_i32(cA), gr_arg_i32(cB)};
  int rc = app_launch(&a, "mm", blocks, threads, args, 9);
  int ok = 0;
  if (rc == GR_OK) {
    app_read(&a, C, dC, sizeof(int) * (size_t)rA * cB);
    int64_t sum = 0;
    int bad = 0, first = -1;
    for (int i = 0; i < rA * cB; i++) {
      sum += C[i];
      if (C[i] != ref[i]) { if (first < 0) first = i; bad++; }
    }
    ok = bad == 0;
    if (!a.quiet || !ok) {
      FILE *out = a.json ? stderr : stdout;
      fprintf(out, "mm %dx%d * %dx%d on %ux%u: ", rA, cA, cA, cB, blocks, threads);
      if (ok) fprintf(out, "C matches the CPU reference exactly (sum %lld, C[0][0] = %d, C[%d][%d] = %d)\n", (long long)sum, C[0],
                      rA - 1, cB - 1, C[rA * cB - 1]);
      else fprintf(out, "%d of %d elements differ from the CPU reference; first C[%d][%d] = %d, expected %d\n", bad, rA * cB,
                   first / cB, first % cB, C[first], ref[first]);
    }
  }
  free(A); free(B); free(C); free(ref);
  return app_end(&a, rc, ok);
}
