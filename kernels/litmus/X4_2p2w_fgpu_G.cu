// X4: 2+2W+F.gpu
// Placement G.  Weak outcome x=1 y=1: forbidden.
// The first fence in fence-SC order puts its thread's first store before the other thread's second.
//@ litmus X4 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ observe x=x[0] y=y[0]
//@ outcome x=1 y=1 forbidden
__global__ void litmus(unsigned *x, unsigned *y) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (blockIdx.x == 0) {
    x[0] = 1;
    __threadfence();
    y[0] = 2;
  } else if (blockIdx.x == 1) {
    y[0] = 1;
    __threadfence();
    x[0] = 2;
  }
}
