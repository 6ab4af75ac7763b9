// Store buffering (S2) with a wrong claim: its weak outcome is allowed,
// this file says forbidden.  The runner must fail it and name a seed
// that reproduces the outcome.
//@ litmus S2wrong G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=0 r1=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    x[0] = 1;
    out[0] = y[0];
  } else if (blockIdx.x == 1) {
    y[0] = 1;
    out[1] = x[0];
  }
}
