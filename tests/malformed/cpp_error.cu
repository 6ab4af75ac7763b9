#error this configuration is not supported
__global__ void k(int *o) { }
// expect: 1:2: error: #error this configuration is not supported
