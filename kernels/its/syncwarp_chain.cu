// Partial __syncwarps order transitively: lane 0 writes, syncs with lane
// 1 (mask 0x3), lane 1 syncs with lane 2 (mask 0x6), lane 2 reads: race-free.
// With -D BROKEN lane 1 syncs alone and lane 2 reads unordered: racy under
// --warps its.  A __syncwarp waits for lanes with the same mask (CUDA: "with
// the same mask"), so lane 2's does not release lane 1 from its first one.
//@ expect norace
//@ check out = {5}
//@ launch k grid(1) block(3)
//@ buffer out u32[1] = 0
__global__ void k(unsigned *out) {
  __shared__ unsigned s[32];
  unsigned t = threadIdx.x;
  if (t < 3) {
    if (t == 0) s[0] = 5;
    if (t < 2) __syncwarp(0x3);
#ifndef BROKEN
    if (t > 0) __syncwarp(0x6);
#else
    if (t > 0 && t < 2) __syncwarp(0x2);
#endif
    if (t == 2) out[0] = s[0];
  }
}
