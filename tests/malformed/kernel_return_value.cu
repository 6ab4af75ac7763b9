__global__ void k(int *o) {
  return 1;
}
// expect: 2:10: error: 'return' with a value in a __global__ function
