// As ok_tail.cu, but the block whose lanes part stores past c's end: its
// run turn by turn faults, what it wrote is put back, and the launch runs
// again turn by turn from its start, the fault the turns' (emu/whole.h).
//@ launch shift grid(40) block(256)
//@ buffer a f32[10000] = iota
//@ buffer c f32[10000]
//@ arg n = 10000
__global__ void shift(const float *a, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i + (i >= 9990 ? 20 : 0)] = a[i] + 1.0f;
}
