// tail_nosync.cu made right for independent thread scheduling: each step
// reads, waits for the warp (__syncwarp), writes, and waits again, so no
// lane reads a slot another lane of the step writes.  2080 under both warp
// models, on every schedule.
//@ launch tail grid(1) block(64)
//@ buffer out u32[1] = 0
//@ expect norace
//@ check out = {2080}
__global__ void tail(unsigned *out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = t + 1;
  __syncthreads();
  if (t < 32) {
    for (unsigned d = 32; d > 0; d /= 2) {
      unsigned v = s[t] + s[t + d];
      __syncwarp();
      s[t] = v;
      __syncwarp();
    }
  }
  if (t == 0) out[0] = s[0];
}
