//@ launch spin grid(2) block(64)
//@ buffer flag u32[1]
//@ buffer out u32[8192]
// Warp 0 waits for a flag nobody sets while the other warps write their
// outputs in grid-stride loops: a store nobody reads runs ahead of its
// turn (simt.h's AHEAD_STORE), and memory's change must still reach the
// livelock detector at the store's turn, as one instruction per turn has
// it: tests/engines.sh finds the step at which the deadlock is reported
// (the smallest --max-steps that reports it, not the step limit) and
// checks that it is one-per-turn's.
__global__ void spin(volatile unsigned *flag, unsigned *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < 32) {
    while (flag[0] == 0) {}
  } else {
    for (int i = t; i < 8192; i += gridDim.x * blockDim.x) out[i] = i + 1;
  }
}
