//@ litmus T1 G
//@ launch litmus grid(2) block(1)
//@ observe r=out[0]
//@ outcome q=1 forbidden
__global__ void litmus(unsigned *x, unsigned *out) { x[0] = 1; out[0] = 0; }
// expect: error: the outcome names 'q', which no '//@ observe' defines
