// R5 race_interblock_lock-blkfence_waw (ScoR microbenchmark; scor-spec.md section 1).
// Block 0 follows its device-scope lock with a block fence only: the lock
// is never established at device scope (acquire fence of insufficient scope).
//@ launch kmain grid(2) block(1)
//@ buffer data u32[1] = 0
//@ expect race
//@ meta id R5
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
    __threadfence_block();  // improper scope
    data[0] = 1;
    __threadfence();
    UNLOCK_DEV(lock);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    LOCK_DEV(lock);
    __threadfence();
    data[0] = 2;
    __threadfence();
    UNLOCK_DEV(lock);
  }
}
