// N1 norace_interblock_atom (ScoR microbenchmark; scor-spec.md section 1).
// Both blocks exchange into data[0] with device-scope atomics: no race.
//@ launch kmain grid(2) block(1)
//@ buffer data u32[1] = 0
//@ expect norace
//@ meta id N1
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
  if (threadIdx.x == 0) atomicExch(&d[0], blockIdx.x + 1);
}
