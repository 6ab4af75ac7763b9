/* The UTS driver (scor-spec.md section 3.7): the forest of NBLOCKS roots
 * for (maxHeight, avgChildren, seed), traversed by the kernel, checked
 * exactly: the total of nodes and of leaves (the per-block split is not
 * deterministic) against a CPU enumeration of the same forest.  Paper size:
 * (9, 3, 1) on 60 x 256, 590,460 nodes and 393,660 leaves as the spec's
 * table says; small: (6, 3, 1) on 4 x 64.  Every block must be resident:
 * a block's warps never leave while another block's root is pending. */
#include <stdio.h>
#include <stdlib.h>

#include "app.h"

enum { STACK_SIZE, WORK_AVAIL, TOP, LOCKED, TOTAL_NODES, TOTAL_LEAVES, STATS };
#define MAXSTACKDEPTH 4000

int main(int argc, char **argv) {
  app a;
  app_begin(&a, "uts", argc, argv);
  int maxHeight = a.paper ? 9 : 7, avg = 3, seed = 1;
  unsigned blocks = a.paper ? 60 : 4, threads = a.paper ? 256 : 64;
  int LD = 4 * (int)threads;
  long ref_nodes, ref_leaves;
  if (ref_uts((int)blocks, maxHeight, avg, seed, &ref_nodes, &ref_leaves)) { fputs("uts: out of memory\n", stderr); return 2; }

  int *local = calloc((size_t)blocks * STATS, sizeof(int)), *steal = calloc((size_t)blocks * STATS, sizeof(int));
  unsigned *lstack = calloc((size_t)blocks * (size_t)LD, sizeof(unsigned));
  if (!local || !steal || !lstack) { fputs("uts: out of memory\n", stderr); return 2; }
  for (unsigned i = 0; i < blocks; i++) {
    int *l = &local[i * STATS], *s = &steal[i * STATS];
    l[STACK_SIZE] = LD; l[WORK_AVAIL] = 1; l[TOP] = LD * (int)i; l[TOTAL_NODES] = 1;
    s[STACK_SIZE] = MAXSTACKDEPTH; s[TOP] = MAXSTACKDEPTH * (int)i;
    lstack[(size_t)LD * i] = 0u | 255u << 8 | (unsigned)(seed % 255) << 16 | ((i + 1) % 255) << 24;   /* the root */
  }
  app_coresident(&a, blocks, threads);
  if (a.paper) app_steps(&a, 1000000000ull);   /* the paper size runs ~100M warp instructions, more in weak memory */
  app_load(&a, "uts.cu");
  gr_ptr dlocal = app_alloc(&a, sizeof(int) * blocks * STATS, "local", local);
  gr_ptr dsteal = app_alloc(&a, sizeof(int) * blocks * STATS, "steal", steal);
  gr_ptr dlstack = app_alloc(&a, sizeof(unsigned) * blocks * (size_t)LD, "localStack", lstack);
  gr_ptr dsstack = app_alloc(&a, sizeof(unsigned) * blocks * MAXSTACKDEPTH, "stealStack", NULL);
  gr_arg args[] = {gr_arg_ptr(dlocal), gr_arg_ptr(dsteal), gr_arg_ptr(dlstack), gr_arg_ptr(dsstack), gr_arg_i32(maxHeight), gr_arg_i32(avg)};
  int rc = app_launch(&a, "uts", blocks, threads, args, 6);
  int ok = 0;
  if (rc == GR_OK) {
    app_read(&a, local, dlocal, sizeof(int) * blocks * STATS);
    long nodes = 0, leaves = 0;
    for (unsigned i = 0; i < blocks; i++) { nodes += local[i * STATS + TOTAL_NODES]; leaves += local[i * STATS + TOTAL_LEAVES]; }
    ok = nodes == ref_nodes && leaves == ref_leaves;
    if (!a.quiet || !ok) {
      FILE *o = a.json ? stderr : stdout;
      fprintf(o, "uts (%d, %d, %d) on %ux%u: total nodes = %ld, total leaves = %ld, %s the CPU enumeration", maxHeight, avg, seed, blocks,
              threads, nodes, leaves, ok ? "as" : "unlike");
      if (ok) fputc('\n', o);
      else fprintf(o, " (%ld nodes, %ld leaves)\n", ref_nodes, ref_leaves);
    }
  }
  free(local); free(steal); free(lstack);
  return app_end(&a, rc, ok);
}
