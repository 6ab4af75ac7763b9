// The assignment step of k-means on integer points: the first K threads
// load the centroids into shared memory, a barrier publishes them, and
// every thread picks its point's nearest centroid.  KMEANS_RACE drops the
// barrier: the injected shared-memory race, where warps 1-3 read centroids
// that warp 0 may not have written yet (read-write).
#define K 8

__global__ void kmeans(const int *points, const int *centroids, int *member) {
  __shared__ int s_c[K];
  int t = threadIdx.x;
  if (t < K) s_c[t] = centroids[t];
#ifndef KMEANS_RACE
  __syncthreads();
#endif
  int p = points[blockIdx.x * blockDim.x + t];
  int best = 0, bestd = 1 << 30;
  for (int k = 0; k < K; k++) {
    int d = p - s_c[k];
    if (d < 0) d = -d;
    if (d < bestd) { bestd = d; best = k; }
  }
  member[blockIdx.x * blockDim.x + t] = best;
}
//@ launch kmeans grid(2) block(128)
//@ buffer points i32[256] = iota(0, 4)
//@ buffer centroids i32[8] = {50, 170, 290, 410, 530, 650, 770, 890}
//@ buffer member i32[256]
//@ expect race if KMEANS_RACE
//@ meta category shared
//@ check member = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}
