// The tiled transpose without its barrier: a thread reads tile[tx][ty]
// while its owner may not have written it yet.  Racy (a true alarm).
//@ launch transpose_nosync grid(2,2) block(8,8)
//@ buffer in f32[256] = iota
//@ buffer out f32[256]
//@ expect race
//@ meta babycuda racy
#define T 8
#define W 16
__global__ void transpose_nosync(const float *in, float *out) {
  __shared__ float tile[T][T];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * W + x];
  int ox = blockIdx.y * T + threadIdx.x, oy = blockIdx.x * T + threadIdx.y;
  out[oy * W + ox] = tile[threadIdx.x][threadIdx.y];
}
