// Neighbour exchange through shared memory, without a barrier between the
// write and the read: thread t reads the slot thread t+1 writes.  Across
// warps this is a read-after-write race (the reader's warp may run first).
//@ launch neighbour grid(1) block(64)
//@ buffer out i32[64]
//@ expect race

__global__ void neighbour(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t * 10;
  out[t] = s[(t + 1) % 64];
}
