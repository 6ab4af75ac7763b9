// W1: WRC: st x<-1 || ld x; st y<-1 || ld y; ld x
// Placement G.  Weak outcome r0=1 r1=1 r2=0: allowed-optional.
// Nothing orders anything: the third thread's loads may perform out of order.
//@ litmus W1 G
//@ launch litmus grid(3) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[3] = 0
//@ observe r0=out[0] r1=out[1] r2=out[2]
//@ outcome r0=1 r1=1 r2=0 allowed-optional
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (blockIdx.x == 0) {
    x[0] = 1;
  } else if (blockIdx.x == 1) {
    unsigned r0 = x[0];
    y[0] = 1;
    out[0] = r0;
  } else if (blockIdx.x == 2) {
    unsigned r1 = y[0];
    unsigned r2 = x[0];
    out[1] = r1;
    out[2] = r2;
  }
}
