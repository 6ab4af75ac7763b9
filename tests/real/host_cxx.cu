// Host code as people write it: C and C++ headers, namespaces, classes,
// templates, lambdas, the runtime API.  The device pass skips all of it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdint.h>
#include <cstdio>
#include <iostream>
#include <vector>
#include <algorithm>
#include <cuda.h>
#include <cuda_runtime.h>
using namespace std;

//@ launch scale grid(2) block(32)
//@ buffer out i32[64]
//@ expect norace
//@ check out = {0, 3, ..., 189}

typedef struct { int nodes, edges; int *nindex; } ECLgraph;

#define CUDA_CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

namespace util {
template <typename T> T clampv(T v, T lo, T hi) { return std::min(std::max(v, lo), hi); }
class Timer { public: Timer() : t0(0) {} double elapsed() const { return 0.0; } private: double t0; };
}

static const int FACTOR = 3;

__global__ void scale(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i * FACTOR;
}

int main(int argc, char **argv) {
  ECLgraph g;
  memset(&g, 0, sizeof g);
  std::vector<int> h(64);
  int *d = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 64 * sizeof(int)));
  scale<<<2, 32>>>(d);
  CUDA_CHECK(cudaMemcpy(h.data(), d, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  auto bad = std::count_if(h.begin(), h.end(), [](int v) { return v % FACTOR != 0; });
  util::Timer t;
  cout << "mismatches: " << bad << " in " << t.elapsed() << " s" << endl;
  printf("%d\n", util::clampv(argc, 0, 1));
  return bad != 0;
}
