struct S { int a; };
__global__ void k(struct S *o) {
  o->b = 1;
}
// expect: 3:4: error: 'struct S' has no member named 'b'
