//@ launch k grid(1) block(1)
//@ launch q grid(1) block(1)
//@ buffer o i32[1]
__global__ void k(int *o) { o[0] = 1; }
// expect: 2:1: error: the launch names 'q', which is not a __global__ function of the file
