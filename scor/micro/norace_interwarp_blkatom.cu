// N6 norace_interwarp_blkatom (ScoR microbenchmark; scor-spec.md section 1).
// Two warps of one block exchange with block-scope atomics: block scope is enough.
//@ launch kmain grid(1) block(33)
//@ buffer data u32[1] = 0
//@ expect norace
//@ meta id N6
//@ meta category atomic

// The ScoR idioms (scor-spec.md section 0.1).
#define LOCK_DEV(l) while (atomicCAS(&(l), 0, 1) != 0) {}
#define LOCK_BLK(l) while (atomicCAS_block(&(l), 0, 1) != 0) {}
#define UNLOCK_DEV(l) atomicExch(&(l), 0)
#define UNLOCK_BLK(l) atomicExch_block(&(l), 0)
#define WAITX(f) while (atomicExch(&(f), 0) == 0) {}
#define WAITEQ(f, k) while (atomicAdd(&(f), 0) != (k)) {}


__global__ void kmain(unsigned int *data) {
  unsigned int *d = (unsigned int *)data;
  if (threadIdx.x == 0) atomicExch_block(&d[0], 1);
  else if (threadIdx.x == 32) atomicExch_block(&d[0], 2);
}
