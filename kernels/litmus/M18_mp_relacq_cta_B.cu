// M18: st x<-1; st.release.cta y<-1 || ld.acquire.cta r1<-y; ld r2<-x
// Placement B: both threads in one block, in different warps.  Weak outcome r1=1 r2=0: forbidden.
// Block scope holds both threads: release and acquire synchronise.
//@ litmus M18 B
//@ launch litmus grid(1) block(64)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (threadIdx.x == 0) {
    x[0] = 1;
    __nv_atomic_store_n(y, 1u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
  } else if (threadIdx.x == 32) {
    unsigned r1 = __nv_atomic_load_n(y, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
    unsigned r2 = x[0];
    out[0] = r1;
    out[1] = r2;
  }
}
