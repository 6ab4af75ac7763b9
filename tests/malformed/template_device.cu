template <typename T> __global__ void k(T *o) { o[0] = 1; }
// expect: 1:1: error: unsupported: template in device code
