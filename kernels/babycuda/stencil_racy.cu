// The stencil without the barrier at the end of a time step: the next
// step's loads overwrite slots that neighbours are still reading.  Racy.
//@ launch stencil_racy grid(4) block(32)
//@ buffer in i32[130] = iota
//@ buffer out i32[128]
//@ expect race
//@ meta babycuda racy
#define B 32
#define STEPS 3
__global__ void stencil_racy(const int *in, int *out) {
  __shared__ int s[B + 2];
  int g = blockIdx.x * B + threadIdx.x;
  for (int t = 0; t < STEPS; t++) {
    s[threadIdx.x + 1] = in[g + 1] + t;
    if (threadIdx.x == 0) s[0] = in[g];
    if (threadIdx.x == B - 1) s[B + 1] = in[g + 2];
    __syncthreads();
    out[g] = s[threadIdx.x] + s[threadIdx.x + 1] + s[threadIdx.x + 2];
  }
}
