// M1: st x<-1; st y<-1 || ld r1<-y; ld r2<-x
// Placement W: same warp (lanes 0, 1, ...).  Weak outcome r1=1 r2=0: allowed-optional.
//@ litmus M1 W
//@ launch litmus grid(1) block(2)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 allowed-optional
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (threadIdx.x == 0) {
    x[0] = 1;
    y[0] = 1;
  } else if (threadIdx.x == 1) {
    unsigned r1 = y[0];
    unsigned r2 = x[0];
    out[0] = r1;
    out[1] = r2;
  }
}
