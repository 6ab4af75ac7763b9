// ScoR R110 as a program (scor/apps/r110/r110.c is its C driver): rule 110, one launch a step.
// The blocks wait for each other inside a launch: all must be resident at once.
#include "../apps/r110/r110.cu"
#include "programs.h"

int main(int argc, char **argv) {
  prog p = prog_args("r110", argc, argv);
  int size = p.paper ? 250000 : 3000, steps = p.paper ? 1 : 6;
  unsigned blocks = p.paper ? 15 : 4, threads = p.paper ? 1024 : 256;
  int *cells = new int[size], *ref = new int[size];
  glibc_rand g;
  glibc_srand(&g, p.input_seed);
  for (int i = 0; i < size; i++) ref[i] = cells[i] = glibc_rand_next(&g) % 2;
  ref_r110(ref, size, steps);
  int per = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, rule110, (int)threads, 0));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if ((unsigned)(per * sms) < blocks) {
    fprintf(stderr, "r110: %u blocks of %u threads cannot all be resident on this device (%d SMs x %d): the launch would hang\n",
            blocks, threads, sms, per);
    return 2;
  }
  int *arr = dev_alloc((size_t)size, cells), *copy = dev_alloc<int>((size_t)size, NULL), *comp = dev_alloc<int>(blocks * threads, NULL);
  for (int s = 1; s <= steps; s++) {
    rule110<<<blocks, threads>>>(arr, copy, comp, size, s);
    LAUNCHED();
  }
  dev_read(cells, arr, (size_t)size);
  int bad = 0, first = -1;
  long ones = 0;
  for (int i = 0; i < size; i++) {
    ones += cells[i] == 1;
    if (cells[i] != ref[i]) { if (first < 0) first = i; bad++; }
  }
  printf("r110 %d cells, %d step%s on %ux%u: ", size, steps, steps == 1 ? "" : "s", blocks, threads);
  if (!bad) printf("every cell matches the sequential rule (%ld ones)\n", ones);
  else printf("%d cells differ from the sequential rule; first cell %d = %d, expected %d\n", bad, first, cells[first], ref[first]);
  return bad ? 1 : 0;
}
