//@ launch k grid(1) block(1)
//@ buffer o u8[1]
//@ check o = 256
__global__ void k(unsigned char *o) { o[0] = 1; }
// expect: 3:1: error: check value 1 of 'o' is out of range (u8)
