//@ litmus T1 G
//@ launch litmus grid(2) block(1)
__global__ void litmus(unsigned *x, unsigned *out) { x[0] = 1; out[0] = 0; }
// expect: error: a litmus test needs '//@ litmus', '//@ observe' and '//@ outcome' directives
