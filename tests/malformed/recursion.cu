__device__ int f(int n) { return n ? f(n - 1) : 0; }
__global__ void k(int *o) { o[0] = f(3); }
// expect: 1:38: error: unsupported: recursion (call of 'f' inside itself)
