/* The host API: contexts and their configuration, global memory,
 * modules, kernel signatures and arguments, and the dispatch of a launch to
 * the CUDA backend; the emulator's own launch is engine.c's.  Every call
 * returns GR_OK or a status with its message in the context. */
#include "engine.h"
#include "prov.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "front.h"
#include "kir_sem.h"
#include "ptx.h"
#include "source.h"
#include "textcache.h"

/* ------------------------------------------------------------- context */

void gr_config_default(gr_config *c) {
  memset(c, 0, sizeof *c);
  c->sms = 4;
  c->seed = 1;
  c->sched = GR_SCHED_RR;
  c->max_steps = 100000000ull;
  c->max_blocks_per_sm = 16;
  c->max_threads_per_sm = 2048;
  c->shared_per_sm = 100 * 1024;
  c->max_memory = (uint64_t)8 << 30;
  const char *m = getenv("GPURACE_MEMORY");
  c->memory = m && !strcmp(m, "weak") ? GR_MEMORY_WEAK : GR_MEMORY_SC;
  const char *cc = getenv("GPURACE_CC");
  c->cc = cc && !strcmp(cc, "nvrtc") ? GR_CC_NVRTC : cc && !strcmp(cc, "nvcc") ? GR_CC_NVCC : GR_CC_SUBSET;
  const char *fl = getenv("GPURACE_CC_FLAGS");
  if (fl) snprintf(c->cc_flags, sizeof c->cc_flags, "%s", fl);
  const char *opt = getenv("GPURACE_ONE_PER_TURN");
  c->one_per_turn = opt && !strcmp(opt, "1");
}

int ctx_fail(gr_context *ctx, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
  va_end(ap);
  ctx->log_shown = 0;
  return code;
}

gr_context *gr_context_create(const gr_config *cfg) {
  gr_context *ctx = xcalloc(1, sizeof *ctx);
  if (cfg) ctx->cfg = *cfg; else gr_config_default(&ctx->cfg);
  gr_config d;
  gr_config_default(&d);
  if (ctx->cfg.sms <= 0) ctx->cfg.sms = d.sms;
  if (!ctx->cfg.max_steps) ctx->cfg.max_steps = d.max_steps;
  if (ctx->cfg.max_blocks_per_sm <= 0) ctx->cfg.max_blocks_per_sm = d.max_blocks_per_sm;
  if (ctx->cfg.max_threads_per_sm <= 0) ctx->cfg.max_threads_per_sm = d.max_threads_per_sm;
  if (!ctx->cfg.shared_per_sm) ctx->cfg.shared_per_sm = d.shared_per_sm;
  if (!ctx->cfg.max_memory) ctx->cfg.max_memory = d.max_memory;
  vec_init(&ctx->allocs, sizeof(galloc));
  vec_push(&ctx->allocs);   /* id 0: never an allocation */
  vec_init(&ctx->modules, sizeof(gr_module *));
  if (ctx->cfg.backend == GR_BACKEND_CUDA) {
    ctx->backend_rc = cuda_open(&ctx->cu, ctx->backend_err, sizeof ctx->backend_err);
    if (ctx->backend_rc) snprintf(ctx->err, sizeof ctx->err, "%s", ctx->backend_err);
  }
  return ctx;
}

int gr_context_ok(const gr_context *ctx) { return ctx->backend_rc; }
const char *gr_context_device(const gr_context *ctx) { return ctx->cu ? cuda_describe(ctx->cu) : "emulator"; }

/* The CUDA backend failed to start: the reason, again, as this call's error. */
static int backend_down(gr_context *ctx) { return ctx_fail(ctx, ctx->backend_rc, "%s", ctx->backend_err); }

void gr_context_destroy(gr_context *ctx) {
  if (!ctx) return;
  for (size_t k = 0; k < ctx->allocs.len; k++) {
    galloc *a = vec_at(&ctx->allocs, k);
    free(a->data); free(a->name);
  }
  vec_free(&ctx->allocs);
  for (size_t k = 0; k < ctx->modules.len; k++) {
    gr_module *m = *(gr_module **)vec_at(&ctx->modules, k);
    kir_module_free(m->km);
    cuda_module_free(m->cm);
    prov_flows_free(m->flows);
    free(m->gaddr); free(m->path); free(m);
  }
  vec_free(&ctx->modules);
  cuda_close(ctx->cu);
  wm_free(ctx->wm_spare);
  free(ctx->log);
  free(ctx);
}

/* With --keep-going, the error of a launch is every memory error it met,
 * one a line, then the summary. */
const char *gr_error(const gr_context *ctx) { return ctx->log_shown ? ctx->log : ctx->err; }
static int opt_u64(const char *val, uint64_t lo, uint64_t hi, uint64_t *out) {
  if (!val || !*val || *val == '-') return 0;
  char *e;
  errno = 0;
  unsigned long long v = strtoull(val, &e, 0);
  if (*e || errno || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

int gr_config_option(gr_config *c, const char *opt, const char *val, char *err, size_t n) {
  uint64_t v;
  if (!strcmp(opt, "--keep-going")) { c->keep_going = 1; return 1; }
  if (strcmp(opt, "--seed") && strcmp(opt, "--sched") && strcmp(opt, "--memory") && strcmp(opt, "--sms") && strcmp(opt, "--max-steps") &&
      strcmp(opt, "--backend") && strcmp(opt, "--max-code") && strcmp(opt, "--max-source") && strcmp(opt, "--max-nesting") &&
      strcmp(opt, "--max-memory") && strcmp(opt, "--warps") && strcmp(opt, "--cc") && strcmp(opt, "--cc-flags"))
    return 0;
  if (!val) { snprintf(err, n, "option '%s' needs a value", opt); return -1; }
  if (!strcmp(opt, "--seed")) {
    if (!opt_u64(val, 0, UINT64_MAX, &v)) { snprintf(err, n, "--seed needs a non-negative integer, not '%s'", val); return -1; }
    c->seed = v;
  } else if (!strcmp(opt, "--sms")) {
    if (!opt_u64(val, 1, 1024, &v)) { snprintf(err, n, "--sms needs an integer from 1 to 1024, not '%s'", val); return -1; }
    c->sms = (int)v;
  } else if (!strcmp(opt, "--max-steps")) {
    if (!opt_u64(val, 1, UINT64_MAX, &v)) { snprintf(err, n, "--max-steps needs a positive integer, not '%s'", val); return -1; }
    c->max_steps = v;
  } else if (!strcmp(opt, "--max-code")) {
    if (!opt_u64(val, 1, (uint64_t)1 << 30, &v)) { snprintf(err, n, "--max-code needs an integer from 1 to 2^30, not '%s'", val); return -1; }
    c->max_code = v;
  } else if (!strcmp(opt, "--max-memory")) {
    if (!opt_u64(val, 1, UINT64_MAX, &v)) { snprintf(err, n, "--max-memory needs a positive byte count, not '%s'", val); return -1; }
    c->max_memory = v;
  } else if (!strcmp(opt, "--max-nesting")) {
    if (!opt_u64(val, 1, 1000, &v)) { snprintf(err, n, "--max-nesting needs an integer from 1 to 1000 (the C stack's share), not '%s'", val); return -1; }
    c->max_nesting = (int)v;
  } else if (!strcmp(opt, "--max-source")) {
    if (!opt_u64(val, 1, (uint64_t)1 << 34, &v)) { snprintf(err, n, "--max-source needs a byte count from 1 to 2^34, not '%s'", val); return -1; }
    c->max_source = v;
  } else if (!strcmp(opt, "--sched")) {
    if (!strcmp(val, "rr")) c->sched = GR_SCHED_RR;
    else if (!strcmp(val, "random")) c->sched = GR_SCHED_RANDOM;
    else { snprintf(err, n, "--sched takes rr or random, not '%s'", val); return -1; }
  } else if (!strcmp(opt, "--cc")) {
    if (!strcmp(val, "subset")) c->cc = GR_CC_SUBSET;
    else if (!strcmp(val, "nvrtc")) c->cc = GR_CC_NVRTC;
    else if (!strcmp(val, "nvcc")) c->cc = GR_CC_NVCC;
    else { snprintf(err, n, "--cc takes subset, nvrtc or nvcc, not '%s'", val); return -1; }
  } else if (!strcmp(opt, "--cc-flags")) {
    if (strlen(val) >= sizeof c->cc_flags) { snprintf(err, n, "--cc-flags: at most %zu characters", sizeof c->cc_flags - 1); return -1; }
    snprintf(c->cc_flags, sizeof c->cc_flags, "%s", val);
  } else if (!strcmp(opt, "--warps")) {
    if (!strcmp(val, "lockstep")) c->warps = GR_WARPS_LOCKSTEP;
    else if (!strcmp(val, "its")) c->warps = GR_WARPS_ITS;
    else { snprintf(err, n, "--warps takes lockstep or its, not '%s'", val); return -1; }
  } else if (!strcmp(opt, "--backend")) {
    if (!strcmp(val, "emu")) c->backend = GR_BACKEND_EMU;
    else if (!strcmp(val, "cuda")) c->backend = GR_BACKEND_CUDA;
    else { snprintf(err, n, "--backend takes emu or cuda, not '%s'", val); return -1; }
  } else {
    if (!strcmp(val, "sc")) c->memory = GR_MEMORY_SC;
    else if (!strcmp(val, "weak")) c->memory = GR_MEMORY_WEAK;
    else { snprintf(err, n, "--memory takes sc or weak, not '%s'", val); return -1; }
  }
  return 2;
}

const gr_config *gr_context_config(const gr_context *ctx) { return &ctx->cfg; }
void gr_context_reseed(gr_context *ctx, uint64_t seed) { ctx->cfg.seed = seed; }

/* ------------------------------------------------------------- global memory */


uint8_t *ctx_global_span(gr_context *ctx, gr_ptr addr, uint64_t n) {
  galloc *a = ctx_alloc_of(ctx, addr);
  uint64_t off = (uint32_t)addr;
  if (!a) { ctx_fail(ctx, GR_EINPUT, "error: 0x%llx is not the address of a live allocation", (unsigned long long)addr); return NULL; }
  if (off > a->size || n > a->size - off) {
    ctx_fail(ctx, GR_EINPUT, "error: %llu bytes at offset %llu exceed allocation '%s' of %llu bytes",
             (unsigned long long)n, (unsigned long long)off, a->name, (unsigned long long)a->size);
    return NULL;
  }
  return a->data + off;
}

int gr_malloc(gr_context *ctx, size_t bytes, const char *name, gr_ptr *out) {
  if (ON_GPU(ctx)) return ctx->cu ? cuda_malloc(ctx->cu, bytes, out, ctx->err, sizeof ctx->err) : backend_down(ctx);
  if (bytes > 0xffffffffull) return ctx_fail(ctx, GR_EINPUT, "error: allocation of %zu bytes exceeds the 4 GiB limit of one allocation", bytes);
  if (ctx->allocs.len >= 0xffffff) return ctx_fail(ctx, GR_EINPUT, "error: too many allocations");
  if (bytes > ctx->cfg.max_memory || ctx->live_bytes > ctx->cfg.max_memory - bytes)
    return ctx_fail(ctx, GR_EINPUT, "error: allocating %zu bytes for '%s' would pass the %llu bytes of global memory the context may hold (--max-memory)",
                    bytes, name ? name : "a buffer", (unsigned long long)ctx->cfg.max_memory);
  ctx->live_bytes += bytes;
  galloc *a = vec_push(&ctx->allocs);
  a->data = xcalloc(bytes ? (bytes + 31) / 32 * 32 : 32, 1);   /* whole 32-byte L1 lines */
  a->size = bytes;
  a->live = 1;
  char buf[64];
  if (!name) { snprintf(buf, sizeof buf, "alloc#%zu", ctx->allocs.len - 1); name = buf; }
  a->name = xstrdup(name);
  *out = KIR_GLOBAL_ADDR(ctx->allocs.len - 1, 0);
  return GR_OK;
}

int gr_free(gr_context *ctx, gr_ptr p) {
  if (ON_GPU(ctx)) return ctx->cu ? cuda_free(ctx->cu, p, ctx->err, sizeof ctx->err) : backend_down(ctx);
  galloc *a = ctx_alloc_of(ctx, p);
  if (!a || (uint32_t)p != 0) return ctx_fail(ctx, GR_EINPUT, "error: gr_free of 0x%llx, which is not the start of a live allocation", (unsigned long long)p);
  free(a->data);
  a->data = NULL;
  a->live = 0;
  ctx->live_bytes -= a->size;
  return GR_OK;
}

int gr_memcpy_htod(gr_context *ctx, gr_ptr dst, const void *src, size_t n) {
  if (ON_GPU(ctx)) return ctx->cu ? cuda_htod(ctx->cu, dst, src, n, ctx->err, sizeof ctx->err) : backend_down(ctx);
  uint8_t *d = ctx_global_span(ctx, dst, n);
  if (!d) return GR_EINPUT;
  if (n) memcpy(d, src, n);
  return GR_OK;
}
int gr_memcpy_dtoh(gr_context *ctx, void *dst, gr_ptr src, size_t n) {
  if (ON_GPU(ctx)) return ctx->cu ? cuda_dtoh(ctx->cu, dst, src, n, ctx->err, sizeof ctx->err) : backend_down(ctx);
  uint8_t *s = ctx_global_span(ctx, src, n);
  if (!s) return GR_EINPUT;
  if (n) memcpy(dst, s, n);
  return GR_OK;
}
int gr_memset(gr_context *ctx, gr_ptr dst, int v, size_t n) {
  if (ON_GPU(ctx)) return ctx->cu ? cuda_memset(ctx->cu, dst, v, n, ctx->err, sizeof ctx->err) : backend_down(ctx);
  uint8_t *d = ctx_global_span(ctx, dst, n);
  if (!d) return GR_EINPUT;
  memset(d, v, n);
  return GR_OK;
}

size_t gr_allocation_count(const gr_context *ctx) { return ctx->allocs.len ? ctx->allocs.len - 1 : 0; }

int gr_allocation_info(const gr_context *ctx, size_t id, uint64_t *size, const char **name) {
  if (id == 0 || id >= ctx->allocs.len) return GR_EINPUT;
  const galloc *a = vec_at(&ctx->allocs, id);
  if (!a->live) return GR_EINPUT;
  if (size) *size = a->size;
  if (name) *name = a->name;
  return GR_OK;
}

gr_ptr gr_allocation_base(size_t id) { return KIR_GLOBAL_ADDR(id, 0); }

size_t gr_allocation_id(gr_ptr addr) {
  return KIR_SPACE_OF(addr) == SPACE_GLOBAL && KIR_STATE_OF(addr) == KIR_INSIDE ? (size_t)(addr >> 32 & 0xffffff) : 0;
}

int gr_describe_address(const gr_context *ctx, gr_ptr addr, const char **name, uint64_t *offset) {
  galloc *a = ctx_alloc_of((gr_context *)ctx, addr);
  if (!a) return GR_EINPUT;
  *name = a->name;
  *offset = (uint32_t)addr;
  return GR_OK;
}

/* ------------------------------------------------------------- modules */

/* The module on the GPU: NVRTC compiles the file, and its __device__
 * variables live in the CUDA module, initialised by the compiler. */
/* The names NVRTC must lower: the kernels, then the __device__ variables. */
static const char **gpu_names(const kir_module *km, int *n) {
  *n = km->nfuncs + km->nglobals;
  const char **names = xcalloc((size_t)*n + 1, sizeof(char *));
  /* from PTX: the symbols themselves, which the module already has */
  for (int k = 0; k < km->nfuncs; k++) names[k] = km->funcs[k]->sym ? km->funcs[k]->sym : km->funcs[k]->name;
  for (int k = 0; k < km->nglobals; k++) names[km->nfuncs + k] = km->globals[k].sym ? km->globals[k].sym : km->globals[k].name;
  return names;
}

static int module_on_gpu(gr_context *ctx, gr_module *m, const char *const *defines, int ndefines) {
  kir_module *km = m->km;
  int nnames;
  const char **names = gpu_names(km, &nnames);
  int rc = km->ptx ? cuda_module_load_ptx(ctx->cu, m->path, km->ptx, names, nnames, &m->cm, ctx->err, sizeof ctx->err)
                   : cuda_module_load(ctx->cu, 0, m->path, defines, ndefines, names, nnames, NULL, 0, &m->cm, ctx->err, sizeof ctx->err);
  for (int k = 0; rc == GR_OK && k < km->nglobals; k++) {
    size_t size;
    rc = cuda_module_global(m->cm, km->nfuncs + k, &m->gaddr[k], &size, ctx->err, sizeof ctx->err);
    if (rc == GR_OK && size != km->globals[k].size)
      rc = ctx_fail(ctx, GR_EINPUT, "%s: error: __device__ variable '%s' has %zu bytes on the GPU, %u in the emulator",
                    m->path, km->globals[k].name, size, km->globals[k].size);
  }
  free(names);
  return rc;
}

static int module_finish(gr_context *ctx, kir_module *km, const char *path, const char *const *defines, int ndefines,
                         gr_module **out) {
  gr_module *m = xcalloc(1, sizeof *m);
  m->ctx = ctx;
  m->km = km;
  m->path = xstrdup(path);
  m->gaddr = xcalloc((size_t)km->nglobals + 1, sizeof(gr_ptr));
  if (ON_GPU(ctx)) {
    int rc = module_on_gpu(ctx, m, defines, ndefines);
    if (rc) { kir_module_free(km); cuda_module_free(m->cm); free(m->gaddr); free(m->path); free(m); return rc; }
    *(gr_module **)vec_push(&ctx->modules) = m;
    *out = m;
    return GR_OK;
  }
  for (int k = 0; k < km->nglobals; k++) {
    kir_global *g = &km->globals[k];
    int rc = gr_malloc(ctx, g->size, g->name, &m->gaddr[k]);
    if (rc) { kir_module_free(km); free(m->gaddr); free(m->path); free(m); return rc; }
    if (g->init) memcpy(ctx_global_span(ctx, m->gaddr[k], g->size), g->init, g->size);  /* else zero-filled */
  }
  *(gr_module **)vec_push(&ctx->modules) = m;
  *out = m;
  return GR_OK;
}

static front_limits ctx_limits(const gr_context *ctx) {
  front_limits l = {(size_t)ctx->cfg.max_code, (size_t)ctx->cfg.max_source, ctx->cfg.max_nesting};
  return l;
}

int gr_module_load(gr_context *ctx, const char *path, const char *const *defines, int ndefines, gr_module **out) {
  return module_load_text(ctx, path, NULL, 0, defines, ndefines, out);
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* The CUDA compiler's PTX for a file, kept for the process: a verdict
 * table loads one file once per seed and cell, and the compiler takes far
 * longer than the run.  Keyed by everything that goes into the
 * compilation: compiler, flags, defines, and the file's contents. */
static text_cache ptx_cache = TEXT_CACHE_INIT((size_t)256 << 20);

/* The key, or none (no bytes) where the file cannot be read. */
static bytes ptx_cache_key(const gr_context *ctx, const char *path, const char *text, size_t len, const char *const *defines,
                           int ndefines) {
  bytes k = {0};
  char *owned = NULL;
  if (!text) {
    char e[256];
    owned = source_read_file(path, 0, &len, e, sizeof e);
    if (!owned) return k;
    text = owned;
  }
  int cc = (int)ctx->cfg.cc;
  bytes_put(&k, &cc, sizeof cc);
  bytes_put(&k, ctx->cfg.cc_flags, strlen(ctx->cfg.cc_flags) + 1);
  text_key_file(&k, path, text, len, defines, ndefines);
  free(owned);
  return k;
}

/* PTX says how big a struct parameter is, not what it holds: `//@ arg`
 * gives its scalar fields in order, and those come from the subset front
 * end, where it can read the file (its structs are C).  A kernel whose
 * file it cannot read keeps its struct parameters without fields: an arg
 * directive for one says so. */
static void struct_leaves_from_subset(kir_module *km, const char *path, const char *text, size_t len,
                                      const char *const *defines, int ndefines, const front_limits *lim) {
  int need = 0;
  for (int k = 0; k < km->nfuncs; k++)
    for (int j = 0; j < km->funcs[k]->nparams; j++) if (km->funcs[k]->params[j].sk == SK_COUNT) need = 1;
  if (!need) return;
  char err[1024];
  kir_module *sub = front_compile_file(path, text, len, defines, ndefines, lim, err, sizeof err);
  if (!sub) return;
  for (int k = 0; k < km->nfuncs; k++) {
    kir_func *f = km->funcs[k];
    const kir_func *g = kir_find(sub, f->name);
    if (!g || g->nparams != f->nparams) continue;
    for (int j = 0; j < f->nparams; j++) {
      kir_param *p = &f->params[j];
      const kir_param *q = &g->params[j];
      if (p->sk != SK_COUNT || q->sk != SK_COUNT || q->size != p->size) continue;
      p->nleaves = q->nleaves;
      p->leaf_off = arena_alloc(&km->ar, sizeof(uint32_t) * (size_t)(q->nleaves + 1));
      p->leaf_sk = arena_alloc(&km->ar, sizeof(int) * (size_t)(q->nleaves + 1));
      memcpy(p->leaf_off, q->leaf_off, sizeof(uint32_t) * (size_t)q->nleaves);
      memcpy(p->leaf_sk, q->leaf_sk, sizeof(int) * (size_t)q->nleaves);
    }
  }
  kir_module_free(sub);
}

/* The kernel file's KIR through the front end its name and the
 * configuration choose: PTX as such, the CUDA compiler's PTX, or the subset. */
static kir_module *compile_file(gr_context *ctx, const char *path, const char *text, size_t len, const char *const *defines,
                                int ndefines) {
  front_limits lim = ctx_limits(ctx);
  if (ends_with(path, ".ptx")) {
    char *owned = NULL;
    if (!text) {
      owned = source_read_file(path, lim.max_source, &len, ctx->err, sizeof ctx->err);
      if (!owned) return NULL;
      text = owned;
    }
    kir_module *km = ptx_compile(path, text, len, NULL, &lim, ctx->err, sizeof ctx->err);
    free(owned);
    return km;
  }
  if (ctx->cfg.cc == GR_CC_SUBSET) return front_compile_file(path, text, len, defines, ndefines, &lim, ctx->err, sizeof ctx->err);
  size_t n = 0;
  bytes key = ptx_cache_key(ctx, path, text, len, defines, ndefines);
  char *ptx = key.len ? text_cache_get(&ptx_cache, key.p, key.len, &n) : NULL;
  if (!ptx) {
    int rc = ctx->cfg.cc == GR_CC_NVRTC
      ? cuda_compile_ptx_nvrtc(path, text, defines, ndefines, ctx->cfg.cc_flags, &ptx, &n, ctx->err, sizeof ctx->err)
      : cuda_compile_ptx_nvcc(path, defines, ndefines, ctx->cfg.cc_flags, &ptx, &n, ctx->err, sizeof ctx->err);
    if (rc) { free(key.p); return NULL; }
    if (key.len) text_cache_put(&ptx_cache, key.p, key.len, ptx, n);
  }
  free(key.p);
  char *name = xmalloc(strlen(path) + 16);
  sprintf(name, "%s (%s PTX)", path, ctx->cfg.cc == GR_CC_NVRTC ? "NVRTC" : "nvcc");
  kir_module *km = ptx_compile(name, ptx, n, path, &lim, ctx->err, sizeof ctx->err);
  free(name);
  free(ptx);
  if (km) struct_leaves_from_subset(km, path, text, len, defines, ndefines, &lim);
  return km;
}

int module_load_text(gr_context *ctx, const char *path, const char *text, size_t len, const char *const *defines,
                     int ndefines, gr_module **out) {
  if (ctx->backend_rc) return backend_down(ctx);
  kir_module *km = compile_file(ctx, path, text, len, defines, ndefines);
  if (!km) return GR_EINPUT;
  return module_finish(ctx, km, path, defines, ndefines, out);
}

int gr_module_load_source(gr_context *ctx, const char *name, const char *src, size_t len, gr_module **out) {
  if (ON_GPU(ctx)) return ctx_fail(ctx, GR_EINPUT, "%s: error: the CUDA backend compiles kernel files, not source text", name);
  front_limits lim = ctx_limits(ctx);
  kir_module *km = front_compile(name, src, len, 0, &lim, ctx->err, sizeof ctx->err);
  if (!km) return GR_EINPUT;
  return module_finish(ctx, km, name, NULL, 0, out);
}

void gr_module_print_ir(const gr_module *mod, FILE *out) { kir_print_module(out, mod->km); }

int gr_module_global(gr_module *mod, const char *name, gr_ptr *addr, size_t *size) {
  for (int k = 0; k < mod->km->nglobals; k++) {
    if (!strcmp(mod->km->globals[k].name, name)) {
      if (addr) *addr = mod->gaddr[k];
      if (size) *size = mod->km->globals[k].size;
      return GR_OK;
    }
  }
  return ctx_fail(mod->ctx, GR_EINPUT, "error: module '%s' has no __device__ variable '%s'", mod->path, name);
}

int gr_kernel_nparams(gr_module *mod, const char *kernel) {
  const kir_func *f = kir_find(mod->km, kernel);
  return f ? f->nparams : -1;
}

int gr_kernel_param(gr_module *mod, const char *kernel, int k, const char **name, gr_type *type, gr_type *pointee) {
  const kir_func *f = kir_find(mod->km, kernel);
  if (!f || k < 0 || k >= f->nparams) return GR_EINPUT;
  if (name) *name = f->params[k].name;
  if (type) *type = f->params[k].sk == SK_COUNT ? GR_STRUCT : (gr_type)f->params[k].sk;
  if (pointee) *pointee = (gr_type)f->params[k].pointee;
  return GR_OK;
}

int gr_kernel_param_struct(gr_module *mod, const char *kernel, int k, size_t *size, int *nleaves,
                           const uint32_t **offsets, const gr_type **types) {
  const kir_func *f = kir_find(mod->km, kernel);
  if (!f || k < 0 || k >= f->nparams || f->params[k].sk != SK_COUNT) return GR_EINPUT;
  *size = f->params[k].size;
  *nleaves = f->params[k].nleaves;
  *offsets = f->params[k].leaf_off;
  *types = (const gr_type *)f->params[k].leaf_sk;
  return GR_OK;
}

int gr_type_size(gr_type t) { return t >= GR_STRUCT ? 0 : kir_sk_size[t]; }
const char *gr_type_name(gr_type t) { return t >= GR_STRUCT ? "struct" : kir_sk_name[t]; }

gr_arg gr_arg_i32(int32_t v) { gr_arg a = {GR_I32, sem_s32((uint32_t)v), NULL, 0}; return a; }
gr_arg gr_arg_u32(uint32_t v) { gr_arg a = {GR_U32, v, NULL, 0}; return a; }
gr_arg gr_arg_i64(int64_t v) { gr_arg a = {GR_I64, (uint64_t)v, NULL, 0}; return a; }
gr_arg gr_arg_u64(uint64_t v) { gr_arg a = {GR_U64, v, NULL, 0}; return a; }
gr_arg gr_arg_f32(float v) { gr_arg a = {GR_F32, sem_bits32(v), NULL, 0}; return a; }
gr_arg gr_arg_f64(double v) { gr_arg a = {GR_F64, sem_bits64(v), NULL, 0}; return a; }
gr_arg gr_arg_ptr(gr_ptr p) { gr_arg a = {GR_PTR, p, NULL, 0}; return a; }
gr_arg gr_arg_struct(const void *bytes, size_t size) { gr_arg a = {GR_STRUCT, 0, bytes, size}; return a; }

void gr_last_stats(const gr_context *ctx, gr_stats *out) { *out = ctx->stats; }

int host_convert_arg(gr_context *ctx, const kir_func *f, int k, const gr_arg *a, uint64_t *out) {
  kir_sk want = f->params[k].sk;
  if (want == SK_COUNT || a->type == GR_STRUCT) {   /* a struct by value: its bytes, of its size */
    if (want != SK_COUNT) return ctx_fail(ctx, GR_EINPUT, "error: argument %d ('%s') of '%s' is a %s, not a struct", k + 1, f->params[k].name, f->name, kir_sk_name[want]);
    if (a->type != GR_STRUCT || a->size != f->params[k].size || (!a->data && a->size))
      return ctx_fail(ctx, GR_EINPUT, "error: argument %d ('%s') of '%s' must be a struct of %u bytes (gr_arg_struct)", k + 1, f->params[k].name, f->name, f->params[k].size);
    *out = 0;
    return GR_OK;
  }
  if (want == SK_PTR && a->type != GR_PTR && !(a->bits == 0))
    return ctx_fail(ctx, GR_EINPUT, "error: argument %d ('%s') of '%s' must be a pointer", k + 1, f->params[k].name, f->name);
  if (want != SK_PTR && a->type == GR_PTR)
    return ctx_fail(ctx, GR_EINPUT, "error: argument %d ('%s') of '%s' must be a %s, not a pointer", k + 1, f->params[k].name, f->name, kir_sk_name[want]);
  *out = want == SK_PTR ? a->bits : sem_cvt((int)a->type, want, a->bits);
  return GR_OK;
}

/* The launch on the GPU: the same argument conversion, then each value in
 * its parameter's size (little-endian, as both machines are). */
int host_launch_on_gpu(gr_module *mod, const kir_func *f, gr_dim3 grid, gr_dim3 bdim, size_t dyn_shared, const gr_arg *args, int nargs) {
  gr_context *ctx = mod->ctx;
  if (!ctx->cu) return backend_down(ctx);
  uint64_t *vals = xcalloc((size_t)nargs + 1, sizeof *vals);
  void **params = xcalloc((size_t)nargs + 1, sizeof *params);
  int rc = GR_OK;
  for (int k = 0; k < nargs && rc == GR_OK; k++) {
    rc = host_convert_arg(ctx, f, k, &args[k], &vals[k]);
    params[k] = f->params[k].sk == SK_COUNT ? (void *)args[k].data : (void *)&vals[k];
  }
  int index = -1;
  for (int k = 0; k < mod->km->nfuncs; k++) if (mod->km->funcs[k] == f) index = k;
  if (rc == GR_OK) rc = cuda_launch(mod->cm, index, grid, bdim, dyn_shared, params, ctx->err, sizeof ctx->err);
  free(vals);
  free(params);
  return rc;
}

/* ------------------------------------------------------------- CUDA backend tools */

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
