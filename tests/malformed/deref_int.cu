__global__ void k(int *o) {
  int x = 1;
  o[0] = *x;
}
// expect: 3:10: error: invalid type argument of unary '*'
