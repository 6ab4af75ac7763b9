/* The GCOL driver (scor-spec.md section 3.5): an R-MAT graph (app_rmat),
 * coloured by the host loop of assign, detect and forbid (each after the
 * host's divide()) until `complete` stays set, then checked for validity:
 * the colouring is not deterministic, so the check is that every vertex has
 * a colour >= 1 and no edge joins two equal colours.  Racy builds can skip
 * items and never converge, so the loop stops after 200 rounds.  Paper
 * size: V = 100,000, E = 150,000 on 15 x 256; small: V = 2,048, E = 3,072
 * on 4 x 64, eight chunks or more per block so that blocks steal. */
#include <stdio.h>
#include <stdlib.h>

#include "app.h"

#define MAX_ROUNDS 200

int main(int argc, char **argv) {
  app a;
  app_begin(&a, "gcol", argc, argv);
  int V = a.paper ? 100000 : 2048, E = a.paper ? 150000 : 3072;
  unsigned blocks = a.paper ? 15 : 4, threads = a.paper ? 256 : 64;
  int *eu = malloc(sizeof(int) * (size_t)E), *ev = malloc(sizeof(int) * (size_t)E);
  int *cset = malloc(sizeof(int) * (size_t)V), *vcol = malloc(sizeof(int) * (size_t)V);
  if (!eu || !ev || !cset || !vcol) { fputs("gcol: out of memory\n", stderr); return 2; }
  if (app_rmat((uint32_t)a.input_seed, V, E, eu, ev)) { fputs("gcol: cannot draw the graph\n", stderr); return 2; }

  app_load(&a, "gcol.cu");
  int head[64], tail[64];
  gr_ptr colorSet = app_alloc(&a, sizeof(int) * (size_t)V, "colorSet", NULL);
  gr_ptr vertexColor = app_alloc(&a, sizeof(int) * (size_t)V, "vertexColor", NULL);
  gr_ptr vf = app_alloc(&a, sizeof(int) * (size_t)V, "VForbidden", NULL);
  gr_ptr tvf = app_alloc(&a, sizeof(int) * (size_t)V, "TVForbidden", NULL);
  gr_ptr deu = app_alloc(&a, sizeof(int) * (size_t)E, "edgeU", eu);
  gr_ptr dev = app_alloc(&a, sizeof(int) * (size_t)E, "edgeV", ev);
  gr_ptr complete = app_alloc(&a, sizeof(int), "complete", NULL);
  gr_ptr dhead = app_alloc(&a, sizeof(int) * blocks, "head", NULL);
  gr_ptr dtail = app_alloc(&a, sizeof(int) * blocks, "tail", NULL);
  gr_ptr bases = app_alloc(&a, sizeof(int) * blocks, "bases", NULL);
  gr_ptr ids = app_alloc(&a, sizeof(int) * blocks, "blockIds", NULL);
  gr_arg args[] = {gr_arg_ptr(colorSet), gr_arg_ptr(vertexColor), gr_arg_ptr(vf), gr_arg_ptr(tvf), gr_arg_ptr(deu), gr_arg_ptr(dev),
                   gr_arg_ptr(complete), gr_arg_ptr(dhead), gr_arg_ptr(dtail), gr_arg_ptr(bases), gr_arg_ptr(ids)};
  int rc = GR_OK, done = 0, rounds = 0;
  static const char *const kernels[] = {"assign", "detect", "forbid"};
  while (!done && rc == GR_OK && rounds < MAX_ROUNDS) {
    rounds++;
    for (int k = 0; k < 3 && rc == GR_OK; k++) {
      if (k == 1) {
        int one = 1;
        if (gr_memcpy_htod(a.ctx, complete, &one, sizeof one)) { fprintf(stderr, "gcol: %s\n", gr_error(a.ctx)); return 2; }
      }
      app_divide(k == 0 ? V : E, (int)blocks, head, tail);
      if (gr_memcpy_htod(a.ctx, dhead, head, sizeof(int) * blocks) || gr_memcpy_htod(a.ctx, dtail, tail, sizeof(int) * blocks)) {
        fprintf(stderr, "gcol: %s\n", gr_error(a.ctx));
        return 2;
      }
      rc = app_launch(&a, kernels[k], blocks, threads, args, 11);
      if (k == 1 && rc == GR_OK) app_read(&a, &done, complete, sizeof done);
    }
  }
  int ok = 0;
  if (rc == GR_OK) {
    app_read(&a, cset, colorSet, sizeof(int) * (size_t)V);
    app_read(&a, vcol, vertexColor, sizeof(int) * (size_t)V);
    int uncoloured, clashes, first, maxc;
    ref_gcol_check(cset, vcol, V, eu, ev, E, &uncoloured, &first, &clashes, &maxc);
    ok = done && !uncoloured && !clashes;
    if (!a.quiet || !ok) {
      FILE *o = a.json ? stderr : stdout;
      fprintf(o, "gcol V=%d E=%d on %ux%u: ", V, E, blocks, threads);
      if (ok) fprintf(o, "a valid colouring in %d rounds: every vertex coloured, no edge between equal colours (%d colours)\n", rounds, maxc);
      else if (!done) fprintf(o, "not converged after %d rounds (%d uncoloured, %d edges between equal colours)\n", rounds, uncoloured, clashes);
      else fprintf(o, "not a valid colouring: %d vertices uncoloured (first %d), %d edges between equal colours\n", uncoloured, first, clashes);
    }
  }
  free(eu); free(ev); free(cset); free(vcol);
  return app_end(&a, rc, ok);
}
