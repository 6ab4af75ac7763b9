//@ launch k grid(1) block(1) block(2)
//@ buffer o i32[1]
__global__ void k(int *o) { o[0] = 1; }
// expect: 1:31: error: 'block' given twice in one launch
