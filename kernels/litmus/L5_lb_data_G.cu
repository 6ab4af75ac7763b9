// L5: ld r0<-x; st y<-r0 || ld r1<-y; st x<-r1
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=42 r1=42: forbidden.
// No value out of thin air: a store that depends on a load waits for it.
//@ litmus L5 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=42 r1=42 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    unsigned r0 = x[0];
    y[0] = r0;
    out[0] = r0;
  } else if (blockIdx.x == 1) {
    unsigned r1 = y[0];
    x[0] = r1;
    out[1] = r1;
  }
}
