// A per-thread dot product of length n with a register accumulator: the
// loop carries its counter and the sum, and the calculus has no mutable
// variables, so the kernel is outside it (write the partial sums to memory,
// as matmul_tiled does, to bring it in; with a constant length the
// extraction unrolls the loop and the sum is an expression again).
//@ launch dot_accumulator grid(1) block(16)
//@ buffer a i32[256] = iota
//@ buffer b i32[256] = iota
//@ buffer out i32[16]
//@ arg n = 16
//@ expect norace
//@ meta babycuda outside
__global__ void dot_accumulator(const int *a, const int *b, int *out, int n) {
  int sum = 0;
  for (int k = 0; k < n; k++) sum += a[threadIdx.x * 16 + k] * b[k * 16 + threadIdx.x];
  out[threadIdx.x] = sum;
}
