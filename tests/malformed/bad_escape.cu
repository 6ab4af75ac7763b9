__global__ void k(int *o) {
  o[0] = '\q';
}
// expect: 2:10: error: unknown escape sequence
