// A planted race for memory-adaptive checking (LD §4.5): 64 one-warp
// blocks each write their own word of out, except that blocks a and b
// (the arguments: 5 and 42 here; bench/ld_bench.c draws them) both write
// word a.  With M
// private copies per round, the race is found in a round where A and B
// fall in different groups: by round ceil(log_M 64) with the base-M digit
// grouping, and with probability 1 - ((64/M - 1)/63)^r by round r when
// groups are drawn at random (--ld-shuffle).
__global__ void planted(int *out, int a, int b) {
  int k = blockIdx.x;
  if (threadIdx.x == 0) out[k == b ? a : k] = k + 1;
}
//@ launch planted grid(64) block(32)
//@ buffer out i32[64]
//@ arg a = 5
//@ arg b = 42
//@ expect race
//@ meta category planted
