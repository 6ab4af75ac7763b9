// C8: st.v x<-1 || ld.v r<-x; st x<-2
// Placement G: one thread per block, each block on its own SM.  Weak outcome r=1 x=1: forbidden.
// A store may not come before, in coherence order, a write its thread has already read.
//@ litmus C8 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r=out[0] x=x[0]
//@ outcome r=1 x=1 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x;
  if (blockIdx.x == 0) {
    vx[0] = 1;
  } else if (blockIdx.x == 1) {
    unsigned r = vx[0];
    x[0] = 2;
    out[0] = r;
  }
}
