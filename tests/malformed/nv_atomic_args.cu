__global__ void k(unsigned *x) {
  __nv_atomic_load_n(x, __NV_ATOMIC_RELAXED);
}
// expect: 2:3: error: '__nv_atomic_load_n' takes 3 arguments, 2 given
