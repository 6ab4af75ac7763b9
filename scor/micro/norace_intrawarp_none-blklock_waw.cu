// N14 norace_intrawarp_none-blklock_waw (ScoR microbenchmark; scor-spec.md section 1).
// One thread, a correct block-scope critical section, then a store after it.
//@ launch kmain grid(1) block(1)
//@ buffer data u32[1] = 0
//@ expect norace
//@ meta id N14
//@ meta category lock
//@ check data = 2
//@ check lock = 0

// The ScoR idioms (scor-spec.md section 0.1).
#define LOCK_DEV(l) while (atomicCAS(&(l), 0, 1) != 0) {}
#define LOCK_BLK(l) while (atomicCAS_block(&(l), 0, 1) != 0) {}
#define UNLOCK_DEV(l) atomicExch(&(l), 0)
#define UNLOCK_BLK(l) atomicExch_block(&(l), 0)
#define WAITX(f) while (atomicExch(&(f), 0) == 0) {}
#define WAITEQ(f, k) while (atomicAdd(&(f), 0) != (k)) {}

__device__ int lock = 0;

__global__ void kmain(volatile unsigned int *data) {
  LOCK_BLK(lock);
  __threadfence_block();
  data[0] = 1;
  __threadfence_block();
  UNLOCK_BLK(lock);
  data[0] = 2;
}
