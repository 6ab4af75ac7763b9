// __syncthreads_count, _and and _or: barriers that also reduce a predicate
// over the block (bar.red in PTX).
//@ launch votes grid(2) block(96)
//@ buffer in u32[192] = iota
//@ buffer out u32[6]
//@ expect norace
//@ check out = {32, 1, 1, 32, 0, 1}
__global__ void votes(const unsigned *in, unsigned *out) {
  unsigned x = in[blockIdx.x * blockDim.x + threadIdx.x];
  int n = __syncthreads_count(x % 3 == 0);
  int all = __syncthreads_and(x < 100);
  int any = __syncthreads_or(x % 95 == 0);
  if (threadIdx.x == 0) {
    out[blockIdx.x * 3 + 0] = n;
    out[blockIdx.x * 3 + 1] = all;
    out[blockIdx.x * 3 + 2] = any;
  }
}
