// A double-buffered pipeline of asynchronous copies (sm_80's cp.async,
// through cuda_pipeline.h's primitives): tile t + 1 is in flight while the
// block reads tile t.  Each thread sums its neighbours' elements, so a
// thread reads what others copied.  With -D NO_WAIT the wait before the
// barrier is left out: the copies may land after it, a race.
//@ arch sm_80
//@ launch stencil grid(2) block(64)
//@ buffer in i32[1024] = iota
//@ buffer out i32[128]
//@ expect race if NO_WAIT
#include <cuda_pipeline.h>

__global__ void stencil(const int *in, int *out) {
  __shared__ int tile[2][64];
  const int tiles = 8, t0 = blockIdx.x * tiles * 64;
  int acc = 0;
  __pipeline_memcpy_async(&tile[0][threadIdx.x], &in[t0 + threadIdx.x], sizeof(int));
  __pipeline_commit();
  for (int t = 0; t < tiles; t++) {
    if (t + 1 < tiles)
      __pipeline_memcpy_async(&tile[(t + 1) % 2][threadIdx.x], &in[t0 + (t + 1) * 64 + threadIdx.x], sizeof(int));
    __pipeline_commit();
#ifndef NO_WAIT
    __pipeline_wait_prior(1);
#endif
    __syncthreads();
    acc += tile[t % 2][(threadIdx.x + 1) % 64] + tile[t % 2][(threadIdx.x + 63) % 64];
    __syncthreads();
  }
  out[blockIdx.x * 64 + threadIdx.x] = acc;
}
//@ check out = {4096, 3600, 3616, 3632, 3648, 3664, 3680, 3696, 3712, 3728, 3744, 3760, 3776, 3792, 3808, 3824, 3840, 3856, 3872, 3888, 3904, 3920, 3936, 3952, 3968, 3984, 4000, 4016, 4032, 4048, 4064, 4080, 4096, 4112, 4128, 4144, 4160, 4176, 4192, 4208, 4224, 4240, 4256, 4272, 4288, 4304, 4320, 4336, 4352, 4368, 4384, 4400, 4416, 4432, 4448, 4464, 4480, 4496, 4512, 4528, 4544, 4560, 4576, 4080, 12288, 11792, 11808, 11824, 11840, 11856, 11872, 11888, 11904, 11920, 11936, 11952, 11968, 11984, 12000, 12016, 12032, 12048, 12064, 12080, 12096, 12112, 12128, 12144, 12160, 12176, 12192, 12208, 12224, 12240, 12256, 12272, 12288, 12304, 12320, 12336, 12352, 12368, 12384, 12400, 12416, 12432, 12448, 12464, 12480, 12496, 12512, 12528, 12544, 12560, 12576, 12592, 12608, 12624, 12640, 12656, 12672, 12688, 12704, 12720, 12736, 12752, 12768, 12272}
