__global__ void k(int *o, int *p) {
  int *q = o + p;
}
// expect: 2:14: error: invalid operands to binary +
