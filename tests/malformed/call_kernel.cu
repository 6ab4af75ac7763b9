__global__ void g(int *o) { }
__global__ void k(int *o) { g(o); }
// expect: 2:29: error: cannot call __global__ function 'g' from device code
