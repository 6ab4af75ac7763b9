__global__ void k(int *o) {
  /* never closed
}
// expect: 2:3: error: unterminated comment
