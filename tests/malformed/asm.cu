__global__ void k(int *o) {
  asm("nop");
}
// expect: 2:3: error: unsupported: inline assembly
