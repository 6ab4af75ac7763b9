// cooperative_groups::this_grid() in a cooperative launch: every block
// writes its partial sums, the whole grid syncs, then block 0 adds them up
// (a two-phase reduction without a second launch, as NVIDIA's reduction
// sample does with grid.sync()).
//@ launch grid_reduce grid(4) block(64) cooperative
//@ buffer in i32[256] = iota
//@ buffer partial i32[4]
//@ buffer out i32[1]
//@ expect norace
//@ check partial = {2016, 6112, 10208, 14304}
//@ check out = {32640}
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void grid_reduce(const int *in, int *partial, int *out) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ int sum;
  if (block.thread_rank() == 0) sum = 0;
  block.sync();
  atomicAdd(&sum, in[grid.thread_rank()]);
  block.sync();
  if (block.thread_rank() == 0) partial[blockIdx.x] = sum;
  grid.sync();
  if (grid.thread_rank() == 0) {
    int t = 0;
    for (unsigned b = 0; b < grid.num_blocks(); b++) t += partial[b];
    *out = t;
  }
}
