// Race-free message passing with release and acquire (device scope) across
// blocks: every final state under weak memory is one sequential consistency
// reaches (gpurace states --compare).
//@ launch k grid(2) block(1)
//@ buffer data u32[2] = 0
//@ buffer flag u32[1] = 0
//@ buffer out u32[1] = 0
//@ check out = 12
__global__ void k(unsigned *data, unsigned *flag, unsigned *out) {
  if (blockIdx.x == 0) {
    data[0] = 5;
    data[1] = 7;
    __nv_atomic_store_n(flag, 1u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  } else {
    while (__nv_atomic_load_n(flag, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE) != 1) {}
    out[0] = data[0] + data[1];
  }
}
