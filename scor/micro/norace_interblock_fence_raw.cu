// N2 norace_interblock_fence_raw (ScoR microbenchmark; scor-spec.md section 1).
// Block 0 publishes data with a device fence before a device-scope flag;
// block 1 consumes it with no fence of its own (release side only).
//@ launch kmain grid(2) block(1)
//@ buffer data u32[1] = 0
//@ expect norace
//@ meta id N2
//@ meta category fence
//@ check dummy = 1
//@ check flag = 0
//@ check data = 1

// The ScoR idioms (scor-spec.md section 0.1).
#define LOCK_DEV(l) while (atomicCAS(&(l), 0, 1) != 0) {}
#define LOCK_BLK(l) while (atomicCAS_block(&(l), 0, 1) != 0) {}
#define UNLOCK_DEV(l) atomicExch(&(l), 0)
#define UNLOCK_BLK(l) atomicExch_block(&(l), 0)
#define WAITX(f) while (atomicExch(&(f), 0) == 0) {}
#define WAITEQ(f, k) while (atomicAdd(&(f), 0) != (k)) {}

__device__ int flag = 0;
__device__ int dummy = 0;

__global__ void kmain(volatile unsigned int *data) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 1;
    __threadfence();
    atomicExch(&flag, 1);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    WAITX(flag);
    unsigned int r = data[0];
    dummy = (int)r;
  }
}
