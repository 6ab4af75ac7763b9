/* ptx: the PTX front end.  PTX text, as nvcc (--ptx -lineinfo) and NVRTC
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
#ifndef GR_PTX_H
#define GR_PTX_H

#include <stddef.h>

#include "front.h"
#include "kir.h"

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
