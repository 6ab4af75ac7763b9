// S5: st x<-1; F.gpu; ld r0<-y || st y<-1; F.gpu; ld r1<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=0 r1=0: forbidden.
//@ litmus S5 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=0 r1=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    x[0] = 1;
    __threadfence();
    out[0] = y[0];
  } else if (blockIdx.x == 1) {
    y[0] = 1;
    __threadfence();
    out[1] = x[0];
  }
}
