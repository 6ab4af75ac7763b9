// Lane 5 skips a __ballot_sync whose mask names it, goes on, and exits:
// undefined in CUDA ("all non-exited threads named in mask must execute the
// same intrinsic").  Lockstep reports it where the lanes diverge; ITS
// reports it when lane 5, live and named by the waiting lanes, does
// something visible and exits.  With -D EARLY_RETURN lane 5 only returns
// first: as if it had exited before the others arrived, no error.
//@ launch k grid(1) block(32)
//@ buffer out u32[32] = 0
__global__ void k(unsigned *out) {
  unsigned t = threadIdx.x, b = 7;
#ifdef EARLY_RETURN
  if (t == 5) return;
#endif
  if (t != 5) b = __ballot_sync(0xffffffffu, t & 1);
  out[t] = b;
}
