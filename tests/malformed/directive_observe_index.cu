//@ litmus T1 G
//@ launch litmus grid(2) block(1)
//@ observe r=out[-1]
__global__ void litmus(unsigned *x, unsigned *out) { x[0] = 1; out[0] = 0; }
// expect: 3:19: error: index must be a non-negative integer
