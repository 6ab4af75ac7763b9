// A pointer that leaves its buffer and comes back through the access's
// offset: nvcc -O3 makes `p = src + (off + tid); ... p[16]` with off = -16
// a pointer 64 bytes below src for thread 0, and the load [p+64], which
// reads src[0].  The access is checked with its final address.
//@ launch gather grid(1) block(32)
//@ arg off = -16
//@ buffer pad i32[8]
//@ buffer src i32[64] = iota
//@ buffer dst i32[32]
//@ expect norace
__global__ void gather(const int *pad, const int *src, int *dst, int off) {
  const int *p = src + (off + (int)threadIdx.x);
  dst[threadIdx.x] = p[16] + pad[0] * 0;
}
//@ check dst = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}
