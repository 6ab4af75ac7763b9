/* cudart: gpurace's CUDA runtime, libcudart.so.13 in NVIDIA's stead, whose
 * GPU is the emulator.  This file: the process's device (started on first
 * use from the GPURACE_* environment that `gpurace exec` sets), the
 * registration calls of nvcc's host stubs, launches, errors, and the
 * summary at exit.
 *
 * Every operation runs when it is called, in the calling order: a launch
 * on any stream runs to completion before the call returns.  CUDA allows
 * that schedule (an asynchronous operation may complete at once), and it
 * makes a program's output and reports independent of its host threads'
 * timing; what it gives up is said where it matters (docs/runtime.md:
 * kernels of different streams never overlap here). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart_int.h"
#include "fatbin.h"
#include "host.h"

rt_state rt = {.report = NULL};

static pthread_once_t rt_once = PTHREAD_ONCE_INIT;
static void rt_init_lock(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&rt.lock, &a);
  pthread_mutexattr_destroy(&a);
  vec_init(&rt.fatbins, sizeof(rt_fatbin *));
  vec_init(&rt.funcs, sizeof(rt_func));
  vec_init(&rt.vars, sizeof(rt_var));
  vec_init(&rt.mirrors, sizeof(rt_mirror));
  vec_init(&rt.allocs, sizeof(gr_ptr));
}
void rt_lock(void) { pthread_once(&rt_once, rt_init_lock); pthread_mutex_lock(&rt.lock); }
void rt_unlock(void) { pthread_mutex_unlock(&rt.lock); }

static _Thread_local cudaError_t last_error;

cudaError_t rt_set_error(cudaError_t err) {
  if (err) last_error = err;
  return err;
}

static FILE *report_stream(void) { return rt.report ? rt.report : stderr; }

void rt_report(const char *fmt, ...) {
  FILE *f = report_stream();
  va_list ap;
  va_start(ap, fmt);
  fputs("gpurace: ", f);
  vfprintf(f, fmt, ap);
  va_end(ap);
  fputc('\n', f);
  fflush(f);
}

/* ------------------------------------------------------------- the device */

static void rt_at_exit(void);

/* The detectors of GPURACE_DETECT, with the options of GPURACE_DETECT_OPTIONS
 * (words as on gpurace run's command line). */
static int start_detectors(void) {
  const char *list = getenv("GPURACE_DETECT");
  if (!list || !*list) return 0;
  det_options o;
  det_options_default(&o);
  char err[512];
  const char *opts = getenv("GPURACE_DETECT_OPTIONS");
  char *words = xstrdup(opts ? opts : ""), *argv[64];
  int argc = 0;
  for (char *s = strtok(words, " "); s && argc < 64; s = strtok(NULL, " ")) argv[argc++] = s;
  for (int i = 0; i < argc; i++) {
    int r = det_options_option(&o, argv[i], i + 1 < argc ? argv[i + 1] : NULL, err, sizeof err);
    if (r <= 0) {
      rt_report("error: GPURACE_DETECT_OPTIONS: %s", r ? err : "not a detector option");
      free(words);
      return -1;
    }
    i += r - 1;
  }
  /* the strings the options point to live as long as the detectors: the process */
  rt.log = race_log_new();
  int rc = detectors_attach(rt.ctx, list, &o, rt.log, &rt.set, err, sizeof err);
  if (rc) rt_report("error: GPURACE_DETECT: %s", err);
  return rc ? -1 : 0;
}

gr_context *rt_device(void) {
  if (rt.started) return rt.ctx;
  rt.started = 1;
  const char *log = getenv("GPURACE_LOG");
  if (log && *log) {
    rt.report = fopen(log, "a");
    if (!rt.report) fprintf(stderr, "gpurace: error: cannot open GPURACE_LOG '%s'; reports go to stderr\n", log);
  }
  if (!rt.exit_hooked) { atexit(rt_at_exit); rt.exit_hooked = 1; }
  char err[256];
  if (gr_config_env(err, sizeof err)) {
    rt_report("error: %s: the emulated device does not start", err);
    rt.start_error = cudaErrorInitializationError;
    return NULL;
  }
  gr_config cfg;
  gr_config_default(&cfg);
  if (cfg.backend != GR_BACKEND_EMU) cfg.backend = GR_BACKEND_EMU;
  rt.ctx = gr_context_create(&cfg);
  if (gr_context_ok(rt.ctx)) {
    rt_report("error: the emulated device does not start: %s", gr_error(rt.ctx));
    rt.start_error = cudaErrorInitializationError;
    gr_context_destroy(rt.ctx);
    rt.ctx = NULL;
    return NULL;
  }
  if (start_detectors()) {
    rt.start_error = cudaErrorInitializationError;
    return NULL;
  }
  return rt.ctx;
}

/* The device's printf output, written where CUDA writes it: the program's stdout. */
static void flush_output(void) {
  if (!rt.ctx) return;
  fflush(stdout);
  if (gr_device_output(rt.ctx, stdout)) fflush(stdout);
}

cudaError_t rt_sync(void) {
  flush_output();
  if (rt.pending && !rt.sticky) rt.sticky = rt.pending;
  return rt.sticky;
}

/* The summary: the launches, the detectors' reports and verdicts; and for
 * `gpurace exec`, a line of counts in GPURACE_EXEC_STATUS. */
static void rt_at_exit(void) {
  rt_lock();
  flush_output();
  FILE *f = report_stream();
  size_t nraces = 0;
  int unwatched = 0;
  if (rt.set) {
    const gr_race *r = race_log_reports(rt.log, &nraces);
    for (size_t k = 0; k < nraces; k++) race_print_text(f, &r[k]);
  }
  fprintf(f, "gpurace: %llu kernel launch%s", (unsigned long long)rt.launches, rt.launches == 1 ? "" : "es");
  if (rt.failed_launches) fprintf(f, " (%llu failed)", (unsigned long long)rt.failed_launches);
  if (rt.set) {
    fputs("; detectors:", f);
    for (size_t d = 0; d < detectors_size(rt.set); d++) {
      const char *name = detectors_name(rt.set, d);
      size_t n = race_log_count(rt.log, name);
      fprintf(f, "%s %s %zu race report%s", d ? "," : "", name, n, n == 1 ? "" : "s");
      if (race_log_unwatched_why(rt.log, name)) { fputs(" (NOT WATCHED: incomplete)", f); unwatched++; }
    }
  }
  if (rt.unsupported_calls) fprintf(f, "; %llu call%s of unsupported API", (unsigned long long)rt.unsupported_calls, rt.unsupported_calls == 1 ? "" : "s");
  fputc('\n', f);
  for (size_t d = 0; rt.set && d < detectors_size(rt.set); d++) {
    const char *why = race_log_unwatched_why(rt.log, detectors_name(rt.set, d));
    if (why) fprintf(f, "gpurace: detector %s stopped watching the program: %s\n", detectors_name(rt.set, d), why);
  }
  if (rt.set) detectors_summary(rt.set, f);
  fflush(f);
  const char *status = getenv("GPURACE_EXEC_STATUS");
  if (status && *status) {
    FILE *s = fopen(status, "a");
    if (s) {
      fprintf(s, "launches=%llu failed=%llu races=%zu unwatched=%d unsupported=%llu start_error=%d\n",
              (unsigned long long)rt.launches, (unsigned long long)rt.failed_launches, nraces, unwatched,
              (unsigned long long)rt.unsupported_calls, rt.start_error);
      fclose(s);
    }
  }
  if (rt.report && rt.report != stderr) { fclose(rt.report); rt.report = NULL; }
  rt_unlock();
}

/* ------------------------------------------------------------- registration */

/* nvcc's wrapper of a translation unit's fatbinary */
typedef struct { int magic, version; const void *data; void *filename_or_fatbins; } rt_fatbin_wrapper;
#define FATBIN_WRAPPER_MAGIC 0x466243b1

RT_EXPORT void **__cudaRegisterFatBinary(void *fat) {
  rt_lock();
  if (!rt.exit_hooked) { atexit(rt_at_exit); rt.exit_hooked = 1; }
  rt_fatbin *fb = xcalloc(1, sizeof *fb);
  const rt_fatbin_wrapper *w = fat;
  fb->data = w && w->magic == FATBIN_WRAPPER_MAGIC ? w->data : NULL;
  fb->index = (int)rt.fatbins.len + 1;
  *(rt_fatbin **)vec_push(&rt.fatbins) = fb;
  rt_unlock();
  return (void **)fb;
}

static void mirrors_of_managed(rt_fatbin *fb);

/* The fatbinary's PTX, lowered: 0, or the cudaError_t (reported once). */
static int fatbin_load(rt_fatbin *fb) {
  if (fb->mod || fb->load_rc) return fb->load_rc;
  gr_context *ctx = rt_device();
  if (!ctx) return fb->load_rc = rt.start_error;
  char err[512], name[300];
  /* the name of reports without -lineinfo: the program's, its device code's number, the PTX line */
  snprintf(name, sizeof name, "%s.%d.ptx", program_invocation_short_name, fb->index);
  const uint8_t *d = fb->data;
  if (!d) {
    rt_report("error: the program registered device code gpurace cannot read (not nvcc's fatbinary wrapper)");
    return fb->load_rc = cudaErrorInvalidKernelImage;
  }
  size_t tl;
  int no_ptx;
  char *text = fatbin_ptx(d, fatbin_container_size(d), 100000, &tl, &no_ptx, err, sizeof err);
  if (!text) {
    rt_report("error: the program's device code %d: %s", fb->index, err);
    return fb->load_rc = no_ptx ? cudaErrorNoKernelImageForDevice : cudaErrorInvalidKernelImage;
  }
  int rc = host_module_load_text(ctx, name, text, tl, NULL, 0, 0, &fb->mod);
  free(text);
  if (rc) {
    rt_report("error: the program's device code %d (its PTX, read as %s) cannot be run: %s", fb->index, name, gr_error(ctx));
    fb->mod = NULL;
    return fb->load_rc = cudaErrorInvalidPtx;
  }
  mirrors_of_managed(fb);
  return 0;
}

RT_EXPORT void __cudaRegisterFunction(void **handle, const char *stub, char *device_fun, const char *device_name, int thread_limit,
                                      void *tid, void *bid, void *bdim, void *gdim, int *wsize) {
  (void)device_fun, (void)thread_limit, (void)tid, (void)bid, (void)bdim, (void)gdim, (void)wsize;
  rt_lock();
  rt_func *f = vec_push(&rt.funcs);
  f->stub = stub;
  f->fb = (rt_fatbin *)handle;
  f->name = xstrdup(device_name);
  rt_unlock();
}

static void register_var(void **handle, const void *host, const char *name, size_t size, void **managed) {
  rt_lock();
  rt_var *v = vec_push(&rt.vars);
  v->host = host;
  v->fb = (rt_fatbin *)handle;
  v->name = xstrdup(name);
  v->size = size;
  v->managed_ptr = managed;
  if (managed) v->fb->managed = 1;
  rt_unlock();
}

RT_EXPORT void __cudaRegisterVar(void **handle, char *host_var, char *device_address, const char *device_name, int ext,
                                 size_t size, int constant, int global) {
  (void)device_address, (void)ext, (void)constant, (void)global;
  register_var(handle, host_var, device_name, size, NULL);
}

RT_EXPORT void __cudaRegisterManagedVar(void **handle, void **host_var_ptr, char *device_address, const char *device_name,
                                        int ext, size_t size, int constant, int global) {
  (void)device_address, (void)ext, (void)constant, (void)global;
  register_var(handle, host_var_ptr, device_name, size, host_var_ptr);
}

RT_EXPORT void __cudaRegisterFatBinaryEnd(void **handle) {
  rt_lock();
  rt_fatbin *fb = (rt_fatbin *)handle;
  if (fb->managed) fatbin_load(fb);   /* the program reads its __managed__ variables' addresses from now on */
  rt_unlock();
}

RT_EXPORT void __cudaUnregisterFatBinary(void **handle) { (void)handle; }

/* nvcc calls it before the host touches a __managed__ variable */
RT_EXPORT char __cudaInitModule(void **handle) {
  rt_lock();
  int rc = fatbin_load((rt_fatbin *)handle);
  rt_unlock();
  return rc == 0;
}

/* A module's global by the name the program registered it with: its PTX symbol or its C++ name. */
static int module_global(rt_fatbin *fb, const char *name, gr_ptr *addr, size_t *size) {
  const kir_module *km = host_module_kir(fb->mod);
  for (int k = 0; k < km->nglobals; k++) {
    const kir_global *g = &km->globals[k];
    if ((g->sym && !strcmp(g->sym, name)) || !strcmp(g->name, name)) return gr_module_global(fb->mod, g->name, addr, size);
  }
  return GR_EINPUT;
}

/* The __managed__ variables of a module just loaded: host memory the
 * device shares, holding the variables' initial values. */
static void mirrors_of_managed(rt_fatbin *fb) {
  for (size_t k = 0; k < rt.vars.len; k++) {
    rt_var *v = vec_at(&rt.vars, k);
    gr_ptr addr;
    size_t size;
    if (v->fb != fb || !v->managed_ptr || module_global(fb, v->name, &addr, &size)) continue;
    rt_mirror *m = vec_push(&rt.mirrors);
    m->size = size;
    m->host = aligned_alloc(256, (size + 255) / 256 * 256);
    memset(m->host, 0, (size + 255) / 256 * 256);
    m->dev = addr;
    m->kind = cudaMemoryTypeManaged;
    m->owned = 1;
    m->var = 1;
    gr_memcpy_dtoh(rt.ctx, m->host, addr, size);
    *v->managed_ptr = m->host;
  }
}

rt_func *rt_func_of(const void *stub, cudaError_t *err) {
  for (size_t k = 0; k < rt.funcs.len; k++) {
    rt_func *f = vec_at(&rt.funcs, k);
    if (f->stub != stub) continue;
    *err = fatbin_load(f->fb);
    return *err ? NULL : f;
  }
  *err = cudaErrorInvalidDeviceFunction;
  return NULL;
}

rt_var *rt_var_of(const void *host, gr_ptr *addr, cudaError_t *err) {
  for (size_t k = 0; k < rt.vars.len; k++) {
    rt_var *v = vec_at(&rt.vars, k);
    if (v->host != host) continue;
    if ((*err = fatbin_load(v->fb))) return NULL;
    size_t size;
    if (module_global(v->fb, v->name, addr, &size)) {
      rt_report("error: the device code has no variable '%s'", v->name);
      *err = cudaErrorInvalidSymbol;
      return NULL;
    }
    return v;
  }
  *err = cudaErrorInvalidSymbol;
  return NULL;
}

/* ------------------------------------------------------------- launches */

static _Thread_local struct { rt_dim3 grid, block; size_t shared; void *stream; } call_config[32];
static _Thread_local int call_depth;

RT_EXPORT unsigned __cudaPushCallConfiguration(rt_dim3 grid, rt_dim3 block, size_t shared, void *stream) {
  if (call_depth >= 32) return 1;
  call_config[call_depth].grid = grid;
  call_config[call_depth].block = block;
  call_config[call_depth].shared = shared;
  call_config[call_depth].stream = stream;
  call_depth++;
  return 0;
}

RT_EXPORT cudaError_t __cudaPopCallConfiguration(rt_dim3 *grid, rt_dim3 *block, size_t *shared, void *stream) {
  if (call_depth == 0) return cudaErrorMissingConfiguration;
  call_depth--;
  *grid = call_config[call_depth].grid;
  *block = call_config[call_depth].block;
  *shared = call_config[call_depth].shared;
  *(void **)stream = call_config[call_depth].stream;
  return cudaSuccess;
}

/* The error a GPU gives for what stopped the launch (the engine's message). */
static cudaError_t fault_error(const char *msg) {
  if (strstr(msg, "misaligned")) return cudaErrorMisalignedAddress;
  if (strstr(msg, "assertion")) return cudaErrorAssert;
  if (strstr(msg, "out-of-bounds") || strstr(msg, "invalid ") || strstr(msg, "null pointer")) return cudaErrorIllegalAddress;
  if (strstr(msg, "step limit") || strstr(msg, "deadlock") || strstr(msg, "warp instructions")) return cudaErrorLaunchTimeout;
  return cudaErrorLaunchFailure;
}

uint64_t rt_translate(uint64_t p) {
  if (KIR_SPACE_OF(p) != SPACE_NONE) return p;
  for (size_t k = 0; k < rt.mirrors.len; k++) {
    rt_mirror *m = vec_at(&rt.mirrors, k);
    if (p >= (uint64_t)(uintptr_t)m->host && p - (uint64_t)(uintptr_t)m->host <= m->size)
      return m->dev + (p - (uint64_t)(uintptr_t)m->host);
  }
  return p;
}

/* A kernel argument from the bytes the program passed (args[k]). */
static gr_arg arg_of(const void *p, gr_type t, uint8_t *scratch, size_t size) {
  uint64_t v = 0;
  gr_arg a = {t, 0, NULL, 0};
  switch (t) {
  case GR_BOOL: a.bits = *(const uint8_t *)p != 0; break;
  case GR_I8: a.bits = (uint64_t)(int64_t) * (const int8_t *)p; break;
  case GR_U8: a.bits = *(const uint8_t *)p; break;
  case GR_I16: a.bits = (uint64_t)(int64_t) * (const int16_t *)p; break;
  case GR_U16: a.bits = *(const uint16_t *)p; break;
  case GR_I32: a.bits = (uint64_t)(int64_t) * (const int32_t *)p; break;
  case GR_U32: case GR_F32: a.bits = *(const uint32_t *)p; break;
  case GR_I64: case GR_U64: case GR_PTR: memcpy(&v, p, 8); a.bits = rt_translate(v); break;
  case GR_F64: memcpy(&a.bits, p, 8); break;
  default:   /* a struct: its bytes, a mirrored host pointer in it made its device twin */
    memcpy(scratch, p, size);
    for (size_t o = 0; o + 8 <= size; o += 8) {
      memcpy(&v, scratch + o, 8);
      v = rt_translate(v);
      memcpy(scratch + o, &v, 8);
    }
    a.data = scratch;
    a.size = size;
  }
  return a;
}

/* A buffer of cudaMalloc's (named "cudaMalloc #N" till now) is named, in
 * reports, by the kernel parameter it is first passed as, where the
 * parameter's name is the source's (the PTX front end reads it from the
 * program's source file, which -lineinfo names). */
static void name_buffers(gr_module *mod, const char *kernel, const gr_arg *a, int n) {
  for (int k = 0; k < n; k++) {
    const char *pname, *old;
    uint64_t size;
    if ((a[k].type != GR_PTR && a[k].type != GR_U64) || KIR_SPACE_OF(a[k].bits) != SPACE_GLOBAL || (uint32_t)a[k].bits != 0) continue;
    size_t id = gr_allocation_id(a[k].bits);
    if (!id || gr_allocation_info(rt.ctx, id, &size, &old) || strncmp(old, "cudaMalloc #", 12)) continue;
    if (gr_kernel_param(mod, kernel, k, &pname, NULL, NULL) || !pname || !*pname || strstr(pname, "_param_")) continue;
    host_allocation_rename(rt.ctx, a[k].bits, pname);
  }
}

/* Before a launch the host's bytes go to the device, and a copy of what
 * was sent is kept; after it, only the bytes the kernel changed come back.
 * Copying every byte back would undo what the program's other host threads
 * wrote to their own pinned or managed memory while this launch ran (NVIDIA's
 * simpleCallback lost its workloads' inputs so). */
int rt_mirrors_sync(int to_device) {
  static uint8_t *now;
  static size_t now_cap;
  for (size_t k = 0; k < rt.mirrors.len; k++) {
    rt_mirror *m = vec_at(&rt.mirrors, k);
    if (to_device) {
      if (!m->sent) m->sent = xmalloc(m->size ? m->size : 1);
      memcpy(m->sent, m->host, m->size);
      int rc = gr_memcpy_htod(rt.ctx, m->dev, m->sent, m->size);
      if (rc) return rc;
      continue;
    }
    if (!m->sent) continue;
    if (m->size > now_cap) { free(now); now_cap = m->size; now = xmalloc(now_cap); }
    int rc = gr_memcpy_dtoh(rt.ctx, now, m->dev, m->size);
    if (rc) return rc;
    for (size_t at = 0; at < m->size; at += 4096) {
      size_t n = m->size - at < 4096 ? m->size - at : 4096;
      if (!memcmp(now + at, m->sent + at, n)) continue;
      for (size_t i = at; i < at + n; i++) if (now[i] != m->sent[i]) m->host[i] = now[i];
    }
  }
  return 0;
}

void rt_clock_copy(size_t n) { rt.clock_ns += 1000 + n / 25; }

cudaError_t rt_launch(const void *stub, rt_dim3 grid, rt_dim3 block, void **args, size_t shared, cudaStream_t stream,
                      unsigned flags) {
  (void)stream;
  if (!rt_device()) return rt_set_error(rt.start_error);
  if (rt.sticky) return rt_set_error(rt.sticky);
  cudaError_t err;
  rt_func *f = rt_func_of(stub, &err);
  if (!f) {
    if (err == cudaErrorInvalidDeviceFunction) rt_report("error: a launch of a host address that is not a registered kernel");
    return rt_set_error(err);
  }
  gr_module *mod = f->fb->mod;
  int n = gr_kernel_nparams(mod, f->name);
  if (n < 0) {
    rt_report("error: the device code has no kernel '%s'", f->name);
    return rt_set_error(cudaErrorInvalidDeviceFunction);
  }
  const kir_func *kf = kir_find(host_module_kir(mod), f->name);
  const char *shown = kf ? kf->name : f->name;   /* as C++ names it */
  gr_arg *a = xcalloc((size_t)n + 1, sizeof *a);
  uint8_t **scratch = xcalloc((size_t)n + 1, sizeof *scratch);
  for (int k = 0; k < n; k++) {
    gr_type t;
    gr_kernel_param(mod, f->name, k, NULL, &t, NULL);
    size_t size = 0;
    if (t == GR_STRUCT) {
      int nl;
      const uint32_t *offs;
      const gr_type *types;
      gr_kernel_param_struct(mod, f->name, k, &size, &nl, &offs, &types);
      scratch[k] = xmalloc(size + 8);
    }
    a[k] = arg_of(args[k], t, scratch[k], size);
  }
  name_buffers(mod, f->name, a, n);
  int rc = rt_mirrors_sync(1);
  rt.launches++;
  if (!rc) rc = gr_launch_ex(mod, f->name, (gr_dim3){grid.x, grid.y, grid.z}, (gr_dim3){block.x, block.y, block.z}, shared,
                            flags, a, n);
  for (int k = 0; k < n; k++) free(scratch[k]);
  free(scratch);
  free(a);
  gr_stats st;
  gr_last_stats(rt.ctx, &st);
  rt.clock_ns += 2000 + st.warp_steps / (uint64_t)gr_context_config(rt.ctx)->sms;
  if (rc == GR_EINPUT) {   /* refused before it ran: the launch's own error, not sticky */
    rt.failed_launches++;
    rt_report("error: launch %llu of '%s' refused: %s", (unsigned long long)rt.launches, shown, gr_error(rt.ctx));
    /* CUDA 13 on an H200 answers a block of more than 1024 threads with
     * cudaErrorInvalidValue (reports/programs-hw.md) */
    const char *why = gr_error(rt.ctx);
    return rt_set_error(flags && strstr(why, "cooperative launch") ? cudaErrorCooperativeLaunchTooLarge
                        : strstr(why, "exceeds 1024 threads") ? cudaErrorInvalidValue : cudaErrorInvalidConfiguration);
  }
  if (rc) {
    rt.failed_launches++;
    cudaError_t e = fault_error(gr_error(rt.ctx));
    rt_report("error: launch %llu of '%s', grid (%u,%u,%u) block (%u,%u,%u): %s\n"
              "gpurace: the program sees %s from its next synchronising call, and from every call after it",
              (unsigned long long)rt.launches, shown, grid.x, grid.y, grid.z, block.x, block.y, block.z, gr_error(rt.ctx),
              cudaGetErrorName(e));
    if (!rt.pending) rt.pending = e;
  }
  rt_mirrors_sync(0);
  return cudaSuccess;
}

RT_EXPORT cudaError_t __cudaLaunchKernel(const void *stub, rt_dim3 grid, rt_dim3 block, void **args, size_t shared,
                                         cudaStream_t stream) {
  rt_lock();
  cudaError_t e = rt_launch(stub, grid, block, args, shared, stream, 0);
  rt_unlock();
  return e;
}
RT_EXPORT cudaError_t __cudaLaunchKernel_ptsz(const void *stub, rt_dim3 grid, rt_dim3 block, void **args, size_t shared,
                                              cudaStream_t stream) {
  return __cudaLaunchKernel(stub, grid, block, args, shared, stream);
}
RT_EXPORT cudaError_t cudaLaunchKernel(const void *stub, rt_dim3 grid, rt_dim3 block, void **args, size_t shared,
                                       cudaStream_t stream) {
  return __cudaLaunchKernel(stub, grid, block, args, shared, stream);
}
RT_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *stub, rt_dim3 grid, rt_dim3 block, void **args, size_t shared,
                                            cudaStream_t stream) {
  return __cudaLaunchKernel(stub, grid, block, args, shared, stream);
}
RT_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *stub, rt_dim3 grid, rt_dim3 block, void **args, size_t shared,
                                                  cudaStream_t stream) {
  rt_lock();
  cudaError_t e = rt_launch(stub, grid, block, args, shared, stream, GR_LAUNCH_COOPERATIVE);
  rt_unlock();
  return e;
}
RT_EXPORT cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *stub, rt_dim3 grid, rt_dim3 block, void **args,
                                                       size_t shared, cudaStream_t stream) {
  return cudaLaunchCooperativeKernel(stub, grid, block, args, shared, stream);
}

/* cudaLaunchKernelEx: the attributes that change what a launch means are
 * honoured (cooperative) or refused (clusters, events); the others are
 * hints a GPU may ignore, as the emulator does. */
RT_EXPORT cudaError_t cudaLaunchKernelExC(const rt_launch_config *c, const void *stub, void **args) {
  if (!c) return rt_set_error(cudaErrorInvalidValue);
  unsigned flags = 0;
  for (unsigned k = 0; k < c->numAttrs; k++) {
    const rt_launch_attribute *a = &c->attrs[k];
    switch (a->id) {
    case 2: if (a->val.cooperative) flags |= GR_LAUNCH_COOPERATIVE; break;   /* cudaLaunchAttributeCooperative */
    case 4:   /* cudaLaunchAttributeClusterDimension */
      if ((uint64_t)a->val.cluster.x * a->val.cluster.y * a->val.cluster.z <= 1) break;
      /* fall through */
    case 7: case 12: case 13: {
      rt_lock();
      rt.unsupported_calls++;
      rt_report("error: cudaLaunchKernelEx with launch attribute %d (clusters, programmatic or completion events, "
                "updatable nodes) is not supported by gpurace's CUDA runtime: it returns cudaErrorNotSupported", a->id);
      rt_unlock();
      return rt_set_error(cudaErrorNotSupported);
    }
    default: break;
    }
  }
  rt_lock();
  cudaError_t e = rt_launch(stub, c->gridDim, c->blockDim, args, c->dynamicSmemBytes, c->stream, flags);
  rt_unlock();
  return e;
}
RT_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const rt_launch_config *c, const void *stub, void **args) {
  return cudaLaunchKernelExC(c, stub, args);
}

/* cudaKernel_t for a host stub: the stub itself names it here */
RT_EXPORT cudaError_t __cudaGetKernel(void **kernel, const void *stub) {
  rt_lock();
  cudaError_t err;
  rt_func *f = rt_func_of(stub, &err);
  if (f) *kernel = (void *)stub;
  rt_unlock();
  return rt_set_error(err);
}

/* ------------------------------------------------------------- errors */

static const struct { int code; const char *name, *text; } errors[] = {
  {cudaSuccess, "cudaSuccess", "no error"},
  {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
  {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
  {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
  {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
  {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
  {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
  {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
  {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
  {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
  {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
  {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
  {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
  {cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
  {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
  {cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
  {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
  {cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "named symbol not found"},
  {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
  {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
  {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
  {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
  {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
  {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
  {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
  {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
  {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
  {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
  {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
  {cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted"},
  {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
  {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

RT_EXPORT const char *cudaGetErrorName(cudaError_t e) {
  for (size_t k = 0; k < sizeof errors / sizeof *errors; k++) if (errors[k].code == e) return errors[k].name;
  return "cudaErrorUnknown";
}
RT_EXPORT const char *cudaGetErrorString(cudaError_t e) {
  for (size_t k = 0; k < sizeof errors / sizeof *errors; k++) if (errors[k].code == e) return errors[k].text;
  return "unrecognized error code";
}

/* A launch's error is sticky once seen: cudaGetLastError returns it and does not reset it. */
RT_EXPORT cudaError_t cudaGetLastError(void) {
  rt_lock();
  cudaError_t e = rt.sticky ? rt.sticky : last_error;
  last_error = cudaSuccess;
  rt_unlock();
  return e;
}
RT_EXPORT cudaError_t cudaPeekAtLastError(void) {
  rt_lock();
  cudaError_t e = rt.sticky ? rt.sticky : last_error;
  rt_unlock();
  return e;
}

/* ------------------------------------------------------------- what is not implemented */

/* Every other function of NVIDIA's libcudart.so.13 (rt/cudart.names), so
 * that no program fails to load: it says so, and answers
 * cudaErrorNotSupported (rt/cudart_unsupported.def, scripts/cudart-stubs.sh). */
static cudaError_t unsupported(const char *name) {
  rt_lock();
  rt.unsupported_calls++;
  rt_report("error: %s is not supported by gpurace's CUDA runtime: it returns cudaErrorNotSupported", name);
  rt_unlock();
  return rt_set_error(cudaErrorNotSupported);
}
#define RT_UNSUPPORTED(name) RT_EXPORT cudaError_t name(void); cudaError_t name(void) { return unsupported(#name); }
#include "cudart_unsupported.def"
