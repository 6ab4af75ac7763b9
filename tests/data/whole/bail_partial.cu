// Blocks of 48 threads: the second warp of each has 16 lanes, and the
// launch goes turn by turn (emu/whole.h runs full warps only).
//@ launch copy grid(5) block(48)
//@ buffer a u32[240] = iota
//@ buffer b u32[240]
__global__ void copy(const unsigned *a, unsigned *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i] * 7u;
}
