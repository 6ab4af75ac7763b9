// Device-side malloc and free: each thread allocates a scratch array,
// fills it, sums it and frees it; one thread asks for more than the heap
// holds and gets NULL, as on the GPU (cudaLimitMallocHeapSize, 8 MiB by
// default).
//@ launch scratch grid(2) block(32)
//@ buffer out i32[64]
//@ buffer got_null i32[1]
//@ expect norace
__global__ void scratch(int *out, int *got_null) {
  int t = blockIdx.x * blockDim.x + threadIdx.x, n = 1 + t % 8;
  int *a = (int *)malloc(n * sizeof(int));
  if (!a) { out[t] = -1; return; }
  for (int k = 0; k < n; k++) a[k] = t + k;
  int s = 0;
  for (int k = 0; k < n; k++) s += a[k];
  free(a);
  out[t] = s;
  if (t == 0) {
    void *big = malloc((size_t)1 << 30);
    *got_null = big == NULL;
    free(big);
  }
}
//@ check out = {0, 3, 9, 18, 30, 45, 63, 84, 8, 19, 33, 50, 70, 93, 119, 148, 16, 35, 57, 82, 110, 141, 175, 212, 24, 51, 81, 114, 150, 189, 231, 276, 32, 67, 105, 146, 190, 237, 287, 340, 40, 83, 129, 178, 230, 285, 343, 404, 48, 99, 153, 210, 270, 333, 399, 468, 56, 115, 177, 242, 310, 381, 455, 532}
//@ check got_null = 1
