// Reductions that order: block 0's threads write data, fence, then add to
// g; block 1's threads add to g later, fence, then read data.  Each
// atomicAdd races with nothing (g is reached by nothing else, its results
// unused: prov.h's PROV_RED), but in the PTX model the fence and the add
// make a release pattern, the later add reads it and the fence after it
// is an acquire: the reads of data are ordered after the writes, and
// hb-ptx reports no race.  A reduction goes unshown to the detectors only
// in a kernel without fences (emu/engine.c's red_unseen); before, hb-ptx
// saw data's reads unordered and reported them.  (The ScoRD model orders
// plain accesses by no fence: hb reports the race.)
//@ launch k grid(2) block(32)
//@ buffer data i32[32]
//@ buffer g u32[1]
//@ buffer out i32[32]
__global__ void k(int *data, unsigned *g, int *out) {
  int t = threadIdx.x;
  if (blockIdx.x == 0) {
    data[t] = 42;
    __threadfence();
    atomicAdd(g, 1u);
  } else {
    int v = t;
    for (int i = 0; i < 50; i++) v = v * 3 + 1;
    atomicAdd(g, 1u);
    __threadfence();
    out[t] = data[t] + (v & 0);
  }
}
