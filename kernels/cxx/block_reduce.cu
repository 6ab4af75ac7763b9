// A CUB-style block reduction written with templates: BlockReduce<T,
// THREADS> keeps its TempStorage in shared memory, reduces each warp with
// shuffles and then the warps' partial sums; one kernel template, two
// instances (int with 256 threads, float with 128), each named by the
// directives as C++ names it.
//@ launch block_sum<int, 256> grid(4) block(256)
//@ buffer in i32[1024] = iota
//@ buffer out i32[4]
//@ expect norace
//@ check out = {32640, 98176, 163712, 229248}

template <typename T, int THREADS>
class BlockReduce {
 public:
  static constexpr int WARPS = THREADS / 32;
  struct TempStorage { T warp_sums[WARPS]; };

  __device__ explicit BlockReduce(TempStorage &storage) : storage_(storage) {}

  __device__ T Sum(T x) {
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    x = WarpSum(x);
    if (lane == 0) storage_.warp_sums[warp] = x;
    __syncthreads();
    T total = T();
    if (warp == 0) {
      total = lane < WARPS ? storage_.warp_sums[lane] : T();
      total = WarpSum(total);
    }
    return total;   // valid in thread 0
  }

 private:
  __device__ static T WarpSum(T x) {
    for (int offset = 16; offset > 0; offset /= 2) x += __shfl_down_sync(0xffffffffu, x, offset);
    return x;
  }
  TempStorage &storage_;
};

template <typename T, int THREADS>
__global__ void block_sum(const T *in, T *out) {
  using Reduce = BlockReduce<T, THREADS>;
  __shared__ typename Reduce::TempStorage storage;
  T x = in[blockIdx.x * THREADS + threadIdx.x];
  T total = Reduce(storage).Sum(x);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

template __global__ void block_sum<int, 256>(const int *, int *);
template __global__ void block_sum<float, 128>(const float *, float *);
