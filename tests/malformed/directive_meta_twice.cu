//@ launch k grid(1) block(32)
//@ meta id N1
//@ meta id N2
__global__ void k() { }
// expect: 3:10: error: meta key 'id' given twice
