//@ launch k grid(0) block(32)
__global__ void k() { }
// expect: 1:19: error: grid dimension must be a positive integer
