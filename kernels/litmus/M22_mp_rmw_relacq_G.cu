// M22: st x<-1; atom.add.release.gpu y+=1 || r1<-atom.add.acquire.gpu y+=0; ld r2<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r1=1 r2=0: forbidden.
// Read-modify-writes with release and acquire semantics synchronise as
// st.release and ld.acquire do.
//@ litmus M22 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    x[0] = 1;
    __nv_atomic_fetch_add(y, 1u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  } else if (blockIdx.x == 1) {
    unsigned r1 = __nv_atomic_fetch_add(y, 0u, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
    unsigned r2 = x[0];
    out[0] = r1;
    out[1] = r2;
  }
}
