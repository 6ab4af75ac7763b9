extern __shared__ int s[];

__global__ void kernel(int *out) {
  int id = threadIdx.x;
  int nt = blockDim.x;

  s[id] = id;
  __syncthreads();
  out[id] = s[(id + 1) % nt];
}
// Figure 1 with the __syncthreads between lines 7 and 8 that the paper
// proposes: no hazard.
//@ launch kernel grid(1) block(64) shared(256)
//@ buffer out i32[64]
//@ expect norace
//@ meta category shared
//@ check out = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 0}
