// C3: st x<-1 || ld r1<-x; F.gpu; ld r2<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r1=1 r2=0: allowed-required.
// A fence orders plain loads only through fence-SC order with another
// thread's fence, and there is none: seen on Fermi and Kepler (Alglave et al.).
//@ litmus C3 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 allowed-required
__global__ void litmus(unsigned *x, unsigned *out) {
  if (blockIdx.x == 0) {
    x[0] = 1;
  } else if (blockIdx.x == 1) {
    unsigned r1 = x[0];
    __threadfence();
    unsigned r2 = x[0];
    out[0] = r1;
    out[1] = r2;
  }
}
