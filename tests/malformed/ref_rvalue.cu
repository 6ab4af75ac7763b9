__device__ void inc(int &x) { x++; }
__global__ void k(int *o) { inc(o[0] + 1); }
// expect: 2:29: error: argument 1 of 'inc': a non-const reference needs an lvalue
