// An accumulator used as an index after its loop: the calculus cannot
// compute it, so the kernel is outside, at the store that uses it.
//@ launch k grid(1) block(16)
//@ buffer a i32[256] = iota
//@ buffer out i32[16]
//@ arg n = 16
__global__ void k(const int *a, int *out, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) sum += a[threadIdx.x * 16 + i];
  out[sum & 15] = 1;
}
