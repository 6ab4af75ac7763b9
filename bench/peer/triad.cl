#pragma OPENCL FP_CONTRACT OFF
__kernel void triad(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] * 2.0f + b[i];
}
