//@ litmus T1 B
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer out u32[1] = 0
//@ observe r=out[0]
//@ outcome r=1 forbidden
__global__ void litmus(unsigned *x, unsigned *out) { x[0] = 1; out[0] = 0; }
// expect: 1:1: error: placement B does not match the launch: B needs one block of more than 32 threads
