// ScoR 1DC as a program (scor/apps/conv/conv.c is its C driver): a 1-D convolution.
#include "../apps/conv/conv.cu"
#include "programs.h"

int main(int argc, char **argv) {
  prog p = prog_args("conv", argc, argv);
  int n = p.paper ? 250000 : 2000, f = p.paper ? 9 : 5;
  unsigned blocks = p.paper ? 15 : 4, threads = p.paper ? 1024 : 256;
  float *filter = new float[f], *in = new float[n], *out = new float[n], *ref = new float[n];
  glibc_rand g;
  glibc_srand(&g, p.input_seed);
  for (int k = 0; k < f; k++) filter[k] = (float)(glibc_rand_next(&g) % 10);
  for (int k = 0; k < n; k++) in[k] = (float)(glibc_rand_next(&g) % 100);
  double total = ref_conv(in, filter, n, f, ref);
  float *din = dev_alloc((size_t)n, in), *dfilter = dev_alloc((size_t)f, filter), *dout = dev_alloc<float>((size_t)n, NULL);
  init<<<blocks, threads>>>(dout, n);
  LAUNCHED();
  convolve<<<blocks, threads>>>(din, dfilter, dout, n, f);
  LAUNCHED();
  dev_read(out, dout, (size_t)n);
  int bad = 0, first = -1;
  for (int o = 0; o < n; o++)
    if (out[o] != ref[o]) { if (first < 0) first = o; bad++; }
  printf("conv N=%d F=%d on %ux%u: ", n, f, blocks, threads);
  if (!bad) printf("every output matches direct summation exactly (sum %.0f)\n", total);
  else printf("%d outputs differ from direct summation; first out[%d] = %.1f, expected %.1f\n", bad, first, out[first], ref[first]);
  return bad ? 1 : 0;
}
