// Listing 3's read-then-write loop (iteration i reads a[i-1], then writes
// a[i]: an intra-warp RAW violation in lockstep), with 254 reads of
// elements nobody writes in between: the write's timestamp is 256, whose
// 8-bit field (1..255) is the read's, 1, so "t8 < wts" misses the
// violation.  The golden model and the instrumented CUDA say they have no
// verdict.  With -D FEWER (250 reads between) the timestamps fit and both
// find it.
//@ loop a
#include "../../kernels/loops/loop.cuh"
//@ launch wrap grid(1) block(32) if TWOPASS TWOPASS_FP
//@ launch wrap grid(1) block(32) if TWOPASS TWOPASS_FP
//@ launch wrap grid(1) block(32)
//@ buffer a f64[320] = iota
//@ buffer out f64[32]
#ifdef FEWER
#define PAD 250
#else
#define PAD 254
#endif
__global__ void wrap(double *a, double *out) {
  LOOP_BEGIN();
  int i = threadIdx.x;
  double temp, sum = 0;
  LOOP_READ(temp, a, i > 0 ? i - 1 : 0);
  for (int j = 0; j < PAD; j++) {
    double x;
    LOOP_READ(x, a, 64 + j);
    sum += x;
  }
  LOOP_WRITE(a, i, temp * 0.5 + sum);
  out[i] = sum;
}
