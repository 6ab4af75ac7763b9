__global__ void k(unsigned *x) {
  __nv_atomic_fetch_or(x, 1u, __NV_ATOMIC_RELAXED, 9);
}
// expect: 2:3: error: '__nv_atomic_fetch_or': 9 is not a thread scope (__NV_THREAD_SCOPE_*)
