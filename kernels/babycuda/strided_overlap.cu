// The strided loop with the block's slice one element too short: the last
// element a thread of block b writes is the first of block b+1.  Racy.
//@ launch strided_overlap grid(2) block(32)
//@ buffer in i32[512] = iota
//@ buffer out i32[512]
//@ expect race
//@ meta babycuda racy
#define ITEMS 8
__global__ void strided_overlap(const int *in, int *out) {
  int base = blockIdx.x * (blockDim.x * ITEMS - 1) + threadIdx.x;
  for (int k = 0; k < ITEMS; k++) {
    int i = base + k * blockDim.x;
    out[i] = 2 * in[i];
  }
}
