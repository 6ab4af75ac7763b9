// N4 norace_interwarp-block_fence-atom_hrd-indirect (ScoR microbenchmark; scor-spec.md section 1).
// Block-scope atomics of two blocks, ordered transitively: a block-scope
// hand-over to warp 1 of block 0, a device-scope atomic there, then a
// device-scope hand-over to block 1.
//@ launch kmain grid(2) block(33)
//@ buffer data u32[1] = 0
//@ expect norace
//@ meta id N4
//@ meta category atomic
//@ check data = 3
//@ check flag = 3

// The ScoR idioms (scor-spec.md section 0.1).
#define LOCK_DEV(l) while (atomicCAS(&(l), 0, 1) != 0) {}
#define LOCK_BLK(l) while (atomicCAS_block(&(l), 0, 1) != 0) {}
#define UNLOCK_DEV(l) atomicExch(&(l), 0)
#define UNLOCK_BLK(l) atomicExch_block(&(l), 0)
#define WAITX(f) while (atomicExch(&(f), 0) == 0) {}
#define WAITEQ(f, k) while (atomicAdd(&(f), 0) != (k)) {}

__device__ int flag = 0;

__global__ void kmain(unsigned int *data) {
  unsigned int *d = (unsigned int *)data;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    atomicExch_block(&d[0], 1);
    __threadfence_block();
    atomicExch(&flag, 1);
  } else if (blockIdx.x == 0 && threadIdx.x == 32) {
    WAITEQ(flag, 1);
    atomicExch(&d[0], 2);
    __threadfence();
    atomicExch(&flag, 2);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    WAITEQ(flag, 2);
    atomicExch_block(&d[0], 3);
    __threadfence_block();
    atomicExch(&flag, 3);
  } else if (blockIdx.x == 1 && threadIdx.x == 32) {
    WAITEQ(flag, 3);
    atomicExch(&d[0], 3);
  }
}
