// A templated reduction in the style of NVIDIA's reduction sample: each
// thread sums a grid-stride slice, tiles of 32 reduce with
// cooperative_groups::reduce, the block's tiles meet in shared memory, and
// one atomicAdd per block gives the total; instances for int (128 threads)
// and float (64 threads: every partial sum an integer below 2^24, exact).
//@ launch reduce_int grid(4) block(128)
//@ launch reduce_float grid(2) block(64)
//@ arg n = 4096
//@ arg fn = 4096
//@ buffer in i32[4096] = iota
//@ buffer fin f32[4096] = iota
//@ buffer out i32[1]
//@ buffer fout f32[1]
//@ expect norace
//@ check out = {8386560}
//@ check fout = {8386560}
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

template <typename T, int THREADS>
__device__ void block_reduce(const T *in, T *out, int n) {
  __shared__ T sums[THREADS / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  T x = T();
  for (int i = blockIdx.x * THREADS + block.thread_rank(); i < n; i += gridDim.x * THREADS) x += in[i];
  T s = cg::reduce(tile, x, cg::plus<T>());
  if (tile.thread_rank() == 0) sums[tile.meta_group_rank()] = s;
  block.sync();
  if (block.thread_rank() == 0) {
    T t = T();
    for (int k = 0; k < THREADS / 32; k++) t += sums[k];
    atomicAdd(out, t);
  }
}

__global__ void reduce_int(const int *in, int *out, int n) { block_reduce<int, 128>(in, out, n); }
__global__ void reduce_float(const float *fin, float *fout, int fn) { block_reduce<float, 64>(fin, fout, fn); }
