// Blocks of 35 threads: warp 1 has three lanes.  Every thread of blocks
// 0-62 stores to one word (a hot word, summarised), then in block 63 lane
// 2 of warp 1 (thread 34) reads it twice at one place and lane 1 (thread
// 33) stores to it between.  A summary asks, once per kind of access,
// whether another lane of the accessor's warp could race with it; it
// asked with lane 2 ^ 1 = 3, which warp 1 lacks, and so never looked for
// the pairs within the warp (missing __syncwarp, under --warps its) again.
//@ launch partial_lane grid(64) block(35)
//@ buffer w u32[1]
//@ buffer out u32[1]
__global__ void partial_lane(unsigned *w, unsigned *out) {
  unsigned t = threadIdx.x;
  if (blockIdx.x < 63) {
    w[0] = t;
    return;
  }
  if (t == 34) {
    unsigned v = 0;
    for (int i = 0; i < 2; i++) {
      v += w[0];
      for (int k = 0; k < 200; k++) v = v * 3u + 1u;
    }
    out[0] = v;
  }
  if (t == 33) w[0] = 7u;
}
