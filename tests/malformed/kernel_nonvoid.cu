__global__ int k(int *o) { return 0; }
// expect: 1:16: error: a __global__ function must return void
