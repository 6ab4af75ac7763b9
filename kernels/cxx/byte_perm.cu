// __byte_perm (PTX prmt, its selector in a register as nvcc leaves it):
// bytes picked from two words, checked against a C reference.
//@ launch perm grid(1) block(32)
//@ buffer out u32[32]
//@ expect norace
//@ check out = {1831764299, 3962504138, 1865187657, 3995928520, 1764393295, 3895133134, 1797816653, 3928559564, 1697022275, 3827762114, 1730445633, 3861186496, 1629651271, 3760391110, 1663074629, 3793821636, 2101248347, 4231988186, 2134671705, 4265412568, 2033877343, 4164617182, 2067300701, 4198043612, 1966506323, 4097246162, 1999929681, 4130670544, 1899135319, 4029875158, 1932558677, 4063313876}
__global__ void perm(unsigned *out) {
  unsigned t = threadIdx.x;
  unsigned a = 0x80FF7F01u * (t + 1), b = 0x12345678u ^ t;
  out[t] = __byte_perm(a, b, 0x7531) ^ __byte_perm(a, b, 0x1406);
}
