__kernel void hash(__global uint *out, int iters) {
  uint t = get_global_id(0);
  uint x = t, y = t * 2654435761u;
  for (int i = 0; i < iters; i++) {
    x = x * 1664525u + 1013904223u;
    y ^= x >> 7;
    y = y * 31u + (x & 0xffu);
  }
  out[t] = x ^ y;
}
