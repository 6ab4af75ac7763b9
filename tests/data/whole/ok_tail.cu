// n not a multiple of 32: the last block's first warp parts its lanes at
// i < n, so that block runs turn by turn, as a launch of it alone, and the
// other 39 a warp at a time (emu/whole.h); tests/engines.sh: the same run
// as turn by turn.
//@ launch triad grid(40) block(256)
//@ buffer a f32[10000] = iota
//@ buffer b f32[10000] = iota(3, 2)
//@ buffer c f32[10000]
//@ arg n = 10000
__global__ void triad(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] * 2.0f + b[i];
}
