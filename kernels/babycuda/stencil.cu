// 1-D three-point stencil with a shared tile and halo: threads load their
// element, the first and last load the halo, a barrier, then each reads
// its neighbours' slots.  Repeated for STEPS time steps, a barrier before
// the tile is overwritten.  DRF.
//@ launch stencil grid(4) block(32)
//@ buffer in i32[130] = iota
//@ buffer out i32[128]
//@ expect norace
//@ meta babycuda drf
#define B 32
#define STEPS 3
__global__ void stencil(const int *in, int *out) {
  __shared__ int s[B + 2];
  int g = blockIdx.x * B + threadIdx.x;
  for (int t = 0; t < STEPS; t++) {
    s[threadIdx.x + 1] = in[g + 1] + t;
    if (threadIdx.x == 0) s[0] = in[g];
    if (threadIdx.x == B - 1) s[B + 1] = in[g + 2];
    __syncthreads();
    out[g] = s[threadIdx.x] + s[threadIdx.x + 1] + s[threadIdx.x + 2];
    __syncthreads();
  }
}
