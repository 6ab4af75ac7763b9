__global__ void k(int *o) { __shared__ char a[1LL << 32][1LL << 32]; o[0] = a[0][0]; }
// expect: 1:45: error: array too large (2^40 bytes or more)
