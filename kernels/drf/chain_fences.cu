// HRF's Figure 6 chain made race-free with fences: block-scope acq_rel
// fences between two threads of block 0, device-scope ones from there to
// block 1; plain data, relaxed flags.
//@ launch k grid(2) block(64)
//@ buffer a u32[1] = 0
//@ buffer f u32[1] = 0
//@ buffer g u32[1] = 0
//@ buffer out u32[1] = 0
//@ check out = 9
__global__ void k(unsigned *a, unsigned *f, unsigned *g, unsigned *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    a[0] = 9;
    __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_BLOCK);
    __nv_atomic_store_n(f, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  } else if (blockIdx.x == 0 && threadIdx.x == 32) {
    while (__nv_atomic_load_n(f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK) != 1) {}
    __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_store_n(g, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (__nv_atomic_load_n(g, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE) != 1) {}
    __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
    out[0] = a[0];
  }
}
