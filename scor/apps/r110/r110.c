/* The R110 driver (scor-spec.md section 3.3): `size` cells drawn with
 * glibc's rand() % 2, `steps` generations of rule 110 with zero boundaries,
 * one launch each, checked against the sequential rule.  Paper size: 250,000
 * cells, 1 step, 15 x 1024 threads; small: 3,000 cells, 6 steps, 4 x 256.
 * Every thread waits on its neighbours, so the driver asks for enough SMs to
 * keep all of them resident. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

int main(int argc, char **argv) {
  app a;
  app_begin(&a, "r110", argc, argv);
  int size = a.paper ? 250000 : 3000, steps = a.paper ? 1 : 6;
  unsigned blocks = a.paper ? 15 : 4, threads = a.paper ? 1024 : 256;
  int *cells = malloc(sizeof(int) * (size_t)size), *ref = malloc(sizeof(int) * (size_t)size);
  if (!cells || !ref) { fputs("r110: out of memory\n", stderr); return 2; }
  glibc_rand g;
  glibc_srand(&g, (uint32_t)a.input_seed);
  for (int i = 0; i < size; i++) ref[i] = cells[i] = glibc_rand_next(&g) % 2;
  ref_r110(ref, size, steps);
  app_coresident(&a, blocks, threads);
  app_load(&a, "r110.cu");
  gr_ptr arr = app_alloc(&a, sizeof(int) * (size_t)size, "arr", cells);
  gr_ptr copy = app_alloc(&a, sizeof(int) * (size_t)size, "copy", NULL);
  gr_ptr comp = app_alloc(&a, sizeof(int) * blocks * threads, "comp", NULL);   /* zeroed once */
  int rc = GR_OK;
  for (int s = 1; s <= steps && rc == GR_OK; s++) {
    gr_arg args[] = {gr_arg_ptr(arr), gr_arg_ptr(copy), gr_arg_ptr(comp), gr_arg_i32(size), gr_arg_i32(s)};
    rc = app_launch(&a, "rule110", blocks, threads, args, 5);
  }
  int ok = 0;
  if (rc == GR_OK) {
    app_read(&a, cells, arr, sizeof(int) * (size_t)size);
    int bad = 0, first = -1;
    long ones = 0;
    for (int i = 0; i < size; i++) {
      ones += cells[i] == 1;
      if (cells[i] != ref[i]) { if (first < 0) first = i; bad++; }
    }
    ok = bad == 0;
    if (!a.quiet || !ok) {
      FILE *out = a.json ? stderr : stdout;
      fprintf(out, "r110 %d cells, %d step%s on %ux%u: ", size, steps, steps == 1 ? "" : "s", blocks, threads);
      if (ok) fprintf(out, "every cell matches the sequential rule (%ld ones)\n", ones);
      else fprintf(out, "%d cells differ from the sequential rule; first cell %d = %d, expected %d\n", bad, first, cells[first], ref[first]);
    }
  }
  free(cells); free(ref);
  return app_end(&a, rc, ok);
}
