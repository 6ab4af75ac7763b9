// warpSize in user code (PTX: mov.u32 %r, WARP_SZ): a warp-stride loop and
// the lane and warp of each thread computed from it, as the samples do.
//@ launch warp_stride grid(2) block(64)
//@ buffer in i32[512] = iota
//@ buffer out i32[4]
//@ expect norace
//@ check out = {8128, 24512, 40896, 57280}
__global__ void warp_stride(const int *in, int *out) {
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int w = blockIdx.x * (blockDim.x / warpSize) + warp;
  int sum = 0;
  for (int i = lane; i < 128; i += warpSize) sum += in[w * 128 + i];
  for (int off = warpSize / 2; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off);
  if (lane == 0) out[w] = sum;
}
