// C10: atom.add.cta x,1 || atom.add.cta x,1
// Placement G: one thread per block, each block on its own SM.  Weak outcome x=1: allowed-required.
// A block-scope atomic is performed at its SM: two SMs can lose an update.
//@ litmus C10 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ observe x=x[0]
//@ outcome x=1 allowed-required
__global__ void litmus(unsigned *x, unsigned *y) {
  if (blockIdx.x == 0) {
    atomicAdd_block(&x[0], 1u);
  } else if (blockIdx.x == 1) {
    atomicAdd_block(&x[0], 1u);
  }
}
