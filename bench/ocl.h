/* ocl.h: make bench's OpenCL runner, for the comparison with PoCL (the
 * portable OpenCL: it compiles a kernel to vectorised CPU code, the fastest
 * way to run a SIMT kernel on a CPU).  Built where configure found OpenCL;
 * elsewhere ocl_open fails with a reason and the benchmark says the PoCL
 * column was not measured. */
#ifndef GR_BENCH_OCL_H
#define GR_BENCH_OCL_H

#include <stddef.h>

typedef struct ocl ocl;

/* The first platform whose name says PoCL ("Portable Computing Language"),
 * else the first one, and its first device; NULL with err on failure. */
ocl *ocl_open(char *err, size_t errlen);
void ocl_close(ocl *o);
/* "Portable Computing Language 3.1, cpu-x86-64-..." */
const char *ocl_describe(const ocl *o);

/* One kernel argument buffer: copied to the device before every run and,
 * where out is set, back after it. */
typedef struct {
  void *host;
  size_t bytes;
  int out;
} ocl_buf;

/* Builds the OpenCL C file at path, then runs kernel name over the buffers
 * (in order, then the int scalars) with the NDRange global / local (dims 1
 * or 2) reps times after one untimed run (PoCL compiles a work-group
 * function at its first launch); *best is the fastest run's time from the
 * enqueue to clFinish.  0, or -1 with err. */
int ocl_run(ocl *o, const char *path, const char *name, ocl_buf *bufs, int nbufs, const int *scalars, int nscalars,
            int dims, const size_t *global, const size_t *local, int reps, double *best, char *err, size_t errlen);

#endif
