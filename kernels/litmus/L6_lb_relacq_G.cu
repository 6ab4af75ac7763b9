// L6: ld r0<-x; st.release.gpu y<-1 || ld.acquire.gpu r1<-y; st x<-1
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=1 r1=1: forbidden.
// The acquire reading 1 synchronises with the release, which orders the
// plain load before it: that load cannot read the store after the acquire.
//@ litmus L6 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=1 r1=1 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    unsigned r0 = x[0];
    __nv_atomic_store_n(y, 1u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
    out[0] = r0;
  } else if (blockIdx.x == 1) {
    unsigned r1 = __nv_atomic_load_n(y, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
    x[0] = 1;
    out[1] = r1;
  }
}
