// Message passing with fences (M7) claiming its forbidden outcome is
// required: the runner must fail it, sampled and exhaustive.
//@ litmus M7wrong G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 allowed-required
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    x[0] = 1;
    __threadfence();
    y[0] = 1;
  } else if (blockIdx.x == 1) {
    unsigned r1 = y[0];
    __threadfence();
    unsigned r2 = x[0];
    out[0] = r1;
    out[1] = r2;
  }
}
