// Atomics race with no atomic (device scope), and with every plain access
// of another thread: -D PLAIN reads a counter the others increment.
// -D BLOCK_SCOPE makes them atomicAdd_block across two blocks: outside.
//@ launch k grid(2) block(32)
//@ buffer count i32[4]
//@ buffer out i32[64]
__global__ void k(int *count, int *out) {
#ifdef BLOCK_SCOPE
  atomicAdd_block(&count[threadIdx.x % 4], 1);
#else
  atomicAdd(&count[threadIdx.x % 4], 1);
#endif
#ifdef PLAIN
  out[blockIdx.x * 32 + threadIdx.x] = count[0];
#endif
}
