// A flag in shared memory: thread 0 writes the data and then the flag,
// thread 32 (another warp) waits for the flag and reads the data.  Neither
// side fences, and the data is plain: a race on it.
//@ launch flag grid(1) block(64)
//@ buffer out u32[1] = 0
//@ expect race
__global__ void flag(unsigned *out) {
  __shared__ unsigned data;
  __shared__ volatile unsigned ready;
  if (threadIdx.x == 0) ready = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    data = 42;
    ready = 1;
  } else if (threadIdx.x == 32) {
    while (ready == 0) {
    }
    out[0] = data;
  }
}
