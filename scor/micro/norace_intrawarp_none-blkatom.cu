// N12 norace_intrawarp_none-blkatom (ScoR microbenchmark; scor-spec.md section 1).
// One thread: a block-scope atomic, then a volatile store.
//@ launch kmain grid(1) block(1)
//@ buffer data u32[1] = 0
//@ expect norace
//@ meta id N12
//@ meta category atomic
//@ check data = 2

// The ScoR idioms (scor-spec.md section 0.1).
#define LOCK_DEV(l) while (atomicCAS(&(l), 0, 1) != 0) {}
#define LOCK_BLK(l) while (atomicCAS_block(&(l), 0, 1) != 0) {}
#define UNLOCK_DEV(l) atomicExch(&(l), 0)
#define UNLOCK_BLK(l) atomicExch_block(&(l), 0)
#define WAITX(f) while (atomicExch(&(f), 0) == 0) {}
#define WAITEQ(f, k) while (atomicAdd(&(f), 0) != (k)) {}


__global__ void kmain(volatile unsigned int *data) {
  atomicExch_block((unsigned int *)&data[0], 1);
  data[0] = 2;
}
