__global__ void k(int *o) {
  o[0] = missing + 1;
}
// expect: 2:10: error: 'missing' undeclared
