//@ launch nothere grid(1) block(1)
__global__ void k() { }
// expect: 1:1: error: the launch names 'nothere', which is not a __global__ function of the file
