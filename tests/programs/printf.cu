// Device printf (every conversion nvcc passes) and the order CUDA prints
// it in: at the next synchronising call, after the host's own output.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void hello(int n, float f, double d, long long l, unsigned u, const char *s) {
  if (threadIdx.x == 0 && blockIdx.x == 1)
    printf("block %d: n=%d neg=%i u=%u x=%x X=%#X o=%o f=%.3f d=%g e=%e l=%lld c=%c s=[%s] pad=[%5d|%-4d] pct=%%\n", blockIdx.x,
           n, -n, u, u, u, u, f, d, d, l, 'G', s, n, n);
}
__global__ void lanes(void) {
  if (threadIdx.x < 4) printf("lane %d of warp %d\n", threadIdx.x, threadIdx.x / 32);
}
__global__ void str(char *s) {
  s[0] = 'o'; s[1] = 'k'; s[2] = 0;
  printf("from memory: %s, null: %s\n", s, (const char *)0);
}

int main(void) {
  char *s;
  cudaMalloc(&s, 8);
  const char *lit = "device string";
  char *dlit;
  cudaMalloc(&dlit, 16);
  cudaMemcpy(dlit, lit, 14, cudaMemcpyHostToDevice);
  hello<<<2, 32>>>(42, 1.5f, 2.25, -1234567890123LL, 3000000000u, dlit);
  printf("host: before the synchronisation\n");
  fflush(stdout);
  cudaDeviceSynchronize();
  printf("host: after it\n");
  lanes<<<1, 32>>>();
  str<<<1, 1>>>(s);
  cudaDeviceSynchronize();
  printf("host: done\n");
  return 0;
}
