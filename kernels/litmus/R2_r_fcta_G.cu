// R2: R+F.cta across blocks: st x<-1; F.cta; st y<-1 || st y<-2; F.cta; ld r0<-x
// Placement G.  Weak outcome y=2 r0=0: allowed-required.
// Block fences of different blocks order nothing between them.
//@ litmus R2 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[1] = 0
//@ observe y=y[0] r0=out[0]
//@ outcome y=2 r0=0 allowed-required
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (blockIdx.x == 0) {
    x[0] = 1;
    __threadfence_block();
    y[0] = 1;
  } else if (blockIdx.x == 1) {
    y[0] = 2;
    __threadfence_block();
    unsigned r0 = x[0];
    out[0] = r0;
  }
}
