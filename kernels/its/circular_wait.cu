// A circular wait between two lanes of one warp: lane 0 spins until lane 1
// sets f[1], lane 1 until lane 0 sets f[0].  Under ITS each lane spins in
// its own loop, so the warp's state as a whole rarely repeats; the deadlock
// is found from each lane's own state, on every schedule.  With -D PARKED
// the other lanes wait at a __syncwarp for the two spinning lanes.
//@ launch k grid(1) block(32)
//@ buffer f u32[2] = 0
__global__ void k(volatile unsigned *f) {
  unsigned t = threadIdx.x;
  if (t == 0) {
    while (f[1] == 0) {}
    f[0] = 1;
  } else if (t == 1) {
    while (f[0] == 0) {}
    f[1] = 1;
  }
#ifdef PARKED
  __syncwarp();
#endif
}
