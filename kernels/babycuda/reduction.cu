// Tree reduction in shared memory (sequential addressing), 128 threads a
// block: the halving loop runs over the launch's blockDim, which the
// extraction unrolls (the calculus's loops have stride 1).  DRF.
//@ launch reduction grid(2) block(128)
//@ buffer in i32[256] = iota
//@ buffer out i32[2]
//@ expect norace
//@ meta babycuda drf
//@ check out = {8128, 24512}
__global__ void reduction(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
