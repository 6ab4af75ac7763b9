__global__ void k(int *o) {
  o[0] = 1
  o[1] = 2;
}
// expect: 3:3: error: expected ';' before 'o'
