// S9: st.release.gpu x<-1; ld.acquire.gpu r0<-y || st.release.gpu y<-1; ld.acquire.gpu r1<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=0 r1=0: allowed-required.
// A release orders what comes before it, an acquire what comes after it:
// a release followed by an acquire is not ordered.
//@ litmus S9 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=0 r1=0 allowed-required
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    __nv_atomic_store_n(x, 1u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
    out[0] = __nv_atomic_load_n(y, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  } else if (blockIdx.x == 1) {
    __nv_atomic_store_n(y, 1u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
    out[1] = __nv_atomic_load_n(x, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  }
}
