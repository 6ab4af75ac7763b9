__global__ void k(int *o) {
  const int c = 1;
  c = 2;
}
// expect: 3:5: error: assignment of read-only location
