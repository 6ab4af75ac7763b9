// The histogram with atomicAdd: race-free, and outside the calculus
// (BabyCUDA has no atomics).
//@ launch histogram_atomic grid(1) block(32)
//@ buffer key i32[32] = random(3, 0, 7)
//@ buffer bins i32[8]
//@ expect norace
//@ meta babycuda outside
__global__ void histogram_atomic(const int *key, int *bins) {
  atomicAdd(bins + key[threadIdx.x], 1);
}
