// One shared buffer for two phases, with no barrier between the last read
// of the first phase and the first write of the second (a WAR race).
//@ launch phases grid(1) block(64)
//@ buffer out u32[64] = 0
//@ expect race
__global__ void phases(unsigned *out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  unsigned a = s[63 - t];
  s[t] = 2 * t;
  __syncthreads();
  out[t] = a + s[63 - t];
}
