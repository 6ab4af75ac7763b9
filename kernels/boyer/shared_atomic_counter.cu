// A shared-memory counter that every thread increments with atomicAdd, read
// after a barrier: race-free.  Atomics are not plain reads and writes, so
// boyer reports nothing (not a WAR hazard between warps, nor one "within a
// warp" between the lanes of one atomic instruction).
//@ launch count grid(2) block(128)
//@ buffer out u32[2] = 0
//@ expect norace
//@ check out = {128, 128}
__global__ void count(unsigned *out) {
  __shared__ unsigned n;
  if (threadIdx.x == 0) n = 0;
  __syncthreads();
  atomicAdd(&n, 1u);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = n;
}
