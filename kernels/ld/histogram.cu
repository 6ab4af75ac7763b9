// A 64-bin histogram in the style of the old CUDA SDK's histogram64: each
// warp counts into its own shared-memory sub-histogram, and lanes of a warp
// that hit one bin resolve the collision with the thread-tag trick (store
// tag|count+1, read it back, retry if another lane's store won).  That is
// an intra-warp write-write race by design: lockstep makes one store win,
// independent thread scheduling does not.  Warps and blocks never share a
// byte: each block writes its own partial histogram.
#define BINS 64
#define WARPS 4

__global__ void histogram(const unsigned *data, unsigned *hist) {
  __shared__ unsigned s_hist[WARPS * BINS];
  int t = threadIdx.x;
  for (int i = t; i < WARPS * BINS; i += blockDim.x) s_hist[i] = 0;
  __syncthreads();
  unsigned *wh = s_hist + (t / 32) * BINS;
  unsigned tag = (unsigned)(t & 31) << 27;
  for (int i = 0; i < 4; i++) {
    unsigned bin = data[(blockIdx.x * blockDim.x + t) * 4 + i] % BINS;
    unsigned v;
    do {
      v = tag | ((wh[bin] & 0x07FFFFFFu) + 1);
      wh[bin] = v;
    } while (wh[bin] != v);
  }
  __syncthreads();
  for (int b = t; b < BINS; b += blockDim.x) {
    unsigned s = 0;
    for (int w = 0; w < WARPS; w++) s += s_hist[w * BINS + b] & 0x07FFFFFFu;
    hist[blockIdx.x * BINS + b] = s;
  }
}
//@ launch histogram grid(2) block(128)
//@ buffer data u32[1024] = random(11, 0, 1000)
//@ buffer hist u32[128]
//@ expect race
//@ meta category shared
