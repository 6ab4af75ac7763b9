// Warp match and saturation: __match_any_sync groups the lanes of a warp
// by value (lanes 0-31 hold t % 4, so each lane's mask is every fourth
// lane), __match_all_sync says whether the whole warp agrees (no: 0 and
// the predicate false; on a constant: the full mask and true), and
// __saturatef clamps to [0, 1] (cvt.sat in PTX).
//@ launch matches grid(1) block(32)
//@ buffer any u32[32]
//@ buffer all u32[2]
//@ buffer pred i32[2]
//@ buffer sat f32[4]
//@ expect norace
//@ check any = {286331153, 572662306, 1145324612, 2290649224, 286331153, 572662306, 1145324612, 2290649224, 286331153, 572662306, 1145324612, 2290649224, 286331153, 572662306, 1145324612, 2290649224, 286331153, 572662306, 1145324612, 2290649224, 286331153, 572662306, 1145324612, 2290649224, 286331153, 572662306, 1145324612, 2290649224, 286331153, 572662306, 1145324612, 2290649224}
//@ check all = {0, 4294967295}
//@ check pred = {0, 1}
//@ check sat = {0, 0.25, 1, 0}
__global__ void matches(unsigned *any, unsigned *all, int *pred, float *sat) {
  unsigned t = threadIdx.x;
  any[t] = __match_any_sync(0xffffffffu, t % 4);
  int p0, p1;
  unsigned a0 = __match_all_sync(0xffffffffu, t % 4, &p0);
  unsigned a1 = __match_all_sync(0xffffffffu, 7u, &p1);
  if (t == 0) {
    all[0] = a0; all[1] = a1;
    pred[0] = p0; pred[1] = p1;
    float in[4] = {-3.0f, 0.25f, 7.5f, __int_as_float(0x7fc00000)};
    for (int k = 0; k < 4; k++) sat[k] = __saturatef(in[k]);
  }
}
