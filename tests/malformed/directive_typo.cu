//@ launch k grid(1) block(1)
//@ buffer o i32[1]
//@ buffer p i32[1]
__global__ void k(int *o) { }
// expect: 3:1: error: buffer 'p' is not a parameter of 'k'
