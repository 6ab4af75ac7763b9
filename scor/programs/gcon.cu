// ScoR GCON as a program (scor/apps/gcon/gcon.c is its C driver): connected components.
#include "../apps/gcon/gcon.cu"
#include "programs.h"

int main(int argc, char **argv) {
  prog p = prog_args("gcon", argc, argv);
  int V = p.paper ? 100000 : 2048, E = p.paper ? 150000 : 3072;
  unsigned blocks = p.paper ? 15 : 4, threads = p.paper ? 400 : 64;
  int *eu = new int[E], *ev = new int[E], *ref = new int[V], *label = new int[V];
  if (app_rmat(p.input_seed, V, E, eu, ev)) { fputs("gcon: cannot draw the graph\n", stderr); return 2; }
  int comps = ref_gcon(eu, ev, V, E, ref);
  int head[64], tail[64];
  int *parent = dev_alloc<int>(V, NULL), *edgeU = dev_alloc((size_t)E, eu), *edgeV = dev_alloc((size_t)E, ev);
  int *dhead = dev_alloc<int>(blocks, NULL), *dtail = dev_alloc<int>(blocks, NULL), *bases = dev_alloc<int>(blocks, NULL);
  int *blockIds = dev_alloc<int>(blocks, NULL);
  for (int k = 0; k < 3; k++) {
    app_divide(k == 1 ? E : V, (int)blocks, head, tail);
    CK(cudaMemcpy(dhead, head, sizeof(int) * blocks, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dtail, tail, sizeof(int) * blocks, cudaMemcpyHostToDevice));
    if (k == 0) init<<<blocks, threads>>>(parent, dhead, dtail, bases, blockIds);
    if (k == 1) link<<<blocks, threads>>>(parent, edgeU, edgeV, dhead, dtail, bases, blockIds);
    if (k == 2) compress<<<blocks, threads>>>(parent, dhead, dtail, bases, blockIds);
    LAUNCHED();
  }
  dev_read(label, parent, (size_t)V);
  int bad = 0, first = -1, got = 0;
  for (int x = 0; x < V; x++) {
    got += label[x] == x;
    if (label[x] != ref[x]) { if (first < 0) first = x; bad++; }
  }
  printf("gcon V=%d E=%d on %ux%u: ", V, E, blocks, threads);
  if (!bad) printf("every label is the smallest id of its component (%d components)\n", comps);
  else printf("%d labels differ from the CPU union-find (%d components, expected %d); first label[%d] = %d, expected %d\n", bad, got,
              comps, first, label[first], ref[first]);
  return bad ? 1 : 0;
}
