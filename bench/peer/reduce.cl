__kernel void reduce(__global const int *in, __global int *out, int n) {
  __local int s[256];
  int t = get_local_id(0), i = get_global_id(0);
  s[t] = i < n ? in[i] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = get_local_size(0) / 2; h > 0; h >>= 1) {
    if (t < h) s[t] += s[t + h];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) out[get_group_id(0)] = s[0];
}
