// t * 4294967295u + t wraps to 0 for t = 1 in 32 bits: threads 0 and 1 both
// write A[0].  Over mathematical integers the indices differ: no proof.
//@ launch k grid(1) block(2)
//@ buffer A i32[8]
__global__ void k(int *A) {
  unsigned t = threadIdx.x;
  A[t * 4294967295u + t] = 1;
}
