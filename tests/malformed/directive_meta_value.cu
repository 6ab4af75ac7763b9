//@ launch k grid(1) block(32)
//@ meta id
__global__ void k() { }
// expect: 2:12: error: expected a value (letters, digits, '_') after the key
