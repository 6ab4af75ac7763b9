// A *_sync intrinsic whose lanes name different member masks: after a
// divergent branch, the lanes that skipped it take __activemask before
// the others arrive, and the ballot then runs as two groups, one a mask,
// whatever the run-ahead does (its.c's converged path ran the warp whole,
// as one group, when every lane was at the ballot: one step fewer and
// other ballots; tests/test_turns found it).
//@ launch k grid(1) block(32)
//@ buffer g i32[64]
//@ buffer out i32[32]
__global__ void k(int *g, int *out) {
  int t = threadIdx.x, v = t, a = 0;
  if (((v + 2) & 3) != 1) {
    a = t + 5;
    atomicAdd(&g[(t + 27) & 63], 3);
  }
  a += __ballot_sync(__activemask(), (v & 7) != 0) & 255;
  out[t] = v + a;
}
