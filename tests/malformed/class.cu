class A { __device__ int get() { return 1; } };
// expect: 1:1: error: unsupported: class in device code
