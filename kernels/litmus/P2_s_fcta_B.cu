// P2: S+F.cta in one block: st x<-2; F.cta; st y<-1 || ld r0<-y; F.cta; st x<-1
// Placement B.  Weak outcome r0=1 x=2: forbidden.
// Block fences of one block are morally strong: as P1.
//@ litmus P2 B
//@ launch litmus grid(1) block(64)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[1] = 0
//@ observe r0=out[0] x=x[0]
//@ outcome r0=1 x=2 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (threadIdx.x == 0) {
    x[0] = 2;
    __threadfence_block();
    y[0] = 1;
  } else if (threadIdx.x == 32) {
    unsigned r0 = y[0];
    __threadfence_block();
    x[0] = 1;
    out[0] = r0;
  }
}
