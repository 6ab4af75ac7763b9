// ScoR application GCON (scor-spec.md section 3.6): connected components by
// union-find without sampling (after Afforest), in three kernels run once
// each: `init` (parent[x] = x), `link` (hook the larger root under the
// smaller with a device CAS, per edge) and `compress` (point every vertex
// at its root).  Every label ends as the smallest vertex id of its
// component.  Run by the driver gcon.c.
//
// The three kernels share GCOL's work-claim/steal skeleton (../steal.cuh);
// here the barrier that can be removed is the one between the items and
// the next claim, and the claim that can be narrowed is the steal.
//
// One knob per race site (Table VI: 5), RACEY for all of them:
//   GCON_1  init:     no barrier between the items and the next claim:
//                     thread 0's store to bases[home] races with the other
//                     warps' loads of it (missing barrier)
//   GCON_2  link:     the same
//   GCON_3  compress: the same
//   GCON_4  link:     the steal claim has block scope, on another block's
//                     counter (insufficient atomic scope)
//   GCON_5  compress: the same
#ifdef RACEY
#define GCON_1
#define GCON_2
#define GCON_3
#define GCON_4
#define GCON_5
#endif

#define K_INIT 0
#define K_LINK 1
#define K_COMPRESS 2

__device__ void init_item(int *parent, int x) { parent[x] = x; }

__device__ void link_item(int *parent, const int *eu, const int *ev, int e) {
  int p1 = atomicAdd(&parent[eu[e]], 0), p2 = atomicAdd(&parent[ev[e]], 0);
  while (p1 != p2) {
    int hi = p1 > p2 ? p1 : p2, lo = p1 > p2 ? p2 : p1;
    int prev = atomicCAS(&parent[hi], hi, lo);
    if (prev == hi || prev == lo) break;
    p1 = atomicAdd(&parent[atomicAdd(&parent[hi], 0)], 0);
    p2 = atomicAdd(&parent[lo], 0);
  }
}

__device__ void compress_item(int *parent, int x) {
  int cur = atomicAdd(&parent[x], 0), par = atomicAdd(&parent[cur], 0);
  while (cur != par) {
    if (atomicCAS(&parent[x], cur, par) == cur) {
      cur = par;
      par = atomicAdd(&parent[cur], 0);
    } else {
      cur = atomicAdd(&parent[x], 0);
      par = atomicAdd(&parent[cur], 0);
    }
  }
}

#define STEAL_PARAMS , int *parent, const int *eu, const int *ev
#define STEAL_ITEM(kind, x) gcon_item(kind, parent, eu, ev, x)

__device__ void gcon_item(int kind, int *parent, const int *eu, const int *ev, int x) {
  if (kind == K_INIT) init_item(parent, x);
  else if (kind == K_LINK) link_item(parent, eu, ev, x);
  else compress_item(parent, x);
}

#include "../steal.cuh"

#ifdef GCON_1
#define INIT_DROP_BAR 1
#else
#define INIT_DROP_BAR 0
#endif
#ifdef GCON_2
#define LINK_DROP_BAR 1
#else
#define LINK_DROP_BAR 0
#endif
#ifdef GCON_3
#define COMPRESS_DROP_BAR 1
#else
#define COMPRESS_DROP_BAR 0
#endif
#ifdef GCON_4
#define LINK_NARROW 1
#else
#define LINK_NARROW 0
#endif
#ifdef GCON_5
#define COMPRESS_NARROW 1
#else
#define COMPRESS_NARROW 0
#endif

__global__ void init(int *parent, int *head, const int *tail, int *bases, int *blockIds) {
  steal_loop(K_INIT, INIT_DROP_BAR, 0, 0, 0, head, tail, bases, blockIds, parent, parent, parent);
}

__global__ void link(int *parent, const int *eu, const int *ev, int *head, const int *tail, int *bases, int *blockIds) {
  steal_loop(K_LINK, LINK_DROP_BAR, 0, 0, LINK_NARROW, head, tail, bases, blockIds, parent, eu, ev);
}

__global__ void compress(int *parent, int *head, const int *tail, int *bases, int *blockIds) {
  steal_loop(K_COMPRESS, COMPRESS_DROP_BAR, 0, 0, COMPRESS_NARROW, head, tail, bases, blockIds, parent, parent, parent);
}
