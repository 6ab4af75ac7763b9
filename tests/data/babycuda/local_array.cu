// A local array is the thread's own: it races with nothing, and what is
// read from it is a payload.  DRF, proved; with -D INDEX a value read from
// it indexes the global array, which puts the kernel outside.
//@ launch k grid(2) block(32)
//@ buffer in i32[64] = iota
//@ buffer out i32[64]
__global__ void k(const int *in, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int loc[4];
  for (int j = 0; j < 4; j++) loc[j] = in[t] + j;
  int s = loc[in[t] & 3] + loc[0];
#ifdef INDEX
  out[loc[1] & 63] = s;
#else
  out[t] = s;
#endif
}
