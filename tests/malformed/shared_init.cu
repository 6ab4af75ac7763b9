__global__ void k(int *o) {
  __shared__ int s = 4;
}
// expect: 2:18: error: initialization is not supported for __shared__ variables
