//@ launch k grid(1) block(1) if A B C D E
__global__ void k() { }
// expect: 1:42: error: more than 4 knobs
