// M21: st x<-1; F.acq_rel.gpu; st.relaxed.gpu y<-1 || ld.relaxed.gpu r1<-y; F.acq_rel.gpu; ld r2<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r1=1 r2=0: forbidden.
// A release pattern (fence, strong store) observed by an acquire pattern
// (strong load, fence) synchronises, as fence.sc would.
//@ litmus M21 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    x[0] = 1;
    __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_store_n(y, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  } else if (blockIdx.x == 1) {
    unsigned r1 = __nv_atomic_load_n(y, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
    unsigned r2 = x[0];
    out[0] = r1;
    out[1] = r2;
  }
}
