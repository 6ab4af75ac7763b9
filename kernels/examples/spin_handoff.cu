// Two-block hand-off through a device-scope flag: block 0 writes the data,
// fences at device scope and raises the flag with an atomic; block 1 spins
// on the flag, then reads the data.  The spin terminates under every fair
// schedule, and the fence makes the data visible before the flag.
//@ launch handoff grid(2) block(32)
//@ buffer data i32[32]
//@ buffer out i32[32]
//@ expect norace
//@ check out = {7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38}
//@ check flag = 1

__device__ int flag = 0;

__global__ void handoff(volatile int *data, int *out) {
  int t = threadIdx.x;
  if (blockIdx.x == 0) {
    data[t] = t + 7;
    __threadfence();
    __syncthreads();
    if (t == 0) atomicExch(&flag, 1);
  } else {
    if (t == 0) {
      while (atomicAdd(&flag, 0) == 0) { }
    }
    __syncthreads();
    out[t] = data[t];
  }
}
