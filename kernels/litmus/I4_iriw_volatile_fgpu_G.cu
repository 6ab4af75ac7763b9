// I4: IRIW+F.gpu, strong: volatile accesses, the readers fence between their loads
// Placement G.  Weak outcome r0=1 r1=0 r2=1 r3=0: forbidden.
// Whichever reader's fence is first in fence-SC order, its first read observes a write that then
// precedes the other reader's second read in causality order.
//@ litmus I4 G
//@ launch litmus grid(4) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[4] = 0
//@ observe r0=out[0] r1=out[1] r2=out[2] r3=out[3]
//@ outcome r0=1 r1=0 r2=1 r3=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (blockIdx.x == 0) {
    *vx = 1;
  } else if (blockIdx.x == 1) {
    unsigned r0 = *vx;
    __threadfence();
    unsigned r1 = *vy;
    out[0] = r0;
    out[1] = r1;
  } else if (blockIdx.x == 2) {
    *vy = 1;
  } else if (blockIdx.x == 3) {
    unsigned r2 = *vy;
    __threadfence();
    unsigned r3 = *vx;
    out[2] = r2;
    out[3] = r3;
  }
}
