// Weak memory performs at L2 at once the accesses no thread can tell apart
// (emu/prov.h): triad's loads of allocations nobody writes and its one
// store per thread to an allocation nobody reads, and a histogram's
// atomics whose results nobody reads, of one commutative operation, to
// bins nothing else touches (its input loads too); a grid-stride loop's
// loads and stores (each thread's addresses a grid apart); a thread's two
// stores to its own word.  tests/cli.sh counts them: 256 x 3 + 256 x 2 +
// 256 x 2 + 256 x 2 = 2304 lanes' accesses at once.
//@ launch triad grid(4) block(64)
//@ launch hist grid(4) block(64)
//@ launch stride grid(2) block(64)
//@ launch rewrite grid(4) block(64)
//@ buffer a f32[256] = iota
//@ buffer b f32[256] = iota
//@ buffer c f32[256]
//@ buffer in u32[256] = iota
//@ buffer bins u32[16]
//@ buffer d f32[256]
//@ buffer e u32[256]
//@ arg n = 256
//@ check bins = {16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16}
//@ check e = 2
__global__ void triad(const float *a, const float *b, float *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] * 2.0f + b[i];
}

__global__ void hist(const unsigned *in, unsigned *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[in[i] & 15u], 1u);
}

__global__ void stride(const float *a, float *d, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) d[i] = a[i] + 1.0f;
}

__global__ void rewrite(unsigned *e) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  e[i] = 1u;
  __syncthreads();
  e[i] = 2u;
}
