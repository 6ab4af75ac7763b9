// Struct kernel parameters passed by value: every thread gets its own copy
// of the bytes the launch passed; pointer fields name buffers.
//@ launch csr grid(1) block(4)
//@ buffer rowptr i32[5] = {0, 2, 3, 5, 6}
//@ buffer cols i32[6] = {1, 2, 0, 0, 3, 2}
//@ buffer deg i32[4]
//@ buffer sums f32[4]
//@ arg g = {4, rowptr, cols, 0.5, 1, 2, 3}
//@ expect norace
//@ check deg = {2, 1, 2, 1}
//@ check sums = {2.5, 0.5, 2.5, 1.5}

struct Graph {
  int n;
  const int *rowptr, *cols;
  float scale;
  short pad[3];
};

__global__ void csr(Graph g, int *deg, float *sums) {
  int v = threadIdx.x;
  if (v >= g.n) return;
  g.n = 0;                       /* the thread's own copy */
  int d = g.rowptr[v + 1] - g.rowptr[v];
  deg[v] = d;
  float s = 0;
  for (int e = g.rowptr[v]; e < g.rowptr[v + 1]; e++) s += g.cols[e] * g.scale + g.pad[e % 3] - g.pad[e % 3];
  sums[v] = s + d * 0.5f + (float)g.n;
}
