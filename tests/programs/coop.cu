// A cooperative launch with a grid-wide barrier: every block writes, the
// grid synchronises, every block reads its neighbour's.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void ring(int *a, int *b) {
  cg::grid_group g = cg::this_grid();
  int nb = gridDim.x;
  if (threadIdx.x == 0) a[blockIdx.x] = blockIdx.x * 10;
  g.sync();
  if (threadIdx.x == 0) b[blockIdx.x] = a[(blockIdx.x + 1) % nb];
}

int main(void) {
  int *a, *b, h[8];
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h);
  void *args[] = {&a, &b};
  cudaError_t e = cudaLaunchCooperativeKernel((const void *)ring, dim3(8), dim3(64), args, 0, 0);
  printf("launch: %s\n", cudaGetErrorName(e));
  cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++) printf("%d%c", h[i], i == 7 ? '\n' : ' ');
  ring<<<8, 64>>>(a, b);   // grid.sync() outside a cooperative launch: the GPU traps
  printf("ordinary launch, synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
