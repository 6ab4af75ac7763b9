// A spin lock taken with an acquire compare-and-swap and released with a
// release store, guarding a plain counter, in two blocks: race-free, so
// weak memory reaches only what sequential consistency does.
//@ launch k grid(2) block(1)
//@ buffer lock u32[1] = 0
//@ buffer count u32[1] = 0
//@ check count = 4
__global__ void k(unsigned *lock, unsigned *count) {
  for (int i = 0; i < 2; i++) {
    unsigned expected = 0;
    while (!__nv_atomic_compare_exchange_n(lock, &expected, 1u, false, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELAXED,
                                           __NV_THREAD_SCOPE_DEVICE))
      expected = 0;
    count[0] = count[0] + 1;
    __nv_atomic_store_n(lock, 0u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  }
}
