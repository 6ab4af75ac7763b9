/* cudart_int.h: the state the runtime's files share (cudart.c: the
 * process's device, registration, launches, errors; cudart_mem.c: memory;
 * cudart_api.c: devices, streams, events, functions).  Private to rt/. */
#ifndef GR_CUDART_INT_H
#define GR_CUDART_INT_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "cudart_abi.h"
#include "detectors.h"
#include "gpurace.h"
#include "util.h"

/* What the program sees of libcudart.so.13: these alone are exported
 * (rt/cudart.map gives them the version libcudart.so.13). */
#define RT_EXPORT __attribute__((visibility("default")))

/* One __cudaRegisterFatBinary: a translation unit's device code, lowered
 * into a module the first time one of its kernels or variables is used. */
typedef struct {
  const uint8_t *data;     /* the fatbinary, in the program's image */
  gr_module *mod;          /* NULL until loaded */
  int load_rc;             /* 0 untried or loaded; else the cudaError_t its loading gave */
  int index;               /* its place among the program's fatbinaries, for names */
  int managed;             /* it registers __managed__ variables: loaded at __cudaRegisterFatBinaryEnd */
} rt_fatbin;

/* A kernel: its host stub's address, as the program names it. */
typedef struct {
  const void *stub;
  rt_fatbin *fb;
  char *name;              /* the PTX symbol */
  size_t max_dyn_shared;   /* cudaFuncAttributeMaxDynamicSharedMemorySize */
} rt_func;

/* A __device__, __constant__ or __managed__ variable: its host shadow's address. */
typedef struct {
  const void *host;
  rt_fatbin *fb;
  char *name;
  size_t size;
  void **managed_ptr;      /* __managed__: where the program reads its address */
} rt_var;

/* Host memory the device reaches at the same address (managed memory,
 * pinned and registered host memory): a device allocation mirrors it, the
 * host's bytes copied in before each launch and back after it. */
typedef struct {
  uint8_t *host;
  size_t size;
  gr_ptr dev;
  int kind;                /* cudaMemoryTypeManaged or cudaMemoryTypeHost */
  int owned;               /* the runtime allocated the host bytes (not cudaHostRegister) */
  int var;                 /* a __managed__ variable's: its device side is the module's */
  uint8_t *sent;           /* the bytes the last launch was given (rt_mirrors_sync) */
} rt_mirror;

typedef struct {
  pthread_mutex_t lock;    /* recursive: one API call at a time, whatever the program's threads */
  int started;
  gr_context *ctx;
  int start_error;         /* cudaError_t where the device could not start */
  race_log *log;
  detector_set *set;
  FILE *report;            /* stderr or GPURACE_LOG */
  vec fatbins, funcs, vars, mirrors;   /* of rt_fatbin *, rt_func, rt_var, rt_mirror */
  vec allocs;              /* gr_ptr: cudaMalloc's live allocations (cudaDeviceReset frees them) */
  int sticky;              /* a launch's error, once a synchronising call saw it: every call returns it */
  int pending;             /* a launch's error not yet seen by a synchronising call */
  uint64_t launches, failed_launches, unsupported_calls, mallocs;
  uint64_t clock_ns;       /* the device's virtual time (events) */
  int exit_hooked;
} rt_state;

extern rt_state rt;

void rt_lock(void);
void rt_unlock(void);
/* The device, started on first use; NULL where it could not start (rt.start_error says why). */
gr_context *rt_device(void);
/* err as the calling thread's last error; returns err. */
cudaError_t rt_set_error(cudaError_t err);
/* A synchronising call: a launch's error becomes sticky; the device's printf output is written. */
cudaError_t rt_sync(void);
/* A report line on the report stream: "gpurace: " fmt. */
void rt_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The host mirror holding [p, p+n), or NULL. */
rt_mirror *rt_mirror_of(const void *p, size_t n);
/* The device address for a kernel argument: a mirrored host pointer's device twin, else p. */
uint64_t rt_translate(uint64_t p);
/* Copies every mirror to the device (to 1) or back (to 0). */
int rt_mirrors_sync(int to_device);
/* The kernel of a host stub, its module loaded; NULL with the error set. */
rt_func *rt_func_of(const void *stub, cudaError_t *err);
/* A variable by its host shadow, its module loaded, with its device address. */
rt_var *rt_var_of(const void *host, gr_ptr *addr, cudaError_t *err);
/* The launch of a kernel by its host stub. */
cudaError_t rt_launch(const void *stub, rt_dim3 grid, rt_dim3 block, void **args, size_t shared, cudaStream_t stream,
                      unsigned flags);
/* An API call's start: the lock taken, the device started, no sticky
 * error (else that error is the call's); and its end: the lock given back,
 * the error the calling thread's last. */
#define RT_ENTER() do { rt_lock(); if (!rt_device()) { rt_unlock(); return rt_set_error(rt.start_error); } \
                        if (rt.sticky) { rt_unlock(); return rt_set_error(rt.sticky); } } while (0)
#define RT_LEAVE(e) do { cudaError_t e_ = (e); rt_unlock(); return rt_set_error(e_); } while (0)

/* Exported API the runtime's own files call. */
const char *cudaGetErrorName(cudaError_t e);
/* Virtual time for a copy of n bytes. */
void rt_clock_copy(size_t n);

#endif
