// Lanes of one warp pass values through global memory with nothing between
// the store and the load.  Under lockstep the warp is one agent, for the
// memory model as for hb: race-free, and {2, 3, 4, 1} under weak memory as
// under sc on every schedule.  Under --warps its each lane is an agent: hb
// reports "missing __syncwarp", and a lane may read 0.
//@ launch k grid(1) block(4)
//@ buffer g u32[4] = 0
//@ buffer out u32[4] = 0
__global__ void k(unsigned *g, unsigned *out) {
  unsigned t = threadIdx.x;
  g[t] = t + 1;
  out[t] = g[(t + 1) % 4];
}
