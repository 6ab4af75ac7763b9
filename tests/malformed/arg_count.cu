__device__ int f(int a, int b) { return a + b; }
__global__ void k(int *o) { o[0] = f(1); }
// expect: 2:36: error: function 'f' takes 2 arguments, 1 given
