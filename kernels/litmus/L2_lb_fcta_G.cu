// L2: ld r0<-x; F.cta; st y<-1 || ld r1<-y; F.cta; st x<-1
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=1 r1=1: allowed-required.
// Block fences of different blocks are not morally strong: nothing orders
// them, so both loads may read the other block's later store (seen on
// hardware, Alglave et al.).
//@ litmus L2 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=1 r1=1 allowed-required
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    unsigned r0 = x[0];
    __threadfence_block();
    y[0] = 1;
    out[0] = r0;
  } else if (blockIdx.x == 1) {
    unsigned r1 = y[0];
    __threadfence_block();
    x[0] = 1;
    out[1] = r1;
  }
}
