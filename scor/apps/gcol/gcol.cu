// ScoR application GCOL (scor-spec.md section 3.5): speculative parallel
// graph colouring after Deveci et al.  A colour is colorSet * 32 +
// vertexColor, vertexColor in 1..32, 0 for uncoloured.  The host repeats
// `assign` (colour each uncoloured vertex with the lowest colour its
// forbidden mask leaves), `detect` (of two equal endpoints, uncolour the
// lower one; clear `complete` while any endpoint is uncoloured) and
// `forbid` (forbid a coloured endpoint's colour to its uncoloured
// neighbour) until `complete` stays set.  Edges come with u < v.  Run by
// the driver gcol.c.
//
// The kernels share the work-claim/steal skeleton (../steal.cuh); here the
// per-chunk claim can be narrowed and the barrier after thread 0 publishes
// the claim can be removed.
//
// One knob per race site (Table VI: 6 = 2 per kernel), RACEY for all:
//   GCOL_1  assign: the per-chunk claim has block scope; after a steal it
//           lands on another block's counter (insufficient atomic scope)
//   GCOL_2  assign: no barrier after thread 0's store to bases[home]: the
//           other warps' loads of it race with it (missing barrier)
//   GCOL_3, GCOL_4  detect: the same two sites
//   GCOL_5, GCOL_6  forbid: the same two sites
#ifdef RACEY
#define GCOL_1
#define GCOL_2
#define GCOL_3
#define GCOL_4
#define GCOL_5
#define GCOL_6
#endif

#define K_ASSIGN 0
#define K_DETECT 1
#define K_FORBID 2

__device__ void assign_item(int *colorSet, int *vertexColor, int *VForbidden, int *TVForbidden, int x) {
  if (vertexColor[x] < 0) {
    vertexColor[x] = -vertexColor[x];   /* dead code: nothing stores a negative colour */
  } else if (vertexColor[x] == 0) {
    unsigned forb = (unsigned)(VForbidden[x] | TVForbidden[x]);
    if (forb == 0xffffffffu) {           /* this colour set is used up: the next one */
      colorSet[x]++;
      VForbidden[x] = 0;
      TVForbidden[x] = 0;
    } else {
      int c = 0;
      while (forb >> c & 1u) c++;
      vertexColor[x] = c + 1;
    }
  }
}

__device__ void detect_item(const int *colorSet, int *vertexColor, const int *eu, const int *ev, int *complete, int e) {
  int u = eu[e], v = ev[e];
  if (colorSet[u] == colorSet[v] && atomicAdd(&vertexColor[u], 0) == atomicAdd(&vertexColor[v], 0))
    atomicExch(&vertexColor[u], 0);
  if (atomicAdd(&vertexColor[u], 0) == 0 || atomicAdd(&vertexColor[v], 0) == 0) atomicExch(complete, 0);
}

__device__ void forbid_item(const int *colorSet, const int *vertexColor, int *VForbidden, const int *eu, const int *ev, int e) {
  int u = eu[e], v = ev[e];
  if (colorSet[u] == colorSet[v]) {
    int cu = vertexColor[u], cv = vertexColor[v];
    if (cu != 0 && cv == 0) atomicOr(&VForbidden[v], 1 << (cu - 1));
    else if (cv != 0 && cu == 0) atomicOr(&VForbidden[u], 1 << (cv - 1));
  }
}

#define STEAL_PARAMS , int *colorSet, int *vertexColor, int *VForbidden, int *TVForbidden, const int *eu, const int *ev, int *complete
#define STEAL_ITEM(kind, x) gcol_item(kind, colorSet, vertexColor, VForbidden, TVForbidden, eu, ev, complete, x)

__device__ void gcol_item(int kind, int *colorSet, int *vertexColor, int *VForbidden, int *TVForbidden, const int *eu,
                          const int *ev, int *complete, int x) {
  if (kind == K_ASSIGN) assign_item(colorSet, vertexColor, VForbidden, TVForbidden, x);
  else if (kind == K_DETECT) detect_item(colorSet, vertexColor, eu, ev, complete, x);
  else forbid_item(colorSet, vertexColor, VForbidden, eu, ev, x);
}

#include "../steal.cuh"

#ifdef GCOL_1
#define ASSIGN_NARROW 1
#else
#define ASSIGN_NARROW 0
#endif
#ifdef GCOL_2
#define ASSIGN_DROP_BAR 1
#else
#define ASSIGN_DROP_BAR 0
#endif
#ifdef GCOL_3
#define DETECT_NARROW 1
#else
#define DETECT_NARROW 0
#endif
#ifdef GCOL_4
#define DETECT_DROP_BAR 1
#else
#define DETECT_DROP_BAR 0
#endif
#ifdef GCOL_5
#define FORBID_NARROW 1
#else
#define FORBID_NARROW 0
#endif
#ifdef GCOL_6
#define FORBID_DROP_BAR 1
#else
#define FORBID_DROP_BAR 0
#endif

#define GCOL_ARGS head, tail, bases, blockIds, colorSet, vertexColor, VForbidden, TVForbidden, eu, ev, complete
#define GCOL_PARAMS int *colorSet, int *vertexColor, int *VForbidden, int *TVForbidden, const int *eu, const int *ev, \
                    int *complete, int *head, const int *tail, int *bases, int *blockIds

__global__ void assign(GCOL_PARAMS) { steal_loop(K_ASSIGN, 0, ASSIGN_DROP_BAR, ASSIGN_NARROW, 0, GCOL_ARGS); }
__global__ void detect(GCOL_PARAMS) { steal_loop(K_DETECT, 0, DETECT_DROP_BAR, DETECT_NARROW, 0, GCOL_ARGS); }
__global__ void forbid(GCOL_PARAMS) { steal_loop(K_FORBID, 0, FORBID_DROP_BAR, FORBID_NARROW, 0, GCOL_ARGS); }
