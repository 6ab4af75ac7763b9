__global__ void k(int *o) {
  o[0] = 1;
// expect: 1:27: error: unterminated function body
