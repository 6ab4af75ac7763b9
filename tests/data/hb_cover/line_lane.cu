// A warp's coalesced plain accesses are kept as one record for the line
// of 32 words (hb.c's uniform line) until another access needs the
// words' own: block 0's warp 0 writes A[0..31], reads and writes it again
// (its own accesses replace its earlier ones), passes a barrier; block 1's
// thread 37 then reads A[5] with no fence.  The race's first side is the
// last write of block 0, warp 0, lane 5 (hb; thread 5 in hb-ptx).
//@ launch k grid(2) block(64)
//@ buffer A i32[64]
//@ buffer out i32[128]
//@ expect race
__global__ void k(int *A, int *out) {
  int t = threadIdx.x;
  if (blockIdx.x == 0 && t < 32) A[t] = t;
  if (blockIdx.x == 0 && t < 32) A[t] = A[t] + 1;
  __syncthreads();
  if (blockIdx.x == 1 && t == 37) out[0] = A[5];
}
