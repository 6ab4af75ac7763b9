// A histogram with plain increments (no atomics): bins[key[i]]++ with
// repeated keys.  Racy; the index is read from memory, so the alarm is
// only a possible one statically, and the run shows it is real.
//@ launch histogram_plain grid(1) block(32)
//@ buffer key i32[32] = random(3, 0, 7)
//@ buffer bins i32[8]
//@ expect race
//@ meta babycuda possible
__global__ void histogram_plain(const int *key, int *bins) {
  int k = key[threadIdx.x];
  bins[k] = bins[k] + 1;
}
