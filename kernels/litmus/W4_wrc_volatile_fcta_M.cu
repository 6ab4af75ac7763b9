// W4: WRC+F.cta, strong: T0 and T1 in one block, T2 in another
// Placement b0w0,b0w1,b1w0.  Weak outcome r0=1 r1=1 r2=0: allowed-required.
// Block fences in different blocks are not morally strong: nothing orders T2's reads.  The emulator
// must reach it: T1's store drains to L2 before x does.
//@ litmus W4 b0w0,b0w1,b1w0
//@ launch litmus grid(2) block(64)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[3] = 0
//@ observe r0=out[0] r1=out[1] r2=out[2]
//@ outcome r0=1 r1=1 r2=0 allowed-required
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *vx = 1;
  } else if (blockIdx.x == 0 && threadIdx.x == 32) {
    unsigned r0 = *vx;
    __threadfence_block();
    *vy = 1;
    out[0] = r0;
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    unsigned r1 = *vy;
    __threadfence_block();
    unsigned r2 = *vx;
    out[1] = r1;
    out[2] = r2;
  }
}
