// S7: st.relaxed.gpu x<-1; F.acq_rel.gpu; ld.relaxed.gpu r0<-y || st.relaxed.gpu y<-1; F.acq_rel.gpu; ld.relaxed.gpu r1<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=0 r1=0: allowed-required.
// An acq_rel fence orders loads before it with everything after it, and
// everything before it with stores after it: not a store with a later
// load.  Compare S8, with fence.sc.
//@ litmus S7 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=0 r1=0 allowed-required
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    __nv_atomic_store_n(x, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
    out[0] = __nv_atomic_load_n(y, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  } else if (blockIdx.x == 1) {
    __nv_atomic_store_n(y, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
    out[1] = __nv_atomic_load_n(x, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  }
}
