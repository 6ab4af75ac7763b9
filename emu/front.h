/* front: the CUDA C subset front end.  Preprocesses a kernel file with the
 * system cpp, then parses, type-checks and lowers it to KIR in one pass
 * (device functions are inlined at each call by re-reading their tokens). */
#ifndef GR_FRONT_H
#define GR_FRONT_H

#include <stddef.h>

#include "kir.h"

/* Compiles source text.  With `from_cpp`, the text is cpp output whose line
 * markers point at the original files.  On failure returns NULL and writes
 * "file:line:col: error: ..." to err. */
kir_module *front_compile(const char *file, const char *text, size_t len, int from_cpp,
                          char *err, size_t errlen);

/* Runs cpp (with -D defines "NAME" or "NAME=VALUE") on `path`, then compiles.
 * On failure returns NULL with the message in err. */
kir_module *front_compile_file(const char *path, const char *const *defines, int ndefines,
                               char *err, size_t errlen);

/* Reads a whole file into a malloc'd NUL-terminated buffer; NULL if unreadable. */
char *front_read_file(const char *path, size_t *len);

#endif
