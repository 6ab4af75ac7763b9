__device__ int later(int x);
__global__ void k(int *o) { o[0] = later(1); }
// expect: 2:36: error: function 'later' is declared but never defined
