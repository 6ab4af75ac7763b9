// (t - 31) & 31 on a signed t was taken as (t - 31) % 32, negative below
// t = 31; the machine's mask is in [0, 32): threads 0 and 32 both write A[1].
//@ launch k grid(1) block(63)
//@ buffer A i32[64]
__global__ void k(int *A) {
  int t = threadIdx.x;
  A[(t - 31) & 31] = t;
}
