// ScoR GCOL as a program (scor/apps/gcol/gcol.c is its C driver): graph colouring,
// three kernels a round until no two neighbours share a colour.
#include "../apps/gcol/gcol.cu"
#include "programs.h"

int main(int argc, char **argv) {
  prog p = prog_args("gcol", argc, argv);
  const int max_rounds = 200;
  int V = p.paper ? 100000 : 2048, E = p.paper ? 150000 : 3072;
  unsigned blocks = p.paper ? 15 : 4, threads = p.paper ? 256 : 64;
  int *eu = new int[E], *ev = new int[E], *cset = new int[V], *vcol = new int[V];
  if (app_rmat(p.input_seed, V, E, eu, ev)) { fputs("gcol: cannot draw the graph\n", stderr); return 2; }
  int head[64], tail[64];
  int *colorSet = dev_alloc<int>(V, NULL), *vertexColor = dev_alloc<int>(V, NULL), *VForbidden = dev_alloc<int>(V, NULL);
  int *TVForbidden = dev_alloc<int>(V, NULL), *edgeU = dev_alloc((size_t)E, eu), *edgeV = dev_alloc((size_t)E, ev);
  int *complete = dev_alloc<int>(1, NULL), *dhead = dev_alloc<int>(blocks, NULL), *dtail = dev_alloc<int>(blocks, NULL);
  int *bases = dev_alloc<int>(blocks, NULL), *blockIds = dev_alloc<int>(blocks, NULL);
  int done = 0, rounds = 0;
  while (!done && rounds < max_rounds) {
    rounds++;
    for (int k = 0; k < 3; k++) {
      if (k == 1) {
        int one = 1;
        CK(cudaMemcpy(complete, &one, sizeof one, cudaMemcpyHostToDevice));
      }
      app_divide(k == 0 ? V : E, (int)blocks, head, tail);
      CK(cudaMemcpy(dhead, head, sizeof(int) * blocks, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(dtail, tail, sizeof(int) * blocks, cudaMemcpyHostToDevice));
      if (k == 0) assign<<<blocks, threads>>>(colorSet, vertexColor, VForbidden, TVForbidden, edgeU, edgeV, complete, dhead, dtail, bases, blockIds);
      if (k == 1) detect<<<blocks, threads>>>(colorSet, vertexColor, VForbidden, TVForbidden, edgeU, edgeV, complete, dhead, dtail, bases, blockIds);
      if (k == 2) forbid<<<blocks, threads>>>(colorSet, vertexColor, VForbidden, TVForbidden, edgeU, edgeV, complete, dhead, dtail, bases, blockIds);
      LAUNCHED();
      if (k == 1) dev_read(&done, complete, 1);
    }
  }
  dev_read(cset, colorSet, (size_t)V);
  dev_read(vcol, vertexColor, (size_t)V);
  int uncoloured, clashes, first, maxc;
  ref_gcol_check(cset, vcol, V, eu, ev, E, &uncoloured, &first, &clashes, &maxc);
  int ok = done && !uncoloured && !clashes;
  printf("gcol V=%d E=%d on %ux%u: ", V, E, blocks, threads);
  if (ok) printf("a valid colouring in %d rounds: every vertex coloured, no edge between equal colours (%d colours)\n", rounds, maxc);
  else if (!done) printf("not converged after %d rounds (%d uncoloured, %d edges between equal colours)\n", rounds, uncoloured, clashes);
  else printf("not a valid colouring: %d vertices uncoloured (first %d), %d edges between equal colours\n", uncoloured, first, clashes);
  return ok ? 0 : 1;
}
