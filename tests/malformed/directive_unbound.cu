//@ launch k grid(1) block(1)
__global__ void k(int *o) { }
// expect: 1:1: error: pointer parameter 'o' of 'k' has no '//@ buffer o ...'
