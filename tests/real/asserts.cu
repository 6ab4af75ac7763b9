// assert() in device code, as <assert.h> and <cassert> give it: a failed
// assertion stops the kernel with its position; -D NDEBUG removes them.
#include <assert.h>
#include <cassert>
#include <stdio.h>
//@ launch k grid(2) block(32)
//@ buffer o i32[64]
//@ expect norace
//@ check o = {0, 1, ..., 63}
__global__ void k(int *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < 64);
  o[i] = i;
  assert(o[i] == i);
}
int main() { assert(sizeof(int) == 4); printf("ok\n"); return 0; }
