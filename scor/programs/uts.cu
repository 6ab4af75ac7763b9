// ScoR UTS as a program (scor/apps/uts/uts.c is its C driver): an unbalanced tree search
// with work stealing between blocks, which must all be resident at once.
#include "../apps/uts/uts.cu"
#include "programs.h"

enum { L_STACK_SIZE, L_WORK_AVAIL, L_TOP, L_LOCKED, L_TOTAL_NODES, L_TOTAL_LEAVES };
int main(int argc, char **argv) {
  prog p = prog_args("uts", argc, argv);
  int maxHeight = p.paper ? 9 : 7, avg = 3, seed = 1;
  unsigned blocks = p.paper ? 60 : 4, threads = p.paper ? 256 : 64;
  int LD = 4 * (int)threads;
  long ref_nodes, ref_leaves;
  if (ref_uts((int)blocks, maxHeight, avg, seed, &ref_nodes, &ref_leaves)) { fputs("uts: out of memory\n", stderr); return 2; }
  int *local = new int[blocks * STATS](), *steal = new int[blocks * STATS]();
  unsigned *lstack = new unsigned[(size_t)blocks * LD]();
  for (unsigned i = 0; i < blocks; i++) {
    int *l = &local[i * STATS], *s = &steal[i * STATS];
    l[L_STACK_SIZE] = LD; l[L_WORK_AVAIL] = 1; l[L_TOP] = LD * (int)i; l[L_TOTAL_NODES] = 1;
    s[L_STACK_SIZE] = MAXSTACKDEPTH; s[L_TOP] = MAXSTACKDEPTH * (int)i;
    lstack[(size_t)LD * i] = 0u | 255u << 8 | (unsigned)(seed % 255) << 16 | ((i + 1) % 255) << 24;   // the root
  }
  int per = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, uts, (int)threads, 0));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if ((unsigned)(per * sms) < blocks) {
    fprintf(stderr, "uts: %u blocks of %u threads cannot all be resident on this device (%d SMs x %d): the launch would hang\n",
            blocks, threads, sms, per);
    return 2;
  }
  int *dlocal = dev_alloc((size_t)blocks * STATS, local), *dsteal = dev_alloc((size_t)blocks * STATS, steal);
  unsigned *localStack = dev_alloc((size_t)blocks * LD, lstack), *stealStack = dev_alloc<unsigned>((size_t)blocks * MAXSTACKDEPTH, NULL);
  uts<<<blocks, threads>>>(dlocal, dsteal, localStack, stealStack, maxHeight, avg);
  LAUNCHED();
  dev_read(local, dlocal, (size_t)blocks * STATS);
  long nodes = 0, leaves = 0;
  for (unsigned i = 0; i < blocks; i++) { nodes += local[i * STATS + L_TOTAL_NODES]; leaves += local[i * STATS + L_TOTAL_LEAVES]; }
  int ok = nodes == ref_nodes && leaves == ref_leaves;
  printf("uts (%d, %d, %d) on %ux%u: total nodes = %ld, total leaves = %ld, %s the CPU enumeration", maxHeight, avg, seed, blocks,
         threads, nodes, leaves, ok ? "as" : "unlike");
  if (ok) printf("\n");
  else printf(" (%ld nodes, %ld leaves)\n", ref_nodes, ref_leaves);
  return ok ? 0 : 1;
}
