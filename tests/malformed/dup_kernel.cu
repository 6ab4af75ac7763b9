__global__ void k(int *o);
__global__ void k(float *o) { o[0] = 1; }
// expect: 2:17: error: conflicting types for 'k'
