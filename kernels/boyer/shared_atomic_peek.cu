// The counter of shared_atomic_counter.cu, read by thread 0 with no barrier
// after the other threads' atomicAdd: a RAW hazard between a plain read and
// atomics.
//@ launch count grid(1) block(128)
//@ buffer out u32[1] = 0
//@ expect race
__global__ void count(unsigned *out) {
  __shared__ unsigned n;
  if (threadIdx.x == 0) n = 0;
  __syncthreads();
  atomicAdd(&n, 1u);
  if (threadIdx.x == 0) out[0] = n;
}
