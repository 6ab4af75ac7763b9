// ScoR application UTS (scor-spec.md section 3.7): traversal of an
// implicit, deterministic forest (after Olivier et al.), one root per
// block, with a local stack per block under a block-scope lock and a steal
// stack per block under a device-scope lock that every block polls.  A
// node is one word: height | children << 8 | seed << 16 | number << 24,
// children = 255 while unexpanded.  Expanding node P gives num = (seed *
// number + 5) % 255 and n children (height + 1, 255, num, k), k = 1..n,
// with n = 0 at height maxHeight - 1 and num % (2 avgChildren - 1) + 1
// below.  Each warp works as a unit: lane 0 spins for a lock, and
// __syncwarp holds the other lanes until it has it, and lane 0 until the
// others are done before it moves `top` or releases.  The emulator's warps
// run in lockstep, where these are no-ops; Volta and later GPUs schedule
// lanes independently, where without them the kernel lost nodes
// (reports/hardware.md).  Run by the driver uts.c; every block must
// be resident.
//
// StackStats are six ints: stackSize, workAvail, top, locked, totalNodes,
// totalLeaves (local[b], steal[b]).  Both stacks are circular regions that
// grow downward from `top`; `top` indexes the stack array directly.
//
// One knob per race site (Table VI: 6): a device-scope atomic becomes
// block scope.  RACEY for all of them.
//   UTS_1  expand: acquiring the own steal lock
//   UTS_2  expand: adding the overflow to steal.workAvail
//   UTS_3  expand: releasing the own steal lock
//   UTS_4  steal pop: acquiring another block's steal lock
//   UTS_5  steal pop: clamping steal.workAvail at 0
//   UTS_6  steal pop: releasing the steal lock
// The steal lock and steal[*].workAvail are shared by all blocks, so each
// narrowed atomic races with another block's device atomics on the same
// word (insufficient atomic scope); the lost mutual exclusion lets the
// protected top and stack entries race too.
// UTS_NOSYNCWARP drops every __syncwarp (the kernel as it was before
// issue 8): the same under lockstep, racy under --warps its
// (reports/scor-its.md).
#ifdef UTS_NOSYNCWARP
#define WARP_SYNC()
#else
#define WARP_SYNC() __syncwarp()
#endif

#ifdef RACEY
#define UTS_1
#define UTS_2
#define UTS_3
#define UTS_4
#define UTS_5
#define UTS_6
#endif

#define STACK_SIZE 0
#define WORK_AVAIL 1
#define TOP 2
#define LOCKED 3
#define TOTAL_NODES 4
#define TOTAL_LEAVES 5
#define STATS 6
#define MAXSTACKDEPTH 4000

__device__ void lock_block(int *locked) {
  if (threadIdx.x % 32 == 0) while (atomicCAS_block(locked, 0, 1) != 0) {}
  WARP_SYNC();
  __threadfence_block();
}

__device__ void unlock_block(int *locked) {
  WARP_SYNC();
  if (threadIdx.x % 32 == 0) {
    __threadfence_block();
    atomicExch_block(locked, 0);
  }
}

/* Pops up to 32 nodes of block b's local stack, one per lane. */
__device__ unsigned pop_local(int *st, unsigned *stack, int b, int LD) {
  int lane = threadIdx.x % 32;
  unsigned node = 0;
  volatile int *top = (volatile int *)&st[TOP];
  lock_block(&st[LOCKED]);
  int avail = atomicAdd(&st[WORK_AVAIL], 0);
  int t = *top;
  if (avail > lane) node = atomicAdd_block(&stack[(t + lane) % LD + LD * b], 0u);
  WARP_SYNC();
  if (lane == 0) {
    *top = (t + (avail < 32 ? avail : 32)) % LD + LD * b;
    if (atomicAdd(&st[WORK_AVAIL], -32) - 32 < 0) atomicExch(&st[WORK_AVAIL], 0);
  }
  unlock_block(&st[LOCKED]);
  return node;
}

/* Pops up to 32 nodes of block blk's steal stack, under its device lock. */
__device__ unsigned pop_steal(int *st, unsigned *stack, int blk) {
  int lane = threadIdx.x % 32;
  unsigned node = 0;
  volatile int *top = (volatile int *)&st[TOP];
  if (lane == 0) {
#ifdef UTS_4
    while (atomicCAS_block(&st[LOCKED], 0, 1) != 0) {}
#else
    while (atomicCAS(&st[LOCKED], 0, 1) != 0) {}
#endif
  }
  WARP_SYNC();
  __threadfence();
  int avail = atomicAdd(&st[WORK_AVAIL], 0);
  int t = *top;
  if (avail > lane) node = atomicAdd(&stack[(t + lane) % MAXSTACKDEPTH + MAXSTACKDEPTH * blk], 0u);
  WARP_SYNC();
  if (lane == 0) {
    *top = (t + (avail < 32 ? avail : 32)) % MAXSTACKDEPTH + MAXSTACKDEPTH * blk;
    if (atomicAdd(&st[WORK_AVAIL], -32) - 32 < 0) {
#ifdef UTS_5
      atomicExch_block(&st[WORK_AVAIL], 0);
#else
      atomicExch(&st[WORK_AVAIL], 0);
#endif
    }
    __threadfence();
#ifdef UTS_6
    atomicExch_block(&st[LOCKED], 0);
#else
    atomicExch(&st[LOCKED], 0);
#endif
  }
  return node;
}

/* Expands each lane's node whose children are still 255: the children go
 * to block b's local stack, what does not fit to its steal stack. */
__device__ void expand(unsigned node, int *lst, int *sst, unsigned *lstack, unsigned *sstack, int b, int LD, int maxHeight,
                       int avgChildren) {
  int lane = threadIdx.x % 32;
  int expanding = (node >> 8 & 255u) == 255u;
  unsigned h = node & 255u, num = ((node >> 16 & 255u) * (node >> 24) + 5u) % 255u;
  int n = !expanding || (int)h + 1 >= maxHeight ? 0 : (int)(num % (unsigned)(2 * avgChildren - 1)) + 1;
  int extra = 0;
  lock_block(&lst[LOCKED]);
  if (expanding) {
    atomicAdd_block(&lst[TOTAL_NODES], n);
    if (n == 0) atomicAdd_block(&lst[TOTAL_LEAVES], 1);
    if (n > 0) {
      int amount = atomicAdd(&lst[WORK_AVAIL], n) + n;
      if (amount - LD > 0) extra = amount - LD < n ? amount - LD : n;
      int nlocal = n - extra;
      int start = atomicAdd_block(&lst[TOP], -nlocal) - 1;
      for (int k = 0; k < nlocal; k++) {
        int at = start - k;
        if (at < LD * b) at += LD;
        atomicExch_block(&lstack[at], (h + 1u) | 255u << 8 | num << 16 | (unsigned)(k + 1) << 24);
      }
    }
  }
  WARP_SYNC();
  if (lane == 0 && atomicAdd_block(&lst[TOP], 0) < LD * b) atomicAdd_block(&lst[TOP], LD);
  WARP_SYNC();
  int avail = atomicAdd(&lst[WORK_AVAIL], 0);
  atomicExch(&lst[WORK_AVAIL], avail < LD ? avail : LD);
  unlock_block(&lst[LOCKED]);
  if (lane == 0) {
#ifdef UTS_1
    while (atomicCAS_block(&sst[LOCKED], 0, 1) != 0) {}
#else
    while (atomicCAS(&sst[LOCKED], 0, 1) != 0) {}
#endif
  }
  WARP_SYNC();
  __threadfence();
  if (extra > 0) {
#ifdef UTS_2
    atomicAdd_block(&sst[WORK_AVAIL], extra);
#else
    atomicAdd(&sst[WORK_AVAIL], extra);
#endif
    int start = atomicSub(&sst[TOP], extra) - 1;
    for (int k = 0; k < extra; k++) {
      int at = start - k;
      if (at < MAXSTACKDEPTH * b) at += MAXSTACKDEPTH;
      atomicExch(&sstack[at], (h + 1u) | 255u << 8 | num << 16 | (unsigned)(n - extra + k + 1) << 24);
    }
  }
  WARP_SYNC();
  if (lane == 0) {
    if (atomicAdd(&sst[TOP], 0) < MAXSTACKDEPTH * b) atomicAdd(&sst[TOP], MAXSTACKDEPTH);
    __threadfence();
#ifdef UTS_3
    atomicExch_block(&sst[LOCKED], 0);
#else
    atomicExch(&sst[LOCKED], 0);
#endif
  }
}

__global__ void uts(int *local, int *steal, unsigned *localStack, unsigned *stealStack, int maxHeight, int avgChildren) {
  __shared__ int done[32];
  int b = blockIdx.x, NB = gridDim.x, lane = threadIdx.x % 32, w = threadIdx.x / 32;
  int LD = 4 * blockDim.x;
  int *lst = &local[b * STATS], *sst = &steal[b * STATS];
  int i = b;
  while (true) {
    unsigned parent = pop_local(lst, localStack, b, LD);
    expand(parent, lst, sst, localStack, stealStack, b, LD, maxHeight, avgChildren);
    int blk = i;
    i = (i + 1) % NB;
    parent = pop_steal(&steal[blk * STATS], stealStack, blk);
    expand(parent, lst, sst, localStack, stealStack, b, LD, maxHeight, avgChildren);
    if (lane == 0) {
      done[w] = 1;
      for (int k = 0; k < NB; k++)
        if (atomicAdd(&local[k * STATS + WORK_AVAIL], 0) > 0 || atomicAdd(&steal[k * STATS + WORK_AVAIL], 0) > 0) done[w] = 0;
    }
    __syncthreads();
    if (done[w]) break;
  }
}
