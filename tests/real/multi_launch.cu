// Two launches over the same buffers: the kernel boundary orders memory, so
// the second reads what every block of the first wrote, race-free.
//@ launch produce grid(4) block(32)
//@ launch consume grid(4) block(32)
//@ buffer data i32[128]
//@ buffer sums i32[128]
//@ expect norace
//@ check sums = 127

__global__ void produce(int *data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = i;
}

__global__ void consume(int *data, int *sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sums[i] = data[i] + data[127 - i];
}
