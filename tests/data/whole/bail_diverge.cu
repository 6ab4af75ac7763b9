// Eligible, but the last warp's lanes part at i < n: no warp has run, and
// the launch goes turn by turn (emu/whole.h), the same run.
//@ launch triad grid(4) block(256)
//@ buffer a f32[1000] = iota
//@ buffer b f32[1000] = iota(3, 2)
//@ buffer c f32[1000]
//@ arg n = 1000
__global__ void triad(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] * 2.0f + b[i];
}
