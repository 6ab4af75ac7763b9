// LD's second known false negative: a read of a restored value.  Block 0
// sets a flag and clears it again; block 1 reads the flag and copies it
// out.  The read races with both writes (block 1 may see 1), but the
// union holds the flag's original 0, so pass 2 gives block 1 the value it
// read in pass 1 and its copy comes out the same; hb sees the read-write
// race.
__global__ void restored(int *flag, int *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      flag[0] = 1;
      flag[0] = 0;
    } else {
      out[0] = flag[0] + 5;
    }
  }
}
//@ launch restored grid(2) block(32)
//@ buffer flag i32[1]
//@ buffer out i32[1]
//@ expect race
//@ meta category false_negative
