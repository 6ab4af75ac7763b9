//@ litmus T1 G
//@ launch litmus grid(2) block(1)
//@ observe r=out[0]
//@ outcome r=1 allowed-maybe
__global__ void litmus(unsigned *x, unsigned *out) { x[0] = 1; out[0] = 0; }
// expect: 4:17: error: expected forbidden, allowed-required or allowed-optional
