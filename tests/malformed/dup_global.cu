__device__ int g = 1;
__device__ int g = 2;
__global__ void k(int *o) { o[0] = g; }
// expect: 2:16: error: redefinition of 'g'
