// Paragon (Samadi et al.), the paper's baseline, included by loop.cuh.  The
// speculation phase is the loop itself, writing its results, with every
// access to the shared array logged: in the thread's read or write set, and
// in a count of reads and of writes per element.  The paragon_check kernel
// (its own launch: loop.cuh) is the comparison phase: each thread compares
// each of its write entries with its own sets (the O(r w) step per thread
// that Section V charges Paragon with) to learn how many of the element's
// accesses are its own; any other access, by another iteration, is a
// conflict.  The decision phase is an atomic sum of the conflicts
// (paragon-atomic).  Any two iterations on one element with a write
// conflict, whatever their order: intra-warp accesses in sequential order
// are dependencies too (its false positives).
//
// Paragon sizes each set by the largest count of one thread, which a
// profiling run would give: PARAGON_SET entries per thread here.  A thread
// with more sets pg_overflow, and the loop counts as dependent: the check
// could not be made, so the loop goes back to the CPU.
#ifndef PARAGON_SET
#define PARAGON_SET 32
#endif
__device__ int pg_r[LOOP_ITERS * PARAGON_SET], pg_w[LOOP_ITERS * PARAGON_SET];
__device__ int pg_nr[LOOP_ITERS], pg_nw[LOOP_ITERS];
__device__ unsigned int pg_rn[LOOP_ELEMS], pg_wn[LOOP_ELEMS];   // reads and writes logged per element
__device__ unsigned int pg_threads;
__device__ unsigned long long pg_conflicts;
__device__ int pg_overflow;
__device__ int loop_flag;

__device__ void pg_log(int *set, int *count, unsigned int *per_elem, int k) {
  unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&per_elem[k], 1);
  if (t >= LOOP_ITERS || count[t] >= PARAGON_SET) { pg_overflow = 1; return; }
  set[t * PARAGON_SET + count[t]++] = k;
}

#define LOOP_BEGIN() atomicMax(&pg_threads, blockIdx.x * blockDim.x + threadIdx.x + 1)
#define LOOP_READ(dst, a, k) do { pg_log(pg_r, pg_nr, pg_rn, k); (dst) = (a)[k]; } while (0)
#define LOOP_WRITE(a, k, v) do { pg_log(pg_w, pg_nw, pg_wn, k); (a)[k] = (v); } while (0)

// Thread i: for each element it wrote, are all its logged accesses i's own?
__global__ void paragon_check() {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x, n = pg_threads;
  if (pg_overflow) { loop_flag = 1; return; }
  if (i >= n || i >= LOOP_ITERS) return;
  unsigned long long found = 0;
  const int *w = &pg_w[i * PARAGON_SET], *r = &pg_r[i * PARAGON_SET];
  for (int b = 0; b < pg_nw[i]; b++) {
    int k = w[b];
    unsigned int ownw = 0, ownr = 0;
    for (int c = 0; c < pg_nw[i]; c++) ownw += w[c] == k;
    for (int c = 0; c < pg_nr[i]; c++) ownr += r[c] == k;
    found += (pg_wn[k] > ownw) + (pg_rn[k] > ownr);
  }
  if (found) {
    atomicAdd(&pg_conflicts, found);
    loop_flag = 1;
  }
}
