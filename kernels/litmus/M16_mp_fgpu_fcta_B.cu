// M16: MP, writer F.gpu, reader F.cta, one block
// Placement B.  Weak outcome r1=1 r2=0: forbidden.
// One block: each fence's scope holds the other thread, so fence-SC order applies.
//@ litmus M16 B
//@ launch litmus grid(1) block(64)
//@ buffer x u32[1] = 0
//@ buffer y u32[1] = 0
//@ buffer out u32[2] = 0
//@ observe r1=out[0] r2=out[1]
//@ outcome r1=1 r2=0 forbidden
__global__ void litmus(unsigned *x, unsigned *y, unsigned *out) {
  volatile unsigned *vx = x; volatile unsigned *vy = y;
  if (threadIdx.x == 0) {
    x[0] = 1;
    __threadfence();
    y[0] = 1;
  } else if (threadIdx.x == 32) {
    unsigned r1 = y[0];
    __threadfence_block();
    unsigned r2 = x[0];
    out[0] = r1;
    out[1] = r2;
  }
}
