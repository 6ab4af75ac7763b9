// Weak memory performs at L2 at once the accesses no thread can tell apart
// (emu/prov.h): triad's loads of allocations nobody writes and its one
// store per thread to an allocation nobody reads, and a histogram's
// atomics whose results nobody reads, of one commutative operation, to
// bins nothing else touches (its input loads too).  tests/cli.sh counts
// them: 256 x 3 + 256 x 2 = 1280 lanes' accesses at once.
//@ launch triad grid(4) block(64)
//@ launch hist grid(4) block(64)
//@ buffer a f32[256] = iota
//@ buffer b f32[256] = iota
//@ buffer c f32[256]
//@ buffer in u32[256] = iota
//@ buffer bins u32[16]
//@ check bins = {16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16}
__global__ void triad(const float *a, const float *b, float *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] * 2.0f + b[i];
}

__global__ void hist(const unsigned *in, unsigned *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[in[i] & 15u], 1u);
}
