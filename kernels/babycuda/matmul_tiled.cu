// Tiled matrix multiply (16x16 matrices, 4x4 tiles in shared memory, 2x2
// blocks), accumulating into C in global memory (each thread its own
// element), a barrier after loading the tiles and one before they are
// reloaded.  DRF.
//@ launch matmul_tiled grid(4,4) block(4,4)
//@ buffer A i32[256] = random(7, 0, 9)
//@ buffer B i32[256] = random(8, 0, 9)
//@ buffer C i32[256]
//@ expect norace
//@ meta babycuda drf
#define T 4
#define N 16
__global__ void matmul_tiled(const int *A, const int *B, int *C) {
  __shared__ int As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  for (int t = 0; t < N / T; t++) {
    As[threadIdx.y][threadIdx.x] = A[row * N + t * T + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * T + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < T; k++) C[row * N + col] += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
}
