// Tree reduction in shared memory (sequential addressing): each block sums
// its 256 inputs; the barrier inside the loop separates the levels.
//@ launch reduce grid(4) block(256)
//@ buffer in i32[1024] = iota
//@ buffer out i32[4]
//@ expect norace
//@ check out = {32640, 98176, 163712, 229248}

__global__ void reduce(const int *in, int *out) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
