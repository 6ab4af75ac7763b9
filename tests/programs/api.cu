// The runtime API a program uses, group by group, each result printed:
// the same lines on a GPU and under gpurace exec (scripts/hw-programs.sh).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); return 1; } } while (0)

__device__ int table[4] = {1, 2, 3, 4};
__constant__ float coef[2];
__managed__ int counter = 5;

__global__ void scale(float *x, int n, float by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * by + coef[0] + table[i % 4];
}
__global__ void bump(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += i;
  if (i == 0) counter += 10;
}
__global__ void rows(char *base, size_t pitch, int width, int height) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < width && y < height) base[y * pitch + x] += (char)(x + y);
}
__global__ void reverse(int *out, const int *in) {   // dynamic shared memory
  extern __shared__ int s[];
  int t = threadIdx.x, n = blockDim.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[n - 1 - t];
}

static int errors_group(void) {
  printf("errors: %s / %s / %s\n", cudaGetErrorName(cudaErrorInvalidValue), cudaGetErrorString(cudaErrorMemoryAllocation),
         cudaGetErrorName(cudaErrorIllegalAddress));
  cudaError_t e = cudaMalloc(NULL, 16);
  cudaError_t peek = cudaPeekAtLastError(), last = cudaGetLastError(), after = cudaGetLastError();
  printf("errors: cudaMalloc(NULL) %s, peek %s, last %s, then %s\n", cudaGetErrorName(e), cudaGetErrorName(peek),
         cudaGetErrorName(last), cudaGetErrorName(after));
  return 0;
}

static int device_group(void) {
  int n = 0, dev = -1, rv = 0, dv = 0, ws = 0;
  CHECK(cudaGetDeviceCount(&n));
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  CHECK(cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, 0));
  CHECK(cudaRuntimeGetVersion(&rv));
  CHECK(cudaDriverGetVersion(&dv));
  printf("device: count>=1 %d, device %d, warpSize %d/%d, maxThreadsPerBlock %d, maxThreadsDim.z %d, major>=7 %d, "
         "managed %d, cooperative %d, runtime>=13000 %d, driver>=runtime %d\n",
         n >= 1, dev, p.warpSize, ws, p.maxThreadsPerBlock, p.maxThreadsDim[2], p.major >= 7, p.managedMemory,
         p.cooperativeLaunch, rv >= 13000, dv >= rv);
  printf("device: cudaSetDevice(%d) %s\n", n, cudaGetErrorName(cudaSetDevice(n)));
  cudaGetLastError();
  return 0;
}

static int memory_group(void) {
  const int n = 64;
  float h[n], back[n];
  for (int i = 0; i < n; i++) h[i] = (float)i;
  float *d, *d2;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&d2, n * sizeof(float)));
  const float c0 = 0.5f;
  CHECK(cudaMemcpyToSymbol(coef, &c0, sizeof c0));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  scale<<<2, 32>>>(d, n, 2.0f);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(d2, d, sizeof h, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemset(d, 0, sizeof h));
  CHECK(cudaMemcpy(back, d2, sizeof back, cudaMemcpyDeviceToHost));
  printf("memory: scale %g %g %g %g\n", back[0], back[1], back[5], back[63]);
  CHECK(cudaMemcpy(back, d, sizeof back, cudaMemcpyDefault));
  printf("memory: memset %g %g\n", back[0], back[63]);
  printf("memory: wrong direction %s\n", cudaGetErrorName(cudaMemcpy(back, d, sizeof back, cudaMemcpyHostToDevice)));
  cudaGetLastError();
  CHECK(cudaFree(d));
  CHECK(cudaFree(d2));
  CHECK(cudaFree(NULL));
  // pitched rows
  char *pd;
  size_t pitch;
  const int w = 5, hgt = 3;
  char host[hgt][w];
  memset(host, 1, sizeof host);
  CHECK(cudaMallocPitch((void **)&pd, &pitch, w, hgt));
  CHECK(cudaMemcpy2D(pd, pitch, host, w, w, hgt, cudaMemcpyHostToDevice));
  rows<<<hgt, 32>>>(pd, pitch, w, hgt);
  CHECK(cudaMemcpy2D(host, w, pd, pitch, w, hgt, cudaMemcpyDeviceToHost));
  printf("memory: pitch>=width %d, rows %d %d %d %d\n", pitch >= (size_t)w, host[0][0], host[0][4], host[2][0], host[2][4]);
  CHECK(cudaFree(pd));
  // symbols
  int t[4];
  CHECK(cudaMemcpyFromSymbol(t, table, sizeof t));
  int *tp;
  size_t ts;
  CHECK(cudaGetSymbolAddress((void **)&tp, table));
  CHECK(cudaGetSymbolSize(&ts, table));
  int seven = 7;
  CHECK(cudaMemcpy(tp + 3, &seven, sizeof seven, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyFromSymbol(&seven, table, sizeof seven, 3 * sizeof(int)));
  printf("symbols: table %d %d %d %d, size %zu, table[3] now %d\n", t[0], t[1], t[2], t[3], ts, seven);
  return 0;
}

static int shared_memory_group(void) {
  // managed memory: one address, host and device
  int *m;
  CHECK(cudaMallocManaged(&m, 8 * sizeof(int)));
  for (int i = 0; i < 8; i++) m[i] = 100;
  bump<<<1, 8>>>(m, 8);
  CHECK(cudaDeviceSynchronize());
  printf("managed: %d %d %d, __managed__ counter %d\n", m[0], m[1], m[7], counter);
  counter = 1;
  bump<<<1, 8>>>(m, 8);
  CHECK(cudaDeviceSynchronize());
  printf("managed: %d %d, counter %d\n", m[0], m[7], counter);
  cudaPointerAttributes a;
  CHECK(cudaPointerGetAttributes(&a, m));
  printf("managed: attributes type %s\n", a.type == cudaMemoryTypeManaged ? "managed" : "other");
  CHECK(cudaFree(m));
  // pinned host memory, mapped: the kernel writes it through its host address
  int *pin, *dpin;
  CHECK(cudaHostAlloc(&pin, 4 * sizeof(int), cudaHostAllocMapped));
  for (int i = 0; i < 4; i++) pin[i] = 1;
  CHECK(cudaHostGetDevicePointer((void **)&dpin, pin, 0));
  bump<<<1, 4>>>(dpin, 4);
  CHECK(cudaDeviceSynchronize());
  printf("pinned: %d %d %d %d\n", pin[0], pin[1], pin[2], pin[3]);
  CHECK(cudaFreeHost(pin));
  // registered host memory
  static int reg[1024];
  for (int i = 0; i < 4; i++) reg[i] = 10;
  CHECK(cudaHostRegister(reg, sizeof reg, cudaHostRegisterMapped));
  int *dreg;
  CHECK(cudaHostGetDevicePointer((void **)&dreg, reg, 0));
  bump<<<1, 4>>>(dreg, 4);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaHostUnregister(reg));
  printf("registered: %d %d %d %d\n", reg[0], reg[1], reg[2], reg[3]);
  return 0;
}

static int stream_group(void) {
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t start, stop, mid;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventCreateWithFlags(&mid, cudaEventDisableTiming));
  int *d, h[8];
  int *pin;
  CHECK(cudaMallocHost(&pin, sizeof h));
  for (int i = 0; i < 8; i++) pin[i] = i;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaEventRecord(start, s1));
  CHECK(cudaMemcpyAsync(d, pin, sizeof h, cudaMemcpyHostToDevice, s1));
  bump<<<1, 8, 0, s1>>>(d, 8);
  bump<<<1, 8, 0, s1>>>(d, 8);
  CHECK(cudaEventRecord(mid, s1));
  CHECK(cudaStreamWaitEvent(s2, mid, 0));
  bump<<<1, 8, 0, s2>>>(d, 8);
  CHECK(cudaMemcpyAsync(pin, d, sizeof h, cudaMemcpyDeviceToHost, s2));
  CHECK(cudaEventRecord(stop, s2));
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  printf("streams: %d %d %d, query %s %s, elapsed>=0 %d, no timing %s\n", pin[0], pin[1], pin[7],
         cudaGetErrorName(cudaStreamQuery(s1)), cudaGetErrorName(cudaEventQuery(stop)), ms >= 0,
         cudaGetErrorName(cudaEventElapsedTime(&ms, start, mid)));
  cudaGetLastError();
  unsigned flags;
  CHECK(cudaStreamGetFlags(s2, &flags));
  printf("streams: s2 flags %u\n", flags);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaEventDestroy(mid));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(d));
  CHECK(cudaFreeHost(pin));
  return 0;
}

static int launch_group(void) {
  const int n = 32;
  int h[n], *in, *out;
  for (int i = 0; i < n; i++) h[i] = i * i;
  CHECK(cudaMalloc(&in, sizeof h));
  CHECK(cudaMalloc(&out, sizeof h));
  CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
  reverse<<<1, n, n * sizeof(int)>>>(out, in);
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("launch: dynamic shared %d %d %d\n", h[0], h[1], h[31]);
  void *args[] = {&out, &in};
  CHECK(cudaLaunchKernel((const void *)reverse, dim3(1), dim3(n), args, n * sizeof(int), 0));
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("launch: cudaLaunchKernel %d %d\n", h[0], h[31]);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(n);
  config.dynamicSmemBytes = n * sizeof(int);
  cudaLaunchAttribute attr[2];
  attr[0].id = cudaLaunchAttributePriority;
  attr[0].val.priority = 0;
  attr[1].id = cudaLaunchAttributeCooperative;
  attr[1].val.cooperative = 1;
  config.attrs = attr;
  config.numAttrs = 2;
  CHECK(cudaMemset(out, 0, sizeof h));
  CHECK(cudaLaunchKernelEx(&config, reverse, out, (const int *)in));
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("launch: cudaLaunchKernelEx %d %d\n", h[0], h[31]);
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, reverse));
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reverse, 128, 0));
  printf("launch: maxThreadsPerBlock %d, occupancy>0 %d\n", fa.maxThreadsPerBlock, blocks > 0);
  reverse<<<1, 2048>>>(out, in);
  cudaError_t first = cudaGetLastError(), second = cudaGetLastError();
  printf("launch: 2048 threads %s, then %s\n", cudaGetErrorName(first), cudaGetErrorName(second));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}

// cudaDeviceReset: allocations go, __device__ variables start again from their
// initial values, a __managed__ one keeps its value (as an H200 does)
static int reset_group(void) {
  int ninety = 90, *d, t0 = 0;
  CHECK(cudaMemcpyToSymbol(table, &ninety, sizeof ninety));
  CHECK(cudaMalloc(&d, 64));
  CHECK(cudaDeviceReset());
  CHECK(cudaMemcpyFromSymbol(&t0, table, sizeof t0));
  printf("reset: table[0] %d, __managed__ counter %d, last error %s\n", t0, counter, cudaGetErrorName(cudaGetLastError()));
  return 0;
}

int main(void) {
  if (errors_group() || device_group() || memory_group() || shared_memory_group() || stream_group() || launch_group() ||
      reset_group()) return 1;
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
