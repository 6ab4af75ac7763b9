// N11 norace_interwarp_fence_raw (ScoR microbenchmark; scor-spec.md section 1).
// N7 with a device fence.
//@ launch kmain grid(1) block(33)
//@ buffer data u32[1] = 0
//@ expect norace
//@ meta id N11
//@ meta category fence
//@ check flag = 1
//@ check data = 1

// The ScoR idioms (scor-spec.md section 0.1).
#define LOCK_DEV(l) while (atomicCAS(&(l), 0, 1) != 0) {}
#define LOCK_BLK(l) while (atomicCAS_block(&(l), 0, 1) != 0) {}
#define UNLOCK_DEV(l) atomicExch(&(l), 0)
#define UNLOCK_BLK(l) atomicExch_block(&(l), 0)
#define WAITX(f) while (atomicExch(&(f), 0) == 0) {}
#define WAITEQ(f, k) while (atomicAdd(&(f), 0) != (k)) {}

__device__ int flag = 0;

__global__ void kmain(volatile unsigned int *data) {
  if (threadIdx.x == 0) {
    data[0] = 1;
    __threadfence();
    atomicExch(&flag, 1);
  } else if (threadIdx.x == 32) {
    WAITX(flag);
    unsigned int a = data[0];
    atomicExch(&flag, (int)a);
  }
}
