// The device spellings nvcc takes for granted, each with its CUDA meaning.
#include <cuda_runtime.h>
//@ launch spell grid(2) block(64)
//@ buffer out i32[128]
//@ buffer agg i32[8]
//@ expect norace
//@ check out = {0, 7, ..., 889}
//@ check agg = {64, 0, 1, 3, 10, 16, 16, 1}

struct Node { int key; int next; };           // a tag used as a type below
enum Colour { RED, GREEN };
const int kStride = 7;                        // a host constant usable in device code

__device__ int twice(int x);                  // declared here, defined after its use
extern "C" __device__ __forceinline__ void add_to(int &acc, const int &by) { acc += by; }
__device__ __attribute__((always_inline)) inline int id(int x) { return x; }

struct __align__(16) Quad { int a, b, c, d; };

__global__ void spell(int *out, int *agg) {
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  Node n; n.key = i; n.next = 0;
  Colour c = GREEN;
  int acc = 0;
  add_to(acc, twice(n.key) * 0);              // references to a register and to an rvalue
  add_to(n.next, kStride * id(i));            // a reference to a struct member in local memory
  out[i] = n.next + acc + (c == GREEN ? 0 : 1);
  int cnt = __syncthreads_count(t < 64);
  int all = __syncthreads_and(t < 32);
  int any = __syncthreads_or(t == 5);
  int2 p = make_int2(1, 2);
  uint4 u = make_uint4(3, 4, 5, 6);
  float2 f = make_float2(0.5f, 1.5f);
  Quad q; q.a = (int)sizeof(Quad); q.b = (int)__alignof__(Quad);
  int src[2] = {p.y, (int)u.w + 4};
  int dst[2];
  memcpy(dst, src, sizeof dst);
  memset(&q.c, 0, sizeof q.c);
#ifdef __CUDA_ARCH__
  int arch = __CUDA_ARCH__ >= 700;   /* 700 in the emulator, the GPU's own on the CUDA backend */
#else
  int arch = 0;
#endif
  if (blockIdx.x == 0 && t == 0) {
    agg[0] = cnt; agg[1] = all; agg[2] = any;
    agg[3] = (int)(f.x + f.y) + p.x + q.c;
    agg[4] = dst[1];
    agg[5] = q.a; agg[6] = q.b;
    agg[7] = arch;
  }
}

__device__ int twice(int x) { return 2 * x; }
