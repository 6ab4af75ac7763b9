// Strided shared-memory access with bank conflicts: lane t touches word
// t*32, so every lane of the warp hits bank 0 (a 32-way conflict on a GPU
// with 32 banks of 4-byte words).  The values are the same as in
// strided_noconflict.cu; only the access pattern differs.
//@ launch strided grid(1) block(32)
//@ buffer out u32[32]
//@ expect norace
//@ check out = {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 52, 55, 58, 61, 64, 67, 70, 73, 76, 79, 82, 85, 88, 91, 94}

#define STRIDE 32

__global__ void strided(unsigned *out) {
  __shared__ unsigned s[32 * STRIDE];
  unsigned t = threadIdx.x;
  s[t * STRIDE] = t * 3 + 1;
  __syncwarp();
  out[t] = s[t * STRIDE];
}
