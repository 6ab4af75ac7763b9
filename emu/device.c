/* device: the emulated GPU as the host layer sees it (emu.h): its making,
 * its global memory, the modules' __device__ variables, errors and
 * statistics.  A launch itself is engine.c's. */
#include "engine.h"
#include "prov.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

emu_dev *emu_new(const gr_config *cfg, char *err, size_t errlen) {
  emu_dev *e = xcalloc(1, sizeof *e);
  e->cfg = *cfg;
  e->heap_limit = (uint64_t)8 << 20;   /* CUDA's default cudaLimitMallocHeapSize */
  e->err = err;
  e->errlen = errlen;
  vec_init(&e->allocs, sizeof(galloc));
  vec_push(&e->allocs);   /* id 0: never an allocation */
  return e;
}

void emu_free(emu_dev *e) {
  if (!e) return;
  for (size_t k = 0; k < e->allocs.len; k++) {
    galloc *a = vec_at(&e->allocs, k);
    free(a->data);
    free(a->name);
  }
  vec_free(&e->allocs);
  wm_free(e->wm_spare);
  free(e->log);
  free(e->output.p);
  free(e);
}

void emu_reseed(emu_dev *e, uint64_t seed) { e->cfg.seed = seed; }

int emu_fail(emu_dev *e, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->err, e->errlen, fmt, ap);
  va_end(ap);
  e->log_shown = 0;
  return code;
}

const char *emu_log(const emu_dev *e) { return e->log_shown ? e->log : NULL; }
void emu_log_forget(emu_dev *e) { e->log_shown = 0; }

size_t emu_output(emu_dev *e, FILE *out) {
  size_t n = e->output.len;
  if (n) fwrite(e->output.p, 1, n, out);
  e->output.len = 0;
  return n;
}
void emu_stats(const emu_dev *e, gr_stats *out) { *out = e->stats; }

void emu_supply(emu_dev *e, emu_supply_fn supply, emu_rmw_fn rmw_result, void *user) {
  e->supply = supply;
  e->rmw_result = rmw_result;
  e->supply_user = user;
}

/* ------------------------------------------------------------- global memory */

uint8_t *emu_global_span(emu_dev *e, gr_ptr addr, uint64_t n) {
  galloc *a = emu_alloc_of(e, addr);
  uint64_t off = (uint32_t)addr;
  if (!a) { emu_fail(e, GR_EINPUT, "error: 0x%llx is not the address of a live allocation", (unsigned long long)addr); return NULL; }
  if (off > a->size || n > a->size - off) {
    emu_fail(e, GR_EINPUT, "error: %llu bytes at offset %llu exceed allocation '%s' of %llu bytes",
             (unsigned long long)n, (unsigned long long)off, a->name, (unsigned long long)a->size);
    return NULL;
  }
  return a->data + off;
}

int emu_malloc(emu_dev *e, size_t bytes, const char *name, gr_ptr *out) {
  if (bytes > 0xffffffffull) return emu_fail(e, GR_EINPUT, "error: allocation of %zu bytes exceeds the 4 GiB limit of one allocation", bytes);
  if (e->allocs.len >= 0xffffff) return emu_fail(e, GR_EINPUT, "error: too many allocations");
  if (bytes > e->cfg.max_memory || e->live_bytes > e->cfg.max_memory - bytes)
    return emu_fail(e, GR_EINPUT, "error: allocating %zu bytes for '%s' would pass the %llu bytes of global memory the context may hold (--max-memory)",
                    bytes, name ? name : "a buffer", (unsigned long long)e->cfg.max_memory);
  e->live_bytes += bytes;
  galloc *a = vec_push(&e->allocs);
  a->data = xcalloc(bytes ? (bytes + 31) / 32 * 32 : 32, 1);   /* whole 32-byte L1 lines */
  a->size = bytes;
  a->live = 1;
  char buf[64];
  if (!name) { snprintf(buf, sizeof buf, "alloc#%zu", e->allocs.len - 1); name = buf; }
  a->name = xstrdup(name);
  *out = KIR_GLOBAL_ADDR(e->allocs.len - 1, 0);
  return GR_OK;
}

int emu_free_ptr(emu_dev *e, gr_ptr p) {
  galloc *a = emu_alloc_of(e, p);
  if (!a || (uint32_t)p != 0) return emu_fail(e, GR_EINPUT, "error: gr_free of 0x%llx, which is not the start of a live allocation", (unsigned long long)p);
  free(a->data);
  a->data = NULL;
  a->live = 0;
  e->live_bytes -= a->size;
  return GR_OK;
}

int emu_htod(emu_dev *e, gr_ptr dst, const void *src, size_t n) {
  uint8_t *d = emu_global_span(e, dst, n);
  if (!d) return GR_EINPUT;
  if (n) memcpy(d, src, n);
  return GR_OK;
}

int emu_dtoh(emu_dev *e, void *dst, gr_ptr src, size_t n) {
  uint8_t *s = emu_global_span(e, src, n);
  if (!s) return GR_EINPUT;
  if (n) memcpy(dst, s, n);
  return GR_OK;
}

int emu_memset(emu_dev *e, gr_ptr dst, int v, size_t n) {
  uint8_t *d = emu_global_span(e, dst, n);
  if (!d) return GR_EINPUT;
  memset(d, v, n);
  return GR_OK;
}

size_t emu_allocation_count(const emu_dev *e) { return e->allocs.len ? e->allocs.len - 1 : 0; }

int emu_allocation_rename(emu_dev *e, size_t id, const char *name) {
  if (id == 0 || id >= e->allocs.len) return GR_EINPUT;
  galloc *a = vec_at(&e->allocs, id);
  if (!a->live) return GR_EINPUT;
  free(a->name);
  a->name = xstrdup(name);
  return GR_OK;
}

int emu_allocation_info(const emu_dev *e, size_t id, uint64_t *size, const char **name) {
  if (id == 0 || id >= e->allocs.len) return GR_EINPUT;
  const galloc *a = vec_at(&e->allocs, id);
  if (!a->live) return GR_EINPUT;
  if (size) *size = a->size;
  if (name) *name = a->name;
  return GR_OK;
}

int emu_describe_address(const emu_dev *e, gr_ptr addr, const char **name, uint64_t *offset) {
  galloc *a = emu_alloc_of((emu_dev *)e, addr);
  if (!a) return GR_EINPUT;
  *name = a->name;
  *offset = (uint32_t)addr;
  return GR_OK;
}

/* ------------------------------------------------------------- modules */

int emu_module_load(emu_dev *e, const kir_module *km, const char *path, gr_ptr *gaddr, emu_module **out) {
  for (int k = 0; k < km->nglobals; k++) {
    const kir_global *g = &km->globals[k];
    int rc = emu_malloc(e, g->size, g->name, &gaddr[k]);
    if (rc && g->decl.file) {   /* the declaration that asked for it */
      char was[1024];
      snprintf(was, sizeof was, "%s", e->err);
      emu_fail(e, rc, "%s:%d:%d: %s", g->decl.file, g->decl.line, g->decl.col, was);
    }
    if (rc) return rc;
    if (g->init) memcpy(emu_global_span(e, gaddr[k], g->size), g->init, g->size);   /* else zero-filled */
  }
  emu_module *m = xcalloc(1, sizeof *m);
  m->ctx = e;
  m->km = km;
  m->gaddr = gaddr;
  m->path = path;
  *out = m;
  return GR_OK;
}

void emu_module_free(emu_module *m) {
  if (!m) return;
  prov_flows_free(m->flows);
  free(m->jit_keys);
  free(m);
}

const kir_module *emu_module_kir(const emu_module *m) { return m->km; }

/* Device malloc: each block an allocation of its own, so that an access
 * past it faults naming it; 16-byte aligned (each starts its window).  The
 * heap's bound is CUDA's: a request past it returns NULL, as the GPU's. */
uint64_t engine_heap_malloc(launch *L, warp *w, int lane, uint64_t n) {
  emu_dev *e = L->ctx;
  uint64_t r = (n + 15) / 16 * 16;
  if (n > e->heap_limit || r > e->heap_limit - e->heap_used || r > e->cfg.max_memory - e->live_bytes || e->allocs.len >= 0xffffff)
    return 0;
  char where[160], name[200];
  engine_lane_coords(w, lane, where, sizeof where);
  char *warp_part = strstr(where, " [");   /* the thread and block name it */
  if (warp_part) *warp_part = 0;
  snprintf(name, sizeof name, "device malloc by %s", where);
  gr_ptr p;
  if (emu_malloc(e, (size_t)n, name, &p) != GR_OK) return 0;
  galloc *a = emu_alloc_of(e, p);
  a->heap = 1;
  e->heap_used += r;
  return p;
}

int engine_heap_free(launch *L, uint64_t p) {
  emu_dev *e = L->ctx;
  if (!p) return 1;
  galloc *a = KIR_SPACE_OF(p) == SPACE_GLOBAL && KIR_STATE_OF(p) == KIR_INSIDE ? emu_alloc_of(e, p) : NULL;
  if (!a || !a->heap || (uint32_t)p != 0) return 0;
  e->heap_used -= (a->size + 15) / 16 * 16;
  a->heap = 0;
  return emu_free_ptr(e, p) == GR_OK;
}

/* Allocations made after a snapshot (device malloc's, during the launch)
 * are gone when it is restored: ids count from where they were. */
void engine_allocs_truncate(emu_dev *e, size_t n) {
  while (e->allocs.len > n) {
    galloc *a = vec_at(&e->allocs, e->allocs.len - 1);
    if (a->live) {
      e->live_bytes -= a->size;
      if (a->heap) e->heap_used -= (a->size + 15) / 16 * 16;
    }
    free(a->data);
    free(a->name);
    e->allocs.len--;
  }
}
