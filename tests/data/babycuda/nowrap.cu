// The same shapes where nothing wraps: a guard keeps t - 1 of an unsigned t
// from wrapping, a mask of an unsigned value, a narrowing conversion that
// fits: DRF, proved.
//@ launch k grid(2) block(64)
//@ buffer A i32[128]
//@ buffer B i32[128]
__global__ void k(const int *A, int *B) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t > 0) B[t] = A[t - 1];
  else B[(t + 128u) & 127u] = 0;
}
