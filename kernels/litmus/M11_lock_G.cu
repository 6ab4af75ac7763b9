// M11: st x<-1; atom.exch m<-0 || atom.cas r1<-m,0->1; ld r3<-x [m=1]
// Placement G: one thread per block, each block on its own SM.  Weak outcome r1=0 r3=0: allowed-required.
// A lock handed over without fences does not carry the data with it.
//@ litmus M11 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer m u32[1] = 1
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r3=out[1]
//@ outcome r1=0 r3=0 allowed-required
__global__ void litmus(unsigned *x, unsigned *m, unsigned *out) {
  if (blockIdx.x == 0) {
    x[0] = 1;
    atomicExch(&m[0], 0u);
  } else if (blockIdx.x == 1) {
    unsigned r1 = atomicCAS(&m[0], 0u, 1u);
    unsigned r3 = x[0];
    out[0] = r1;
    out[1] = r3;
  }
}
