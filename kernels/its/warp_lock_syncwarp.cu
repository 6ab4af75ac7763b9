// warp_lock_nosync.cu with __syncwarp after lane 0 takes the lock and
// before it lets it go: every lane's update lies inside the warp's hold of
// the lock, under both warp models (every data[t] is 2), and hb-ptx finds
// no race under --warps its.
//@ launch k grid(1) block(64)
//@ buffer lock u32[1] = 0
//@ buffer data u32[32] = 0
//@ check data = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}
#ifndef SYNCWARP
#define SYNCWARP 1
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
