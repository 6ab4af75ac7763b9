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
  // an ordinary launch: CUDA 13 gives it a grid workspace too, and with every
  // block resident its grid.sync() holds (on an H200, and here)
  ring<<<8, 64>>>(a, b);
  printf("ordinary launch, synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
#ifdef TOO_MANY
  // more blocks than the device holds at once: refused as cooperative; as an
  // ordinary launch, the resident blocks wait at the grid barrier for ever
  int *big;
  cudaMalloc(&big, 4096 * sizeof(int));
  void *bargs[] = {&big, &big};
  printf("cooperative, too many blocks: %s\n",
         cudaGetErrorName(cudaLaunchCooperativeKernel((const void *)ring, dim3(4096), dim3(1024), bargs, 0, 0)));
  ring<<<4096, 1024>>>(big, big);
  printf("ordinary, too many blocks, synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
#endif
  return 0;
}
