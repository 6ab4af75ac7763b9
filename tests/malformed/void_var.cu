__global__ void k(int *o) {
  void v;
}
// expect: 2:8: error: variable 'v' declared void
