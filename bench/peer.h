/* peer.h: make bench's comparison of gpurace with the peers a new user
 * would measure it against (issue 23): PoCL, which compiles the same
 * kernels to vectorised CPU code, and plain C.  Five kernels (bench/peer/:
 * a .cu file and its OpenCL C twin each; the C twins are in peer.c): an
 * ALU-bound hash loop, triad, a shared-memory tree reduction, a tiled
 * matrix multiply and an atomic histogram.  Every run's output is compared
 * with the C twin's, byte for byte. */
#ifndef GR_BENCH_PEER_H
#define GR_BENCH_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "gpurace.h"

/* How gpurace runs a kernel: memory model, warp mode, front end,
 * detectors (NULL: none) and engine (the interpreter unless said). */
typedef struct {
  gr_memory memory;
  gr_warps warps;
  gr_cc cc;
  const char *detect;
  gr_engine engine;
} peer_mode;

/* The hash kernel's C twin (bench/peer/hash.cu): out[t] for n threads. */
void peer_hash(uint32_t *out, size_t n, int iters);

/* Prints the tables: the five kernels against PoCL and C in sc memory with
 * lockstep warps, then each mode's time against that, the detectors', and
 * time per element as the size grows.  srcdir finds bench/peer.  Returns
 * nonzero where an output differed or a run failed (the table says which). */
int peer_tables(const char *srcdir);
/* One kernel, reps launches, in the base mode or the modes table's column
 * named by mode (weak, its, weak+its, PTX, compiled; NULL: the base), its time on
 * stdout: for profiling (`bench/bench peer triad 20 weak`).  Nonzero on a
 * failure. */
int peer_one(const char *srcdir, const char *name, int reps, const char *mode);

#endif
