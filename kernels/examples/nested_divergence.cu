// Nested divergent loops with per-lane trip counts, break, continue and
// early return, inside a device function: every lane must reconverge at the
// right point and leave exactly its own result.
//@ launch nested grid(1) block(48)
//@ buffer out i32[48]
//@ expect norace
//@ check out = {0, 1, 2, 2, 1004, 4, 4, 0, 1, 1009, 2, 3, 4, 4, 1014, 1, 2, 2, 3, 1019, 4, 0, 1, 2, 1024, 3, 4, 4, 0, 1029, 2, 2, 3, 4, 1034, 0, 1, 2, 2, 1039, 4, 4, 0, 1, 1044, 2, 3, -1}

__device__ int work(int t) {
  if (t % 5 == 4) return 1000 + t;
  int acc = 0;
  for (int i = 0; i < t % 7; i++) {
    int j = 0;
    while (true) {
      if ((i + j) % 3 == 2) break;
      if (j % 2 == 1) { j++; continue; }
      acc += i * j + 1;
      j++;
      if (j > t % 4 + 2) break;
    }
    if (acc > 40) return acc * 2;
  }
  return acc;
}

__global__ void nested(int *out) {
  int t = threadIdx.x;
  if (t == 47) { out[t] = -1; return; }  /* a lane that exits early */
  out[t] = work(t);
  if (t == 47) out[t] = 0;                   /* never reached */
}
