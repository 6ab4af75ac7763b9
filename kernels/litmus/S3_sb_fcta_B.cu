// S3: st x<-1; F.cta; ld r0<-y || st y<-1; F.cta; ld r1<-x
// Placement B: same block, different warps (threads 0 and 32).  Weak outcome r0=0 r1=0: forbidden.
//@ litmus S3 B
//@ launch litmus grid(1) block(64)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=0 r1=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (threadIdx.x == 0) {
    x[0] = 1;
    __threadfence_block();
    out[0] = y[0];
  } else if (threadIdx.x == 32) {
    y[0] = 1;
    __threadfence_block();
    out[1] = x[0];
  }
}
