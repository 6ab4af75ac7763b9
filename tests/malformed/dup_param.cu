__device__ int f(int x, int x) { return x; }
__global__ void k(int *o) { o[0] = f(1, 2); }
// expect: 1:16: error: redefinition of parameter 'x' of 'f'
