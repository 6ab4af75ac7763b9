// The ScoR applications as ordinary CUDA programs: what they share.  Each
// program includes its application's kernel file (scor/apps/NAME/NAME.cu,
// the race knobs -D flags at nvcc time, RACEY for all) and draws its input
// as the C driver does (scor/apps/inputs.c, built with it), prints the same
// result line and exits 0 when the result is right, 1 when it is not.
// Options: --size small|paper (default small), --input-seed N (default 1).
#ifndef SCOR_PROGRAMS_H
#define SCOR_PROGRAMS_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "../apps/inputs.h"

struct prog { int paper; unsigned input_seed; const char *name; };

static prog prog_args(const char *name, int argc, char **argv) {
  prog p = {0, 1, name};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--size") && i + 1 < argc) {
      const char *v = argv[++i];
      if (strcmp(v, "small") && strcmp(v, "paper")) { fprintf(stderr, "%s: --size takes small or paper\n", name); exit(2); }
      p.paper = !strcmp(v, "paper");
    } else if (!strcmp(argv[i], "--input-seed") && i + 1 < argc) {
      p.input_seed = (unsigned)strtoul(argv[++i], NULL, 10);
    } else {
      fprintf(stderr, "usage: %s [--size small|paper] [--input-seed N]\n", name);
      exit(2);
    }
  }
  return p;
}

// A CUDA call that must succeed: else the program stops, naming it (status 2).
#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); exit(2); } } while (0)

// n elements on the device, copied from init (NULL: zero-filled).
template <class T> static T *dev_alloc(size_t n, const T *init) {
  T *d;
  CK(cudaMalloc(&d, n * sizeof(T)));
  if (init) CK(cudaMemcpy(d, init, n * sizeof(T), cudaMemcpyHostToDevice));
  else CK(cudaMemset(d, 0, n * sizeof(T)));
  return d;
}
template <class T> static void dev_read(T *h, const T *d, size_t n) { CK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost)); }
// a launch's own error at once, its execution's at the synchronisation
#define LAUNCHED() do { CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); } while (0)

#endif
