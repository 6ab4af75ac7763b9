// R2 race_interblock_blkfence_raw (ScoR microbenchmark; scor-spec.md section 1).
// N2's shape with a block-scope release fence across blocks: insufficient
// fence scope (RAW).
//@ launch kmain grid(2) block(1)
//@ buffer data u32[1] = 0
//@ expect race
//@ meta id R2
//@ meta category fence

// The ScoR idioms (scor-spec.md section 0.1).
#define LOCK_DEV(l) while (atomicCAS(&(l), 0, 1) != 0) {}
#define LOCK_BLK(l) while (atomicCAS_block(&(l), 0, 1) != 0) {}
#define UNLOCK_DEV(l) atomicExch(&(l), 0)
#define UNLOCK_BLK(l) atomicExch_block(&(l), 0)
#define WAITX(f) while (atomicExch(&(f), 0) == 0) {}
#define WAITEQ(f, k) while (atomicAdd(&(f), 0) != (k)) {}

__device__ int flag = 0;

__global__ void kmain(volatile unsigned int *data) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 1;
    __threadfence_block();
    atomicExch(&flag, 1);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    WAITX(flag);
    unsigned int a = data[0];
    atomicExch(&flag, (int)a);
  }
}
