//@ launch k grid(1) block(1)
//@ bogus thing
__global__ void k() { }
// expect: 2:5: error: unknown directive 'bogus'
