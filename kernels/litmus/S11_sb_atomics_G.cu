// S11: atom.exch x<-1; atom.add r0<-y,0 || atom.exch y<-1; atom.add r1<-x,0
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=0 r1=0: allowed-optional.
// Only atomics, all relaxed at gpu scope: morally strong pairs, but
// relaxed operations synchronise nothing, and each thread's two atomics are
// to different locations, so the second may be performed first.
//@ litmus S11 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=0 r1=0 allowed-optional
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  if (blockIdx.x == 0) {
    atomicExch(x, 1u);
    out[0] = atomicAdd(y, 0u);
  } else if (blockIdx.x == 1) {
    atomicExch(y, 1u);
    out[1] = atomicAdd(x, 0u);
  }
}
