// ALU-bound: an LCG and a mixing step per iteration, one store at the end
// (the OpenCL C twin is hash.cl, the C twin in bench/peer.c).
__global__ void hash(unsigned *out, int iters) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = t, y = t * 2654435761u;
  for (int i = 0; i < iters; i++) {
    x = x * 1664525u + 1013904223u;
    y ^= x >> 7;
    y = y * 31u + (x & 0xffu);
  }
  out[t] = x ^ y;
}
