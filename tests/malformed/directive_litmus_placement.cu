//@ litmus T1 Q
//@ launch litmus grid(2) block(1)
__global__ void litmus(unsigned *x, unsigned *out) { x[0] = 1; out[0] = 0; }
// expect: 1:15: error: expected the placement: W (one warp), B (one block, several warps), G (one thread per block) or a list bBwW,... giving each thread's block and warp
