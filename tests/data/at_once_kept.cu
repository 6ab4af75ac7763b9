// Accesses that weak memory keeps in its model (emu/prov.h), a kernel per
// reason, each access the first of its warp (nothing else in flight),
// written so that nvcc keeps each reason too (a barrier between stores it
// would merge): tests/cli.sh expects none performed at once.  twice: two
// stores whose addresses differ by a word (thread i's second store and
// thread i+1's first write one word, and could reach L2 in either order);
// loop: a loop whose steps are a word apart (the same);
// per_block: the same addresses in every block; rw: stored and loaded;
// used: an atomic whose result is read; fsum: a float atomicAdd (its
// rounding depends on the order); blk: block-scope atomics (not atomic
// across SMs); mixed: two operations that do not commute.
//@ launch twice grid(4) block(64)
//@ launch loop grid(4) block(64)
//@ launch per_block grid(4) block(64)
//@ launch rw grid(4) block(64)
//@ launch used grid(4) block(64)
//@ launch fsum grid(4) block(64)
//@ launch blk grid(4) block(64)
//@ launch mixed grid(4) block(64)
//@ buffer out u32[264]
//@ buffer f f32[1]
__global__ void twice(unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1u;
  __syncthreads();
  out[i + 1u] = 2u;
}

__global__ void loop(unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned k = 0; k < 3u; k++) {
    out[i + k] = k;
    __syncthreads();
  }
}

__global__ void per_block(unsigned *out) { out[threadIdx.x] = blockIdx.x; }

__global__ void rw(unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
  if (out[i ^ 1u] == 100000u) __trap();
}

__global__ void used(unsigned *out) {
  if (atomicAdd(&out[0], 1u) == 100000u) __trap();
}

__global__ void fsum(float *f) { atomicAdd(&f[0], 1.0f); }

__global__ void blk(unsigned *out) { atomicAdd_block(&out[threadIdx.x & 7u], 1u); }

__global__ void mixed(unsigned *out) {
  atomicAdd(&out[threadIdx.x & 7u], 1u);
  atomicOr(&out[threadIdx.x & 7u], 2u);
}
