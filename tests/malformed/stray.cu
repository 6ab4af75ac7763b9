__global__ void k(int *o) {
  o[0] = 1 @ 2;
}
// expect: 2:12: error: stray '@' in program
