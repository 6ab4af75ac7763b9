// S10: atom.exch x<-1; ld.v r0<-y || atom.exch y<-1; ld.v r1<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=0 r1=0: allowed-optional.
// atomicExch is a relaxed gpu-scope atomic: it orders nothing with the
// thread's later access to another location, so the load may read before
// the exchange is performed at L2 (the thread does not wait for a result
// it has not used yet).
//@ litmus S10 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=0 r1=0 allowed-optional
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x, *vy = y;
  if (blockIdx.x == 0) {
    atomicExch(x, 1u);
    out[0] = *vy;
  } else if (blockIdx.x == 1) {
    atomicExch(y, 1u);
    out[1] = *vx;
  }
}
