// em.cu made race-free: the M step's sums are built by one thread per
// cluster, after a barrier, from the points' clusters in shared memory.
#define K 4

__global__ void em(const int *x, int *sum, int *cnt) {
  __shared__ int s_x[128];
  int t = threadIdx.x;
  s_x[t] = x[blockIdx.x * blockDim.x + t];
  __syncthreads();
  if (t < K) {
    int s = 0, c = 0;
    for (int i = 0; i < 128; i++)
      if (s_x[i] % K == t) { s += s_x[i]; c++; }
    sum[blockIdx.x * K + t] = s;
    cnt[blockIdx.x * K + t] = c;
  }
}
//@ launch em grid(2) block(128)
//@ buffer x i32[256] = iota
//@ buffer sum i32[8]
//@ buffer cnt i32[8]
//@ expect norace
//@ meta category shared
//@ check cnt = 32
//@ check sum = {1984, 2016, 2048, 2080, 6080, 6112, 6144, 6176}
