// ScoR application RED (scor-spec.md section 3.2): the SDK's threadFence
// reduction with its inner __syncthreads replaced by per-thread flag
// hand-offs through block-scope atomics and fences.  The "shared" arrays
// (sdata, locks) live in global memory so that global-memory detectors see
// them.  Phase 1 reduces each block's slice; the last block to retire
// (atomicInc on retirementCount) reduces the blocks' partial sums.  Run by
// the driver red.c.
//
// One knob per race site (Table VI: 2), RACEY for both:
//   RED_1  no release fence in stage C: warp 0 reads s[tid+32], written by warp 1,
//          without release ordering (intra-block inter-warp RAW, missing fence)
//   RED_2  the phase-2 fence has block scope: the last block reads the other
//          blocks' g_odata (inter-block RAW, insufficient fence scope)
#ifdef RACEY
#define RED_1
#define RED_2
#endif

__device__ unsigned int retirementCount = 0;

/* The block reduction RB(s, lock, mySum) of the spec: stages A to C hand
 * partial sums from the upper half of the active threads to the lower half
 * through flags; stage D is the warp-synchronous tail of warp 0. */
__device__ void reduce_block(volatile int *s, int *lock, int mySum, int tid, int bs) {
  s[tid] = mySum;
  lock[tid] = 0;
  __syncthreads();
  if (bs >= 512 && tid < 256) {   /* stage A */
    if (tid >= 128) {
      s[tid] = mySum + s[tid + 256];
      __threadfence_block();
      atomicExch_block(&lock[tid], 1);
    } else {
      mySum += s[tid + 256];
    }
  }
  if (bs >= 256 && tid < 128) {   /* stage B */
    if (bs >= 512) { while (atomicAdd_block(&lock[tid + 128], 0) != 1) {} }
    __threadfence_block();
    if (tid >= 64) {
      s[tid] = mySum + s[tid + 128];
      __threadfence_block();
      atomicExch_block(&lock[tid], 1);
    } else {
      mySum += s[tid + 128];
    }
  }
  if (bs >= 128 && tid < 64) {    /* stage C */
    if (bs >= 256) { while (atomicAdd_block(&lock[tid + 64], 0) != 1) {} }
    __threadfence_block();
    if (tid >= 32) {
      s[tid] = mySum + s[tid + 64];
#ifndef RED_1
      __threadfence_block();
#endif
      atomicExch_block(&lock[tid], 1);
    } else {
      mySum += s[tid + 64];
    }
  }
  if (tid < 32) {                 /* stage D: warp-synchronous, lockstep */
    if (bs >= 128) { while (atomicAdd_block(&lock[tid + 32], 0) != 1) {} }
    __threadfence_block();
    if (bs >= 64) { mySum += s[tid + 32]; s[tid] = mySum; }
    if (bs >= 32 && tid < 16) { mySum += s[tid + 16]; s[tid] = mySum; }
    if (bs >= 16 && tid < 8) { mySum += s[tid + 8]; s[tid] = mySum; }
    if (bs >= 8 && tid < 4) { mySum += s[tid + 4]; s[tid] = mySum; }
    if (bs >= 4 && tid < 2) { mySum += s[tid + 2]; s[tid] = mySum; }
    if (bs >= 2 && tid < 1) { mySum += s[tid + 1]; s[tid] = mySum; }
  }
}

__global__ void reduce(const int *g_idata, volatile int *g_odata, volatile int *sdata, int *locks, int n, int nIsPow2) {
  __shared__ bool amLast;
  int tid = threadIdx.x, bs = blockDim.x, b = blockIdx.x, G = gridDim.x;
  volatile int *s = sdata + b * bs;
  int *lock = locks + b * bs;
  int mySum = 0;
  for (int i = b * 2 * bs + tid; i < n; i += 2 * bs * G) {
    mySum += g_idata[i];
    if (nIsPow2 || i + bs < n) mySum += g_idata[i + bs];
  }
  reduce_block(s, lock, mySum, tid, bs);
  if (tid == 0) g_odata[b] = s[0];
  if (G > 1) {
#ifdef RED_2
    __threadfence_block();
#else
    __threadfence();
#endif
    if (tid == 0) {
      unsigned int ticket = atomicInc(&retirementCount, G);
      amLast = ticket == (unsigned int)(G - 1);
    }
    __syncthreads();
    if (amLast) {
      int sum = 0;
      for (int i = tid; i < G; i += bs) sum += g_odata[i];
      reduce_block(s, lock, sum, tid, bs);
      if (tid == 0) {
        g_odata[0] = s[0];
        retirementCount = 0;
      }
    }
  }
}
