__global__ void k(int *o) {
  int (*fp)(int);
}
// expect: 2:7: error: unsupported: function pointers
