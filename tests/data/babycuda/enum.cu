// An enumeration parameter holds one of the enumeration's values (C++:
// those of the smallest bit-field holding every enumerator, here 0..3):
// y[i + mode] stays within a thread's four elements, DRF (Faial's
// drf-enum-constraint, where an unconstrained mode made a "true alarm").
// With -D WIDE the enumerators reach 4, the values 0..7, and mode = 4
// makes thread 0 write what thread 4 reads.
//@ launch saxpy grid(1) block(32)
//@ buffer x f32[32]
//@ buffer y f32[40]
//@ arg a = 2
//@ arg mode = 1
#ifdef WIDE
enum GridSamplerInterpolationMode { BILINEAR = 0, NEAREST, BICUBIC = 4 };
#else
enum GridSamplerInterpolationMode { BILINEAR = 0, NEAREST, BICUBIC };
#endif
__global__ void saxpy(float a, float *x, float *y, GridSamplerInterpolationMode mode) {
  int i = threadIdx.x;
  if (i % 4 == 0) {
    y[i + mode] = a * x[i] + y[i];
  }
}
