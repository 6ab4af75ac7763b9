__global__ void k(int *o) {
  break;
}
// expect: 2:3: error: break statement not within loop or switch
