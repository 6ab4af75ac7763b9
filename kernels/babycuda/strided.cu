// Strided loop: thread t handles elements t, t + N, t + 2N, ... of a
// block's slice (coalesced accesses); a guard for the tail.  DRF.
//@ launch strided grid(2) block(32)
//@ buffer in i32[512] = iota
//@ buffer out i32[512]
//@ arg n = 500
//@ assume n >= 0 && n <= 512
//@ expect norace
//@ meta babycuda drf
#define ITEMS 8
__global__ void strided(const int *in, int *out, int n) {
  int base = blockIdx.x * blockDim.x * ITEMS + threadIdx.x;
  for (int k = 0; k < ITEMS; k++) {
    int i = base + k * blockDim.x;
    if (i < n) out[i] = 2 * in[i];
  }
}
