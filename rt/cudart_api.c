/* cudart_api: the emulated device as the runtime API shows it (one device,
 * its properties from the emulator's configuration), synchronisation,
 * streams and events, kernels' attributes and occupancy, versions.
 *
 * Streams order nothing here, as every operation has completed when its
 * call returns (cudart.c); events carry the device's virtual time, which
 * launches and copies advance by a fixed rule (2 us and a nanosecond per
 * warp instruction per SM a launch, 1 us and 25 bytes a nanosecond a
 * copy), so that a program that prints elapsed times prints the same
 * numbers on every run.  They measure nothing of a real GPU. */
#include <stdlib.h>
#include <string.h>

#include "cudart_int.h"
#include "host.h"


/* The architecture the emulated device states: sm_90, the GPUs gpurace is validated on. */
enum { RT_MAJOR = 9, RT_MINOR = 0, RT_CUDA_VERSION = 13000 };

static void properties(rt_device_prop *p) {
  const gr_config *c = gr_context_config(rt.ctx);
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "gpurace emulator (%d SMs, %s warps, %s memory)", c->sms,
           c->warps == GR_WARPS_ITS ? "independent-thread" : "lockstep", c->memory == GR_MEMORY_WEAK ? "weak" : "sc");
  memcpy(p->uuid.bytes, "gpurace-emulator", 16);
  p->totalGlobalMem = (size_t)c->max_memory;
  p->sharedMemPerBlock = 48 * 1024;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->memPitch = (size_t)2147483647;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024, p->maxThreadsDim[1] = 1024, p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647, p->maxGridSize[1] = 65535, p->maxGridSize[2] = 65535;
  p->totalConstMem = 65536;
  p->major = RT_MAJOR;
  p->minor = RT_MINOR;
  p->textureAlignment = 512;
  p->texturePitchAlignment = 32;
  p->multiProcessorCount = c->sms;
  p->canMapHostMemory = 1;
  p->concurrentKernels = 1;
  p->unifiedAddressing = 1;
  p->memoryBusWidth = 5120;
  p->l2CacheSize = 50 * 1024 * 1024;
  p->maxThreadsPerMultiProcessor = c->max_threads_per_sm;
  p->globalL1CacheSupported = p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = c->shared_per_sm;
  p->regsPerMultiprocessor = 65536;
  p->managedMemory = 1;
  p->concurrentManagedAccess = 0;   /* the host's and the device's accesses never overlap here */
  p->cooperativeLaunch = 1;
  p->sharedMemPerBlockOptin = c->shared_per_sm;
  p->maxBlocksPerMultiProcessor = c->max_blocks_per_sm;
  p->hostRegisterSupported = 1;
  p->asyncEngineCount = 1;
}

RT_EXPORT cudaError_t cudaGetDeviceCount(int *n) {
  rt_lock();
  cudaError_t e = rt_device() ? cudaSuccess : rt.start_error;
  if (n) *n = e ? 0 : 1;
  RT_LEAVE(n ? e : cudaErrorInvalidValue);
}
RT_EXPORT cudaError_t cudaGetDevice(int *d) {
  RT_ENTER();
  if (!d) RT_LEAVE(cudaErrorInvalidValue);
  *d = 0;
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaSetDevice(int d) {
  RT_ENTER();
  RT_LEAVE(d == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}
RT_EXPORT cudaError_t cudaInitDevice(int d, unsigned flags, unsigned flags2) {
  (void)flags, (void)flags2;
  return cudaSetDevice(d);
}
RT_EXPORT cudaError_t cudaSetDeviceFlags(unsigned flags) {
  (void)flags;
  RT_ENTER();
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaGetDeviceFlags(unsigned *flags) {
  RT_ENTER();
  if (flags) *flags = 0;
  RT_LEAVE(flags ? cudaSuccess : cudaErrorInvalidValue);
}
RT_EXPORT cudaError_t cudaChooseDevice(int *d, const rt_device_prop *p) {
  (void)p;
  return cudaGetDevice(d);
}
RT_EXPORT cudaError_t cudaGetDeviceProperties(rt_device_prop *p, int d) {
  RT_ENTER();
  if (!p) RT_LEAVE(cudaErrorInvalidValue);
  if (d != 0) RT_LEAVE(cudaErrorInvalidDevice);
  properties(p);
  RT_LEAVE(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceGetAttribute(int *v, int attr, int d) {
  RT_ENTER();
  if (!v) RT_LEAVE(cudaErrorInvalidValue);
  if (d != 0) RT_LEAVE(cudaErrorInvalidDevice);
  rt_device_prop p;
  properties(&p);
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: case cudaDevAttrMaxBlockDimZ: *v = p.maxThreadsDim[attr - cudaDevAttrMaxBlockDimX]; break;
  case cudaDevAttrMaxGridDimX: case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ: *v = p.maxGridSize[attr - cudaDevAttrMaxGridDimX]; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)p.sharedMemPerBlock; break;
  case cudaDevAttrTotalConstantMemory: *v = (int)p.totalConstMem; break;
  case cudaDevAttrWarpSize: *v = 32; break;
  case cudaDevAttrMaxPitch: *v = (int)p.memPitch; break;
  case cudaDevAttrMaxRegistersPerBlock: *v = p.regsPerBlock; break;
  case cudaDevAttrClockRate: *v = 1000000; break;   /* kHz: 1 GHz, the virtual clock's nanosecond */
  case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; break;
  case cudaDevAttrIntegrated: *v = 0; break;
  case cudaDevAttrCanMapHostMemory: *v = 1; break;
  case cudaDevAttrConcurrentKernels: *v = 1; break;
  case cudaDevAttrMemoryClockRate: *v = 1000000; break;
  case cudaDevAttrGlobalMemoryBusWidth: *v = p.memoryBusWidth; break;
  case cudaDevAttrL2CacheSize: *v = p.l2CacheSize; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p.maxThreadsPerMultiProcessor; break;
  case cudaDevAttrUnifiedAddressing: *v = 1; break;
  case cudaDevAttrComputeCapabilityMajor: *v = p.major; break;
  case cudaDevAttrComputeCapabilityMinor: *v = p.minor; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (int)p.sharedMemPerMultiprocessor; break;
  case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p.regsPerMultiprocessor; break;
  case cudaDevAttrManagedMemory: *v = 1; break;
  case cudaDevAttrConcurrentManagedAccess: *v = 0; break;
  case cudaDevAttrCooperativeLaunch: *v = 1; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p.sharedMemPerBlockOptin; break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p.maxBlocksPerMultiProcessor; break;
  case 14: case 30: *v = 512; break;               /* texture and surface alignment */
  case 15: case 40: *v = 1; break;                 /* copies overlap kernels: one copy engine */
  case 51: *v = 32; break;                         /* texture pitch alignment */
  case 78: case 79: case 80: case 90: case 91: case 99: case 126: *v = 1; break;   /* stream priorities, L1 caches,
                                                      preemption, registered host pointers, host registration, one sync domain */
  case 87: *v = 2; break;                          /* single to double precision performance */
  case 131: case 134: *v = -1; break;              /* no NUMA node */
  default:
    /* what the emulated device has not (compute mode default, textures and
     * surfaces, ECC, PCI, memory pools, clusters, NUMA, IPC...): 0, as a
     * GPU without the feature answers; a number that names no attribute: refused */
    if (attr < 1 || attr > 147 || attr == 44 || (attr >= 102 && attr <= 105) || attr == 107 || attr == 110 || attr == 136 ||
        attr == 137 || attr == 146) RT_LEAVE(cudaErrorInvalidValue);
    *v = 0;
  }
  RT_LEAVE(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceSynchronize(void) {
  RT_ENTER();
  RT_LEAVE(rt_sync());
}
RT_EXPORT cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

/* A reset ends the program's use of the device: its allocations and errors go, its kernels stay registered. */
RT_EXPORT cudaError_t cudaDeviceReset(void) {
  rt_lock();
  if (!rt_device()) RT_LEAVE(rt.start_error);
  rt_sync();
  for (size_t k = 0; k < rt.allocs.len; k++) gr_free(rt.ctx, ((gr_ptr *)rt.allocs.data)[k]);
  rt.allocs.len = 0;
  /* managed, pinned and registered memory go too; a __managed__ variable's mirror stays */
  for (size_t k = 0; k < rt.mirrors.len;) {
    rt_mirror *m = vec_at(&rt.mirrors, k);
    if (m->var) { k++; continue; }
    gr_free(rt.ctx, m->dev);
    if (m->owned) free(m->host);
    free(m->sent);
    *m = *(rt_mirror *)vec_at(&rt.mirrors, rt.mirrors.len - 1);
    rt.mirrors.len--;
  }
  /* the variables of the program's modules start again from their initial
   * values; a __managed__ variable keeps the value the host sees, as on an
   * H200 (reports/programs-hw.md): its mirror's bytes go to the device at
   * the next launch */
  for (size_t k = 0; k < rt.fatbins.len; k++) {
    rt_fatbin *fb = *(rt_fatbin **)vec_at(&rt.fatbins, k);
    if (!fb->mod) continue;
    const kir_module *km = host_module_kir(fb->mod);
    for (int g = 0; g < km->nglobals; g++) {
      gr_ptr addr;
      if (km->globals[g].init && gr_module_global(fb->mod, km->globals[g].name, &addr, NULL) == GR_OK)
        gr_memcpy_htod(rt.ctx, addr, km->globals[g].init, km->globals[g].size);
    }
  }
  rt.sticky = rt.pending = 0;
  RT_LEAVE(cudaSuccess);
}

/* Limits: the printf buffer and the device heap are what the emulator has; others are accepted and remembered. */
static size_t limits[8] = {1024, 1 << 20, 8 << 20};   /* stack size, printf FIFO, malloc heap, ... */
RT_EXPORT cudaError_t cudaDeviceSetLimit(int limit, size_t value) {
  RT_ENTER();
  if (limit < 0 || limit >= 8) RT_LEAVE(cudaErrorInvalidValue);
  if (limit == 2 && value != limits[2]) {
    rt_report("error: cudaDeviceSetLimit(cudaLimitMallocHeapSize, %zu): the emulated device's heap is %zu bytes: "
              "it returns cudaErrorNotSupported", value, limits[2]);
    rt.unsupported_calls++;
    RT_LEAVE(cudaErrorNotSupported);
  }
  limits[limit] = value;
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaDeviceGetLimit(size_t *value, int limit) {
  RT_ENTER();
  if (!value || limit < 0 || limit >= 8) RT_LEAVE(cudaErrorInvalidValue);
  *value = limits[limit];
  RT_LEAVE(cudaSuccess);
}
/* cache and shared-memory preferences: hints a GPU may ignore, as the emulator does */
RT_EXPORT cudaError_t cudaDeviceSetCacheConfig(int c) { (void)c; RT_ENTER(); RT_LEAVE(cudaSuccess); }
RT_EXPORT cudaError_t cudaDeviceGetCacheConfig(int *c) { RT_ENTER(); if (c) *c = 0; RT_LEAVE(c ? cudaSuccess : cudaErrorInvalidValue); }
RT_EXPORT cudaError_t cudaDeviceSetSharedMemConfig(int c) { (void)c; RT_ENTER(); RT_LEAVE(cudaSuccess); }
RT_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *f, int c) { (void)f, (void)c; RT_ENTER(); RT_LEAVE(cudaSuccess); }
RT_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void *f, int c) { (void)f, (void)c; RT_ENTER(); RT_LEAVE(cudaSuccess); }

RT_EXPORT cudaError_t cudaDriverGetVersion(int *v) {
  if (!v) return rt_set_error(cudaErrorInvalidValue);
  *v = RT_CUDA_VERSION;
  return cudaSuccess;
}
RT_EXPORT cudaError_t cudaRuntimeGetVersion(int *v) { return cudaDriverGetVersion(v); }

RT_EXPORT cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
RT_EXPORT cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

/* ------------------------------------------------------------- streams */

struct rt_stream { unsigned flags; int priority; };

static int stream_ok(cudaStream_t s) {
  return !s || s == (cudaStream_t)(uintptr_t)1 || s == (cudaStream_t)(uintptr_t)2 || s->flags != 0xdeadu;
}

static cudaError_t stream_new(cudaStream_t *s, unsigned flags, int priority) {
  if (!s || flags > 1) return cudaErrorInvalidValue;
  *s = xcalloc(1, sizeof **s);
  (*s)->flags = flags;
  (*s)->priority = priority;
  return cudaSuccess;
}
RT_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s) { RT_ENTER(); RT_LEAVE(stream_new(s, 0, 0)); }
RT_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) { RT_ENTER(); RT_LEAVE(stream_new(s, flags, 0)); }
RT_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority) {
  RT_ENTER();
  RT_LEAVE(stream_new(s, flags, priority));
}
RT_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s) {
  RT_ENTER();
  if (!s || (uintptr_t)s <= 2) RT_LEAVE(cudaErrorInvalidResourceHandle);
  s->flags = 0xdeadu;   /* kept, so that a later use of it is told, not undefined */
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  RT_ENTER();
  if (!stream_ok(s)) RT_LEAVE(cudaErrorInvalidResourceHandle);
  RT_LEAVE(rt_sync());
}
RT_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) { return cudaStreamSynchronize(s); }
/* every operation has completed when its call returns */
RT_EXPORT cudaError_t cudaStreamQuery(cudaStream_t s) {
  RT_ENTER();
  RT_LEAVE(stream_ok(s) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}
RT_EXPORT cudaError_t cudaStreamQuery_ptsz(cudaStream_t s) { return cudaStreamQuery(s); }
RT_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags) {
  (void)e, (void)flags;
  RT_ENTER();
  RT_LEAVE(stream_ok(s) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}
RT_EXPORT cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t e, unsigned flags) { return cudaStreamWaitEvent(s, e, flags); }
RT_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags) {
  RT_ENTER();
  if (!flags || !stream_ok(s)) RT_LEAVE(cudaErrorInvalidValue);
  *flags = (uintptr_t)s > 2 ? s->flags : 0;
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority) {
  RT_ENTER();
  if (!priority || !stream_ok(s)) RT_LEAVE(cudaErrorInvalidValue);
  *priority = (uintptr_t)s > 2 ? s->priority : 0;
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return cudaSuccess;
}

/* A host function enqueued on a stream runs when the stream reaches it: now. */
typedef void (*rt_host_fn)(void *);
RT_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t s, rt_host_fn fn, void *user) {
  RT_ENTER();
  if (!fn || !stream_ok(s)) RT_LEAVE(cudaErrorInvalidValue);
  rt_unlock();
  fn(user);
  return cudaSuccess;
}
typedef void (*rt_stream_callback)(cudaStream_t, cudaError_t, void *);
RT_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t s, rt_stream_callback fn, void *user, unsigned flags) {
  RT_ENTER();
  if (!fn || flags || !stream_ok(s)) RT_LEAVE(cudaErrorInvalidValue);
  rt_unlock();
  fn(s, cudaSuccess, user);
  return cudaSuccess;
}

/* ------------------------------------------------------------- events */

struct rt_event { unsigned flags; int recorded; uint64_t ns; };

static cudaError_t event_new(cudaEvent_t *e, unsigned flags) {
  if (!e || flags > 7) return cudaErrorInvalidValue;
  *e = xcalloc(1, sizeof **e);
  (*e)->flags = flags;
  return cudaSuccess;
}
RT_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e) { RT_ENTER(); RT_LEAVE(event_new(e, 0)); }
RT_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags) { RT_ENTER(); RT_LEAVE(event_new(e, flags)); }
RT_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e) {
  RT_ENTER();
  if (!e) RT_LEAVE(cudaErrorInvalidResourceHandle);
  free(e);
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  RT_ENTER();
  if (!e || !stream_ok(s)) RT_LEAVE(cudaErrorInvalidResourceHandle);
  e->recorded = 1;
  e->ns = rt.clock_ns;
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s) { return cudaEventRecord(e, s); }
RT_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags) {
  (void)flags;
  return cudaEventRecord(e, s);
}
RT_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  RT_ENTER();
  if (!e) RT_LEAVE(cudaErrorInvalidResourceHandle);
  RT_LEAVE(rt_sync());
}
RT_EXPORT cudaError_t cudaEventQuery(cudaEvent_t e) {
  RT_ENTER();
  RT_LEAVE(e ? cudaSuccess : cudaErrorInvalidResourceHandle);
}
RT_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  RT_ENTER();
  if (!ms || !a || !b) RT_LEAVE(cudaErrorInvalidValue);
  if ((a->flags | b->flags) & cudaEventDisableTiming || !a->recorded || !b->recorded) RT_LEAVE(cudaErrorInvalidResourceHandle);
  *ms = (float)(((double)b->ns - (double)a->ns) / 1e6);
  RT_LEAVE(cudaSuccess);
}

/* ------------------------------------------------------------- kernels */

RT_EXPORT cudaError_t cudaFuncGetAttributes(rt_func_attributes *a, const void *stub) {
  RT_ENTER();
  cudaError_t err;
  rt_func *f = rt_func_of(stub, &err);
  if (!f || !a) RT_LEAVE(f ? cudaErrorInvalidValue : err);
  const kir_module *km = host_module_kir(f->fb->mod);
  const kir_func *kf = kir_find(km, f->name);
  memset(a, 0, sizeof *a);
  a->sharedSizeBytes = km->shared_static;
  a->localSizeBytes = kf ? kf->frame : 0;
  a->maxThreadsPerBlock = 1024;
  a->numRegs = 32;
  a->ptxVersion = a->binaryVersion = RT_MAJOR * 10 + RT_MINOR;
  a->maxDynamicSharedSizeBytes = (int)(f->max_dyn_shared ? f->max_dyn_shared : 48 * 1024 - km->shared_static);
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaFuncSetAttribute(const void *stub, int attr, int value) {
  RT_ENTER();
  cudaError_t err;
  rt_func *f = rt_func_of(stub, &err);
  if (!f) RT_LEAVE(err);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || (uint32_t)value > gr_context_config(rt.ctx)->shared_per_sm) RT_LEAVE(cudaErrorInvalidValue);
    f->max_dyn_shared = (size_t)value;
  }
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaFuncGetName(const char **name, const void *stub) {
  RT_ENTER();
  cudaError_t err;
  rt_func *f = rt_func_of(stub, &err);
  if (f && name) *name = f->name;
  RT_LEAVE(f ? (name ? cudaSuccess : cudaErrorInvalidValue) : err);
}

/* Blocks of a kernel resident on one SM at once: the emulator's residency limits. */
static int occupancy(rt_func *f, int block, size_t dyn) {
  const gr_config *c = gr_context_config(rt.ctx);
  const kir_module *km = host_module_kir(f->fb->mod);
  if (block <= 0 || block > 1024) return 0;
  int by_threads = c->max_threads_per_sm / ((block + 31) / 32 * 32);
  uint64_t shared = (uint64_t)km->shared_static + dyn;
  int by_shared = shared ? (int)(c->shared_per_sm / shared) : c->max_blocks_per_sm;
  int n = c->max_blocks_per_sm;
  if (by_threads < n) n = by_threads;
  if (by_shared < n) n = by_shared;
  return n;
}
RT_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *stub, int block, size_t dyn,
                                                                             unsigned flags) {
  (void)flags;
  RT_ENTER();
  cudaError_t err;
  rt_func *f = rt_func_of(stub, &err);
  if (!f || !n) RT_LEAVE(f ? cudaErrorInvalidValue : err);
  *n = occupancy(f, block, dyn);
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *stub, int block, size_t dyn) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, stub, block, dyn, 0);
}
RT_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dyn, const void *stub, int blocks, int block) {
  RT_ENTER();
  cudaError_t err;
  rt_func *f = rt_func_of(stub, &err);
  if (!f || !dyn || blocks <= 0 || block <= 0) RT_LEAVE(f ? cudaErrorInvalidValue : err);
  const kir_module *km = host_module_kir(f->fb->mod);
  size_t per = gr_context_config(rt.ctx)->shared_per_sm / (size_t)blocks;
  *dyn = per > km->shared_static ? per - km->shared_static : 0;
  RT_LEAVE(cudaSuccess);
}

RT_EXPORT rt_channel_desc cudaCreateChannelDesc(int x, int y, int z, int w, int f) {
  rt_channel_desc d = {x, y, z, w, f};
  return d;
}

/* ------------------------------------------------------------- per-thread default stream
 *
 * nvcc --default-stream per-thread calls these: one device and every
 * operation complete at its call, so they are the functions themselves. */
RT_EXPORT cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t e, cudaStream_t s, unsigned flags) {
  return cudaEventRecordWithFlags(e, s, flags);
}
RT_EXPORT cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t s, rt_host_fn fn, void *user) { return cudaLaunchHostFunc(s, fn, user); }
RT_EXPORT cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t s, rt_stream_callback fn, void *user, unsigned flags) {
  return cudaStreamAddCallback(s, fn, user, flags);
}
RT_EXPORT cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t s, unsigned *flags) { return cudaStreamGetFlags(s, flags); }
RT_EXPORT cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t s, int *priority) { return cudaStreamGetPriority(s, priority); }
