/* front: the CUDA C subset front end.  Preprocesses a kernel file as nvcc's
 * device pass does (C++ mode, __CUDACC__ and __CUDA_ARCH__ defined, the
 * project's own cuda_runtime.h included first), skips host code whatever it
 * holds, then parses, type-checks and lowers the device code to KIR in one
 * pass (device functions are inlined at each call by re-reading their
 * tokens). */
#ifndef GR_FRONT_H
#define GR_FRONT_H

#include <stddef.h>

#include "kir.h"

/* Bounds on what an input can make the front end spend; 0 means the default. */
typedef struct {
  size_t max_code;      /* KIR instructions of one kernel, after inlining */
  size_t max_source;    /* bytes of a kernel file, and of its preprocessed text */
  int max_nesting;      /* levels of nested expressions, statements and initialisers (at most FRONT_NESTING_CAP) */
} front_limits;
#define FRONT_MAX_NESTING 200
#define FRONT_NESTING_CAP 1000   /* the C stack's share: deeper input is refused whatever the option */
#define FRONT_MAX_CODE ((size_t)1 << 20)

/* Compiles source text.  With `from_cpp`, the text is cpp output whose line
 * markers point at the original files.  On failure returns NULL and writes
 * "file:line:col: error: ..." to err. */
kir_module *front_compile(const char *file, const char *text, size_t len, int from_cpp, const front_limits *lim,
                          char *err, size_t errlen);

/* Runs cpp (with -D defines "NAME" or "NAME=VALUE") on the file, then
 * compiles.  `text` is the file's contents where the caller has read them
 * already (a pipe or FIFO can be read once only), else NULL. */
kir_module *front_compile_file(const char *path, const char *text, size_t len, const char *const *defines,
                               int ndefines, const front_limits *lim, char *err, size_t errlen);

#endif
