__global__ void k(int *o) {
  case 1: o[0] = 1;
}
// expect: 2:3: error: 'case' label not within a switch statement
