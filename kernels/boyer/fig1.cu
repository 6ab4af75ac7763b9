extern __shared__ int s[];

__global__ void kernel(int *out) {
  int id = threadIdx.x;
  int nt = blockDim.x;

  s[id] = id;
  out[id] = s[(id + 1) % nt];
}
// Figure 1 of Boyer, Skadron and Weimer (2008), line for line: each thread
// writes its slot (line 7) and reads its neighbour's (line 8) with no
// barrier between.  Across warps the read may come first: a RAW hazard at
// line 8.  (Directives sit below the kernel so that its line numbers are
// the paper's.)
//@ launch kernel grid(1) block(64) shared(256)
//@ buffer out i32[64]
//@ expect race
//@ meta category shared
