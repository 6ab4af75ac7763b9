// X2: st x<-1; F.cta; st y<-2 || st y<-1; F.cta; st x<-2
// Placement B: same block, different warps (threads 0 and 32).  Weak outcome x=1 y=1: forbidden.
//@ litmus X2 B
//@ launch litmus grid(1) block(64)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ observe x=x[0] y=y[0]
//@ outcome x=1 y=1 forbidden
__global__ void litmus(unsigned *x, unsigned *y) {
  if (threadIdx.x == 0) {
    x[0] = 1;
    __threadfence_block();
    y[0] = 2;
  } else if (threadIdx.x == 32) {
    y[0] = 1;
    __threadfence_block();
    x[0] = 2;
  }
}
