// Block 0 writes A[0], passes a barrier and reads it in another warp;
// block 1 reads A[0] with no fence: a race.  ScoRD's model once let the
// read after the barrier stand for the write (as the hardware's last-
// accessor metadata does), so block 1's read met only a read: hb missed
// it under lockstep (hb-ptx did not).
//@ launch k grid(2) block(64)
//@ buffer A i32[4]
//@ buffer out i32[128]
//@ expect race
__global__ void k(int *A, int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) A[0] = 1;
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 32) out[0] = A[0];
  if (blockIdx.x == 1 && threadIdx.x == 0) out[1] = A[0];
}
