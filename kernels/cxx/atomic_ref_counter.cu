// A block-scope counter, a device-scope histogram and a float total through
// cuda::atomic_ref with fetch_add and explicit memory orders and scopes (the
// halves sum exactly in any order).
//@ launch count grid(4) block(64)
//@ buffer in u32[256] = iota
//@ buffer hist u32[8]
//@ buffer per_block u32[4]
//@ buffer total f32[1]
//@ expect norace
//@ check hist = {32, 32, 32, 32, 32, 32, 32, 32}
//@ check per_block = {64, 64, 64, 64}
//@ check total = 128
#include <cuda/atomic>

__global__ void count(const unsigned *in, unsigned *hist, unsigned *per_block, float *total) {
  __shared__ unsigned local;
  if (threadIdx.x == 0) local = 0;
  __syncthreads();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> bin(hist[in[i] % 8]);
  bin.fetch_add(1, cuda::memory_order_relaxed);
  cuda::atomic_ref<float, cuda::thread_scope_device> t(*total);
  t.fetch_add(0.5f, cuda::memory_order_relaxed);
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> l(local);
  l.fetch_add(1, cuda::memory_order_acq_rel);
  __syncthreads();
  if (threadIdx.x == 0) per_block[blockIdx.x] = local;
}
