// The tree reduction without the barrier inside its loop: a level reads
// slots the previous level is still writing.  Racy.
//@ launch reduction_racy grid(2) block(128)
//@ buffer in i32[256] = iota
//@ buffer out i32[2]
//@ expect race
//@ meta babycuda racy
__global__ void reduction_racy(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
  }
  __syncthreads();
  if (t == 0) out[blockIdx.x] = s[0];
}
