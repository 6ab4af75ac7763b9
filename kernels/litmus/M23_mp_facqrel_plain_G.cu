// M23: st x<-1; F.acq_rel.gpu; st y<-1 || ld r1<-y; F.acq_rel.gpu; ld r2<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r1=1 r2=0: allowed-required.
// Unlike fence.sc (M7), acq_rel fences order nothing by themselves: they
// synchronise only through a strong store observed by a strong load, and
// y here is plain.
//@ litmus M23 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 allowed-required
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    x[0] = 1;
    __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
    y[0] = 1;
  } else if (blockIdx.x == 1) {
    unsigned r1 = y[0];
    __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
    unsigned r2 = x[0];
    out[1] = r2;
    out[0] = r1;
  }
}
