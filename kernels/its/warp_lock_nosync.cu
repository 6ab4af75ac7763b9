// One lane takes a lock for its warp (UTS's pattern), without __syncwarp:
// under lockstep the warp moves as one, so no lane enters the critical
// section before lane 0 holds the lock or stays in it after lane 0 lets it
// go (every data[t] is 2).  Under --warps its lanes 1..31 run on while lane
// 0 still spins, and two warps update data[t] at once: updates are lost,
// and hb-ptx reports the race ("missing __syncwarp" inside a warp).
//@ launch k grid(1) block(64)
//@ buffer lock u32[1] = 0
//@ buffer data u32[32] = 0
//@ check data = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}
#ifndef SYNCWARP
#define SYNCWARP 0
#endif
__global__ void k(unsigned *lock, unsigned *data) {
  unsigned lane = threadIdx.x % 32;
  if (lane == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
  }
  if (SYNCWARP) __syncwarp();
  data[lane] = data[lane] + 1;
  if (SYNCWARP) __syncwarp();
  if (lane == 0) {
    __threadfence();
    atomicExch(lock, 0);
  }
}
