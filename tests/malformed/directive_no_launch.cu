//@ buffer o i32[4]
__global__ void k(int *o) { }
// expect: error: no '//@ launch' directive
