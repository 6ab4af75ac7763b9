// C13: CoRW, strong: st.v x<-1 || ld.v r<-x; st.v x<-2
// Placement G.  Weak outcome r=1 x=1: forbidden.
// The store after a strong read of 1 is coherence-after the write it read.
//@ litmus C13 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer out u32[1] = 0
//@ observe r=out[0] x=x[0]
//@ outcome r=1 x=1 forbidden
__global__ void litmus(unsigned *x, unsigned *out) {
  volatile unsigned *vx = x;
  if (blockIdx.x == 0) {
    *vx = 1;
  } else if (blockIdx.x == 1) {
    unsigned r = *vx;
    *vx = 2;
    out[0] = r;
  }
}
