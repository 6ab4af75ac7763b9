// Blocks of 40 threads: a full warp and a warp of 8.  Every thread of
// blocks 0-62 stores to one word (a hot word, summarised), then in block 63
// thread 10 (warp 0) reads it twice at one place and thread 35 (warp 1)
// stores to it.  A summary asks, once per kind of access, whether an agent
// of another warp of the accessor's block could race with it; it asked
// with thread in + 32, which does not exist for threads 8-31 of a
// 40-thread block, and so never looked for the pairs within a block
// (missing block fence, under --warps its) again.
//@ launch partial_warp grid(64) block(40)
//@ buffer w u32[1]
//@ buffer out u32[1]
__global__ void partial_warp(unsigned *w, unsigned *out) {
  unsigned t = threadIdx.x;
  if (blockIdx.x < 63) {
    w[0] = t;
    return;
  }
  if (t == 10) {
    unsigned v = 0;
    for (int i = 0; i < 2; i++) {
      v += w[0];
      for (int k = 0; k < 200; k++) v = v * 3u + 1u;
    }
    out[0] = v;
  }
  if (t == 35) w[0] = 7u;
}
