// cooperative_groups::coalesced_threads() in a divergent branch: the odd
// lanes form a group, elect a leader, reduce and scan with the group's
// own shuffles, and the leader adds the group's total to the block's count
// once (the warp-aggregated atomic of NVIDIA's samples).  Which odd lanes
// run together is the scheduler's (independent thread scheduling may split
// them): the total and each lane's place in its group hold either way.
//@ launch aggregate grid(2) block(64)
//@ buffer in i32[128] = iota
//@ buffer total i32[1]
//@ buffer rank i32[128]
//@ expect norace
//@ check total = {4096}
//@ check rank = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void aggregate(const int *in, int *total, int *rank) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] % 2 == 1) {
    cg::coalesced_group g = cg::coalesced_threads();
    int sum = cg::reduce(g, in[i], cg::plus<int>());
    int first = g.shfl(in[i], 0);
    rank[i] = g.thread_rank() < g.size() && g.shfl(i, g.thread_rank()) == i;
    if (g.thread_rank() == 0) atomicAdd(total, sum - 0 * first);
  }
}
