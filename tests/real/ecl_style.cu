// The shape of an ECL graph code: a graph struct by typedef, C++ host code
// with the standard library, file-scope constants used in launch bounds and
// kernels, static device functions, module globals, several kernels.
#include <cstdlib>
#include <cstdio>
#include <set>
#include <algorithm>
#include <sys/time.h>
#include <cuda.h>

//@ launch init grid(1) block(256)
//@ launch compute grid(1) block(256)
//@ buffer nidx i32[9] = {0, 2, 4, 6, 8, 10, 12, 14, 16}
//@ buffer nlist i32[16] = {1, 7, 0, 2, 1, 3, 2, 4, 3, 5, 4, 6, 5, 7, 6, 0}
//@ buffer nstat i32[8]
//@ arg nodes = 8
//@ expect norace
//@ check nstat = 0

struct ECLgraph {
  int nodes, edges;
  int *nindex, *nlist, *eweight;
};

static const int ThreadsPerBlock = 256;
static const int WS = 32;  // warp size

__device__ int topL, posL;

static __device__ inline int representative(const int idx, int *const __restrict__ nstat) {
  int curr = nstat[idx];
  if (curr != idx) {
    int next, prev = idx;
    while (curr > (next = nstat[curr])) {
      nstat[prev] = next;
      prev = curr;
      curr = next;
    }
  }
  return curr;
}

static __global__ __launch_bounds__(ThreadsPerBlock, 2048 / ThreadsPerBlock)
void init(const int nodes, const int *const __restrict__ nidx, const int *const __restrict__ nlist, int *const __restrict__ nstat) {
  const int from = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int v = from; v < nodes; v += incr) {
    const int beg = nidx[v];
    const int end = nidx[v + 1];
    int m = v;
    int i = beg;
    while ((m == v) && (i < end)) {
      m = min(m, nlist[i]);
      i++;
    }
    nstat[v] = m;
  }
  if (from == 0) { topL = 0; posL = 0; }
}

static __global__ __launch_bounds__(ThreadsPerBlock, 2048 / ThreadsPerBlock)
void compute(const int nodes, const int *const __restrict__ nidx, const int *const __restrict__ nlist, int *const __restrict__ nstat) {
  /* one thread links everything: deterministic, race-free */
  if (threadIdx.x + blockIdx.x * blockDim.x != 0) return;
  for (int v = 0; v < nodes; v++) {
    int vstat = representative(v, nstat);
    for (int i = nidx[v]; i < nidx[v + 1]; i++) {
      int ostat = representative(nlist[i], nstat);
      if (vstat < ostat) nstat[ostat] = vstat;
      else if (ostat < vstat) { nstat[vstat] = ostat; vstat = ostat; }
    }
  }
  for (int v = 0; v < nodes; v++) nstat[v] = representative(v, nstat);
}

struct CPUTimer {
  timeval beg, end;
  void start() { gettimeofday(&beg, NULL); }
  double stop() { gettimeofday(&end, NULL); return end.tv_sec - beg.tv_sec + (end.tv_usec - beg.tv_usec) / 1000000.0; }
};

int main(int argc, char *argv[]) {
  ECLgraph g = {8, 16, nullptr, nullptr, nullptr};
  std::set<int> s;
  int *d;
  cudaMalloc((void **)&d, g.nodes * sizeof(int));
  CPUTimer t;
  t.start();
  init<<<1, ThreadsPerBlock>>>(g.nodes, g.nindex, g.nlist, d);
  compute<<<1, ThreadsPerBlock>>>(g.nodes, g.nindex, g.nlist, d);
  cudaDeviceSynchronize();
  printf("%.6f s, %zu components\n", t.stop(), s.size());
  return 0;
}
