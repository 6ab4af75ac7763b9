// 8192 threads: hb-ptx watches them all (no launch-size limit); with a
// small --hb-max-memory it stops watching, and the run fails (tests/cli.sh).
//@ launch triad grid(64) block(128)
//@ buffer a f32[8192] = 1
//@ buffer b f32[8192] = 2
//@ expect norace
__global__ void triad(float *a, const float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = a[i] + 3.0f * b[i];
}
