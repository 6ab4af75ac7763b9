__global__ void k(unsigned *x, unsigned *o) {
  o[0] = __nv_atomic_load_n(x, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
}
// expect: 2:10: error: '__nv_atomic_load_n': an atomic load's memory order cannot be release or acq_rel
