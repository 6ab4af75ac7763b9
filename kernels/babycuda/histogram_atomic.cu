// The histogram with atomicAdd: race-free (atomics do not race with
// atomics).  Not well-typed (the bin is a value read from key), but its
// protocol has only atomic writes to bins, so the checker proves it DRF.
//@ launch histogram_atomic grid(1) block(32)
//@ buffer key i32[32] = random(3, 0, 7)
//@ buffer bins i32[8]
//@ expect norace
//@ meta babycuda drf
__global__ void histogram_atomic(const int *key, int *bins) {
  atomicAdd(bins + key[threadIdx.x], 1);
}
