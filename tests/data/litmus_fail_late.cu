// A litmus file whose run fails (an out-of-bounds store) only where the reader
// sees the write, first at seed 7459: tests/litmus.sh checks that the sampled runs,
// split across threads, report the same first failing seed as one thread.
//@ litmus F1 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 forbidden
__global__ void litmus(unsigned *x, unsigned *out) {
  volatile unsigned *vx = x;
  if (blockIdx.x == 0) {
    for (int k = 0; k < 400; k++) out[1] = k;
    *vx = 1;
  } else if (blockIdx.x == 1) {
    for (int k = 0; k < 40; k++) out[0] = k;
    unsigned r1 = *vx;
    out[r1 * 100000] = r1;
  }
}
