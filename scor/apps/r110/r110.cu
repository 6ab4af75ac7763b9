// ScoR application R110 (scor-spec.md section 3.3): rule 110 on a 1-D array
// with zero boundaries, one launch per generation.  Thread tid owns cells
// tid, tid+T, ... (T threads in all); it copies them to `copy`, releases
// its flag comp[tid] = step, waits for its left and right neighbours'
// flags, then computes its cells from the copies.  Border threads of a
// block hand over to the next block at device scope, the others at block
// scope.  Run by the driver r110.c; every thread must be resident.
//
// One knob per race site (Table VI: 2), RACEY for both:
//   R110_1  the border threads' release fence has block scope: their copy[]
//           stores race with the adjacent block's reads (inter-block RAW)
//   R110_2  the right-wait poll of the last two threads of a block has block
//           scope: for the last one the flag belongs to the next block
//           (scoped atomic on comp, and an unsynchronised copy[c+1] read)
#ifdef RACEY
#define R110_1
#define R110_2
#endif

__global__ void rule110(int *arr, volatile int *copy, int *comp, int size, int step) {
  int bs = blockDim.x, btid = threadIdx.x, T = gridDim.x * bs;
  int tid = blockIdx.x * bs + btid;
  for (int c = tid; c < size; c += T) copy[c] = arr[c];
  if (btid == 0 || btid == bs - 1) {   /* release */
#ifdef R110_1
    __threadfence_block();
#else
    __threadfence();
#endif
    atomicExch(&comp[tid], step);
  } else {
    __threadfence_block();
    atomicExch_block(&comp[tid], step);
  }
  int left = (tid - 1 + T) % T, right = (tid + 1) % T;
  if (btid <= 1) {                     /* left wait */
    while (atomicAdd(&comp[left], 0) != step) {}
    __threadfence();
  } else {
    while (atomicAdd_block(&comp[left], 0) != step) {}
    __threadfence_block();
  }
  for (int c = tid; c < size; c += T) arr[c] = c > 0 ? copy[c - 1] : 0;
  if (btid >= bs - 2) {                /* right wait */
#ifdef R110_2
    while (atomicAdd_block(&comp[right], 0) != step) {}
#else
    while (atomicAdd(&comp[right], 0) != step) {}
#endif
    __threadfence();
  } else {
    while (atomicAdd_block(&comp[right], 0) != step) {}
    __threadfence_block();
  }
  for (int c = tid; c < size; c += T) {
    int v = 4 * arr[c] + 2 * copy[c] + (c + 1 < size ? copy[c + 1] : 0);
    arr[c] = v <= 7 ? (110 >> v) & 1 : v;   /* codes past 7 stay as they are */
  }
}
