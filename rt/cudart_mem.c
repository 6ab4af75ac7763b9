/* cudart_mem: the runtime's memory.  Device memory is the emulator's: a
 * device pointer is a KIR global address (kir.h), which the program only
 * passes back, never dereferences.  Memory both sides reach at one address
 * (cudaMallocManaged, __managed__, pinned and registered host memory) is
 * host memory mirrored by a device allocation (rt_mirror): the host's bytes
 * go to the device before each launch and come back after it, and a
 * kernel argument pointing into it is given its device twin.  A pointer to
 * such memory stored in device memory is not translated: the kernel's
 * access through it faults, reported, never silently wrong. */
#include <stdlib.h>
#include <string.h>

#include "cudart_int.h"
#include "host.h"

static int is_device(const void *p) { return KIR_SPACE_OF((uint64_t)(uintptr_t)p) == SPACE_GLOBAL; }

/* A pointer in a report: a device address as such; a host address, which
 * differs from run to run (ASLR), by what it is, so that reports do not. */
static const char *shown(const void *p, char *buf, size_t n) {
  if (is_device(p)) snprintf(buf, n, "%p (device memory)", p);
  else snprintf(buf, n, "%s", rt_mirror_of(p, 0) ? "managed or pinned host memory" : "host memory");
  return buf;
}

rt_mirror *rt_mirror_of(const void *p, size_t n) {
  uintptr_t a = (uintptr_t)p;
  for (size_t k = 0; k < rt.mirrors.len; k++) {
    rt_mirror *m = vec_at(&rt.mirrors, k);
    uintptr_t h = (uintptr_t)m->host;
    if (a >= h && a - h <= m->size && n <= m->size - (a - h)) return m;
  }
  return NULL;
}


RT_EXPORT cudaError_t cudaMalloc(void **p, size_t n) {
  RT_ENTER();
  if (!p) RT_LEAVE(cudaErrorInvalidValue);
  *p = NULL;
  if (n == 0) RT_LEAVE(cudaSuccess);
  char name[64];
  snprintf(name, sizeof name, "cudaMalloc #%llu", (unsigned long long)++rt.mallocs);
  gr_ptr d;
  if (gr_malloc(rt.ctx, n, name, &d)) {
    rt_report("error: cudaMalloc of %zu bytes: %s", n, gr_error(rt.ctx));
    RT_LEAVE(cudaErrorMemoryAllocation);
  }
  *p = (void *)(uintptr_t)d;
  *(gr_ptr *)vec_push(&rt.allocs) = d;
  RT_LEAVE(cudaSuccess);
}

/* Host memory the device shares: kind cudaMemoryTypeManaged or _Host. */
static cudaError_t mirror_new(void *host, size_t n, int kind, int owned, const char *what) {
  char name[64];
  snprintf(name, sizeof name, "%s #%llu", what, (unsigned long long)++rt.mallocs);
  gr_ptr d;
  if (gr_malloc(rt.ctx, n, name, &d)) {
    rt_report("error: %s of %zu bytes: %s", what, n, gr_error(rt.ctx));
    return cudaErrorMemoryAllocation;
  }
  rt_mirror *m = vec_push(&rt.mirrors);
  m->host = host;
  m->size = n;
  m->dev = d;
  m->kind = kind;
  m->owned = owned;
  return cudaSuccess;
}

static cudaError_t host_alloc(void **p, size_t n, int kind, const char *what) {
  if (!p) return cudaErrorInvalidValue;
  *p = NULL;
  if (n == 0) return cudaSuccess;
  size_t r = (n + 4095) / 4096 * 4096;
  void *h = aligned_alloc(4096, r);
  if (!h) return cudaErrorMemoryAllocation;
  memset(h, 0, r);
  cudaError_t e = mirror_new(h, n, kind, 1, what);
  if (e) { free(h); return e; }
  *p = h;
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags) {
  (void)flags;
  RT_ENTER();
  RT_LEAVE(host_alloc(p, n, cudaMemoryTypeManaged, "cudaMallocManaged"));
}
RT_EXPORT cudaError_t cudaMallocHost(void **p, size_t n) {
  RT_ENTER();
  RT_LEAVE(host_alloc(p, n, cudaMemoryTypeHost, "cudaMallocHost"));
}
RT_EXPORT cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags) {
  (void)flags;   /* with unified addressing every pinned allocation is mapped, at its host address */
  RT_ENTER();
  RT_LEAVE(host_alloc(p, n, cudaMemoryTypeHost, "cudaHostAlloc"));
}

static cudaError_t mirror_free(void *p, int owned) {
  for (size_t k = 0; k < rt.mirrors.len; k++) {
    rt_mirror *m = vec_at(&rt.mirrors, k);
    if (m->host != p || m->owned != owned) continue;
    gr_free(rt.ctx, m->dev);
    if (m->owned) free(m->host);
    free(m->sent);
    *m = *(rt_mirror *)vec_at(&rt.mirrors, rt.mirrors.len - 1);
    rt.mirrors.len--;
    return cudaSuccess;
  }
  return owned ? cudaErrorInvalidValue : cudaErrorHostMemoryNotRegistered;
}

/* cudaFree synchronises the device first, as CUDA's does. */
RT_EXPORT cudaError_t cudaFree(void *p) {
  RT_ENTER();
  cudaError_t e = rt_sync();
  if (e || !p) RT_LEAVE(e);
  if (!is_device(p)) {
    e = mirror_free(p, 1);
    if (e) rt_report("error: cudaFree of host memory: not an address cudaMalloc or cudaMallocManaged returned");
    RT_LEAVE(e);
  }
  if (gr_free(rt.ctx, (gr_ptr)(uintptr_t)p)) {
    rt_report("error: cudaFree(%p): %s", p, gr_error(rt.ctx));
    RT_LEAVE(cudaErrorInvalidValue);
  }
  for (size_t k = 0; k < rt.allocs.len; k++)
    if (((gr_ptr *)rt.allocs.data)[k] == (gr_ptr)(uintptr_t)p) {
      ((gr_ptr *)rt.allocs.data)[k] = ((gr_ptr *)rt.allocs.data)[--rt.allocs.len];
      break;
    }
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaFreeHost(void *p) {
  RT_ENTER();
  if (!p) RT_LEAVE(cudaSuccess);
  cudaError_t e = mirror_free(p, 1);
  if (e) rt_report("error: cudaFreeHost: not an address cudaMallocHost or cudaHostAlloc returned");
  RT_LEAVE(e);
}
RT_EXPORT cudaError_t cudaHostRegister(void *p, size_t n, unsigned flags) {
  (void)flags;
  RT_ENTER();
  if (!p || !n) RT_LEAVE(cudaErrorInvalidValue);
  if (rt_mirror_of(p, 1) || rt_mirror_of((char *)p + n - 1, 1)) RT_LEAVE(cudaErrorHostMemoryAlreadyRegistered);
  cudaError_t e = mirror_new(p, n, cudaMemoryTypeHost, 0, "cudaHostRegister");
  if (!e) gr_memcpy_htod(rt.ctx, ((rt_mirror *)vec_at(&rt.mirrors, rt.mirrors.len - 1))->dev, p, n);
  RT_LEAVE(e);
}
RT_EXPORT cudaError_t cudaHostUnregister(void *p) {
  RT_ENTER();
  RT_LEAVE(mirror_free(p, 0));
}
RT_EXPORT cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned flags) {
  RT_ENTER();
  if (!d || flags || !rt_mirror_of(h, 0)) RT_LEAVE(cudaErrorInvalidValue);
  *d = h;   /* unified addressing: the host's address */
  RT_LEAVE(cudaSuccess);
}
RT_EXPORT cudaError_t cudaHostGetFlags(unsigned *flags, void *h) {
  RT_ENTER();
  if (!flags || !rt_mirror_of(h, 0)) RT_LEAVE(cudaErrorInvalidValue);
  *flags = cudaHostAllocMapped;
  RT_LEAVE(cudaSuccess);
}

RT_EXPORT cudaError_t cudaPointerGetAttributes(rt_pointer_attributes *a, const void *p) {
  RT_ENTER();
  if (!a) RT_LEAVE(cudaErrorInvalidValue);
  memset(a, 0, sizeof *a);
  rt_mirror *m = rt_mirror_of(p, 0);
  if (is_device(p)) {
    a->type = cudaMemoryTypeDevice;
    a->devicePointer = (void *)p;
  } else if (m) {
    a->type = m->kind;
    a->devicePointer = a->hostPointer = (void *)p;
  } else {
    a->type = cudaMemoryTypeUnregistered;
    a->device = -2;
  }
  RT_LEAVE(cudaSuccess);
}

/* One copy of n bytes; the direction from the pointers, checked against kind. */
static cudaError_t copy(void *dst, const void *src, size_t n, rt_memcpy_kind kind, const char *what) {
  if (n == 0) return cudaSuccess;
  if ((unsigned)kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
  int dd = is_device(dst), sd = is_device(src);
  /* a mirror's host bytes are the memory between launches: either side reaches them */
  int dev_dst = dd || rt_mirror_of(dst, n), dev_src = sd || rt_mirror_of(src, n);
  int ok = kind == cudaMemcpyDefault || (kind == cudaMemcpyHostToDevice && !sd && dev_dst) ||
           (kind == cudaMemcpyDeviceToHost && dev_src && !dd) || (kind == cudaMemcpyDeviceToDevice && dev_src && dev_dst) ||
           (kind == cudaMemcpyHostToHost && !sd && !dd);
  if (!ok) {
    static const char *const dir[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice"};
    char a[80], b[80];
    rt_report("error: %s of %zu bytes from %s to %s as %s", what, n, shown(src, a, sizeof a), shown(dst, b, sizeof b), dir[kind]);
    return cudaErrorInvalidValue;
  }
  int rc = GR_OK;
  if (dd && sd) {
    void *tmp = xmalloc(n);
    rc = gr_memcpy_dtoh(rt.ctx, tmp, (gr_ptr)(uintptr_t)src, n);
    if (!rc) rc = gr_memcpy_htod(rt.ctx, (gr_ptr)(uintptr_t)dst, tmp, n);
    free(tmp);
  } else if (dd) rc = gr_memcpy_htod(rt.ctx, (gr_ptr)(uintptr_t)dst, src, n);
  else if (sd) rc = gr_memcpy_dtoh(rt.ctx, dst, (gr_ptr)(uintptr_t)src, n);
  else memmove(dst, src, n);
  if (rc) {
    rt_report("error: %s of %zu bytes: %s", what, n, gr_error(rt.ctx));
    return cudaErrorInvalidValue;
  }
  rt_clock_copy(n);
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, rt_memcpy_kind kind) {
  RT_ENTER();
  cudaError_t e = rt_sync();
  RT_LEAVE(e ? e : copy(dst, src, n, kind, "cudaMemcpy"));
}
RT_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, rt_memcpy_kind kind, cudaStream_t s) {
  (void)s;
  RT_ENTER();
  RT_LEAVE(copy(dst, src, n, kind, "cudaMemcpyAsync"));
}
RT_EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t n, rt_memcpy_kind kind) { return cudaMemcpy(dst, src, n, kind); }
RT_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t n, rt_memcpy_kind kind, cudaStream_t s) {
  return cudaMemcpyAsync(dst, src, n, kind, s);
}

static cudaError_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                          rt_memcpy_kind kind, const char *what) {
  if (width > dpitch || width > spitch) return cudaErrorInvalidPitchValue;
  for (size_t r = 0; r < height; r++) {
    cudaError_t e = copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, what);
    if (e) return e;
  }
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                   rt_memcpy_kind kind) {
  RT_ENTER();
  cudaError_t e = rt_sync();
  RT_LEAVE(e ? e : copy2d(dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2D"));
}
RT_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                        rt_memcpy_kind kind, cudaStream_t s) {
  (void)s;
  RT_ENTER();
  RT_LEAVE(copy2d(dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2DAsync"));
}

/* Between pitched pointers only (no CUDA arrays here). */
static cudaError_t copy3d(const rt_memcpy3d_parms *p, const char *what) {
  if (!p || p->srcArray || p->dstArray) {
    if (p) rt_report("error: %s with a CUDA array: not supported by gpurace's CUDA runtime", what);
    return p ? cudaErrorNotSupported : cudaErrorInvalidValue;
  }
  const rt_pitched_ptr *s = &p->srcPtr, *d = &p->dstPtr;
  for (size_t z = 0; z < p->extent.depth; z++)
    for (size_t y = 0; y < p->extent.height; y++) {
      const char *from = (const char *)s->ptr + ((p->srcPos.z + z) * s->ysize + p->srcPos.y + y) * s->pitch + p->srcPos.x;
      char *to = (char *)d->ptr + ((p->dstPos.z + z) * d->ysize + p->dstPos.y + y) * d->pitch + p->dstPos.x;
      cudaError_t e = copy(to, from, p->extent.width, p->kind, what);
      if (e) return e;
    }
  return cudaSuccess;
}
RT_EXPORT cudaError_t cudaMemcpy3D(const rt_memcpy3d_parms *p) {
  RT_ENTER();
  cudaError_t e = rt_sync();
  RT_LEAVE(e ? e : copy3d(p, "cudaMemcpy3D"));
}
RT_EXPORT cudaError_t cudaMemcpy3DAsync(const rt_memcpy3d_parms *p, cudaStream_t s) {
  (void)s;
  RT_ENTER();
  RT_LEAVE(copy3d(p, "cudaMemcpy3DAsync"));
}

/* Pitches of 512 bytes, the texture pitch alignment of the GPUs the emulator stands for. */
RT_EXPORT cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height) {
  if (!pitch) return rt_set_error(cudaErrorInvalidValue);
  *pitch = (width + 511) / 512 * 512;
  return cudaMalloc(p, *pitch * height);
}
RT_EXPORT cudaError_t cudaMalloc3D(rt_pitched_ptr *pp, rt_extent e) {
  if (!pp) return rt_set_error(cudaErrorInvalidValue);
  pp->pitch = (e.width + 511) / 512 * 512;
  pp->xsize = e.width;
  pp->ysize = e.height;
  return cudaMalloc(&pp->ptr, pp->pitch * e.height * e.depth);
}

static cudaError_t set(void *p, int v, size_t n, const char *what) {
  if (n == 0) return cudaSuccess;
  rt_mirror *m = rt_mirror_of(p, n);
  if (m) { memset(p, v, n); return cudaSuccess; }
  if (!is_device(p) || gr_memset(rt.ctx, (gr_ptr)(uintptr_t)p, v, n)) {
    char a[80];
    rt_report("error: %s of %zu bytes at %s: %s", what, n, shown(p, a, sizeof a), is_device(p) ? gr_error(rt.ctx) : "not device memory");
    return cudaErrorInvalidValue;
  }
  rt_clock_copy(n);
  return cudaSuccess;
}
RT_EXPORT cudaError_t cudaMemset(void *p, int v, size_t n) {
  RT_ENTER();
  RT_LEAVE(set(p, v, n, "cudaMemset"));
}
RT_EXPORT cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) {
  (void)s;
  RT_ENTER();
  RT_LEAVE(set(p, v, n, "cudaMemsetAsync"));
}
RT_EXPORT cudaError_t cudaMemset_ptds(void *p, int v, size_t n) { return cudaMemset(p, v, n); }
RT_EXPORT cudaError_t cudaMemsetAsync_ptsz(void *p, int v, size_t n, cudaStream_t s) { return cudaMemsetAsync(p, v, n, s); }
RT_EXPORT cudaError_t cudaMemset2D(void *p, size_t pitch, int v, size_t width, size_t height) {
  RT_ENTER();
  if (width > pitch) RT_LEAVE(cudaErrorInvalidPitchValue);
  for (size_t r = 0; r < height; r++) {
    cudaError_t e = set((char *)p + r * pitch, v, width, "cudaMemset2D");
    if (e) RT_LEAVE(e);
  }
  RT_LEAVE(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total) {
  RT_ENTER();
  uint64_t max = gr_context_config(rt.ctx)->max_memory, used = 0, size;
  for (size_t id = 1; id <= gr_allocation_count(rt.ctx); id++)
    if (gr_allocation_info(rt.ctx, id, &size, NULL) == GR_OK) used += size;
  if (free_bytes) *free_bytes = used < max ? (size_t)(max - used) : 0;
  if (total) *total = (size_t)max;
  RT_LEAVE(cudaSuccess);
}

/* ------------------------------------------------------------- symbols */

static cudaError_t symbol_copy(const void *symbol, void *host, size_t n, size_t offset, rt_memcpy_kind kind, int to_symbol) {
  cudaError_t e;
  gr_ptr addr;
  rt_var *v = rt_var_of(symbol, &addr, &e);
  if (!v) {
    if (e == cudaErrorInvalidSymbol) rt_report("error: %s: not the address of a __device__ or __constant__ variable", to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol");
    return e;
  }
  if (offset > v->size || n > v->size - offset) {
    rt_report("error: %s of %zu bytes at offset %zu of '%s' (%zu bytes)", to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol", n,
              offset, v->name, v->size);
    return cudaErrorInvalidValue;
  }
  void *d = (void *)(uintptr_t)(addr + offset);
  if (kind == cudaMemcpyDefault) kind = to_symbol ? (is_device(host) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                                                  : (is_device(host) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost);
  if (to_symbol ? kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice
                : kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice) return cudaErrorInvalidMemcpyDirection;
  return to_symbol ? copy(d, host, n, kind, "cudaMemcpyToSymbol") : copy(host, d, n, kind, "cudaMemcpyFromSymbol");
}

RT_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t n, size_t offset, rt_memcpy_kind kind) {
  RT_ENTER();
  cudaError_t e = rt_sync();
  RT_LEAVE(e ? e : symbol_copy(symbol, (void *)src, n, offset, kind, 1));
}
RT_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t n, size_t offset, rt_memcpy_kind kind) {
  RT_ENTER();
  cudaError_t e = rt_sync();
  RT_LEAVE(e ? e : symbol_copy(symbol, dst, n, offset, kind, 0));
}
RT_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t n, size_t offset, rt_memcpy_kind kind,
                                              cudaStream_t s) {
  (void)s;
  RT_ENTER();
  RT_LEAVE(symbol_copy(symbol, (void *)src, n, offset, kind, 1));
}
RT_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t n, size_t offset, rt_memcpy_kind kind,
                                                cudaStream_t s) {
  (void)s;
  RT_ENTER();
  RT_LEAVE(symbol_copy(symbol, dst, n, offset, kind, 0));
}
RT_EXPORT cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t n, size_t offset, rt_memcpy_kind kind) {
  return cudaMemcpyToSymbol(symbol, src, n, offset, kind);
}
RT_EXPORT cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t n, size_t offset, rt_memcpy_kind kind) {
  return cudaMemcpyFromSymbol(dst, symbol, n, offset, kind);
}
RT_EXPORT cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t n, size_t offset,
                                                   rt_memcpy_kind kind, cudaStream_t s) {
  return cudaMemcpyToSymbolAsync(symbol, src, n, offset, kind, s);
}
RT_EXPORT cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t n, size_t offset,
                                                     rt_memcpy_kind kind, cudaStream_t s) {
  return cudaMemcpyFromSymbolAsync(dst, symbol, n, offset, kind, s);
}

RT_EXPORT cudaError_t cudaGetSymbolAddress(void **p, const void *symbol) {
  RT_ENTER();
  cudaError_t e;
  gr_ptr addr;
  rt_var *v = rt_var_of(symbol, &addr, &e);
  if (v && p) *p = v->managed_ptr ? *v->managed_ptr : (void *)(uintptr_t)addr;
  RT_LEAVE(v ? (p ? cudaSuccess : cudaErrorInvalidValue) : e);
}
RT_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  RT_ENTER();
  cudaError_t e;
  gr_ptr addr;
  rt_var *v = rt_var_of(symbol, &addr, &e);
  if (v && size) *size = v->size;
  RT_LEAVE(v ? (size ? cudaSuccess : cudaErrorInvalidValue) : e);
}

/* the per-thread default stream's names (nvcc --default-stream per-thread) */
RT_EXPORT cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                        rt_memcpy_kind kind) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
RT_EXPORT cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                             size_t height, rt_memcpy_kind kind, cudaStream_t s) {
  return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, s);
}
RT_EXPORT cudaError_t cudaMemcpy3D_ptds(const rt_memcpy3d_parms *p) { return cudaMemcpy3D(p); }
RT_EXPORT cudaError_t cudaMemcpy3DAsync_ptsz(const rt_memcpy3d_parms *p, cudaStream_t s) { return cudaMemcpy3DAsync(p, s); }
RT_EXPORT cudaError_t cudaMemset2D_ptds(void *p, size_t pitch, int v, size_t width, size_t height) {
  return cudaMemset2D(p, pitch, v, width, height);
}
