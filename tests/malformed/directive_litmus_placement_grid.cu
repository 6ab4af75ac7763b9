//@ litmus T1 b0w0,b0w1,b2w0
//@ launch litmus grid(2) block(64)
//@ buffer x u32[1] = 0
//@ buffer out u32[1] = 0
//@ observe r=out[0]
//@ outcome r=1 forbidden
__global__ void litmus(unsigned *x, unsigned *out) { x[0] = 1; out[0] = 0; }
// expect: 1:1: error: placement b0w0,b0w1,b2w0 does not match the launch: every block of the launch holds a test thread
