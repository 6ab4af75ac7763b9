// R1: R+F.gpu: st x<-1; F; st y<-1 || st y<-2; F; ld r0<-x
// Placement G.  Weak outcome y=2 r0=0: forbidden.
// Either fence order contradicts the outcome: T0's first puts x before the read, T1's first puts y=2 before y=1.
//@ litmus R1 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[1] = 0
//@ observe y=y[0] r0=out[0]
//@ outcome y=2 r0=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (blockIdx.x == 0) {
    x[0] = 1;
    __threadfence();
    y[0] = 1;
  } else if (blockIdx.x == 1) {
    y[0] = 2;
    __threadfence();
    unsigned r0 = x[0];
    out[0] = r0;
  }
}
