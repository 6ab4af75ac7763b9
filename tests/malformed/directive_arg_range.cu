//@ launch k grid(1) block(1)
//@ buffer o i32[1]
//@ arg n = 4294967296
__global__ void k(int *o, int n) { o[0] = n; }
// expect: 3:1: error: argument 'n' is out of range for parameter type i32
