/* The GCON driver (scor-spec.md section 3.6): an R-MAT graph (app_rmat),
 * connected components by the kernels init, link and compress, each
 * preceded by the host's divide(), checked exactly: every label must be
 * the smallest vertex id of its component, computed on the CPU by a
 * sequential union-find.  Paper size: V = 100,000, E = 150,000 (the ScoR
 * input's shape) on 15 x 400; small: V = 2,048, E = 3,072 on 4 x 64, eight
 * chunks or more per block so that blocks steal. */
#include <stdio.h>
#include <stdlib.h>

#include "app.h"


int main(int argc, char **argv) {
  app a;
  app_begin(&a, "gcon", argc, argv);
  int V = a.paper ? 100000 : 2048, E = a.paper ? 150000 : 3072;
  unsigned blocks = a.paper ? 15 : 4, threads = a.paper ? 400 : 64;
  int *eu = malloc(sizeof(int) * (size_t)E), *ev = malloc(sizeof(int) * (size_t)E);
  int *ref = malloc(sizeof(int) * (size_t)V), *label = malloc(sizeof(int) * (size_t)V);
  if (!eu || !ev || !ref || !label) { fputs("gcon: out of memory\n", stderr); return 2; }
  if (app_rmat((uint32_t)a.input_seed, V, E, eu, ev)) { fputs("gcon: cannot draw the graph\n", stderr); return 2; }
  int comps = ref_gcon(eu, ev, V, E, ref);

  app_load(&a, "gcon.cu");
  int head[64], tail[64];
  gr_ptr parent = app_alloc(&a, sizeof(int) * (size_t)V, "parent", NULL);
  gr_ptr deu = app_alloc(&a, sizeof(int) * (size_t)E, "edgeU", eu);
  gr_ptr dev = app_alloc(&a, sizeof(int) * (size_t)E, "edgeV", ev);
  gr_ptr dhead = app_alloc(&a, sizeof(int) * blocks, "head", NULL);
  gr_ptr dtail = app_alloc(&a, sizeof(int) * blocks, "tail", NULL);
  gr_ptr bases = app_alloc(&a, sizeof(int) * blocks, "bases", NULL);
  gr_ptr ids = app_alloc(&a, sizeof(int) * blocks, "blockIds", NULL);
  static const char *const kernels[] = {"init", "link", "compress"};
  int rc = GR_OK;
  for (int k = 0; k < 3 && rc == GR_OK; k++) {
    app_divide(k == 1 ? E : V, (int)blocks, head, tail);
    if (gr_memcpy_htod(a.ctx, dhead, head, sizeof(int) * blocks) || gr_memcpy_htod(a.ctx, dtail, tail, sizeof(int) * blocks)) {
      fprintf(stderr, "gcon: %s\n", gr_error(a.ctx));
      return 2;
    }
    gr_arg full[] = {gr_arg_ptr(parent), gr_arg_ptr(deu), gr_arg_ptr(dev), gr_arg_ptr(dhead), gr_arg_ptr(dtail), gr_arg_ptr(bases), gr_arg_ptr(ids)};
    gr_arg vert[] = {gr_arg_ptr(parent), gr_arg_ptr(dhead), gr_arg_ptr(dtail), gr_arg_ptr(bases), gr_arg_ptr(ids)};
    rc = k == 1 ? app_launch(&a, kernels[k], blocks, threads, full, 7) : app_launch(&a, kernels[k], blocks, threads, vert, 5);
  }
  int ok = 0;
  if (rc == GR_OK) {
    app_read(&a, label, parent, sizeof(int) * (size_t)V);
    int bad = 0, first = -1, got = 0;
    for (int x = 0; x < V; x++) {
      got += label[x] == x;
      if (label[x] != ref[x]) { if (first < 0) first = x; bad++; }
    }
    ok = bad == 0;
    if (!a.quiet || !ok) {
      FILE *o = a.json ? stderr : stdout;
      fprintf(o, "gcon V=%d E=%d on %ux%u: ", V, E, blocks, threads);
      if (ok) fprintf(o, "every label is the smallest id of its component (%d components)\n", comps);
      else fprintf(o, "%d labels differ from the CPU union-find (%d components, expected %d); first label[%d] = %d, expected %d\n", bad, got,
                   comps, first, label[first], ref[first]);
    }
  }
  free(eu); free(ev); free(ref); free(label);
  return app_end(&a, rc, ok);
}
