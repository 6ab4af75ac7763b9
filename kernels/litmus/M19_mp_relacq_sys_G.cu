// M19: st x<-1; st.release.sys y<-1 || ld.acquire.sys r1<-y; ld r2<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r1=1 r2=0: forbidden.
// The release store and the acquire load are morally strong (system scope
// holds both threads): the acquire reading 1 synchronises with the release.
//@ litmus M19 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    x[0] = 1;
    __nv_atomic_store_n(y, 1u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_SYSTEM);
  } else if (blockIdx.x == 1) {
    unsigned r1 = __nv_atomic_load_n(y, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_SYSTEM);
    unsigned r2 = x[0];
    out[0] = r1;
    out[1] = r2;
  }
}
