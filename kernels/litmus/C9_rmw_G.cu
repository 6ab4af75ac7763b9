// C9: atom.add x,1 || atom.add x,1
// Placement G: one thread per block, each block on its own SM.  Weak outcome x=1: forbidden.
// Device-scope atomics on one location are atomic with respect to each other.
//@ litmus C9 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ observe x=x[0]
//@ outcome x=1 forbidden
__global__ void litmus(unsigned *x, unsigned *y) {
  if (blockIdx.x == 0) {
    atomicAdd(&x[0], 1u);
  } else if (blockIdx.x == 1) {
    atomicAdd(&x[0], 1u);
  }
}
