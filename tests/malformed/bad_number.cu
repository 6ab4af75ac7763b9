__global__ void k(int *o) {
  o[0] = 12abc;
}
// expect: 2:10: error: invalid numeric literal '12abc'
