// C6: one thread: st x<-1; st x<-2
// Placement W: same warp (lanes 0, 1, ...).  Weak outcome x=1: forbidden.
// Coherence: two stores of one thread to one location reach memory in program order.
//@ litmus C6 W
//@ launch litmus grid(1) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ observe x=x[0]
//@ outcome x=1 forbidden
__global__ void litmus(unsigned *x, unsigned *y) {
  if (threadIdx.x == 0) {
    x[0] = 1;
    x[0] = 2;
  }
}
