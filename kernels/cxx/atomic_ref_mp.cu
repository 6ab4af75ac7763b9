// Message passing with libcu++'s cuda::atomic_ref: block 0 writes its
// payload with plain stores, then releases a flag at device scope; block 1
// acquires the flag (spinning) and reads the payload.  The release/acquire
// pair orders the payload: no race, and the reader sees every value.
//@ launch mp grid(2) block(32)
//@ buffer data u32[32]
//@ buffer flag u32[1]
//@ buffer seen u32[32]
//@ expect norace
//@ check seen = {100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131}
#include <cuda/atomic>

__global__ void mp(unsigned *data, unsigned *flag, unsigned *seen) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(*flag);
  unsigned t = threadIdx.x;
  if (blockIdx.x == 0) {
    data[t] = 100 + t;
    __syncthreads();
    if (t == 0) f.store(1, cuda::memory_order_release);
  } else {
    while (f.load(cuda::memory_order_acquire) == 0) {}
    seen[t] = data[t];
  }
}
