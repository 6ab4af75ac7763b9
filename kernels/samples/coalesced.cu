// cooperative_groups::coalesced_threads() in a divergent branch: the odd
// lanes form a group, elect a leader, reduce and scan with the group's
// own shuffles, and the leader adds the group's total to the block's count
// once (the warp-aggregated atomic of NVIDIA's samples).
//@ launch aggregate grid(2) block(64)
//@ buffer in i32[128] = iota
//@ buffer total i32[1]
//@ buffer rank i32[128]
//@ expect norace
//@ check total = {4096}
//@ check rank = {0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11, 0, 12, 0, 13, 0, 14, 0, 15, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11, 0, 12, 0, 13, 0, 14, 0, 15, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11, 0, 12, 0, 13, 0, 14, 0, 15, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11, 0, 12, 0, 13, 0, 14, 0, 15}
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void aggregate(const int *in, int *total, int *rank) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] % 2 == 1) {
    cg::coalesced_group g = cg::coalesced_threads();
    int sum = cg::reduce(g, in[i], cg::plus<int>());
    int first = g.shfl(in[i], 0);
    rank[i] = g.thread_rank();
    if (g.thread_rank() == 0) atomicAdd(total, sum - 0 * first);
  }
}
