// tail_nosync.cu in global memory: the warp-synchronous tail with no
// __syncwarp over a global buffer.  Under lockstep the warp is one agent of
// the memory model, so even under --memory weak each lane reads what the
// warp stored before (2080 on every schedule); under --warps its lanes are
// agents of their own and the sum goes wrong, as on an H100 (70).
//@ launch tail grid(1) block(64)
//@ buffer s u32[64] = 0
//@ buffer out u32[1] = 0
//@ expect race
//@ check out = {2080}
__global__ void tail(unsigned *s, unsigned *out) {
  unsigned t = threadIdx.x;
  s[t] = t + 1;
  __syncthreads();
  if (t < 32) {
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
  }
  if (t == 0) out[0] = s[0];
}
