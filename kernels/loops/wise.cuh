// WISE (Section IV), included by loop.cuh: speculative read and write
// (Algorithms 1 and 2), with the race flag propagation of Section IV: a
// per-block volatile local flag and a global flag, checked before every
// speculative operation and at the thread's start, so that a detected
// dependency ends the kernel early.  -DWISE_FP leaves out the intra-warp
// cases (wise-fp); -DWISE_NO_LOCAL turns the race flag propagation off (the
// paper's "wise w/o local flag": a thread stops at its own detection, and
// the global flag is read only when a thread starts).
//
// Shadows: wise_w[k] is 1 + the iteration that wrote element k last
// (atomic exchange), wise_r[k] 1 + the largest iteration that read it
// (atomic max); 0 means none.
__device__ int wise_w[LOOP_ELEMS];
__device__ int wise_r[LOOP_ELEMS];
__device__ int loop_flag;

// 1 when an earlier access by iteration o (o >= 0) conflicts with iteration t's
__device__ int wise_conflict(int t, int o) {
  if (o < 0 || o == t) return 0;
  if (o / LOOP_WARP != t / LOOP_WARP) return 1;
#ifdef WISE_FP
  return 1;
#else
  return t % LOOP_WARP < o % LOOP_WARP;
#endif
}

__device__ int wise_stop(volatile int *local) {
  loop_flag = 1;
  *local = 1;
  return 0;
}

#ifdef WISE_NO_LOCAL
#define WISE_STOPPED(local) (*(local))          /* the thread's own flag only */
#else
#define WISE_STOPPED(local) (*(local) || loop_flag)
#endif

__device__ int wise_write(LOOP_T *a, int k, LOOP_T v, volatile int *local) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (WISE_STOPPED(local)) return 0;
  int prev = atomicExch(&wise_w[k], t + 1) - 1;                 // Algorithm 1, line 5
  if (wise_conflict(t, prev)) return wise_stop(local);          // inter- or intra-warp WAW
  int r = atomicOr(&wise_r[k], 0) - 1;                          // line 14: past the L1
  if (wise_conflict(t, r)) return wise_stop(local);             // RAW or WAR
  a[k] = v;
  return 1;
}

// the value read, or 0 with the local flag set (the thread then returns)
__device__ LOOP_T wise_read(const LOOP_T *a, int k, volatile int *local) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (WISE_STOPPED(local)) { *local = 1; return 0; }
  int w = atomicOr(&wise_w[k], 0) - 1;                          // Algorithm 2, line 5
  if (wise_conflict(t, w)) { wise_stop(local); return 0; }      // RAW/WAR, or intra-warp WAR
  atomicMax(&wise_r[k], t + 1);                                 // line 12
  return a[k];
}

// The local flag: the block's (race flag propagation), or with
// -DWISE_NO_LOCAL one per thread (1-D blocks of at most 1024 threads).
#ifdef WISE_NO_LOCAL
#define WISE_LOCAL_DECL __shared__ volatile int wise_locals[1024]; wise_locals[threadIdx.x] = 0
#define WISE_LOCAL (&wise_locals[threadIdx.x])
#else
#define WISE_LOCAL_DECL __shared__ volatile int wise_local; if (threadIdx.x == 0) wise_local = 0
#define WISE_LOCAL (&wise_local)
#endif

// At the kernel's start, before any thread returns: the local flag, then the global one.
#define LOOP_BEGIN()                                  \
  WISE_LOCAL_DECL;                                    \
  __syncthreads();                                    \
  if (loop_flag) return
#define LOOP_READ(dst, a, k) do { (dst) = wise_read(a, k, WISE_LOCAL); if (*WISE_LOCAL) return; } while (0)
#define LOOP_WRITE(a, k, v) do { if (!wise_write(a, k, v, WISE_LOCAL)) return; } while (0)
