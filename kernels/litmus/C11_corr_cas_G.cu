// C11: st.v x<-1 || ld r0<-x; atom.cas r1<-x,5->6; ld r2<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=0 r1=1 r2=0: forbidden.
// The failed compare-and-swap is a strong read of 1 that observes the
// volatile store: the later load of the same thread cannot read the older 0
// (PTX causality: the write observed precedes the po-later read).
//@ litmus C11 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer out u32[3] = 0
//@ observe r0=out[0] r1=out[1] r2=out[2]
//@ outcome r0=0 r1=1 r2=0 forbidden
__global__ void litmus(unsigned *x, unsigned *out) {
  if (blockIdx.x == 0) {
    *(volatile unsigned *)x = 1;
  } else if (blockIdx.x == 1) {
    unsigned r0 = x[0];
    unsigned r1 = atomicCAS(&x[0], 5u, 6u);
    unsigned r2 = x[0];
    out[0] = r0;
    out[1] = r1;
    out[2] = r2;
  }
}
