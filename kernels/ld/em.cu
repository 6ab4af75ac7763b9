// The running example of LD's Figure 2, EM-like: the M step of an
// expectation-maximisation pass accumulates each point into its cluster's
// shared-memory sums with plain read-modify-writes.  Two warps (and two
// lanes of one warp) that add to the same cluster race write-write on
// shared memory: the sums lose updates, differently on every schedule.
#define K 4

__global__ void em(const int *x, int *sum, int *cnt) {
  __shared__ int s_sum[K];
  __shared__ int s_cnt[K];
  int t = threadIdx.x;
  if (t < K) { s_sum[t] = 0; s_cnt[t] = 0; }
  __syncthreads();
  int v = x[blockIdx.x * blockDim.x + t];
  int k = v % K;                 // E step: the point's cluster
  s_sum[k] += v;                 // M step: the racy accumulation
  s_cnt[k] += 1;
  __syncthreads();
  if (t < K) {
    sum[blockIdx.x * K + t] = s_sum[t];
    cnt[blockIdx.x * K + t] = s_cnt[t];
  }
}
//@ launch em grid(2) block(128)
//@ buffer x i32[256] = random(7, 0, 99)
//@ buffer sum i32[8]
//@ buffer cnt i32[8]
//@ expect race
//@ meta category shared
