template <typename T>
__global__ void k(T *o) { }
// expect: 1:1: error: unsupported: template
