// L3: ld r0<-x; F.cta; st y<-1 || ld r1<-y; F.cta; st x<-1
// Placement B: same block, different warps (threads 0 and 32).  Weak outcome r0=1 r1=1: forbidden.
//@ litmus L3 B
//@ launch litmus grid(1) block(64)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=1 r1=1 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (threadIdx.x == 0) {
    unsigned r0 = x[0];
    __threadfence_block();
    y[0] = 1;
    out[0] = r0;
  } else if (threadIdx.x == 32) {
    unsigned r1 = y[0];
    __threadfence_block();
    x[0] = 1;
    out[1] = r1;
  }
}
