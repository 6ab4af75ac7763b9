__global__ void k(int *o) {
  const char *s = "hi";
}
// expect: 2:19: error: unsupported: string literals
