// C12: CoRR, strong: st.v x<-1 || ld.v r1<-x; ld.v r2<-x
// Placement G.  Weak outcome r1=1 r2=0: forbidden.
// Two morally strong reads of one location follow coherence (SC per location).
//@ litmus C12 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 forbidden
__global__ void litmus(unsigned *x, unsigned *out) {
  volatile unsigned *vx = x;
  if (blockIdx.x == 0) {
    *vx = 1;
  } else if (blockIdx.x == 1) {
    unsigned r1 = *vx;
    unsigned r2 = *vx;
    out[0] = r1;
    out[1] = r2;
  }
}
