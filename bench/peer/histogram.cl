__kernel void histogram(__global const uint *in, __global uint *bins, int n) {
  int i = get_global_id(0);
  if (i < n) atomic_add(&bins[in[i] & 255u], 1u);
}
