// A producer and a consumer in one warp: lane 0 waits for a flag that lane
// 1 sets in the other branch.  Under lockstep the warp runs lane 0's path
// to its end before lane 1's, so lane 0 spins for ever (a deadlock the
// emulator reports); under independent thread scheduling the scheduler is
// fair to divergent paths, lane 1 sets the flag and both finish.
//@ launch handoff grid(1) block(32)
//@ buffer flag u32[1] = 0
//@ buffer out u32[1] = 0
//@ check out = {1}
__global__ void handoff(volatile unsigned *flag, unsigned *out) {
  if (threadIdx.x == 0) {
    while (flag[0] == 0) {
    }
    out[0] = 1;
  } else if (threadIdx.x == 1) {
    flag[0] = 1;
  }
}
