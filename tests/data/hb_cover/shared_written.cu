// A read of shared memory in a barrier interval in which a thread of the
// block wrote it: warp 0 writes its row, with no barrier after, while the
// other warps count; then every warp reads the row in a loop from which
// nothing is written before the barrier.  Once warp 0 is in that loop the
// block holds still, and the loads run ahead of their turns; they race
// with warp 0's writes all the same (another warp's in both models, and
// another lane's in hb-ptx), and each must be shown to the detectors:
// access.c's shared_unseen leaves a load unshown only in an interval in
// which nothing of the block wrote shared memory (tile.cu's second read).
//@ launch row grid(2) block(128)
//@ buffer in u32[32] = iota
//@ buffer out u32[256]
//@ expect race
__global__ void row(const unsigned *in, unsigned *out) {
  __shared__ unsigned t[32];
  unsigned x = threadIdx.x, s = 0;
  if (x < 32) t[x] = in[x];
  else
    for (int k = 0; k < 64; k++) s = s * 3u + 1u;
  for (int k = 0; k < 4; k++) s += t[(x + k) % 32];
  __syncthreads();
  out[blockIdx.x * 128 + x] = s;
}
