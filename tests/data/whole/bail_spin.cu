// Eligible, but one warp loops for ever: the check stops it at the step
// limit, and the turns' livelock detector reports it (emu/whole.h).
//@ launch spin grid(2) block(64)
//@ buffer a u32[128] = iota
//@ buffer b u32[128]
__global__ void spin(const unsigned *a, unsigned *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i];
  while (blockIdx.x == 1 && x < 1000u) x = x * 1u;
  b[i] = x;
}
