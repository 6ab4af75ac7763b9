// The work-claim/steal skeleton of GCOL and GCON (scor-spec.md section 3.5),
// included by both kernel files.  Block `home` processes chunks of
// blockDim items: thread 0 claims the next chunk of the block `cur` whose
// range it works on with an atomicAdd on head[cur] and publishes the base
// in bases[home]; once cur's range is used up, thread 0 scans the other
// blocks' counters, cur+1, cur+2, ... (mod NB), for the first with more
// than a chunk left, and claims from it (a steal; with none left, the last
// one scanned).  blockIds[home] tells the block's threads which range they
// are on.
//
// The includer defines STEAL_PARAMS (its extra parameters, each after a
// comma) and STEAL_ITEM(kind, x) (process item x of kernel `kind`).  The
// flags select the apps' race sites: drop_item_bar removes the barrier
// between the items and the next claim (GCON), drop_claim_bar the one
// after thread 0's store to bases[home] (GCOL), narrow_claim gives the
// per-chunk claim block scope (GCOL), narrow_steal the steal claim (GCON).
__device__ void steal_loop(int kind, int drop_item_bar, int drop_claim_bar, int narrow_claim, int narrow_steal, int *head,
                           const int *tail, int *bases, int *blockIds STEAL_PARAMS) {
  int home = blockIdx.x, tid = threadIdx.x, NB = gridDim.x, NT = blockDim.x;
  int cur = home;
  if (tid == 0) {
    bases[home] = atomicAdd(&head[cur], NT);
    atomicExch_block(&blockIds[home], cur);
  }
  __syncthreads();
  int my = bases[home], last = tail[cur];
  while (my < last) {
    int x = my + tid;
    if (x < last) STEAL_ITEM(kind, x);
    if (!drop_item_bar) __syncthreads();
    if (tid == 0) {
      if (narrow_claim) bases[home] = atomicAdd_block(&head[cur], NT);
      else bases[home] = atomicAdd(&head[cur], NT);
    }
    if (!drop_claim_bar) __syncthreads();
    my = bases[home];
    if (bases[home] < last) continue;
    __syncthreads();
    if (tid == 0) {
      int ob = cur;
      for (int k = 1; k < NB; k++) {
        ob = (cur + k) % NB;
        int h = atomicAdd(&head[ob], 0), t = tail[ob];
        if (h + NT < t) break;
      }
      if (narrow_steal) bases[home] = atomicAdd_block(&head[ob], NT);
      else bases[home] = atomicAdd(&head[ob], NT);
      atomicExch_block(&blockIds[home], ob);
    }
    __syncthreads();
    cur = atomicAdd_block(&blockIds[home], 0);
    my = bases[home];
    last = tail[cur];
  }
}
