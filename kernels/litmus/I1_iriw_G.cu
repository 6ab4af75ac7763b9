// I1: st x<-1 || ld r0<-x; ld r1<-y || st y<-1 || ld r2<-y; ld r3<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=1 r1=0 r2=1 r3=0: allowed-optional.
//@ litmus I1 G
//@ launch litmus grid(4) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[4] = 0
//@ observe r0=out[0] r1=out[1] r2=out[2] r3=out[3]
//@ outcome r0=1 r1=0 r2=1 r3=0 allowed-optional
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    x[0] = 1;
  } else if (blockIdx.x == 1) {
    unsigned r0 = x[0];
    unsigned r1 = y[0];
    out[0] = r0;
    out[1] = r1;
  } else if (blockIdx.x == 2) {
    y[0] = 1;
  } else if (blockIdx.x == 3) {
    unsigned r2 = y[0];
    unsigned r3 = x[0];
    out[2] = r2;
    out[3] = r3;
  }
}
