// N1: ISA2+F.gpu: st x; F; st y || ld y; F; st z || ld z; F; ld x (T0, T1 in one block)
// Placement b0w0,b0w1,b1w0.  Weak outcome r0=1 r1=1 r2=0: forbidden.
// Three fence.sc.gpu are totally ordered by fence-SC order; each order contradicts one of the reads.
//@ litmus N1 b0w0,b0w1,b1w0
//@ launch litmus grid(2) block(64)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer z u32[1] = 0
//@ buffer out u32[3] = 0
//@ observe r0=out[0] r1=out[1] r2=out[2]
//@ outcome r0=1 r1=1 r2=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *z, unsigned *out) {
  volatile unsigned *vx = x; volatile unsigned *vy = y; volatile unsigned *vz = z;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    x[0] = 1;
    __threadfence();
    y[0] = 1;
  } else if (blockIdx.x == 0 && threadIdx.x == 32) {
    unsigned r0 = y[0];
    __threadfence();
    z[0] = 1;
    out[0] = r0;
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    unsigned r1 = z[0];
    __threadfence();
    unsigned r2 = x[0];
    out[1] = r1;
    out[2] = r2;
  }
}
