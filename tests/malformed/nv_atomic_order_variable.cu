__global__ void k(unsigned *x, int order) {
  __nv_atomic_fetch_add(x, 1u, order, __NV_THREAD_SCOPE_DEVICE);
}
// expect: 2:3: error: the memory order of an __nv_atomic builtin must be an integer constant expression
