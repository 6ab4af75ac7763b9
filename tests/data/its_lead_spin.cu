// Lane 0 spins on a flag that lane 31 sets after 64 stores that leave
// memory as it was.  When lane 0 runs ahead alone, its loop comes back to
// the same state while the other lanes wait to be scheduled: not a
// deadlock (a warp spins only if every lane that could run ran between two
// equal states; r110 under --warps its was reported deadlocked before).
//@ launch k grid(1) block(32)
//@ buffer flag u32[1] = 0
//@ buffer c u32[32] = 0
//@ check flag = {1}
__global__ void k(volatile unsigned *flag, unsigned *c) {
  unsigned t = threadIdx.x;
  if (t == 0) {
    while (flag[0] == 0) {
    }
  } else {
    for (int i = 0; i < 64; i++) c[t] = 0;
    if (t == 31) flag[0] = 1;
  }
}
