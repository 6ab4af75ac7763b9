// A tile of shared memory that a block's warps read between barriers
// (hb.c's read groups: a line that only plain loads touched keeps the
// loads as runs of lanes, replayed into the words' records when another
// access needs them): rows read by both half-warps (the words' entries end
// with lanes 16-31 under lockstep), broadcasts, a gather of more runs than
// a group takes (the word path, after the group is replayed), a line read
// more often than a group holds (replayed when full); then thread 115
// (warp 3, lane 19) writes t[2][3] with no barrier, racing with the
// earlier warps' reads of it: under lockstep the first side is warp 0's
// lane 19, the last of its lanes to read the word.
//@ launch tile grid(2) block(128)
//@ buffer out u32[256]
//@ expect race
__global__ void tile(unsigned *out) {
  __shared__ unsigned t[16][16];
  unsigned x = threadIdx.x, w = x / 32, l = x % 32;
  t[x / 16][x % 16] = x;
  t[x / 16 + 8][x % 16] = x + 1;
  __syncthreads();
  unsigned s = 0;
  for (int k = 0; k < 16; k++) s += t[k][x % 16] + t[x / 16][k];
  s += t[(l * 7) % 16][(l * 5 + w) % 16];
  for (int k = 0; k < 80; k++) s += t[1][k % 16];
  if (x == 115) t[2][3] = s;
  __syncthreads();
  out[blockIdx.x * 128 + x] = s + t[2][3];
}
