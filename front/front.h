/* front: the front ends, kernel files to KIR.  This header is the
 * folder's one public face; lex.h and ptx_int.h are its own.
 *
 * The CUDA C subset front end (front.c).  Preprocesses a kernel file as nvcc's
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
  const char *include_path;   /* the user's #include directories, ':'-separated (-I), or NULL */
  const char *cache_dir;      /* the disk cache's folder ("": util.h's default), or NULL: nothing kept across runs */
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

/* ---------------------------------------------------------------- source
 *
 * Reading kernel files and preprocessing them as nvcc's device pass does
 * (source.c). */

#define SOURCE_MAX ((size_t)64 << 20)   /* default bound on a file and its preprocessed text */

/* The __CUDA_ARCH__ the device pass defines (sm_70: the oldest architecture
 * current CUDA compiles for by default); -D__CUDA_ARCH__=N overrides it. */
#define SOURCE_CUDA_ARCH 700

/* Reads a whole file (a regular file, pipe or FIFO) into a malloc'd
 * NUL-terminated buffer, up to `max` bytes (0: SOURCE_MAX).  NULL with a
 * message in err if it cannot be read or is larger. */
char *source_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* The preprocessed text of the file at `path`, whose contents the caller
 * has read (`text`, `len`): a malloc'd buffer of *outlen bytes, or NULL with
 * the message in err.  A file that is not a regular file is preprocessed
 * from a temporary copy whose line markers name the original.  The process
 * keeps what it preprocessed (up to 64 MiB), keyed by the path, the
 * contents, the defines, the bound and the include directories: the headers
 * a file includes are taken to stay as they are while it runs.
 * include_path: the user's directories (-I), ':'-separated, searched after
 * the file's own folder and before the system's.  A file that includes one
 * of the CUDA toolkit's own headers (cooperative groups, CUB, the real
 * cuda_runtime.h) is refused, naming the #include: those are for the CUDA
 * compiler (--cc).  cache_dir (NULL: none) keeps the output on disk
 * across runs too, in its folder pp/, under the conditions source.c
 * states: a text taken from there is the one cpp would print now. */
char *source_preprocess(const char *path, const char *text, size_t len, const char *const *defines, int ndefines,
                        const char *include_path, const char *cache_dir, size_t max, size_t *outlen, char *err, size_t errlen);

/* The include directory of the device pass (cuda_runtime.h and friends):
 * $GPURACE_INCLUDE; else beside the executable (front/include of a build
 * tree or a bundle, ../share/gpurace/include of an installed one); else
 * the source tree it was built from; else the installed copy. */
const char *source_include_dir(void);
/* 0 where gpurace's device headers are in source_include_dir(), else an
 * installation error in err: nothing the subset reads can be right then,
 * and no other front end stands in for them. */
int source_check_headers(char *err, size_t errlen);

/* ---------------------------------------------------------------- ptx
 *
 * The PTX front end (ptx_parse.c, ptx_lower.c, ptx_names.c).  PTX text, as nvcc (--ptx -lineinfo) and NVRTC
 * (-lineinfo) emit it for sm_70 and later, lowered to KIR: every .entry
 * becomes a kernel, device functions are inlined at each call, branches
 * reconverge at their immediate post-dominators, and .loc gives every op
 * its CUDA source position.  What the lowering does not know (an opcode, a
 * modifier, a special register) is an error naming it and its PTX line,
 * never a guess.
 *
 * Kernel names are demangled: a kernel is named as C++ names it, template
 * arguments included ("reduce<256, float>"), and keeps its PTX symbol for
 * the GPU.  Parameter names and kinds come from the demangled signature
 * and, where the CUDA source is at hand, from the kernel's declaration in
 * it, so that //@ directives bind by name as for the subset front end. */

/* Lowers PTX text.  `cu_path` is the CUDA file the PTX was compiled from,
 * or NULL: then the first .file the PTX names that can be read (as written,
 * or relative to the PTX file's folder) stands for it.  Its text gives the
 * parameters' names, and positions in it are reported under the name the
 * caller gave it.  On failure returns NULL with "file:line:col: error: ..."
 * in err. */
kir_module *ptx_compile(const char *path, const char *text, size_t len, const char *cu_path, const front_limits *lim,
                        char *err, size_t errlen);

/* The demangled form of a C++ symbol (malloc'd), or NULL if it is not one. */
char *ptx_demangle(const char *sym);

#endif
