// A templated stencil that reads its neighbours from shared memory without
// waiting for them to be written: the barrier is missing, a race between
// warps.  (With RADIUS 1 and 64 threads, thread 31 reads s[32], which warp 1
// writes.)
//@ launch stencil<1> grid(1) block(64)
//@ buffer in f32[64] = iota
//@ buffer out f32[64]
//@ expect race
template <int RADIUS>
__global__ void stencil(const float *in, float *out) {
  __shared__ float s[64 + 2 * RADIUS];
  int t = threadIdx.x;
  s[t + RADIUS] = in[t];
  if (t < RADIUS) { s[t] = 0.0f; s[t + 64 + RADIUS] = 0.0f; }
  float acc = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; k++) acc += s[t + RADIUS + k];
  out[t] = acc;
}
template __global__ void stencil<1>(const float *, float *);
