// A struct passed by value: its fields are the launch's values (parameters
// of the check, named by their fields), its pointer an array.  -D STORE
// and -D ATOMIC change the thread's copy: outside.  -D OVERLAP makes the
// write's window reach the next thread's: racy.
//@ launch k grid(1) block(32)
//@ buffer out i32[72]
//@ arg g = {2, out, 32}
//@ assume g.stride == 2 && g.n <= 32
struct window { int stride; int *base; unsigned n; };
__global__ void k(window g) {
#ifdef STORE
  g.stride = 1;
#endif
#ifdef ATOMIC
  atomicAdd(&g.stride, 1);
#endif
#ifdef OVERLAP
  if (threadIdx.x < g.n) g.base[threadIdx.x * g.stride] = 1;
  if (threadIdx.x < g.n) g.base[threadIdx.x * g.stride + 2] = 2;
#else
  if (threadIdx.x < g.n) g.base[threadIdx.x * g.stride] = 1;
  if (threadIdx.x < g.n) g.base[threadIdx.x * g.stride + 1] = 2;
#endif
}
