/* The CUDA backend: NVRTC and the driver API, opened with dlopen (see
 * backend.h for why). */
#define _GNU_SOURCE   /* dladdr: where NVRTC was loaded from, for cuda_nvrtc_key */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "backend.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "front.h"
#include "util.h"

#if GR_HAVE_CUDA

#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>

#ifndef GR_CUDA_PATH
#define GR_CUDA_PATH "/usr/local/cuda"
#endif

/* The entry points, by their ABI names: cuda.h maps cuMemAlloc to
 * cuMemAlloc_v2 and so on by macros, which dlsym does not see. */
static struct {
  int loaded;
  char why[512];
  void *cu, *rtc;
  CUresult (*Init)(unsigned);
  CUresult (*DriverGetVersion)(int *);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
  CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*PrimaryCtxRelease)(CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*CtxSynchronize)(void);
  CUresult (*GetErrorString)(CUresult, const char **);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*ModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           CUstream, void **, void **);
  CUresult (*LaunchCooperativeKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                      CUstream, void **);
  CUresult (*FuncSetAttribute)(CUfunction, CUfunction_attribute, int);
  const char *(*rtcErrorString)(nvrtcResult);
  nvrtcResult (*rtcCreateProgram)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                                  const char *const *);
  nvrtcResult (*rtcDestroyProgram)(nvrtcProgram *);
  nvrtcResult (*rtcCompileProgram)(nvrtcProgram, int, const char *const *);
  nvrtcResult (*rtcGetProgramLogSize)(nvrtcProgram, size_t *);
  nvrtcResult (*rtcGetProgramLog)(nvrtcProgram, char *);
  nvrtcResult (*rtcGetCUBINSize)(nvrtcProgram, size_t *);
  nvrtcResult (*rtcGetCUBIN)(nvrtcProgram, char *);
  nvrtcResult (*rtcAddNameExpression)(nvrtcProgram, const char *);
  nvrtcResult (*rtcGetLoweredName)(nvrtcProgram, const char *, const char **);
  nvrtcResult (*rtcGetPTXSize)(nvrtcProgram, size_t *);
  nvrtcResult (*rtcGetPTX)(nvrtcProgram, char *);
  nvrtcResult (*rtcVersion)(int *, int *);
} api;

static void *open_first(const char *const *names, char *why, size_t n) {
  why[0] = 0;
  for (int k = 0; names[k]; k++) {
    void *h = dlopen(names[k], RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
    if (!why[0]) snprintf(why, n, "%s", dlerror());
  }
  return NULL;
}

#define SYM(lib, field, name)                                                                          \
  do {                                                                                                 \
    *(void **)&api.field = dlsym(lib, name);                                                           \
    if (!api.field) { snprintf(api.why, sizeof api.why, "symbol %s missing from the CUDA libraries", name); return 0; } \
  } while (0)

/* NVRTC alone: enough to compile on a machine without a driver. */
static int load_nvrtc(void) {
  if (api.rtc) return 1;
  const char *env = getenv("GPURACE_NVRTC");
  const char *names[40] = {env && *env ? env : "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
  int n = 3;
  char *owned[36];
  int nowned = 0;
  for (const char *const *r = cuda_toolkit_roots(); *r && n < 36; r++) {
    static const char *const sub[] = {"lib64/libnvrtc.so", "lib/libnvrtc.so", "lib/libnvrtc.so.13", "lib/libnvrtc.so.12"};
    for (int k = 0; k < 4 && n < 38; k++) {
      char *c = xmalloc(strlen(*r) + 32);
      sprintf(c, "%s/%s", *r, sub[k]);
      names[n++] = owned[nowned++] = c;
    }
  }
  names[n] = NULL;
  char why[400];
  api.rtc = open_first(names, why, sizeof why);
  for (int k = 0; k < nowned; k++) free(owned[k]);
  if (!api.rtc) {
    snprintf(api.why, sizeof api.why, "cannot load NVRTC (%s); set GPURACE_NVRTC to libnvrtc.so's path", why);
    return 0;
  }
  SYM(api.rtc, rtcErrorString, "nvrtcGetErrorString");
  SYM(api.rtc, rtcCreateProgram, "nvrtcCreateProgram");
  SYM(api.rtc, rtcDestroyProgram, "nvrtcDestroyProgram");
  SYM(api.rtc, rtcCompileProgram, "nvrtcCompileProgram");
  SYM(api.rtc, rtcGetProgramLogSize, "nvrtcGetProgramLogSize");
  SYM(api.rtc, rtcGetProgramLog, "nvrtcGetProgramLog");
  SYM(api.rtc, rtcGetCUBINSize, "nvrtcGetCUBINSize");
  SYM(api.rtc, rtcGetCUBIN, "nvrtcGetCUBIN");
  SYM(api.rtc, rtcAddNameExpression, "nvrtcAddNameExpression");
  SYM(api.rtc, rtcGetLoweredName, "nvrtcGetLoweredName");
  SYM(api.rtc, rtcGetPTXSize, "nvrtcGetPTXSize");
  SYM(api.rtc, rtcGetPTX, "nvrtcGetPTX");
  SYM(api.rtc, rtcVersion, "nvrtcVersion");
  return 1;
}

static int load_driver(void) {
  if (api.cu) return 1;
  const char *names[] = {"libcuda.so.1", "libcuda.so", NULL};
  char why[400];
  api.cu = open_first(names, why, sizeof why);
  if (!api.cu) {
    snprintf(api.why, sizeof api.why, "no CUDA driver on this machine (%s)", why);
    return 0;
  }
  SYM(api.cu, Init, "cuInit");
  SYM(api.cu, DriverGetVersion, "cuDriverGetVersion");
  SYM(api.cu, DeviceGetCount, "cuDeviceGetCount");
  SYM(api.cu, DeviceGet, "cuDeviceGet");
  SYM(api.cu, DeviceGetName, "cuDeviceGetName");
  SYM(api.cu, DeviceGetAttribute, "cuDeviceGetAttribute");
  SYM(api.cu, PrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  SYM(api.cu, PrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  SYM(api.cu, CtxSetCurrent, "cuCtxSetCurrent");
  SYM(api.cu, CtxSynchronize, "cuCtxSynchronize");
  SYM(api.cu, GetErrorString, "cuGetErrorString");
  SYM(api.cu, ModuleLoadData, "cuModuleLoadData");
  SYM(api.cu, ModuleUnload, "cuModuleUnload");
  SYM(api.cu, ModuleGetFunction, "cuModuleGetFunction");
  SYM(api.cu, ModuleGetGlobal, "cuModuleGetGlobal_v2");
  SYM(api.cu, MemAlloc, "cuMemAlloc_v2");
  SYM(api.cu, MemFree, "cuMemFree_v2");
  SYM(api.cu, MemcpyHtoD, "cuMemcpyHtoD_v2");
  SYM(api.cu, MemcpyDtoH, "cuMemcpyDtoH_v2");
  SYM(api.cu, MemsetD8, "cuMemsetD8_v2");
  SYM(api.cu, LaunchKernel, "cuLaunchKernel");
  SYM(api.cu, LaunchCooperativeKernel, "cuLaunchCooperativeKernel");
  SYM(api.cu, FuncSetAttribute, "cuFuncSetAttribute");
  return 1;
}

struct cuda_dev {
  CUdevice dev;
  CUcontext ctx;
  int arch;
  char desc[256];
};

struct cuda_mod {
  cuda_dev *d;
  CUmodule mod;
  int nnames;
  char **lowered;
  CUfunction *fn;   /* looked up on first launch */
};

static int cu_fail(CUresult r, const char *what, char *err, size_t n) {
  const char *s = NULL;
  if (api.GetErrorString) api.GetErrorString(r, &s);
  snprintf(err, n, "error: CUDA %s failed: %s (%d)", what, s ? s : "unknown error", (int)r);
  return GR_EEMU;
}
#define CU(call, what) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) return cu_fail(r_, what, err, errlen); } while (0)

int cuda_built(void) { return 1; }

int cuda_open(cuda_dev **out, char *err, size_t errlen) {
  *out = NULL;
  if (!load_driver() || !load_nvrtc()) { snprintf(err, errlen, "error: CUDA backend: %s", api.why); return GR_EINPUT; }
  CUresult r = api.Init(0);
  if (r != CUDA_SUCCESS) {
    const char *s = NULL;
    api.GetErrorString(r, &s);
    snprintf(err, errlen, "error: CUDA backend: no usable GPU (cuInit: %s)", s ? s : "unknown error");
    return GR_EINPUT;
  }
  int count = 0, which = 0;
  CU(api.DeviceGetCount(&count), "cuDeviceGetCount");
  const char *env = getenv("GPURACE_CUDA_DEVICE");
  if (env && *env) which = atoi(env);
  if (count == 0 || which < 0 || which >= count) {
    snprintf(err, errlen, "error: CUDA backend: no GPU %d (this machine has %d)", which, count);
    return GR_EINPUT;
  }
  cuda_dev *d = xcalloc(1, sizeof *d);
  CUresult rr;
  int major = 0, minor = 0, drv = 0;
  char name[128] = "";
  if ((rr = api.DeviceGet(&d->dev, which)) != CUDA_SUCCESS ||
      (rr = api.DeviceGetName(name, sizeof name, d->dev)) != CUDA_SUCCESS ||
      (rr = api.DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->dev)) != CUDA_SUCCESS ||
      (rr = api.DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->dev)) != CUDA_SUCCESS ||
      (rr = api.DriverGetVersion(&drv)) != CUDA_SUCCESS ||
      (rr = api.PrimaryCtxRetain(&d->ctx, d->dev)) != CUDA_SUCCESS) {
    free(d);
    return cu_fail(rr, "device setup", err, errlen);
  }
  if ((rr = api.CtxSetCurrent(d->ctx)) != CUDA_SUCCESS) {
    api.PrimaryCtxRelease(d->dev);
    free(d);
    return cu_fail(rr, "cuCtxSetCurrent", err, errlen);
  }
  d->arch = major * 10 + minor;
  snprintf(d->desc, sizeof d->desc, "%s, sm_%d, CUDA driver API %d.%d", name, d->arch, drv / 1000, drv % 1000 / 10);
  *out = d;
  return GR_OK;
}

void cuda_close(cuda_dev *d) {
  if (!d) return;
  api.PrimaryCtxRelease(d->dev);
  free(d);
}

const char *cuda_describe(const cuda_dev *d) { return d->desc; }

int cuda_malloc(cuda_dev *d, size_t n, gr_ptr *out, char *err, size_t errlen) {
  (void)d;
  CUdeviceptr p;
  CU(api.MemAlloc(&p, n ? n : 1), "cuMemAlloc");
  CUresult r = api.MemsetD8(p, 0, n ? n : 1);   /* the emulator's allocations are zero-filled */
  if (r != CUDA_SUCCESS) { api.MemFree(p); return cu_fail(r, "cuMemsetD8", err, errlen); }
  *out = (gr_ptr)p;
  return GR_OK;
}

int cuda_free(cuda_dev *d, gr_ptr p, char *err, size_t errlen) {
  (void)d;
  CU(api.MemFree((CUdeviceptr)p), "cuMemFree");
  return GR_OK;
}

int cuda_htod(cuda_dev *d, gr_ptr dst, const void *src, size_t n, char *err, size_t errlen) {
  (void)d;
  if (n) CU(api.MemcpyHtoD((CUdeviceptr)dst, src, n), "cuMemcpyHtoD");
  return GR_OK;
}

int cuda_dtoh(cuda_dev *d, void *dst, gr_ptr src, size_t n, char *err, size_t errlen) {
  (void)d;
  if (n) CU(api.MemcpyDtoH(dst, (CUdeviceptr)src, n), "cuMemcpyDtoH");
  return GR_OK;
}

int cuda_memset(cuda_dev *d, gr_ptr dst, int v, size_t n, char *err, size_t errlen) {
  (void)d;
  if (n) CU(api.MemsetD8((CUdeviceptr)dst, (unsigned char)v, n), "cuMemsetD8");
  return GR_OK;
}

static char *name_expr(const char *name) {
  size_t l = strlen(name) + 2;
  char *s = xmalloc(l);
  snprintf(s, l, "&%s", name);
  return s;
}

/* The NVRTC log, or what is left of it, as the error. */
static int rtc_fail(nvrtcProgram prog, nvrtcResult r, const char *path, char *err, size_t errlen) {
  size_t n = 0;
  char *log = NULL;
  if (prog && api.rtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 1) {
    log = xmalloc(n + 1);
    if (api.rtcGetProgramLog(prog, log) != NVRTC_SUCCESS) log[0] = 0;
    log[n] = 0;
    while (n > 1 && (log[n - 2] == '\n' || log[n - 2] == ' ')) log[--n - 1] = 0;
  }
  /* the log's first error on the first line: what a one-line summary shows */
  const char *first = log ? strstr(log, "error") : NULL;
  const char *eol = first ? strchr(first, '\n') : NULL;
  if (first)
    snprintf(err, errlen, "%s: error: NVRTC: %s: %.*s\n%s", path, api.rtcErrorString(r), eol ? (int)(eol - first) : (int)strlen(first), first, log);
  else snprintf(err, errlen, "%s: error: NVRTC: %s%s%s", path, api.rtcErrorString(r), log && *log ? "\n" : "", log ? log : "");
  free(log);
  return GR_EINPUT;
}

int cuda_module_load(cuda_dev *d, int arch, const char *path, const char *const *defines, int ndefines,
                     const char *const *names, int nnames, const char *const *extra, int nextra,
                     cuda_mod **out, char *err, size_t errlen) {
  *out = NULL;
  size_t len;
  char *src = source_read_file(path, 0, &len, err, errlen);
  if (!src) return GR_EINPUT;
  int rc = cuda_module_load_text(d, arch, path, src, defines, ndefines, names, nnames, extra, nextra, out, err, errlen);
  free(src);
  return rc;
}

int cuda_module_load_text(cuda_dev *d, int arch, const char *path, const char *src, const char *const *defines, int ndefines,
                          const char *const *names, int nnames, const char *const *extra, int nextra,
                          cuda_mod **out, char *err, size_t errlen) {
  *out = NULL;
  if (!load_nvrtc()) { snprintf(err, errlen, "error: CUDA backend: %s", api.why); return GR_EINPUT; }
  if (d) arch = d->arch;
  int nopts = 0;
  char **opts = xcalloc((size_t)ndefines + (size_t)nextra + 9, sizeof(char *));
  char buf[4096];
  snprintf(buf, sizeof buf, "--gpu-architecture=sm_%d", arch);
  opts[nopts++] = xstrdup(buf);
  opts[nopts++] = xstrdup("--fmad=false");   /* a*b+c rounds twice, as in the emulator */
  opts[nopts++] = xstrdup("--std=c++17");
  const char *slash = strrchr(path, '/');
  if (slash) snprintf(buf, sizeof buf, "--include-path=%.*s", (int)(slash - path), path);
  else snprintf(buf, sizeof buf, "--include-path=.");
  opts[nopts++] = xstrdup(buf);
  /* the device pass's own cuda_runtime.h and friends, which give way to
   * NVRTC's built-in declarations (__CUDACC_RTC__), so that a file that
   * includes them compiles on both backends */
  snprintf(buf, sizeof buf, "--include-path=%s", source_include_dir());
  opts[nopts++] = xstrdup(buf);
  for (int k = 0; k < ndefines; k++) {
    snprintf(buf, sizeof buf, "-D%s", defines[k]);
    opts[nopts++] = xstrdup(buf);
  }
  for (int k = 0; k < nextra; k++) opts[nopts++] = xstrdup(extra[k]);
  /* $GPURACE_NVRTC_OPTIONS: more options, space-separated (e.g. --generate-line-info
   * for compute-sanitizer's source positions) */
  char *envopts = getenv("GPURACE_NVRTC_OPTIONS") ? xstrdup(getenv("GPURACE_NVRTC_OPTIONS")) : NULL;
  for (char *save = NULL, *t = envopts ? strtok_r(envopts, " ", &save) : NULL; t; t = strtok_r(NULL, " ", &save)) {
    opts = xrealloc(opts, sizeof(char *) * (size_t)(nopts + 2));
    opts[nopts++] = xstrdup(t);
  }
  free(envopts);
  nvrtcProgram prog = NULL;
  int rc = GR_OK;
  char **exprs = xcalloc((size_t)nnames + 1, sizeof(char *));
  cuda_mod *m = NULL;
  char *image = NULL;
  nvrtcResult r = api.rtcCreateProgram(&prog, src, path, 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) { rc = rtc_fail(NULL, r, path, err, errlen); goto done; }
  for (int k = 0; k < nnames; k++) {
    exprs[k] = name_expr(names[k]);
    if ((r = api.rtcAddNameExpression(prog, exprs[k])) != NVRTC_SUCCESS) { rc = rtc_fail(prog, r, path, err, errlen); goto done; }
  }
  if ((r = api.rtcCompileProgram(prog, nopts, (const char *const *)opts)) != NVRTC_SUCCESS) {
    rc = rtc_fail(prog, r, path, err, errlen);
    goto done;
  }
  m = xcalloc(1, sizeof *m);
  m->d = d;
  m->nnames = nnames;
  m->lowered = xcalloc((size_t)nnames + 1, sizeof(char *));
  m->fn = xcalloc((size_t)nnames + 1, sizeof(CUfunction));
  for (int k = 0; k < nnames; k++) {
    const char *low = NULL;
    if ((r = api.rtcGetLoweredName(prog, exprs[k], &low)) != NVRTC_SUCCESS) { rc = rtc_fail(prog, r, path, err, errlen); goto done; }
    m->lowered[k] = xstrdup(low);
  }
  size_t isize = 0;
  if ((r = api.rtcGetCUBINSize(prog, &isize)) != NVRTC_SUCCESS) { rc = rtc_fail(prog, r, path, err, errlen); goto done; }
  image = xmalloc(isize ? isize : 1);
  if ((r = api.rtcGetCUBIN(prog, image)) != NVRTC_SUCCESS) { rc = rtc_fail(prog, r, path, err, errlen); goto done; }
  if (d) {
    CUresult cr = api.ModuleLoadData(&m->mod, image);
    if (cr != CUDA_SUCCESS) { rc = cu_fail(cr, "cuModuleLoadData", err, errlen); goto done; }
  }
done:
  if (prog) api.rtcDestroyProgram(&prog);
  for (int k = 0; k < nnames; k++) free(exprs[k]);
  free(exprs);
  for (int k = 0; k < nopts; k++) free(opts[k]);
  free(opts);
  free(image);
  if (rc && m) { cuda_module_free(m); m = NULL; }
  *out = m;
  return rc;
}

int cuda_module_load_ptx(cuda_dev *d, const char *path, const char *ptx, const char *const *syms, int nsyms,
                         cuda_mod **out, char *err, size_t errlen) {
  *out = NULL;
  cuda_mod *m = xcalloc(1, sizeof *m);
  m->d = d;
  m->nnames = nsyms;
  m->lowered = xcalloc((size_t)nsyms + 1, sizeof(char *));
  m->fn = xcalloc((size_t)nsyms + 1, sizeof(CUfunction));
  for (int k = 0; k < nsyms; k++) m->lowered[k] = xstrdup(syms[k]);
  CUresult cr = api.ModuleLoadData(&m->mod, ptx);   /* the driver compiles the PTX for this GPU */
  if (cr != CUDA_SUCCESS) {
    int rc = cu_fail(cr, "cuModuleLoadData (PTX)", err, errlen);
    size_t l = strlen(err);
    snprintf(err + l, errlen - l, " for %s", path);
    cuda_module_free(m);
    return rc;
  }
  *out = m;
  return GR_OK;
}

int cuda_nvrtc_found(void) { return load_nvrtc(); }

/* A folder NVRTC is told to look for a file's includes in: the user's (the
 * file's own, gpurace's device headers, -I; a key scans their files) or an
 * installed toolkit's (cooperative groups; libcu++ in include/cccl since
 * CUDA 13). */
typedef struct {
  char *path;
  int user;
} inc_dir;

static void inc_push(vec *dirs, int user, const char *path) { *(inc_dir *)vec_push(dirs) = (inc_dir){xstrdup(path), user}; }

/* Those folders for the file at path, in NVRTC's order. */
static void include_dirs(const char *path, vec *dirs) {
  vec_init(dirs, sizeof(inc_dir));
  char buf[4200];
  const char *slash = strrchr(path, '/');
  snprintf(buf, sizeof buf, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  inc_push(dirs, 1, buf);
  inc_push(dirs, 1, source_include_dir());
  for (const char *const *r = cuda_toolkit_roots(); *r; r++) {
    static const char *const sub[] = {"include", "include/cccl"};
    for (int k = 0; k < 2; k++) {
      snprintf(buf, sizeof buf, "%s/%s", *r, sub[k]);
      if (access(buf, R_OK) == 0) inc_push(dirs, 0, buf);
    }
  }
}

static void include_dirs_free(vec *dirs) {
  for (size_t j = 0; j < dirs->len; j++) free(((inc_dir *)vec_at(dirs, j))->path);
  vec_free(dirs);
}

/* The files named libnvrtc* beside the library NVRTC was loaded from
 * (libnvrtc-builtins holds the headers NVRTC has built in), by name, as
 * disk_cond_path records them. */
static int nvrtc_library_key(bytes *k) {
  Dl_info info;
  if (!dladdr(*(void **)&api.rtcCompileProgram, &info) || !info.dli_fname || !strchr(info.dli_fname, '/')) return -1;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", info.dli_fname);
  *strrchr(dir, '/') = 0;
  struct dirent **ents = NULL;
  int n = scandir(dir, &ents, NULL, alphasort);
  if (n < 0) return -1;
  for (int j = 0; j < n; j++) {
    if (!strncmp(ents[j]->d_name, "libnvrtc", 8)) {
      char p[4400];
      snprintf(p, sizeof p, "%s/%s", dir, ents[j]->d_name);
      disk_cond_path(k, p);
    }
    free(ents[j]);
  }
  free(ents);
  return 0;
}

int cuda_nvrtc_key(const char *path, const char *text, size_t len, const char *flags, bytes *k) {
  if (!load_nvrtc() || !disk_includes_stay(text, len)) return -1;
  int major = 0, minor = 0;
  if (api.rtcVersion(&major, &minor) != NVRTC_SUCCESS) return -1;
  bytes_put(k, &major, sizeof major);
  bytes_put(k, &minor, sizeof minor);
  if (nvrtc_library_key(k)) return -1;
  vec dirs;
  include_dirs(path, &dirs);
  /* the flags' include folders are the user's; a file they pre-include
   * may be anywhere */
  char *fl = flags ? xstrdup(flags) : NULL;
  int rc = 0;
  for (char *save = NULL, *t = fl ? strtok_r(fl, " ", &save) : NULL; t && !rc; t = strtok_r(NULL, " ", &save)) {
    const char *d = !strncmp(t, "--include-path=", 15) ? t + 15 : !strncmp(t, "-I", 2) ? t + 2 : NULL;
    if (d && *d) inc_push(&dirs, 1, d);
    else if (d || strstr(t, "include")) rc = -1;
  }
  free(fl);
  /* a folder inside one walked already (include/cccl in include) is
   * named, not walked again, where that walk scanned as much */
  size_t budget = 10000;
  char (*real)[4096] = xcalloc(dirs.len, sizeof *real);
  for (size_t j = 0; j < dirs.len && !rc; j++) {
    const inc_dir *d = vec_at(&dirs, j);
    if (!realpath(d->path, real[j])) { rc = -1; break; }
    size_t in = j;
    for (size_t i = 0; i < j && in == j; i++) {
      size_t l = strlen(real[i]);
      const inc_dir *di = vec_at(&dirs, i);
      if (di->user >= d->user && !strncmp(real[j], real[i], l) && (real[j][l] == '/' || real[j][l] == 0)) in = i;
    }
    if (in < j) bytes_put(k, real[j], strlen(real[j]) + 1);
    else rc = disk_tree_key(k, real[j], d->user, &budget);
  }
  free(real);
  include_dirs_free(&dirs);
  return rc;
}

int cuda_compile_ptx_nvrtc(const char *path, const char *text, const char *const *defines, int ndefines, const char *flags,
                           char **ptx, size_t *len, char *err, size_t errlen) {
  *ptx = NULL;
  if (!load_nvrtc()) { snprintf(err, errlen, "%s: error: --cc nvrtc: %s", path, api.why); return GR_EINPUT; }
  char *owned = NULL;
  if (!text) {
    size_t n;
    owned = source_read_file(path, 0, &n, err, errlen);
    if (!owned) return GR_EINPUT;
    text = owned;
  }
  vec opts;
  vec_init(&opts, sizeof(char *));
  char buf[4096];
  int has_arch = flags && (strstr(flags, "-arch") || strstr(flags, "--gpu-architecture"));
  if (!has_arch) *(char **)vec_push(&opts) = xstrdup("--gpu-architecture=compute_" GR_CC_ARCH);
  *(char **)vec_push(&opts) = xstrdup("--generate-line-info");
  *(char **)vec_push(&opts) = xstrdup("--fmad=false");   /* as the emulator's subset front end and the CUDA backend */
  *(char **)vec_push(&opts) = xstrdup("--std=c++17");
  vec dirs;
  include_dirs(path, &dirs);
  for (size_t k = 0; k < dirs.len; k++) {
    snprintf(buf, sizeof buf, "--include-path=%s", ((inc_dir *)vec_at(&dirs, k))->path);
    *(char **)vec_push(&opts) = xstrdup(buf);
  }
  include_dirs_free(&dirs);
  for (int k = 0; k < ndefines; k++) { snprintf(buf, sizeof buf, "-D%s", defines[k]); *(char **)vec_push(&opts) = xstrdup(buf); }
  char *fl = flags ? xstrdup(flags) : NULL;
  for (char *save = NULL, *t = fl ? strtok_r(fl, " ", &save) : NULL; t; t = strtok_r(NULL, " ", &save))
    *(char **)vec_push(&opts) = xstrdup(t);
  free(fl);
  nvrtcProgram prog = NULL;
  int rc = GR_OK;
  nvrtcResult r = api.rtcCreateProgram(&prog, text, path, 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) { rc = rtc_fail(NULL, r, path, err, errlen); goto done; }
  if ((r = api.rtcCompileProgram(prog, (int)opts.len, (const char *const *)opts.data)) != NVRTC_SUCCESS) { rc = rtc_fail(prog, r, path, err, errlen); goto done; }
  size_t n = 0;
  if ((r = api.rtcGetPTXSize(prog, &n)) != NVRTC_SUCCESS) { rc = rtc_fail(prog, r, path, err, errlen); goto done; }
  *ptx = xmalloc(n + 1);
  if ((r = api.rtcGetPTX(prog, *ptx)) != NVRTC_SUCCESS) { free(*ptx); *ptx = NULL; rc = rtc_fail(prog, r, path, err, errlen); goto done; }
  (*ptx)[n] = 0;
  *len = strlen(*ptx);
done:
  if (prog) api.rtcDestroyProgram(&prog);
  for (size_t k = 0; k < opts.len; k++) free(*(char **)vec_at(&opts, k));
  vec_free(&opts);
  free(owned);
  return rc;
}

void cuda_module_free(cuda_mod *m) {
  if (!m) return;
  if (m->mod) api.ModuleUnload(m->mod);
  for (int k = 0; k < m->nnames; k++) free(m->lowered[k]);
  free(m->lowered);
  free(m->fn);
  free(m);
}

int cuda_module_global(cuda_mod *m, int k, gr_ptr *addr, size_t *size, char *err, size_t errlen) {
  CUdeviceptr p;
  size_t n;
  CU(api.ModuleGetGlobal(&p, &n, m->mod, m->lowered[k]), "cuModuleGetGlobal");
  *addr = (gr_ptr)p;
  *size = n;
  return GR_OK;
}

int cuda_launch(cuda_mod *m, int k, gr_dim3 grid, gr_dim3 block, size_t dyn_shared, unsigned flags, void **params,
                char *err, size_t errlen) {
  if (!m->fn[k]) {
    CU(api.ModuleGetFunction(&m->fn[k], m->mod, m->lowered[k]), "cuModuleGetFunction");
    /* the emulator lets a block use its SM's whole shared memory; so does the GPU, when asked */
    if (dyn_shared > 48 * 1024)
      CU(api.FuncSetAttribute(m->fn[k], CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn_shared), "cuFuncSetAttribute");
  }
  if (flags & GR_LAUNCH_COOPERATIVE)
    CU(api.LaunchCooperativeKernel(m->fn[k], grid.x, grid.y, grid.z, block.x, block.y, block.z, (unsigned)dyn_shared, NULL, params),
       "cuLaunchCooperativeKernel");
  else
    CU(api.LaunchKernel(m->fn[k], grid.x, grid.y, grid.z, block.x, block.y, block.z, (unsigned)dyn_shared, NULL, params, NULL),
       "cuLaunchKernel");
  CU(api.CtxSynchronize(), "kernel execution (cuCtxSynchronize)");
  return GR_OK;
}

#else /* !GR_HAVE_CUDA */

int cuda_nvrtc_found(void) { return 0; }


int cuda_module_load_ptx(cuda_dev *d, const char *path, const char *ptx, const char *const *syms, int nsyms,
                         cuda_mod **out, char *err, size_t errlen) {
  (void)d; (void)path; (void)ptx; (void)syms; (void)nsyms;
  *out = NULL;
  cuda_dev *x;
  return cuda_open(&x, err, errlen);
}
int cuda_nvrtc_key(const char *path, const char *text, size_t len, const char *flags, bytes *k) {
  (void)path; (void)text; (void)len; (void)flags; (void)k;
  return -1;
}
int cuda_compile_ptx_nvrtc(const char *path, const char *text, const char *const *defines, int ndefines, const char *flags,
                           char **ptx, size_t *len, char *err, size_t errlen) {
  (void)text; (void)defines; (void)ndefines; (void)flags; (void)len;
  *ptx = NULL;
  snprintf(err, errlen, "%s: error: --cc nvrtc: this gpurace was built without CUDA's headers (configure --with-cuda=PATH); --cc nvcc needs none", path);
  return GR_EINPUT;
}

/* Without CUDA's headers at configure time there is no backend; asking for
 * it says how to get one. */
int cuda_built(void) { return 0; }

int cuda_open(cuda_dev **out, char *err, size_t errlen) {
  *out = NULL;
  snprintf(err, errlen, "error: this gpurace was built without the CUDA backend (configure --with-cuda=PATH, where PATH holds include/cuda.h and include/nvrtc.h)");
  return GR_EINPUT;
}
void cuda_close(cuda_dev *d) { (void)d; }
const char *cuda_describe(const cuda_dev *d) { (void)d; return ""; }
static int absent(char *err, size_t errlen) { cuda_dev *d; return cuda_open(&d, err, errlen); }
int cuda_malloc(cuda_dev *d, size_t n, gr_ptr *out, char *err, size_t errlen) { (void)d; (void)n; (void)out; return absent(err, errlen); }
int cuda_free(cuda_dev *d, gr_ptr p, char *err, size_t errlen) { (void)d; (void)p; return absent(err, errlen); }
int cuda_htod(cuda_dev *d, gr_ptr dst, const void *src, size_t n, char *err, size_t errlen) { (void)d; (void)dst; (void)src; (void)n; return absent(err, errlen); }
int cuda_dtoh(cuda_dev *d, void *dst, gr_ptr src, size_t n, char *err, size_t errlen) { (void)d; (void)dst; (void)src; (void)n; return absent(err, errlen); }
int cuda_memset(cuda_dev *d, gr_ptr dst, int v, size_t n, char *err, size_t errlen) { (void)d; (void)dst; (void)v; (void)n; return absent(err, errlen); }
int cuda_module_load(cuda_dev *d, int arch, const char *path, const char *const *defines, int ndefines,
                     const char *const *names, int nnames, const char *const *extra, int nextra,
                     cuda_mod **out, char *err, size_t errlen) {
  (void)d; (void)arch; (void)path; (void)defines; (void)ndefines; (void)names; (void)nnames; (void)extra; (void)nextra;
  *out = NULL;
  return absent(err, errlen);
}
int cuda_module_load_text(cuda_dev *d, int arch, const char *path, const char *src, const char *const *defines, int ndefines,
                          const char *const *names, int nnames, const char *const *extra, int nextra,
                          cuda_mod **out, char *err, size_t errlen) {
  (void)src;
  return cuda_module_load(d, arch, path, defines, ndefines, names, nnames, extra, nextra, out, err, errlen);
}
void cuda_module_free(cuda_mod *m) { (void)m; }
int cuda_module_global(cuda_mod *m, int k, gr_ptr *addr, size_t *size, char *err, size_t errlen) { (void)m; (void)k; (void)addr; (void)size; return absent(err, errlen); }
int cuda_launch(cuda_mod *m, int k, gr_dim3 grid, gr_dim3 block, size_t dyn_shared, unsigned flags, void **params, char *err,
                size_t errlen) {
  (void)m; (void)k; (void)grid; (void)block; (void)dyn_shared; (void)flags; (void)params;
  return absent(err, errlen);
}

#endif
