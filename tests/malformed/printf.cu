__global__ void k(int *o) {
  printf("%d\n", o[0]);
}
// expect: 2:3: error: unsupported: printf in device code
