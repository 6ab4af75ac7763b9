// N5 norace_interwarp-block_fence_hrf-indirect (ScoR microbenchmark; scor-spec.md section 1).
// A chain of hand-overs with block, device, then block scope: ordered only
// transitively (HRF-indirect).
//@ launch kmain grid(2) block(33)
//@ buffer data u32[1] = 0
//@ expect norace
//@ meta id N5
//@ meta category fence
//@ check data = 5
//@ check dummy = 5
//@ check flag = 3

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
    __threadfence_block();
    atomicExch(&flag, 1);
  } else if (blockIdx.x == 0 && threadIdx.x == 32) {
    WAITEQ(flag, 1);
    unsigned int r = data[0];
    data[0] = r + 2;
    __threadfence();
    atomicExch(&flag, 2);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    WAITEQ(flag, 2);
    unsigned int r = data[0];
    data[0] = r + 2;
    __threadfence_block();
    atomicExch(&flag, 3);
  } else if (blockIdx.x == 1 && threadIdx.x == 32) {
    WAITEQ(flag, 3);
    unsigned int r = data[0];
    dummy = (int)r;
  }
}
