/* The host API: contexts and their configuration, global memory,
 * modules, kernel signatures and arguments, and launches, each given to
 * the context's device (device.h) after the checks every backend shares;
 * and the engine API, which only the emulator has.  Every call returns
 * GR_OK or a status with its message in the context. */
#include "host.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "context.h"
#include "front.h"
#include "kir_sem.h"

/* ------------------------------------------------------------- context */


int host_fail(gr_context *ctx, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
  va_end(ap);
  if (ctx->emu) emu_log_forget(ctx->emu);
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
  vec_init(&ctx->modules, sizeof(gr_module *));
  if (ctx->cfg.backend == GR_BACKEND_CUDA) {
    ctx->backend_rc = dev_cuda_open(&ctx->cfg, ctx->err, sizeof ctx->err, &ctx->ops, &ctx->dev);
    if (ctx->backend_rc) snprintf(ctx->backend_err, sizeof ctx->backend_err, "%s", ctx->err);
  } else {
    dev_emu_open(&ctx->cfg, ctx->err, sizeof ctx->err, &ctx->ops, &ctx->dev);
    ctx->emu = ctx->dev;
  }
  return ctx;
}

int gr_context_ok(const gr_context *ctx) { return ctx->backend_rc; }
const char *gr_context_device(const gr_context *ctx) { return ctx->dev ? ctx->ops->describe(ctx->dev) : "emulator"; }
emu_dev *host_emu(gr_context *ctx) { return ctx->emu; }

/* The backend failed to start: the reason, again, as this call's error. */
static int backend_down(gr_context *ctx) { return host_fail(ctx, ctx->backend_rc, "%s", ctx->backend_err); }

void gr_context_destroy(gr_context *ctx) {
  if (!ctx) return;
  for (size_t k = 0; k < ctx->modules.len; k++) {
    gr_module *m = *(gr_module **)vec_at(&ctx->modules, k);
    if (m->dm) ctx->ops->module_free(m->dm);
    kir_module_free(m->km);
    free(m->gaddr); free(m->path); free(m->front_why); free(m);
  }
  vec_free(&ctx->modules);
  if (ctx->dev) ctx->ops->close(ctx->dev);
  free(ctx);
}

/* With --keep-going, the error of a launch is every memory error it met,
 * one a line, then the summary. */
const char *gr_error(const gr_context *ctx) {
  const char *log = ctx->emu ? emu_log(ctx->emu) : NULL;
  return log ? log : ctx->err;
}
const gr_config *gr_context_config(const gr_context *ctx) { return &ctx->cfg; }
void host_reseed(gr_context *ctx, uint64_t seed) {
  ctx->cfg.seed = seed;
  if (ctx->emu) emu_reseed(ctx->emu, seed);
}

/* ------------------------------------------------------------- global memory */

int gr_malloc(gr_context *ctx, size_t bytes, const char *name, gr_ptr *out) {
  if (!ctx->dev) return backend_down(ctx);
  return ctx->ops->malloc(ctx->dev, bytes, name, out);
}

int gr_free(gr_context *ctx, gr_ptr p) {
  if (!ctx->dev) return backend_down(ctx);
  return ctx->ops->free(ctx->dev, p);
}

int gr_memcpy_htod(gr_context *ctx, gr_ptr dst, const void *src, size_t n) {
  if (!ctx->dev) return backend_down(ctx);
  return ctx->ops->htod(ctx->dev, dst, src, n);
}

int gr_memcpy_dtoh(gr_context *ctx, void *dst, gr_ptr src, size_t n) {
  if (!ctx->dev) return backend_down(ctx);
  return ctx->ops->dtoh(ctx->dev, dst, src, n);
}

int gr_memset(gr_context *ctx, gr_ptr dst, int v, size_t n) {
  if (!ctx->dev) return backend_down(ctx);
  return ctx->ops->memset(ctx->dev, dst, v, n);
}

/* ------------------------------------------------------------- modules */

/* The module on the context's device; km is the module's from here on. */
static int module_finish(gr_context *ctx, kir_module *km, const char *path, const char *const *defines, int ndefines,
                         gr_module **out) {
  gr_module *m = xcalloc(1, sizeof *m);
  m->ctx = ctx;
  m->km = km;
  m->path = xstrdup(path);
  m->gaddr = xcalloc((size_t)km->nglobals + 1, sizeof(gr_ptr));
  int rc = ctx->ops->module_load(ctx->dev, km, m->path, defines, ndefines, m->gaddr, &m->dm);
  if (rc) { kir_module_free(km); free(m->gaddr); free(m->path); free(m); return rc; }
  *(gr_module **)vec_push(&ctx->modules) = m;
  *out = m;
  return GR_OK;
}

const kir_module *host_module_kir(const gr_module *mod) { return mod->km; }

int gr_kernel_count(const gr_module *mod) { return mod->km->nfuncs; }
const char *gr_kernel_name(const gr_module *mod, int k) { return k >= 0 && k < mod->km->nfuncs ? mod->km->funcs[k]->name : NULL; }

const char *gr_module_front(const gr_module *mod, const char **why) {
  if (why) *why = mod->front_why;
  return mod->front ? mod->front : "subset";
}

static front_limits ctx_limits(const gr_context *ctx) {
  front_limits l = {(size_t)ctx->cfg.max_code, (size_t)ctx->cfg.max_source, ctx->cfg.max_nesting, ctx->cfg.include_path,
                    ctx->cfg.jit_cache};
  return l;
}

int gr_module_load(gr_context *ctx, const char *path, const char *const *defines, int ndefines, gr_module **out) {
  return host_module_load_text(ctx, path, NULL, 0, defines, ndefines, 0, out);
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

/* The key, or none (no bytes) where the file could not be read (text NULL). */
static bytes ptx_cache_key(gr_cc which, const char *flags, const char *path, const char *text, size_t len,
                           const char *const *defines, int ndefines) {
  bytes k = {0};
  if (!text) return k;
  int cc = (int)which;
  bytes_put(&k, &cc, sizeof cc);
  bytes_put(&k, flags, strlen(flags) + 1);
  text_key_file(&k, path, text, len, defines, ndefines);
  return k;
}

/* NVRTC's PTX is kept on disk too (ptx/ in the cache folder, at most
 * PTX_DISK_MAX bytes): a kernel file that includes CUB or cooperative
 * groups takes NVRTC a second or two, a second run of it a few
 * milliseconds.  NVRTC says nothing of the headers it read, so the key
 * adds the trees it may read them from (cuda_nvrtc_key).  nvcc's is not
 * kept: its device pass reads the host compiler's headers too. */
#define PTX_DISK_MAX ((uint64_t)64 << 20)

/* Adds to key what the disk's key needs and names the folder in root: 1,
 * or 0 where nothing is kept across runs (the file is no regular file, its
 * includes may leave the trees, the folder cannot be written). */
static int ptx_disk_key(const gr_context *ctx, const char *path, const char *text, size_t len, const char *flags, bytes *key,
                        char *root, size_t rn) {
  if (!key->len || !disk_regular_file(path)) return 0;
  size_t base = key->len;
  int ok = !cuda_nvrtc_key(path, text, len, flags, key) && !disk_cache_sub(ctx->cfg.jit_cache, "ptx", root, rn);
  if (!ok) { key->len = base; root[0] = 0; }
  return ok;
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
      if (q->leaf_name && q->leaf_pointee) {
        p->leaf_name = arena_alloc(&km->ar, sizeof(const char *) * (size_t)(q->nleaves + 1));
        p->leaf_pointee = arena_alloc(&km->ar, sizeof(int) * (size_t)(q->nleaves + 1));
        for (int j2 = 0; j2 < q->nleaves; j2++) p->leaf_name[j2] = arena_strndup(&km->ar, q->leaf_name[j2], strlen(q->leaf_name[j2]));
        memcpy(p->leaf_pointee, q->leaf_pointee, sizeof(int) * (size_t)q->nleaves);
      }
    }
  }
  kir_module_free(sub);
}

/* The CUDA compiler's PTX of a .cu file (cc: NVRTC or nvcc), lowered. */
static kir_module *compile_cuda(gr_context *ctx, gr_cc cc, const char *path, const char *text, size_t len,
                                const char *const *defines, int ndefines, int arch) {
  front_limits lim = ctx_limits(ctx);
  /* the file's own architecture where the flags name none; the include path's folders */
  char flags[sizeof ctx->cfg.cc_flags + 2 * sizeof ctx->cfg.include_path + 32];
  const char *cf = ctx->cfg.cc_flags;
  if (arch > atoi(GR_CC_ARCH) && !strstr(cf, "-arch") && !strstr(cf, "--gpu-architecture"))
    snprintf(flags, sizeof flags, "%s%s-arch=compute_%d", cf, cf[0] ? " " : "", arch);
  else snprintf(flags, sizeof flags, "%s", cf);
  for (const char *q = ctx->cfg.include_path; *q;) {
    const char *e = strchr(q, ':');
    int k = e ? (int)(e - q) : (int)strlen(q);
    size_t have = strlen(flags);
    if (k) snprintf(flags + have, sizeof flags - have, "%s-I%.*s", have ? " " : "", k, q);
    q += k + (e != NULL);
  }
  size_t n = 0;
  char *owned = NULL;
  if (!text) {   /* read once for the keys and NVRTC; where it cannot be, the compiler says why */
    char e[256];
    text = owned = source_read_file(path, 0, &len, e, sizeof e);
  }
  bytes key = ptx_cache_key(cc, flags, path, text, len, defines, ndefines);
  char *ptx = key.len ? text_cache_get(&ptx_cache, key.p, key.len, &n) : NULL;
  char root[4096] = "";
  size_t base = key.len;   /* the process's key: without what only the disk's needs */
  if (!ptx && cc == GR_CC_NVRTC && ptx_disk_key(ctx, path, text, len, flags, &key, root, sizeof root)) {
    ptx = disk_cache_get(root, "ptx", key.p, key.len, &n);
    if (ptx) text_cache_put(&ptx_cache, key.p, base, ptx, n);
  }
  if (!ptx) {
    int rc = cc == GR_CC_NVRTC
      ? cuda_compile_ptx_nvrtc(path, text, defines, ndefines, flags, &ptx, &n, ctx->err, sizeof ctx->err)
      : cuda_compile_ptx_nvcc(path, defines, ndefines, flags, &ptx, &n, ctx->err, sizeof ctx->err);
    if (rc) { free(key.p); free(owned); return NULL; }
    if (base) text_cache_put(&ptx_cache, key.p, base, ptx, n);
    if (root[0]) disk_cache_put(root, "ptx", key.p, key.len, &(bytes){0}, ptx, n, PTX_DISK_MAX);
  }
  free(key.p);
  char *name = xmalloc(strlen(path) + 16);
  sprintf(name, "%s (%s PTX)", path, cc == GR_CC_NVRTC ? "NVRTC" : "nvcc");
  kir_module *km = ptx_compile(name, ptx, n, path, &lim, ctx->err, sizeof ctx->err);
  free(name);
  free(ptx);
  if (km) struct_leaves_from_subset(km, path, text, len, defines, ndefines, &lim);
  free(owned);
  return km;
}

/* The kernel file's KIR through the front end its name and the
 * configuration choose: PTX as such, the CUDA compiler's PTX, or the
 * subset.  --cc auto: the subset where it reads the file, else the CUDA
 * compiler's PTX (NVRTC, else nvcc) where one exists; *front names the one
 * that read it, *why (malloc'd) what the subset said where auto passed it by. */
static kir_module *compile_auto(gr_context *ctx, const char *path, const char *text, size_t len, const char *const *defines,
                                int ndefines, int arch, const char **front, char **why);
static kir_module *compile_file(gr_context *ctx, const char *path, const char *text, size_t len, const char *const *defines,
                                int ndefines, int arch, const char **front, char **why) {
  front_limits lim = ctx_limits(ctx);
  *why = NULL;
  if (ends_with(path, ".ptx")) {
    *front = "ptx";
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
  gr_cc cc = ctx->cfg.cc;
  if (cc == GR_CC_NVRTC || cc == GR_CC_NVCC) {
    *front = cc == GR_CC_NVRTC ? "nvrtc" : "nvcc";
    return compile_cuda(ctx, cc, path, text, len, defines, ndefines, arch);
  }
  *front = "subset";
  if (source_check_headers(ctx->err, sizeof ctx->err)) return NULL;   /* not the file's fault: no fallback */
  char *owned = NULL;
  if (cc == GR_CC_AUTO && !text) {   /* a file that cannot be read is no front end's to try */
    owned = source_read_file(path, lim.max_source, &len, ctx->err, sizeof ctx->err);
    if (!owned) return NULL;
    text = owned;
  }
  kir_module *km = front_compile_file(path, text, len, defines, ndefines, &lim, ctx->err, sizeof ctx->err);
  /* a file the subset refused at one of the bounds (each names its --max-
   * option) goes to no CUDA compiler: those have none, and one such file
   * held NVRTC at 24 GB for minutes */
  if (km || cc == GR_CC_SUBSET || strstr(ctx->err, "--max-")) { free(owned); return km; }
  km = compile_auto(ctx, path, text, len, defines, ndefines, arch, front, why);
  free(owned);
  return km;
}

/* --cc auto, where the CUDA-subset front end could not read the file (its
 * error in ctx->err): the CUDA compiler's PTX, NVRTC's else nvcc's. */
static kir_module *compile_auto(gr_context *ctx, const char *path, const char *text, size_t len, const char *const *defines,
                                int ndefines, int arch, const char **front, char **why) {
  kir_module *km;
  /* auto: the subset could not read it */
  char said[HOST_ERR_MAX];
  snprintf(said, sizeof said, "%s", ctx->err);
  gr_cc other = cuda_nvrtc_found() ? GR_CC_NVRTC : cuda_nvcc_found() ? GR_CC_NVCC : GR_CC_SUBSET;
  if (other == GR_CC_SUBSET) {
    host_fail(ctx, GR_EINPUT, "%s\nnote: --cc auto: no CUDA compiler (NVRTC or nvcc) to try instead of the CUDA-subset front end", said);
    return NULL;
  }
  const char *name = other == GR_CC_NVRTC ? "NVRTC" : "nvcc";
  km = compile_cuda(ctx, other, path, text, len, defines, ndefines, arch);
  if (!km) {
    char theirs[HOST_ERR_MAX];
    snprintf(theirs, sizeof theirs, "%s", ctx->err);
    char *nl = strchr(theirs, '\n');
    if (nl) *nl = 0;
    host_fail(ctx, GR_EINPUT, "%s\nnote: --cc auto: %s could not compile it either: %s", said, name, theirs);
    return NULL;
  }
  *front = other == GR_CC_NVRTC ? "nvrtc" : "nvcc";
  *why = xstrdup(said);
  return km;
}

int host_module_load_text(gr_context *ctx, const char *path, const char *text, size_t len, const char *const *defines,
                          int ndefines, int arch, gr_module **out) {
  if (!ctx->dev) return backend_down(ctx);
  const char *front;
  char *why;
  kir_module *km = compile_file(ctx, path, text, len, defines, ndefines, arch, &front, &why);
  if (!km) return GR_EINPUT;
  int rc = module_finish(ctx, km, path, defines, ndefines, out);
  if (rc == GR_OK) { (*out)->front = front; (*out)->front_why = why; }
  else free(why);
  return rc;
}

int gr_module_load_source(gr_context *ctx, const char *name, const char *src, size_t len, gr_module **out) {
  if (!ctx->dev) return backend_down(ctx);
  if (!ctx->emu) return host_fail(ctx, GR_EINPUT, "%s: error: the CUDA backend compiles kernel files, not source text", name);
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
  return host_fail(mod->ctx, GR_EINPUT, "error: module '%s' has no __device__ variable '%s'", mod->path, name);
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

static int convert_arg(gr_context *ctx, const kir_func *f, int k, const gr_arg *a, uint64_t *out) {
  kir_sk want = f->params[k].sk;
  if (want == SK_COUNT || a->type == GR_STRUCT) {   /* a struct by value: its bytes, of its size */
    if (want != SK_COUNT) return host_fail(ctx, GR_EINPUT, "error: argument %d ('%s') of '%s' is a %s, not a struct", k + 1, f->params[k].name, f->name, kir_sk_name[want]);
    if (a->type != GR_STRUCT || a->size != f->params[k].size || (!a->data && a->size))
      return host_fail(ctx, GR_EINPUT, "error: argument %d ('%s') of '%s' must be a struct of %u bytes (gr_arg_struct)", k + 1, f->params[k].name, f->name, f->params[k].size);
    *out = 0;
    return GR_OK;
  }
  if (want == SK_PTR && a->type != GR_PTR && !(a->bits == 0))
    return host_fail(ctx, GR_EINPUT, "error: argument %d ('%s') of '%s' must be a pointer", k + 1, f->params[k].name, f->name);
  if (want != SK_PTR && a->type == GR_PTR)
    return host_fail(ctx, GR_EINPUT, "error: argument %d ('%s') of '%s' must be a %s, not a pointer", k + 1, f->params[k].name, f->name, kir_sk_name[want]);
  *out = want == SK_PTR ? a->bits : sem_cvt((int)a->type, want, a->bits);
  return GR_OK;
}

/* ------------------------------------------------------------- launches */

int gr_launch(gr_module *mod, const char *kernel, gr_dim3 grid, gr_dim3 bdim, size_t dyn_shared, const gr_arg *args, int nargs) {
  return gr_launch_ex(mod, kernel, grid, bdim, dyn_shared, 0, args, nargs);
}

int gr_launch_ex(gr_module *mod, const char *kernel, gr_dim3 grid, gr_dim3 bdim, size_t dyn_shared, unsigned flags,
                 const gr_arg *args, int nargs) {
  gr_context *ctx = mod->ctx;
  memset(&ctx->stats, 0, sizeof ctx->stats);
  if (!ctx->dev) return backend_down(ctx);
  /* any name kir_find takes: its PTX symbol, without spaces, a template's alone */
  const kir_func *f = kir_find(mod->km, kernel);
  if (!f) return host_fail(ctx, GR_EINPUT, "%s: error: no __global__ function named '%s'", mod->path, kernel);
  int index = 0;
  while (mod->km->funcs[index] != f) index++;
  if (!grid.x || !grid.y || !grid.z || !bdim.x || !bdim.y || !bdim.z)
    return host_fail(ctx, GR_EINPUT, "error: launch of '%s' with a zero grid or block dimension", kernel);
  uint64_t nthreads = (uint64_t)bdim.x * bdim.y * bdim.z;
  if (nthreads > 1024 || bdim.z > 64)
    return host_fail(ctx, GR_EINPUT, "error: block (%u,%u,%u) of '%s' exceeds 1024 threads (or z > 64)", bdim.x, bdim.y, bdim.z, kernel);
  if (grid.y > 65535 || grid.z > 65535) return host_fail(ctx, GR_EINPUT, "error: grid y and z dimensions are limited to 65535");
  if (nargs != f->nparams)
    return host_fail(ctx, GR_EINPUT, "%s:%d:%d: error: kernel '%s' takes %d argument%s, %d given", f->decl.file, f->decl.line,
                     f->decl.col, kernel, f->nparams, f->nparams == 1 ? "" : "s", nargs);
  /* CUDA passes up to 32,764 bytes of parameters; each takes at most 8 */
  if (nargs > 4095) return host_fail(ctx, GR_EINPUT, "%s:%d:%d: error: kernel '%s' has %d parameters, more than a launch can pass (4095)",
                                     f->decl.file, f->decl.line, f->decl.col, kernel, nargs);
  uint64_t *vals = xcalloc((size_t)nargs + 1, sizeof *vals);
  const void **data = xcalloc((size_t)nargs + 1, sizeof *data);
  int rc = GR_OK;
  for (int k = 0; k < nargs && rc == GR_OK; k++) {
    rc = convert_arg(ctx, f, k, &args[k], &vals[k]);
    if (f->params[k].sk == SK_COUNT) data[k] = args[k].data;
  }
  if (rc == GR_OK) {
    rc = ctx->ops->launch(ctx->dev, mod->dm, index, grid, bdim, dyn_shared, flags, vals, data);
    ctx->ops->stats(ctx->dev, &ctx->stats);
    /* --engine compiled or auto without a working compiler: the
     * interpreter ran, and the process says so once */
    static int said;
    if (ctx->stats.engine_note[0] && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
      fprintf(stderr, "gpurace: note: %s\n", ctx->stats.engine_note);
  }
  free(vals);
  free(data);
  return rc;
}

void gr_last_stats(const gr_context *ctx, gr_stats *out) { *out = ctx->stats; }

/* ------------------------------------------------------------- the engine API: the emulator's */

/* The emulator of the context, or NULL with an error naming what needs it. */
static emu_dev *need_emu(gr_context *ctx, const char *what) {
  if (!ctx->emu) host_fail(ctx, GR_EINPUT, "error: %s need the emulator backend", what);
  return ctx->emu;
}

int host_allocation_rename(gr_context *ctx, gr_ptr p, const char *name) {
  return ctx->emu ? emu_allocation_rename(ctx->emu, gr_allocation_id(p), name) : GR_EINPUT;
}

size_t gr_device_output(gr_context *ctx, FILE *out) { return ctx->emu ? emu_output(ctx->emu, out) : 0; }

int gr_observe(gr_context *ctx, const gr_observer *obs) {
  emu_dev *e = need_emu(ctx, "observers (race detectors)");
  return e ? emu_observe(e, obs) : -1;
}

void gr_unobserve(gr_context *ctx, int handle) {
  if (ctx->emu) emu_unobserve(ctx->emu, handle);
}

void gr_launch_fail(gr_context *ctx, int code, const char *msg) {
  if (ctx->emu) emu_launch_fail(ctx->emu, code, msg);
}

gr_snapshot *gr_snapshot_take(gr_context *ctx) {
  emu_dev *e = need_emu(ctx, "snapshots");
  return e ? emu_snapshot_take(e) : NULL;
}

gr_snapshot *gr_snapshot_take_block(gr_context *ctx, uint32_t block) {
  emu_dev *e = need_emu(ctx, "snapshots");
  return e ? emu_snapshot_take_block(e, block) : NULL;
}

int gr_snapshot_restore(gr_context *ctx, const gr_snapshot *snap) {
  emu_dev *e = need_emu(ctx, "snapshots");
  return e ? emu_snapshot_restore(e, snap) : GR_EINPUT;
}

int gr_view_add(gr_context *ctx, uint32_t warp, gr_ptr base, size_t len, void *copy) {
  emu_dev *e = need_emu(ctx, "memory views");
  return e ? emu_view_add(e, warp, base, len, copy) : GR_EINPUT;
}

void gr_view_clear(gr_context *ctx, uint32_t warp) {
  if (ctx->emu) emu_view_clear(ctx->emu, warp);
}

void gr_context_explore(gr_context *ctx, gr_explore *x) {
  if (ctx->emu) emu_explore(ctx->emu, x);
}

size_t gr_allocation_count(const gr_context *ctx) { return ctx->emu ? emu_allocation_count(ctx->emu) : 0; }

int gr_allocation_info(const gr_context *ctx, size_t id, uint64_t *size, const char **name) {
  return ctx->emu ? emu_allocation_info(ctx->emu, id, size, name) : GR_EINPUT;
}

gr_ptr gr_allocation_base(size_t id) { return KIR_GLOBAL_ADDR(id, 0); }

size_t gr_allocation_id(gr_ptr addr) {
  return KIR_SPACE_OF(addr) == SPACE_GLOBAL && KIR_STATE_OF(addr) == KIR_INSIDE ? (size_t)(addr >> 32 & 0xffffff) : 0;
}

int gr_describe_address(const gr_context *ctx, gr_ptr addr, const char **name, uint64_t *offset) {
  return ctx->emu ? emu_describe_address(ctx->emu, addr, name, offset) : GR_EINPUT;
}
