#define BAD(x) ((x) + undefined_name)
__global__ void k(int *o) {
  o[0] = BAD(1);
}
// expect: 3:
