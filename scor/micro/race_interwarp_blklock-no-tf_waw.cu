// R12 race_interwarp_blklock-no-tf_waw (ScoR microbenchmark; scor-spec.md section 1).
// A block lock with no release fence on either side (missing release fence).
//@ launch kmain grid(1) block(33)
//@ buffer data u32[1] = 0
//@ expect race
//@ meta id R12
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
  if (threadIdx.x == 0 || threadIdx.x == 32) {
    LOCK_BLK(lock);
    __threadfence_block();
    data[0] = threadIdx.x == 0 ? 1 : 2;
    UNLOCK_BLK(lock);
  }
}
