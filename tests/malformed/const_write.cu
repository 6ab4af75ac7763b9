__constant__ float c[4] = {1, 2, 3, 4};
__global__ void k(float *o) { c[1] = o[0]; }
// expect: 2:36: error: assignment of read-only location
