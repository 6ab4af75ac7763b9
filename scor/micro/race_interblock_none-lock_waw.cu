// R10 race_interblock_none-lock_waw (ScoR microbenchmark; scor-spec.md section 1).
// Block 0 stores under a device lock, block 1 with no lock (missing lock on one side).
//@ launch kmain grid(2) block(1)
//@ buffer data u32[1] = 0
//@ expect race
//@ meta id R10
//@ meta category lock

// The ScoR idioms (scor-spec.md section 0.1).
#define LOCK_DEV(l) while (atomicCAS(&(l), 0, 1) != 0) {}
#define LOCK_BLK(l) while (atomicCAS_block(&(l), 0, 1) != 0) {}
#define UNLOCK_DEV(l) atomicExch(&(l), 0)
#define UNLOCK_BLK(l) atomicExch_block(&(l), 0)
#define WAITX(f) while (atomicExch(&(f), 0) == 0) {}
#define WAITEQ(f, k) while (atomicAdd(&(f), 0) != (k)) {}

__device__ int lock = 0;

__global__ void kmain(volatile unsigned int *data) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    LOCK_DEV(lock);
    __threadfence();
    data[0] = 1;
    __threadfence();
    UNLOCK_DEV(lock);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    data[0] = 2;
  }
}
