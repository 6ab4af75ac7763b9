//@ launch k grid(1) block(1)
//@ buffer o i32[4] = {1, 2}
__global__ void k(int *o) { }
// expect: 2:23: error: list has 2 values for 4 elements
