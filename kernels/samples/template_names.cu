// Template instances named as users write them: integer, unsigned and
// bool arguments as in the source (the demangler says 256u), a namespace,
// and a long argument.
//@ launch ns::fill<int, 256, true> grid(1) block(64)
//@ launch ns::fill<int, 256, false> grid(1) block(64)
//@ launch scale<unsigned, 3> grid(1) block(64)
//@ launch shift<long long, -2> grid(1) block(64)
//@ buffer out i32[64]
//@ buffer u u32[64] = iota
//@ buffer w i64[64] = iota
//@ expect norace
namespace ns {
template <typename T, unsigned N, bool ADD>
__global__ void fill(T *out) {
  if (threadIdx.x < N) out[threadIdx.x] = ADD ? out[threadIdx.x] + 1 : out[threadIdx.x] * 3;
}
template __global__ void fill<int, 256, true>(int *);
template __global__ void fill<int, 256, false>(int *);
}

template <typename T, int K>
__global__ void scale(T *u) { u[threadIdx.x] *= K; }
template __global__ void scale<unsigned, 3>(unsigned *);

template <typename T, long K>
__global__ void shift(T *w) { w[threadIdx.x] += K; }
template __global__ void shift<long long, -2>(long long *);
//@ check out = 3
//@ check u = {0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84, 87, 90, 93, 96, 99, 102, 105, 108, 111, 114, 117, 120, 123, 126, 129, 132, 135, 138, 141, 144, 147, 150, 153, 156, 159, 162, 165, 168, 171, 174, 177, 180, 183, 186, 189}
//@ check w = {-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61}
