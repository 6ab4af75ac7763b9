__global__ void k(unsigned *x) {
  __nv_atomic_store_n(x, 1u, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
}
// expect: 2:3: error: '__nv_atomic_store_n': an atomic store's memory order cannot be consume, acquire or acq_rel
