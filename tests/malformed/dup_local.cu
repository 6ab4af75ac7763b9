__global__ void k(int *o) { int a = 1; int a = 2; o[0] = a; }
// expect: 1:44: error: redefinition of 'a' (first declared at
