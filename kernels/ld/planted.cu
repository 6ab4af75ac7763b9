// A planted race for memory-adaptive checking (LD §4.5): 64 one-warp
// blocks each write their own word of out, except that blocks A and B
// (set with -D A=... -D B=..., default 5 and 42) both write word A.  With M
// private copies per round, the race is found in a round where A and B
// fall in different groups: by round ceil(log_M 64) with the base-M digit
// grouping, and with probability 1 - ((64/M - 1)/63)^r by round r when
// groups are drawn at random (--ld-shuffle).
#ifndef A
#define A 5
#endif
#ifndef B
#define B 42
#endif

__global__ void planted(int *out) {
  int b = blockIdx.x;
  if (threadIdx.x == 0) out[b == B ? A : b] = b + 1;
}
//@ launch planted grid(64) block(32)
//@ buffer out i32[64]
//@ expect race
//@ meta category planted
