/* backend.h: the CUDA backend, private to the library (gpurace.h is its
 * public face: gr_config.backend, and the host API it dispatches).
 *
 * NVRTC compiles a kernel file's own text with the same -D defines, and the
 * driver API loads, launches and moves memory.  Both libraries are opened
 * at run time (dlopen), so one gpurace binary runs on every machine: where
 * there is no driver or no GPU, only asking for the backend fails, with a
 * message.  Nothing here is a second kernel language: the emulator's front
 * end still parses the file, for its errors and the kernels' signatures. */
#ifndef GR_CUDA_BACKEND_H
#define GR_CUDA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "gpurace.h"
#include "util.h"

typedef struct cuda_dev cuda_dev;

/* The architecture PTX is compiled for by default: the oldest that CUDA 13
 * still compiles for (sm_70 was dropped there); every GPU since runs it. */
#define GR_CC_ARCH "75"
typedef struct cuda_mod cuda_mod;

/* 1 when this build has the backend (configure found CUDA's headers). */
int cuda_built(void);

/* Opens the first GPU (or $GPURACE_CUDA_DEVICE) with its primary context. */
int cuda_open(cuda_dev **out, char *err, size_t errlen);
void cuda_close(cuda_dev *d);
/* "NVIDIA H100 80GB HBM3, sm_90, driver 13.0 (580.xx)" and its parts. */
const char *cuda_describe(const cuda_dev *d);

int cuda_malloc(cuda_dev *d, size_t n, gr_ptr *out, char *err, size_t errlen);
int cuda_free(cuda_dev *d, gr_ptr p, char *err, size_t errlen);
int cuda_htod(cuda_dev *d, gr_ptr dst, const void *src, size_t n, char *err, size_t errlen);
int cuda_dtoh(cuda_dev *d, void *dst, gr_ptr src, size_t n, char *err, size_t errlen);
int cuda_memset(cuda_dev *d, gr_ptr dst, int v, size_t n, char *err, size_t errlen);

/* Compiles the file at path with NVRTC (-D defines, its folder on the
 * include path, no FMA contraction so that float results match the
 * emulator's) for the architecture sm_<arch>, and lowers each of names (the
 * kernels and __device__ variables, C++-mangled by NVRTC).  Without a
 * device (d NULL) it only compiles, for sm_<arch>: a check that runs on
 * machines without a GPU.  Extra options (e.g. --generate-line-info) are
 * appended. */
int cuda_module_load(cuda_dev *d, int arch, const char *path, const char *const *defines, int ndefines,
                     const char *const *names, int nnames, const char *const *extra, int nextra,
                     cuda_mod **out, char *err, size_t errlen);
/* The same for source text that is not a file (the hardware litmus
 * harness's): path names it in messages and gives the include folder. */
int cuda_module_load_text(cuda_dev *d, int arch, const char *path, const char *src, const char *const *defines, int ndefines,
                          const char *const *names, int nnames, const char *const *extra, int nextra,
                          cuda_mod **out, char *err, size_t errlen);
void cuda_module_free(cuda_mod *m);
/* Loads PTX text (what the emulator's PTX front end ran) for the device;
 * syms are the kernels' and variables' PTX names, in the order later calls
 * index them. */
int cuda_module_load_ptx(cuda_dev *d, const char *path, const char *ptx, const char *const *syms, int nsyms,
                         cuda_mod **out, char *err, size_t errlen);

/* The PTX of a CUDA file's device code, with line information and no FMA
 * contraction, for compute_GR_CC_ARCH unless the flags name an
 * architecture: by NVRTC (text: the file's contents, or NULL to read it),
 * or by nvcc, found as $GPURACE_NVCC, on $PATH, in the project's
 * environment (.venv, where scripts/setup.sh installs it from PyPI) or under
 * the CUDA path configure found.  *ptx is malloc'd and NUL-terminated. */
int cuda_compile_ptx_nvrtc(const char *path, const char *text, const char *const *defines, int ndefines, const char *flags,
                           char **ptx, size_t *len, char *err, size_t errlen);
/* What decides NVRTC's PTX of the file at path besides its text, its
 * defines and the flags, for a key that outlives the process: NVRTC's
 * version and library files, and the trees of the folders it is told to
 * look for includes in (util.h's disk_tree_key; the user's scanned, so
 * that none of their includes leaves them).  Appended to k: 0, or -1
 * where the PTX must not be kept past the process (the text or a user's
 * header may read beyond those trees, the flags pre-include a file or
 * name an include folder apart, a tree is too large). */
int cuda_nvrtc_key(const char *path, const char *text, size_t len, const char *flags, bytes *k);
/* The CUDA toolkit's root folders, most specific first, NULL-terminated:
 * $CUDA_HOME, the project's .venv wheels, the CUDA path configure found. */
const char *const *cuda_toolkit_roots(void);
int cuda_compile_ptx_nvcc(const char *path, const char *const *defines, int ndefines, const char *flags,
                          char **ptx, size_t *len, char *err, size_t errlen);
/* Whether NVRTC loads, and whether nvcc is found, as the two above find them. */
int cuda_nvrtc_found(void);
int cuda_nvcc_found(void);
/* Address and size of the __device__ variable names[k]. */
int cuda_module_global(cuda_mod *m, int k, gr_ptr *addr, size_t *size, char *err, size_t errlen);
/* Launches the kernel names[k] and waits for it; params[i] points at the
 * i-th argument, already in the parameter's type; flags: GR_LAUNCH_*. */
int cuda_launch(cuda_mod *m, int k, gr_dim3 grid, gr_dim3 block, size_t dyn_shared, unsigned flags, void **params,
                char *err, size_t errlen);

#endif
