// Tiled transpose through shared memory (8x8 tiles, 2x2 blocks): each
// thread writes tile[ty][tx], the block synchronises, then reads
// tile[tx][ty], another thread's element.  DRF.
//@ launch transpose grid(2,2) block(8,8)
//@ buffer in f32[256] = iota
//@ buffer out f32[256]
//@ expect norace
//@ meta babycuda drf
#define T 8
#define W 16
__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[T][T];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * W + x];
  __syncthreads();
  int ox = blockIdx.y * T + threadIdx.x, oy = blockIdx.x * T + threadIdx.y;
  out[oy * W + ox] = tile[threadIdx.x][threadIdx.y];
}
