// X1: st x<-1; st y<-2 || st y<-1; st x<-2
// Placement G: one thread per block, each block on its own SM.  Weak outcome x=1 y=1: allowed-optional.
//@ litmus X1 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ observe x=x[0] y=y[0]
//@ outcome x=1 y=1 allowed-optional
__global__ void litmus(unsigned *x, unsigned *y) {
  if (blockIdx.x == 0) {
    x[0] = 1;
    y[0] = 2;
  } else if (blockIdx.x == 1) {
    y[0] = 1;
    x[0] = 2;
  }
}
