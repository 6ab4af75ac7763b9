// A launch no schedule can tell apart (emu/whole.h), run a warp at a time:
// loads of 1, 2, 4 and 8 bytes (sign- and zero-extended), stores of each
// size, doubles, a gather through an index read from memory, a loop whose
// count is uniform in each warp, and a branch on the block's index
// (tests/engines.sh: the same as turn by turn).
//@ launch mix grid(12) block(128)
//@ buffer c8 i8[1536] = random(1, -128, 127)
//@ buffer u16 u16[1536] = random(2, 0, 65535)
//@ buffer d f64[1536] = random(3, -100, 100)
//@ buffer idx u32[1536] = random(4, 0, 1535)
//@ buffer o8 u8[1536]
//@ buffer o16 i16[1536]
//@ buffer o32 i32[1536]
//@ buffer o64 f64[1536]
__global__ void mix(const signed char *c8, const unsigned short *u16, const double *d, const unsigned *idx,
                    unsigned char *o8, short *o16, int *o32, double *o64) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = c8[i] + (int)u16[i];
  for (int k = 0; k < (int)(blockIdx.x + threadIdx.x / 32); k++) s = s * 3 + k;
  double v = d[idx[i]] * 0.5 + (double)c8[i];
  if (blockIdx.x % 3 == 1) v = -v;
  o8[i] = (unsigned char)(s ^ 0x5a);
  o16[i] = (short)(s >> 3);
  o32[i] = s;
  o64[i] = v;
}
