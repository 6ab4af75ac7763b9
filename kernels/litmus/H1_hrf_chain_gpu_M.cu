// H1: st a<-1; st.release.cta f<-1 || ld.acquire.cta r0<-f; st.release.gpu g<-1 || ld.acquire.gpu r1<-g; ld r2<-a
// Placement b0w0,b0w1,b1w0.  Weak outcome r0=1 r1=1 r2=0: forbidden.
// The message-passing chain of HRF's Figure 6 (Hower et al., ASPLOS'14):
// T0 synchronises with T1 at block scope, T1 with T2 at device scope.
// Causality order is transitive (HRF-indirect), so T0's store precedes
// T2's load although T0 and T2 never share a scope.
//@ litmus H1 b0w0,b0w1,b1w0
//@ launch litmus grid(2) block(64)
//@ buffer a u32[1] = 0
//@ buffer f u32[1] = 0
//@ buffer g u32[1] = 0
//@ buffer out u32[3] = 0
//@ observe r0=out[0] r1=out[1] r2=out[2]
//@ outcome r0=1 r1=1 r2=0 forbidden
__global__ void litmus(unsigned *a, unsigned *f, unsigned *g, unsigned *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    a[0] = 1;
    __nv_atomic_store_n(f, 1u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
  } else if (blockIdx.x == 0 && threadIdx.x == 32) {
    unsigned r0 = __nv_atomic_load_n(f, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
    __nv_atomic_store_n(g, 1u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
    out[0] = r0;
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    unsigned r1 = __nv_atomic_load_n(g, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
    unsigned r2 = a[0];
    out[1] = r1;
    out[2] = r2;
  }
}
