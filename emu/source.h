/* source: reading kernel files and preprocessing them as nvcc's device pass
 * does (see source.c). */
#ifndef GR_SOURCE_H
#define GR_SOURCE_H

#include <stddef.h>

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
 * contents, the defines, the bound and the include directory: the headers
 * a file includes are taken to stay as they are while it runs. */
char *source_preprocess(const char *path, const char *text, size_t len, const char *const *defines, int ndefines,
                        size_t max, size_t *outlen, char *err, size_t errlen);

/* The include directory of the device pass (cuda_runtime.h and friends):
 * $GPURACE_INCLUDE, else the source tree's emu/include, else the installed
 * copy. */
const char *source_include_dir(void);

#endif
