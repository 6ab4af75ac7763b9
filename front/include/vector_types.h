/* gpurace's vector_types.h: CUDA's built-in vector types with their sizes
 * and alignments (CUDA Programming Guide, "Built-in Vector Types"), and
 * their make_* constructors.  Part of the small include directory the
 * device pass preprocesses kernel files with; nvcc includes the toolkit's
 * own version implicitly, so kernels use these names without an include. */
#ifndef GPURACE_VECTOR_TYPES_H
#define GPURACE_VECTOR_TYPES_H
#ifndef __CUDACC_RTC__   /* NVRTC (the CUDA backend) declares all of this itself */

#define GR_VEC1(T, N, A) \
  struct __align__(A) N##1 { T x; }; \
  static __inline__ __host__ __device__ N##1 make_##N##1(T x) { N##1 v; v.x = x; return v; }
#define GR_VEC2(T, N, A) \
  struct __align__(A) N##2 { T x, y; }; \
  static __inline__ __host__ __device__ N##2 make_##N##2(T x, T y) { N##2 v; v.x = x; v.y = y; return v; }
#define GR_VEC3(T, N, A) \
  struct __align__(A) N##3 { T x, y, z; }; \
  static __inline__ __host__ __device__ N##3 make_##N##3(T x, T y, T z) { N##3 v; v.x = x; v.y = y; v.z = z; return v; }
#define GR_VEC4(T, N, A) \
  struct __align__(A) N##4 { T x, y, z, w; }; \
  static __inline__ __host__ __device__ N##4 make_##N##4(T x, T y, T z, T w) { N##4 v; v.x = x; v.y = y; v.z = z; v.w = w; return v; }
#define GR_VECS(T, N, A1, A2, A3, A4) GR_VEC1(T, N, A1) GR_VEC2(T, N, A2) GR_VEC3(T, N, A3) GR_VEC4(T, N, A4)

GR_VECS(signed char, char, 1, 2, 1, 4)
GR_VECS(unsigned char, uchar, 1, 2, 1, 4)
GR_VECS(short, short, 2, 4, 2, 8)
GR_VECS(unsigned short, ushort, 2, 4, 2, 8)
GR_VECS(int, int, 4, 8, 4, 16)
GR_VECS(unsigned int, uint, 4, 8, 4, 16)
GR_VECS(long, long, 8, 16, 8, 16)
GR_VECS(unsigned long, ulong, 8, 16, 8, 16)
GR_VECS(long long, longlong, 8, 16, 8, 16)
GR_VECS(unsigned long long, ulonglong, 8, 16, 8, 16)
GR_VECS(float, float, 4, 8, 4, 16)
GR_VECS(double, double, 8, 16, 8, 16)

#undef GR_VECS
#undef GR_VEC1
#undef GR_VEC2
#undef GR_VEC3
#undef GR_VEC4

/* dim3 as the device sees it (its constructors are host C++, which the
 * device pass skips wherever it is used) */
struct dim3 { unsigned int x, y, z; };

#endif
#endif
