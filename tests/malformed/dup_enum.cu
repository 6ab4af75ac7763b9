__global__ void k(int *o) { enum { A, B, A }; o[0] = A; }
// expect: 1:42: error: redefinition of 'A'
