// S12: atom.exch x<-1; fence.sc.gpu; atom.add r0<-y,0 || the mirror
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=0 r1=0: forbidden.
// The device fences are morally strong, so fence-SC order orders them; the
// atomics before each fence precede, by causality, the other thread's
// atomic after its fence, which therefore reads 1.
//@ litmus S12 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=0 r1=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    atomicExch(x, 1u);
    __threadfence();
    out[0] = atomicAdd(y, 0u);
  } else if (blockIdx.x == 1) {
    atomicExch(y, 1u);
    __threadfence();
    out[1] = atomicAdd(x, 0u);
  }
}
