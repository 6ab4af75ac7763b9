// LD's third known false negative: a second-pass write of union values.
// Block 0 writes x = 7 and z = 7; block 1 copies x into z.  In pass 1
// block 1 reads x = 0 and writes z = 0 over 0, so its copy is unchanged
// and only block 0 changed z: no write-write race.  In pass 2 block 1
// reads the union's x = 7 and writes z = 7, which is the union's z: its
// copy equals the union, so no read-write race either.  Both races (x
// read-write, z write-write) are real, and hb reports them.
__global__ void unionwrite(int *x, int *z) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      x[0] = 7;
      z[0] = 7;
    } else {
      z[0] = x[0];
    }
  }
}
//@ launch unionwrite grid(2) block(32)
//@ buffer x i32[1]
//@ buffer z i32[1]
//@ expect race
//@ meta category false_negative
