//@ launch k grid(1) block(1)
//@ buffer o q32[4]
__global__ void k(int *o) { }
// expect: 2:14: error: unknown element type 'q32'
