// ScoR application MM (scor-spec.md section 3.1): integer C = A * B.  A's
// columns are split into chunks of blockDim; block b handles the (row,
// chunk) items b, b+G, ...; for each 32-column tile of B, every thread adds
// its 32 partial products into a per-(block, lane) accumulator tempC under
// a block-scope lock shared by lane l of the block's warps, then warp 0
// adds the accumulators into C under a device-scope lock that several
// blocks (one per chunk) contend for.  Run by the driver mm.c.
//
// One knob per race site (Table VI: 4), RACEY for all of them:
//   MM_1  no block fence after acquiring sh_lock (missing acquire fence)
//   MM_2  no block fence before releasing sh_lock (missing release fence)
//   MM_3  the gl_lock acquire CAS has block scope (insufficient atomic scope)
//   MM_4  the fence after acquiring gl_lock has block scope (insufficient lock scope on C)
#ifdef RACEY
#define MM_1
#define MM_2
#define MM_3
#define MM_4
#endif

__global__ void mm(const int *A, const int *B, volatile int *C, int *sh_locks, volatile int *tempC, int *gl_lock,
                   int rA, int cA, int cB) {
  int b = blockIdx.x, G = gridDim.x, bs = blockDim.x;
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  int nb = (cA + bs - 1) / bs;
  int trips = (rA * nb + G - 1) / G;   /* the same for every thread: rows past rA still meet the barriers */
  if (threadIdx.x == 0) sh_locks[b * 32] = 0;
  __syncthreads();
  for (int it = 0; it < trips; it++) {
    int item = b + it * G, row = item / nb, chunk = item % nb;
    for (int i = 0; i < (cB + 31) / 32; i++) {
      int col = i * 32 + l;
      if (w == 0) tempC[b * 32 + l] = 0;
      __syncthreads();
      for (int j = 0; j < 32; j++) {
        int k = chunk * bs + w * 32 + j;
        int t = row < rA && k < cA && col < cB ? A[row * cA + k] * B[k * cB + col] : 0;
        bool done = false;
        while (!done) {   /* the critical section inside the success branch: SIMT-safe */
          if (atomicCAS_block(&sh_locks[b * 32 + l], 0, 1) == 0) {
#ifndef MM_1
            __threadfence_block();
#endif
            tempC[b * 32 + l] = tempC[b * 32 + l] + t;
#ifndef MM_2
            __threadfence_block();
#endif
            atomicExch_block(&sh_locks[b * 32 + l], 0);
            done = true;
          }
        }
      }
      __syncthreads();
      if (w == 0 && row < rA && col < cB) {
        int g = (col + row * cB) % bs;
        bool done = false;
        while (!done) {
#ifdef MM_3
          int got = atomicCAS_block(&gl_lock[g], 0, 1);
#else
          int got = atomicCAS(&gl_lock[g], 0, 1);
#endif
          if (got == 0) {
#ifdef MM_4
            __threadfence_block();
#else
            __threadfence();
#endif
            C[row * cB + col] = C[row * cB + col] + tempC[b * 32 + l];
            __threadfence();
            atomicExch(&gl_lock[g], 0);
            done = true;
          }
        }
      }
    }
  }
}
