// Host threads and pinned memory: one thread launches kernels on its own
// pinned buffer while another keeps writing its own pinned buffer, which no
// kernel touches; every value the second thread wrote must stay written
// (a runtime that copied all host-mirrored memory back after each launch
// would put old bytes over it).
#include <atomic>
#include <cstdio>
#include <thread>
#include <cuda_runtime.h>

__global__ void bump(int *v) { v[threadIdx.x] += 1; }

int main(void) {
  int *a, *b;
  cudaHostAlloc(&a, 32 * sizeof(int), cudaHostAllocMapped);
  cudaHostAlloc(&b, 32 * sizeof(int), cudaHostAllocMapped);
  for (int i = 0; i < 32; i++) a[i] = b[i] = 0;
  std::atomic<bool> done(false);
  std::atomic<long> writes(0);
  long lost = 0;
  std::thread writer([&] {
    int last = 0;
    while (!done.load()) {
      if (((volatile int *)b)[0] != last) lost++;
      last++;
      ((volatile int *)b)[0] = last;
      writes.fetch_add(1);
    }
  });
  while (writes.load() < 1000) {}   // the writer is running
  for (int k = 0; k < 2000; k++) bump<<<1, 32>>>(a);
  cudaDeviceSynchronize();
  done = true;
  writer.join();
  printf("launches: a[0] = %d, a[31] = %d; the writer's values lost: %ld (%s)\n", a[0], a[31], lost, writes.load() > 1000 ? "it wrote" : "it never ran");
  return lost != 0;
}
