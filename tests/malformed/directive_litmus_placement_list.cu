//@ litmus T1 b0w0,,b1w0
//@ launch litmus grid(2) block(1)
__global__ void litmus(unsigned *x, unsigned *out) { x[0] = 1; out[0] = 0; }
// expect: 1:20: error: expected bBLOCKwWARP in the placement list
