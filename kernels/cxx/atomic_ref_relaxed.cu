// The same message passing with a relaxed flag: nothing orders the
// payload, a data race (the reader may see stale values on a GPU; the
// emulator's weak memory model shows it too).
//@ launch mp grid(2) block(32)
//@ buffer data u32[32]
//@ buffer flag u32[1]
//@ buffer seen u32[32]
//@ expect race
#include <cuda/atomic>

__global__ void mp(unsigned *data, unsigned *flag, unsigned *seen) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(*flag);
  unsigned t = threadIdx.x;
  if (blockIdx.x == 0) {
    data[t] = 100 + t;
    __syncthreads();
    if (t == 0) f.store(1, cuda::memory_order_relaxed);
  } else {
    while (f.load(cuda::memory_order_relaxed) == 0) {}
    seen[t] = data[t];
  }
}
