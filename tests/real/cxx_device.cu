// C++ spellings common in device code: auto, const auto, auto *, and the named casts.
//@ launch k grid(1) block(32)
//@ buffer o f32[32]
//@ buffer q i32[32]
//@ check o = {0, 0.5, ..., 15.5}
//@ check q = {3, 4, ..., 34}
//@ expect norace
__global__ void k(float *o, int *q) {
  const auto t = threadIdx.x;
  auto half = static_cast<float>(t) / 2;
  auto v = make_int2(t, 3);
  auto *dummy = &half;
  (void)dummy;
  unsigned char *bytes = reinterpret_cast<unsigned char *>(q);
  const int *cq = const_cast<const int *>(q);
  o[t] = half;
  q[t] = v.x + v.y + (int)(bytes - bytes) + (int)(cq - q);
}
