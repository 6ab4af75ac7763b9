// reuse_without_barrier.cu with the barrier between the phases: race-free.
//@ launch phases grid(1) block(64)
//@ buffer out u32[64] = 0
//@ expect norace
__global__ void phases(unsigned *out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  unsigned a = s[63 - t];
  __syncthreads();
  s[t] = 2 * t;
  __syncthreads();
  out[t] = a + s[63 - t];
}
