// C1: st x<-1 || ld r1<-x; ld r2<-x
// Placement B: same block, different warps (threads 0 and 32).  Weak outcome r1=1 r2=0: allowed-required.
// Plain loads of one location may return a newer value, then an older one: the second load performs first.
//@ litmus C1 B
//@ launch litmus grid(1) block(64)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 allowed-required
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (threadIdx.x == 0) {
    x[0] = 1;
  } else if (threadIdx.x == 32) {
    unsigned r1 = x[0];
    unsigned r2 = x[0];
    out[0] = r1;
    out[1] = r2;
  }
}
