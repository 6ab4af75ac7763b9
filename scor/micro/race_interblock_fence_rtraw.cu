// R4 race_interblock_fence_rtraw (ScoR microbenchmark; scor-spec.md section 1).
// Block 0's second load of data comes after its release, so block 1's store
// after the flag races with it (WAR or RAW by interleaving).
//@ launch kmain grid(2) block(1)
//@ buffer data u32[1] = 0
//@ expect race
//@ meta id R4
//@ meta category fence

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
    unsigned int r = data[0];
    dummy = (int)r;
    __threadfence();
    atomicExch(&flag, 1);
    r = data[0];
    dummy = (int)r;
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    WAITX(flag);
    data[0] = 1;
  }
}
