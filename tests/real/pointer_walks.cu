// Pointer idioms that step outside an array and compare or come back, as
// flat GPU addresses allow: a reverse walk that ends below the first
// element, one past the end, and a pointer that leaves and returns.
//@ launch walk grid(1) block(1)
//@ buffer a i32[8] = iota(1)
//@ buffer out i32[4]
//@ expect norace
//@ check out = {36, 8, 1, -1}
__global__ void walk(int *a, int *out) {
  int sum = 0;
  for (int *p = a + 7; p >= a; --p) sum += *p;      /* ends at a - 1 */
  out[0] = sum;
  int *end = a + 8;
  out[1] = (int)(end - a);
  int *q = a - 3;                                      /* outside, then back */
  q += 3;
  out[2] = *q;
  __shared__ int s[4];
  int *b = s - 1;
  out[3] = (int)(b - s);
}
