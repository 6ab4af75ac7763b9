__global__ void k(int *o) {
  int n = 4;
  int a[n];
}
// expect: 3:9: error: an array size must be an integer constant expression
