__global__ void k(char *o) {
  atomicAdd(o, 1);
}
// expect: 2:3: error: no 'atomicAdd' for 'i8'
