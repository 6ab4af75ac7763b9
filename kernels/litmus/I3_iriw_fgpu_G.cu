// I3: IRIW+F.gpu, plain: the readers fence between their loads
// Placement G.  Weak outcome r0=1 r1=0 r2=1 r3=0: allowed-optional.
// Fence-SC order orders the readers' fences, but plain reads observe nothing: no causality reaches the
// writes (derivation in docs/memory-model.md).
//@ litmus I3 G
//@ launch litmus grid(4) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[4] = 0
//@ observe r0=out[0] r1=out[1] r2=out[2] r3=out[3]
//@ outcome r0=1 r1=0 r2=1 r3=0 allowed-optional
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (blockIdx.x == 0) {
    x[0] = 1;
  } else if (blockIdx.x == 1) {
    unsigned r0 = x[0];
    __threadfence();
    unsigned r1 = y[0];
    out[0] = r0;
    out[1] = r1;
  } else if (blockIdx.x == 2) {
    y[0] = 1;
  } else if (blockIdx.x == 3) {
    unsigned r2 = y[0];
    __threadfence();
    unsigned r3 = x[0];
    out[2] = r2;
    out[3] = r3;
  }
}
