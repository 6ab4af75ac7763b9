// Cooperative groups: the block as a group, 32-thread tiles with their own
// sync and shuffles, and a tile-wide reduction; the tiles' sums meet in
// shared memory after the block's sync.
//@ launch tiles grid(2) block(128)
//@ buffer in i32[256] = iota
//@ buffer out i32[2]
//@ expect norace
//@ check out = {8128, 24512}
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <typename Tile>
__device__ int tile_sum(const Tile &tile, int x) {
  for (int offset = tile.size() / 2; offset > 0; offset /= 2) x += tile.shfl_down(x, offset);
  return x;
}

__global__ void tiles(const int *in, int *out) {
  __shared__ int sums[4];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int x = in[blockIdx.x * blockDim.x + block.thread_rank()];
  tile.sync();
  int s = tile_sum(tile, x);
  if (tile.thread_rank() == 0) sums[block.thread_rank() / 32] = s;
  block.sync();
  if (block.thread_rank() == 0) out[blockIdx.x] = sums[0] + sums[1] + sums[2] + sums[3];
}
