__global__ void k(int *o) {
again:
  o[0] = 1;
}
// expect: 2:1: error: unsupported: labels and goto
