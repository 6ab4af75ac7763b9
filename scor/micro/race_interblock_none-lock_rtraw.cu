// R9 race_interblock_none-lock_rtraw (ScoR microbenchmark; scor-spec.md section 1).
// Block 0 stores data after its unlock, outside the critical section in which
// block 1 loads it.  Both blocks also store the plain dummy inside the
// critical section, which the strong-access rule reports as well.
//@ launch kmain grid(2) block(1)
//@ buffer data u32[1] = 0
//@ expect race
//@ meta id R9
//@ meta category lock

// The ScoR idioms (scor-spec.md section 0.1).
#define LOCK_DEV(l) while (atomicCAS(&(l), 0, 1) != 0) {}
#define LOCK_BLK(l) while (atomicCAS_block(&(l), 0, 1) != 0) {}
#define UNLOCK_DEV(l) atomicExch(&(l), 0)
#define UNLOCK_BLK(l) atomicExch_block(&(l), 0)
#define WAITX(f) while (atomicExch(&(f), 0) == 0) {}
#define WAITEQ(f, k) while (atomicAdd(&(f), 0) != (k)) {}

__device__ int lock = 0;
__device__ int dummy = 0;

__global__ void kmain(volatile unsigned int *data) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    LOCK_DEV(lock);
    __threadfence();
    unsigned int r = data[0];
    dummy = (int)r;
    __threadfence();
    UNLOCK_DEV(lock);
    data[0] = 1;
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    LOCK_DEV(lock);
    __threadfence();
    unsigned int r = data[0];
    dummy = (int)r;
    __threadfence();
    UNLOCK_DEV(lock);
  }
}
