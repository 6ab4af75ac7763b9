// A per-thread dot product of length n with a register accumulator: the
// loop carries its counter and the sum.  The sum is a payload (it is
// stored, never an index or a condition), so extraction keeps it opaque
// and the loop is the calculus's `for`; with n bounded (k * 16 must not
// wrap) every array is proved DRF.
//@ launch dot_accumulator grid(1) block(16)
//@ buffer a i32[256] = iota
//@ buffer b i32[256] = iota
//@ buffer out i32[16]
//@ arg n = 16
//@ assume n >= 0 && n <= 16
//@ expect norace
//@ meta babycuda drf
__global__ void dot_accumulator(const int *a, const int *b, int *out, int n) {
  int sum = 0;
  for (int k = 0; k < n; k++) sum += a[threadIdx.x * 16 + k] * b[k * 16 + threadIdx.x];
  out[threadIdx.x] = sum;
}
