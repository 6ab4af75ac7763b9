// 8192 threads: past hb-ptx's launch limit, so hb-ptx stops watching and
// its run must fail (tests/cli.sh), never pass as race-free.
//@ launch triad grid(64) block(128)
//@ buffer a f32[8192] = 1
//@ buffer b f32[8192] = 2
//@ expect norace
__global__ void triad(float *a, const float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = a[i] + 3.0f * b[i];
}
