struct S { int a : 3; };
__global__ void k(int *o) { S s; o[0] = 1; }
// expect: 2:29: error: 'S' is a host declaration the device pass skipped (
