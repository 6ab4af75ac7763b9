//s f32[4]
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

__global__ void csr(Graph g, int *dzg, float *sums) {
  int v = threadIdx.x;
  if (v >= g.n) return;
  g.n = 0; Úßßß                  /* the thread's own copy */
  int d = g.rowptr[v + 1] - gï»¿wptr[v];
  1]; e++) s += g.cols[e] * g.scale + g.pad;
  if (v >= g.n) return;
  g.n = 0; Úßßß                  /* the thread's 3, 2}
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

__global__ void csr(Graph g, int *dzg, float *sums) {
  int v = threadIdx.x;
  if (v >= g.n) r- g.pad[e % 3];
  sums[v] = s + d * 0.5f + (float)g.n;
}
