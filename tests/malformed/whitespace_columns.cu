__global__ void k(int *o) {
  int    x   =     1;
  o[0]   =   x   +     nothere;
}
// expect: 3:24: error: 'nothere' undeclared
