// W3: WRC+F.gpu, plain: T0 and T1 in one block, T2 in another
// Placement b0w0,b0w1,b1w0.  Weak outcome r0=1 r1=1 r2=0: allowed-optional.
// Plain reads observe nothing, so the fences do not make T0's write precede T2's read of x in causality
// order: PTX's fences are cumulative only over what was observed by morally strong operations.
//@ litmus W3 b0w0,b0w1,b1w0
//@ launch litmus grid(2) block(64)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[3] = 0
//@ observe r0=out[0] r1=out[1] r2=out[2]
//@ outcome r0=1 r1=1 r2=0 allowed-optional
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    x[0] = 1;
  } else if (blockIdx.x == 0 && threadIdx.x == 32) {
    unsigned r0 = x[0];
    __threadfence();
    y[0] = 1;
    out[0] = r0;
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    unsigned r1 = y[0];
    __threadfence();
    unsigned r2 = x[0];
    out[1] = r1;
    out[2] = r2;
  }
}
