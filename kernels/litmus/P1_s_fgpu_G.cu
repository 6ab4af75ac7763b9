// P1: S+F.gpu: st x<-2; F; st y<-1 || ld r0<-y; F; st x<-1
// Placement G.  Weak outcome r0=1 x=2: forbidden.
// S: either fence order contradicts the outcome (coherence of x, or the read of y).
//@ litmus P1 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[1] = 0
//@ observe r0=out[0] x=x[0]
//@ outcome r0=1 x=2 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (blockIdx.x == 0) {
    x[0] = 2;
    __threadfence();
    y[0] = 1;
  } else if (blockIdx.x == 1) {
    unsigned r0 = y[0];
    __threadfence();
    x[0] = 1;
    out[0] = r0;
  }
}
