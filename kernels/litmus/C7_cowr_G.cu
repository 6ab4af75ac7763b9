// C7: st x<-1 || st x<-2; ld r<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r=1 x=2: forbidden.
// Reading the other thread's 1 after one's own 2 puts 1 after 2 in coherence order.
//@ litmus C7 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r=out[0] x=x[0]
//@ outcome r=1 x=2 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    x[0] = 1;
  } else if (blockIdx.x == 1) {
    x[0] = 2;
    out[0] = x[0];
  }
}
