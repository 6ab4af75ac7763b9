// An array of structs: its elements are the fields the kernel accesses
// (4 bytes each here); y[i + 1].x read while y[i].x is written races.
//@ launch k grid(1) block(32)
//@ buffer y f32[66]
//@ buffer x f32[32]
struct pair { float x, y; };
__global__ void k(const float *x, pair *y) {
  int i = threadIdx.x;
#ifdef RACY
  y[i].x = x[i] + y[i + 1].x;
#else
  y[i].x = x[i] + y[i].y;
#endif
}
