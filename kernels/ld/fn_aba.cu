// LD's first known false negative: a write that restores the original
// value.  Lane 0 of each of two blocks writes x and then writes x's old
// value back (ABA).  The blocks race write-write on x, but neither private
// copy ends changed, so a value-based check sees nothing; hb sees the
// writes.
__global__ void aba(int *x) {
  if (threadIdx.x == 0) {
    x[0] = 99 + blockIdx.x;
    x[0] = 0;
  }
}
//@ launch aba grid(2) block(32)
//@ buffer x i32[1]
//@ expect race
//@ meta category false_negative
//@ check x = 0
