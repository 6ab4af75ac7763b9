// Each thread reads its right neighbour's slot before the barrier that
// would order the neighbour's write (the neighbour may be in another warp).
//@ launch stencil grid(1) block(64)
//@ buffer out u32[64] = 0
//@ expect race
__global__ void stencil(unsigned *out) {
  __shared__ unsigned s[65];
  unsigned t = threadIdx.x;
  s[t] = t;
  if (t == 0) s[64] = 64;
  unsigned right = s[t + 1];
  __syncthreads();
  out[t] = s[t] + right;
}
