// X3: 2+2W+F.cta across blocks
// Placement G.  Weak outcome x=1 y=1: allowed-required.
// Block fences of different blocks are not morally strong: each thread's stores reach L2 in either order.
//@ litmus X3 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ observe x=x[0] y=y[0]
//@ outcome x=1 y=1 allowed-required
__global__ void litmus(unsigned *x, unsigned *y) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (blockIdx.x == 0) {
    x[0] = 1;
    __threadfence_block();
    y[0] = 2;
  } else if (blockIdx.x == 1) {
    y[0] = 1;
    __threadfence_block();
    x[0] = 2;
  }
}
