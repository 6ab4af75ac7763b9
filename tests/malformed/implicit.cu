__global__ void k(int *o) {
  o[0] = nosuch(1);
}
// expect: 2:10: error: implicit declaration of function 'nosuch'
