__global__ void k(int *o) {
  switch (o[0]) { case 1: break; case 1: break; }
}
// expect: 2:34: error: duplicate case value 1
