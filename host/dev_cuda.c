/* dev_cuda: a GPU through the CUDA backend (backend.h) as the host layer's
 * device; and the backend's tools of the API. */
#include "backend.h"
#include "device.h"
#include "front.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  cuda_dev *d;
  char *err;
  size_t errlen;
} gpu;

typedef struct {
  cuda_mod *cm;
  const kir_module *km;
} gpu_module;

static void g_close(void *p) {
  gpu *g = p;
  cuda_close(g->d);
  free(g);
}
static const char *g_describe(const void *p) { return cuda_describe(((const gpu *)p)->d); }
static int g_malloc(void *p, size_t bytes, const char *name, gr_ptr *out) {
  gpu *g = p;
  (void)name;
  return cuda_malloc(g->d, bytes, out, g->err, g->errlen);
}
static int g_free(void *p, gr_ptr ptr) { gpu *g = p; return cuda_free(g->d, ptr, g->err, g->errlen); }
static int g_htod(void *p, gr_ptr dst, const void *src, size_t n) { gpu *g = p; return cuda_htod(g->d, dst, src, n, g->err, g->errlen); }
static int g_dtoh(void *p, void *dst, gr_ptr src, size_t n) { gpu *g = p; return cuda_dtoh(g->d, dst, src, n, g->err, g->errlen); }
static int g_memset(void *p, gr_ptr dst, int v, size_t n) { gpu *g = p; return cuda_memset(g->d, dst, v, n, g->err, g->errlen); }
static void g_stats(const void *p, gr_stats *out) { (void)p; memset(out, 0, sizeof *out); }

/* The names the GPU's module must give: the kernels, then the __device__
 * variables; from PTX, the symbols themselves, which the module has. */
static const char **gpu_names(const kir_module *km, int *n) {
  *n = km->nfuncs + km->nglobals;
  const char **names = xcalloc((size_t)*n + 1, sizeof(char *));
  for (int k = 0; k < km->nfuncs; k++) names[k] = km->funcs[k]->sym ? km->funcs[k]->sym : km->funcs[k]->name;
  for (int k = 0; k < km->nglobals; k++) names[km->nfuncs + k] = km->globals[k].sym ? km->globals[k].sym : km->globals[k].name;
  return names;
}

static void g_module_free(void *p) {
  gpu_module *m = p;
  if (!m) return;
  cuda_module_free(m->cm);
  free(m);
}

/* The module on the GPU: the PTX the emulator ran, or NVRTC's compilation
 * of the kernel file; its __device__ variables live in the CUDA module,
 * initialised by the compiler. */
static int g_module_load(void *p, const kir_module *km, const char *path, const char *const *defines, int ndefines,
                         gr_ptr *gaddr, void **out) {
  gpu *g = p;
  gpu_module *m = xcalloc(1, sizeof *m);
  m->km = km;
  int nnames;
  const char **names = gpu_names(km, &nnames);
  int rc = km->ptx ? cuda_module_load_ptx(g->d, path, km->ptx, names, nnames, &m->cm, g->err, g->errlen)
                   : cuda_module_load(g->d, 0, path, defines, ndefines, names, nnames, NULL, 0, &m->cm, g->err, g->errlen);
  for (int k = 0; rc == GR_OK && k < km->nglobals; k++) {
    size_t size;
    rc = cuda_module_global(m->cm, km->nfuncs + k, &gaddr[k], &size, g->err, g->errlen);
    if (rc == GR_OK && size != km->globals[k].size) {
      snprintf(g->err, g->errlen, "%s: error: __device__ variable '%s' has %zu bytes on the GPU, %u in the emulator", path,
               km->globals[k].name, size, km->globals[k].size);
      rc = GR_EINPUT;
    }
  }
  free(names);
  if (rc) { g_module_free(m); m = NULL; }
  *out = m;
  return rc;
}

/* Each value in its parameter's size: the low bytes of its 64 bits, as
 * both machines are little-endian. */
static int g_launch(void *p, void *mp, int kernel, gr_dim3 grid, gr_dim3 block, size_t dyn_shared, unsigned flags,
                    const uint64_t *args, const void *const *argdata) {
  gpu *g = p;
  gpu_module *m = mp;
  int nargs = m->km->funcs[kernel]->nparams;
  uint64_t *vals = xcalloc((size_t)nargs + 1, sizeof *vals);
  void **params = xcalloc((size_t)nargs + 1, sizeof *params);
  for (int k = 0; k < nargs; k++) {
    vals[k] = args[k];
    params[k] = argdata[k] ? (void *)argdata[k] : (void *)&vals[k];
  }
  int rc = cuda_launch(m->cm, kernel, grid, block, dyn_shared, flags, params, g->err, g->errlen);
  free(vals);
  free(params);
  return rc;
}

static const host_device_ops cuda_ops = {g_close, g_describe, g_malloc, g_free, g_htod, g_dtoh, g_memset,
                                         g_module_load, g_module_free, g_launch, g_stats};

int dev_cuda_open(const gr_config *cfg, char *err, size_t errlen, const host_device_ops **ops, void **dev) {
  (void)cfg;
  *ops = &cuda_ops;
  *dev = NULL;
  cuda_dev *d = NULL;
  int rc = cuda_open(&d, err, errlen);
  if (rc) return rc;
  gpu *g = xcalloc(1, sizeof *g);
  g->d = d;
  g->err = err;
  g->errlen = errlen;
  *dev = g;
  return GR_OK;
}

/* ------------------------------------------------------------- the backend's tools */

int gr_cuda_built(void) { return cuda_built(); }

int gr_cuda_compile_check(const char *path, const char *const *defines, int ndefines, int arch, char *err, size_t errlen) {
  kir_module *km = front_compile_file(path, NULL, 0, defines, ndefines, NULL, err, errlen);
  if (!km) return GR_EINPUT;
  int nnames;
  const char **names = gpu_names(km, &nnames);
  cuda_mod *m = NULL;
  int rc = cuda_module_load(NULL, arch, path, defines, ndefines, names, nnames, NULL, 0, &m, err, errlen);
  cuda_module_free(m);
  free(names);
  kir_module_free(km);
  return rc;
}
