// Vector types: float4 loads and stores (one 16-byte access per thread in
// the compiled code), int2 and make_* constructors.
//@ launch scale4 grid(1) block(32)
//@ buffer in f32[128] = iota
//@ buffer out f32[128]
//@ buffer pairs i32[64] = iota
//@ buffer sums i32[32]
//@ expect norace
//@ check out = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62, 64, 66, 68, 70, 72, 74, 76, 78, 80, 82, 84, 86, 88, 90, 92, 94, 96, 98, 100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126, 128, 130, 132, 134, 136, 138, 140, 142, 144, 146, 148, 150, 152, 154, 156, 158, 160, 162, 164, 166, 168, 170, 172, 174, 176, 178, 180, 182, 184, 186, 188, 190, 192, 194, 196, 198, 200, 202, 204, 206, 208, 210, 212, 214, 216, 218, 220, 222, 224, 226, 228, 230, 232, 234, 236, 238, 240, 242, 244, 246, 248, 250, 252, 254}
//@ check sums = {1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61, 65, 69, 73, 77, 81, 85, 89, 93, 97, 101, 105, 109, 113, 117, 121, 125}

__global__ void scale4(const float4 *in, float4 *out, const int2 *pairs, int *sums) {
  int t = threadIdx.x;
  float4 v = in[t];
  out[t] = make_float4(v.x * 2.0f, v.y * 2.0f, v.z * 2.0f, v.w * 2.0f);
  int2 p = pairs[t];
  sums[t] = p.x + p.y;
}
