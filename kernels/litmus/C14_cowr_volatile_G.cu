// C14: CoWR, strong: st.v x<-1 || st.v x<-2; ld.v r<-x
// Placement G.  Weak outcome r=1 x=2: forbidden.
// Reading the other thread's 1 after one's own 2 puts 1 after 2 in coherence: the final value is 1.
//@ litmus C14 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer out u32[1] = 0
//@ observe r=out[0] x=x[0]
//@ outcome r=1 x=2 forbidden
__global__ void litmus(unsigned *x, unsigned *out) {
  volatile unsigned *vx = x;
  if (blockIdx.x == 0) {
    *vx = 1;
  } else if (blockIdx.x == 1) {
    *vx = 2;
    unsigned r = *vx;
    out[0] = r;
  }
}
