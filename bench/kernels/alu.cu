// ALU-bound: an LCG and a mixing step per iteration, no memory traffic
// until the single store at the end.
__global__ void alu(unsigned *out, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = t, y = t * 2654435761u;
  for (int i = 0; i < iters; i++) {
    x = x * 1664525u + 1013904223u;
    y ^= x >> 7;
    y = y * 31u + (x & 0xffu);
  }
  out[t] = x ^ y;
}
