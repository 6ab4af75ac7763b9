//@ launch k grid(1) block(1)
//@ buffer o i32[2] = 1.5
__global__ void k(int *o) { }
// expect: 2:12: error: buffer 'o' of i32 has a non-integer initialiser
