__global__ void k(short *x) {
  __nv_atomic_store_n(x, (short)1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}
// expect: 2:3: error: '__nv_atomic_store_n' on a 2-byte type: gpurace models 4- and 8-byte atomics
