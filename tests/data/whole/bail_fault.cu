// Eligible, but one warp stores past its buffer's end: the check finds it
// before any store, and the turns report the fault where they meet it, the
// buffers as the turns leave them (emu/whole.h).
//@ launch copy grid(8) block(128)
//@ buffer a u32[1024] = iota
//@ buffer b u32[1000]
__global__ void copy(const unsigned *a, unsigned *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i] + 1u;
}
