// warp_agent.cu with __syncwarp between the store and the load: race-free
// and {2, 3, 4, 1} under both warp models and both memory models.
//@ launch k grid(1) block(4)
//@ buffer g u32[4] = 0
//@ buffer out u32[4] = 0
__global__ void k(unsigned *g, unsigned *out) {
  unsigned t = threadIdx.x;
  g[t] = t + 1;
  __syncwarp();
  out[t] = g[(t + 1) % 4];
}
