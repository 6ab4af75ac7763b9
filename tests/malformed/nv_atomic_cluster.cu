__global__ void k(unsigned *x) {
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_CLUSTER);
}
// expect: 2:3: error: '__nv_atomic_thread_fence': cluster scope is not modelled (gpurace has no thread block clusters)
