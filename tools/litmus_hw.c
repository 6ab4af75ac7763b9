/* Litmus tests on the GPU (gr_litmus_run_hw in gpurace.h).
 *
 * One launch runs many instances of a test at once, each on its own copy of
 * the buffers, as GPU litmus harnesses do.  The test's kernel is compiled
 * unchanged except for two textual edits that NVRTC needs: it becomes a
 * __device__ function taking the thread's slot, and threadIdx, blockIdx,
 * blockDim and gridDim become the test's own coordinates decoded from that
 * slot.  A generated __global__ entry reads each physical thread's slot
 * from a placement map, which the host draws afresh for every launch.
 *
 * The placement keeps the scope structure of the test: a test warp's lanes
 * share one physical warp (permuted), the warps of a test block share one
 * physical block, and a test's blocks lie in distinct physical blocks.
 * Warps that hold no test thread stress memory, to make weak behaviour
 * likelier.  Outcomes are formatted and classified by the emulator's own
 * script code, so that both backends' histograms speak the same language. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "front.h"
#include "host.h"
#include "litmus.h"
#include "util.h"

#define SLOT_IDLE 0xfffffffeu
#define SLOT_STRESS 0xffffffffu
#define TPB 256u                 /* physical threads per block */
#define WPB (TPB / 32u)
#define PAD 256u                 /* bytes between instances' copies of a buffer */
#define SCRATCH_WORDS (1u << 20)

void gr_hw_litmus_opts_default(gr_hw_litmus_opts *o) {
  o->iterations = 100000;
  o->seed = 1;
  o->stress = 64;
}

static const char *ctype_of(gr_type t) {
  switch (t) {
  case GR_BOOL: return "bool";
  case GR_I8: return "signed char";
  case GR_U8: return "unsigned char";
  case GR_I16: return "short";
  case GR_U16: return "unsigned short";
  case GR_I32: return "int";
  case GR_U32: return "unsigned";
  case GR_I64: return "long long";
  case GR_U64: return "unsigned long long";
  case GR_F32: return "float";
  case GR_F64: return "double";
  default: return "void";
  }
}

/* Where "__global__ void KERNEL(" begins in src, and where its '(' is. */
static const char *find_kernel(const char *src, const char *kernel, const char **paren) {
  size_t kl = strlen(kernel);
  for (const char *p = strstr(src, "__global__"); p; p = strstr(p + 1, "__global__")) {
    const char *q = p + 10;
    while (*q == ' ' || *q == '\t' || *q == '\n') q++;
    if (strncmp(q, "void", 4)) continue;
    q += 4;
    while (*q == ' ' || *q == '\t' || *q == '\n') q++;
    if (strncmp(q, kernel, kl)) continue;
    q += kl;
    while (*q == ' ' || *q == '\t') q++;
    if (*q != '(') continue;
    *paren = q;
    return p;
  }
  return NULL;
}

static uint64_t mix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

typedef struct {
  char text[256];
  int weak;
  uint64_t count;
} hw_outcome;

static int cmp_outcome(const void *a, const void *b) { return strcmp(((const hw_outcome *)a)->text, ((const hw_outcome *)b)->text); }

static int fail(gr_litmus_result *r, int rc, const char *msg) {
  size_t n = strlen(msg);
  if (n >= sizeof r->reason) n = sizeof r->reason - 1;   /* NVRTC logs can be long: keep their start */
  memcpy(r->reason, msg, n);
  r->reason[n] = 0;
  return rc;
}

int gr_litmus_run_hw(const char *path, const gr_hw_litmus_opts *o, gr_litmus_result *r) {
  memset(r, 0, sizeof *r);
  gr_hw_litmus_opts defaults;
  gr_hw_litmus_opts_default(&defaults);
  if (!o) o = &defaults;
  char err[2048];
  /* the emulator parses the file: its directives, its kernel's signature */
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.sms = 64;   /* the file's G placement is checked against SMs; the GPU has enough */
  gr_context *emu = gr_context_create(&cfg);
  gr_script *s = NULL;
  cuda_dev *d = NULL;
  cuda_mod *m = NULL;
  char *src = NULL;
  strbuf w = {0};
  int rc = litmus_open(emu, path, &s, r);
  if (rc) { rc = fail(r, rc, gr_error(emu)); goto done; }
  if ((rc = script_prepare(s))) { rc = fail(r, rc, gr_error(emu)); goto done; }
  gr_dim3 tgrid, tblock;
  const char *kernel = script_launch(s, &tgrid, &tblock);
  gr_module *mod = gr_script_module(s);
  int np = gr_kernel_nparams(mod, kernel);
  uint32_t tthreads = tblock.x * tblock.y * tblock.z, tblocks = tgrid.x * tgrid.y * tgrid.z;
  uint32_t twarps = (tthreads + 31) / 32;
  if (script_nargs(s) || twarps > WPB || tblocks > 1023 || tthreads > 1023) {
    snprintf(err, sizeof err, "%s: error: the hardware harness takes buffer parameters only, and at most %u warps per block", path, WPB);
    rc = fail(r, GR_EINPUT, err);
    goto done;
  }
  /* the buffers, bound to the kernel's parameters by name */
  size_t nb = script_nbuffers(s);
  int *param_buf = xcalloc((size_t)np + 1, sizeof(int));
  size_t *stride = xcalloc(nb + 1, sizeof(size_t));
  uint8_t **init = xcalloc(nb + 1, sizeof(uint8_t *));
  for (int k = 0; k < np; k++) {
    const char *pname;
    gr_type t, pointee;
    gr_kernel_param(mod, kernel, k, &pname, &t, &pointee);
    param_buf[k] = -1;
    for (size_t j = 0; j < nb; j++) {
      const char *bname; gr_ptr bp; size_t bytes;
      script_buffer(s, j, &bname, &bp, &bytes);
      if (!strcmp(bname, pname)) param_buf[k] = (int)j;
    }
    if (t != GR_PTR || param_buf[k] < 0) {
      snprintf(err, sizeof err, "%s: error: parameter '%s' is not a buffer: the hardware harness passes buffers only", path, pname);
      free(param_buf); free(stride); free(init);
      rc = fail(r, GR_EINPUT, err);
      goto done;
    }
  }
  for (size_t j = 0; j < nb; j++) {
    const char *bname; gr_ptr bp; size_t bytes;
    script_buffer(s, j, &bname, &bp, &bytes);
    stride[j] = (bytes + PAD - 1) / PAD * PAD;
    if (!stride[j]) stride[j] = PAD;
    init[j] = xcalloc(stride[j], 1);
    gr_memcpy_dtoh(emu, init[j], bp, bytes);
  }

  /* the instrumented source */
  size_t len;
  src = source_read_file(path, 0, &len, err, sizeof err);
  const char *paren = NULL, *at = src ? find_kernel(src, kernel, &paren) : NULL;
  if (!at) {
    snprintf(err, sizeof err, "%s: error: the hardware harness needs the kernel written as '__global__ void %s(...)'", path, kernel);
    rc = fail(r, GR_EINPUT, err);
    goto cleanup;
  }
  strbuf_printf(&w, "/* gpurace hardware litmus harness for %s */\n", path);
  strbuf_printf(&w, "static __device__ __forceinline__ uint3 gr_hw_tid(unsigned s) { unsigned t = s & 0x3ffu; "
                "return make_uint3(t %% %uu, t / %uu %% %uu, t / %uu); }\n", tblock.x, tblock.x, tblock.y, tblock.x * tblock.y);
  strbuf_printf(&w, "static __device__ __forceinline__ uint3 gr_hw_bid(unsigned s) { unsigned b = s >> 10 & 0x3ffu; "
                "return make_uint3(b %% %uu, b / %uu %% %uu, b / %uu); }\n", tgrid.x, tgrid.x, tgrid.y, tgrid.x * tgrid.y);
  strbuf_printf(&w, "#define threadIdx gr_hw_tid(gr_slot)\n#define blockIdx gr_hw_bid(gr_slot)\n"
                "#define blockDim dim3(%uu, %uu, %uu)\n#define gridDim dim3(%uu, %uu, %uu)\n",
            tblock.x, tblock.y, tblock.z, tgrid.x, tgrid.y, tgrid.z);
  strbuf_printf(&w, "#line 1 \"%s\"\n", path);
  strbuf_printf(&w, "%.*s__device__%.*s(unsigned gr_slot%s%s\n", (int)(at - src), src, (int)(paren - (at + 10)), at + 10,
            np ? ", " : "", paren + 1);
  strbuf_printf(&w, "#undef threadIdx\n#undef blockIdx\n#undef blockDim\n#undef gridDim\n");
  strbuf_printf(&w, "extern \"C\" __global__ void gr_hw_main(");
  for (int k = 0; k < np; k++) strbuf_printf(&w, "char *gr_p%d, ", k);
  strbuf_printf(&w, "const unsigned *gr_map, volatile unsigned *gr_scratch, unsigned gr_stress) {\n"
                "  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  unsigned s = gr_map[gid];\n"
                "  if (s == 0x%xu) {\n"
                "    unsigned h = gid * 2654435761u;\n"
                "    for (unsigned i = 0; i < gr_stress; i++) {\n"
                "      h = h * 1664525u + 1013904223u;\n"
                "      unsigned a = (h >> 8) & %uu;\n"
                "      gr_scratch[a] = gr_scratch[a ^ 32u] + 1u;\n"
                "    }\n"
                "    return;\n"
                "  }\n"
                "  if (s == 0x%xu) return;\n"
                "  unsigned inst = s >> 20;\n"
                "  %s(s", SLOT_STRESS, SCRATCH_WORDS - 1, SLOT_IDLE, kernel);
  for (int k = 0; k < np; k++) {
    gr_type t, pointee;
    gr_kernel_param(mod, kernel, k, NULL, &t, &pointee);
    strbuf_printf(&w, ", (%s *)(gr_p%d + (size_t)inst * %zuu)", ctype_of(pointee), k, stride[param_buf[k]]);
  }
  strbuf_printf(&w, ");\n}\n");

  if (o->iterations && (rc = cuda_open(&d, err, sizeof err))) { rc = fail(r, rc, err); goto cleanup; }
  {
    if (getenv("GPURACE_HW_SOURCE")) fputs(w.p, stderr);
    const char *names[] = {"gr_hw_main"};
    const char *extra[] = {"--device-debug"};
    /* an extern "C" name lowers to itself; the name expression still has to resolve */
    rc = cuda_module_load_text(d, 90, path, w.p, NULL, 0, names, 1, extra, 1, &m, err, sizeof err);
    if (rc) { rc = fail(r, rc, err); goto cleanup; }
    if (!o->iterations) { snprintf(r->reason, sizeof r->reason, "compiled for sm_90, not run"); goto cleanup; }
  }
  /* geometry: two blocks per SM slot's worth of warps, half of them tests */
  uint32_t nblocks = 264;
  uint32_t nwarps = nblocks * WPB;
  uint32_t per_inst = tblocks * twarps;
  uint32_t ninst = nwarps / 2 / per_inst;
  if (ninst > 4095) ninst = 4095;
  if (ninst < 1) ninst = 1;
  if (tblocks > nblocks / 2) { snprintf(err, sizeof err, "%s: error: %u blocks is too many for the harness", path, tblocks); rc = fail(r, GR_EINPUT, err); goto cleanup; }
  gr_ptr *dbuf = xcalloc(nb + 1, sizeof(gr_ptr));
  gr_ptr dmap = 0, dscratch = 0;
  uint8_t **image = xcalloc(nb + 1, sizeof(uint8_t *));
  uint32_t *map = xcalloc((size_t)nblocks * TPB, sizeof(uint32_t));
  uint8_t *warp_used = xcalloc(nwarps, 1);
  hw_outcome *hist = NULL;
  size_t nhist = 0, caphist = 0;
  for (size_t j = 0; j < nb && !rc; j++) {
    image[j] = xmalloc(stride[j] * ninst);
    for (uint32_t i = 0; i < ninst; i++) memcpy(image[j] + stride[j] * i, init[j], stride[j]);
    rc = cuda_malloc(d, stride[j] * ninst, &dbuf[j], err, sizeof err);
  }
  if (!rc) rc = cuda_malloc(d, sizeof(uint32_t) * nblocks * TPB, &dmap, err, sizeof err);
  if (!rc) rc = cuda_malloc(d, sizeof(uint32_t) * SCRATCH_WORDS, &dscratch, err, sizeof err);
  uint64_t seed = o->seed * 0x2545f4914f6cdd1dull + 1;
  uint64_t done_iters = 0;
  uint32_t *perm = xcalloc(32, sizeof(uint32_t));
  uint32_t *pblock = xcalloc(tblocks + 1, sizeof(uint32_t));
  while (!rc && done_iters < o->iterations) {
    uint32_t inst_now = ninst;
    if (o->iterations - done_iters < inst_now) inst_now = (uint32_t)(o->iterations - done_iters);
    /* placement */
    memset(warp_used, 0, nwarps);
    for (size_t k = 0; k < (size_t)nblocks * TPB; k++) map[k] = o->stress ? SLOT_STRESS : SLOT_IDLE;
    for (uint32_t i = 0; i < inst_now; i++) {
      for (uint32_t b = 0; b < tblocks; b++) {
        /* a physical block with twarps free warps, not one of this instance's */
        uint32_t pb;
        for (;;) {
          pb = (uint32_t)(mix(&seed) % nblocks);
          int clash = 0, free_warps = 0;
          for (uint32_t e = 0; e < b; e++) clash |= pblock[e] == pb;
          for (uint32_t ww = 0; ww < WPB; ww++) free_warps += !warp_used[pb * WPB + ww];
          if (!clash && (uint32_t)free_warps >= twarps) break;
        }
        pblock[b] = pb;
        for (uint32_t tw = 0; tw < twarps; tw++) {
          uint32_t pw;
          do pw = (uint32_t)(mix(&seed) % WPB); while (warp_used[pb * WPB + pw]);
          warp_used[pb * WPB + pw] = 1;
          for (uint32_t l = 0; l < 32; l++) perm[l] = l;
          for (uint32_t l = 31; l > 0; l--) { uint32_t j = (uint32_t)(mix(&seed) % (l + 1)); uint32_t t = perm[l]; perm[l] = perm[j]; perm[j] = t; }
          for (uint32_t l = 0; l < 32; l++) {
            uint32_t t = tw * 32 + l;
            map[pb * TPB + pw * 32 + perm[l]] = t < tthreads ? (i << 20 | b << 10 | t) : SLOT_IDLE;
          }
        }
      }
    }
    for (size_t j = 0; j < nb && !rc; j++) rc = cuda_htod(d, dbuf[j], image[j], stride[j] * inst_now, err, sizeof err);
    if (!rc) rc = cuda_htod(d, dmap, map, sizeof(uint32_t) * nblocks * TPB, err, sizeof err);
    if (rc) break;
    uint64_t vals[64 + 3];
    void *params[64 + 3];
    for (int k = 0; k < np; k++) { vals[k] = dbuf[param_buf[k]]; params[k] = &vals[k]; }
    vals[np] = dmap; params[np] = &vals[np];
    vals[np + 1] = dscratch; params[np + 1] = &vals[np + 1];
    uint32_t stress = (uint32_t)o->stress;
    params[np + 2] = &stress;
    gr_dim3 grid = {nblocks, 1, 1}, block = {TPB, 1, 1};
    rc = cuda_launch(m, 0, grid, block, 0, 0, params, err, sizeof err);
    if (rc) break;
    for (size_t j = 0; j < nb && !rc; j++) rc = cuda_dtoh(d, image[j], dbuf[j], stride[j] * inst_now, err, sizeof err);
    /* each instance's memory, read through the emulator's copy of the buffers */
    for (uint32_t i = 0; i < inst_now && !rc; i++) {
      for (size_t j = 0; j < nb; j++) {
        const char *bname; gr_ptr bp; size_t bytes;
        script_buffer(s, j, &bname, &bp, &bytes);
        gr_memcpy_htod(emu, bp, image[j] + stride[j] * i, bytes);
      }
      char text[256];
      int weak;
      if ((rc = script_outcome(s, text, sizeof text, &weak))) { snprintf(err, sizeof err, "%s", gr_error(emu)); break; }
      size_t h = 0;
      while (h < nhist && strcmp(hist[h].text, text)) h++;
      if (h == nhist) {
        if (nhist == caphist) { caphist = caphist ? 2 * caphist : 8; hist = xrealloc(hist, caphist * sizeof *hist); }
        snprintf(hist[nhist].text, sizeof hist[nhist].text, "%s", text);
        hist[nhist].weak = weak;
        hist[nhist].count = 0;
        nhist++;
      }
      hist[h].count++;
      if (weak) r->weak_count++;
    }
    /* the images now hold final values: back to the initial ones */
    for (size_t j = 0; j < nb; j++)
      for (uint32_t i = 0; i < inst_now; i++) memcpy(image[j] + stride[j] * i, init[j], stride[j]);
    done_iters += inst_now;
  }
  if (rc) fail(r, rc, err);
  r->runs = done_iters;
  qsort(hist, nhist, sizeof *hist, cmp_outcome);
  r->outcomes = xcalloc(nhist + 1, sizeof(gr_outcome));
  r->noutcomes = nhist;
  for (size_t h = 0; h < nhist; h++) {
    r->outcomes[h].text = xstrdup(hist[h].text);
    r->outcomes[h].count = hist[h].count;
    r->outcomes[h].weak = hist[h].weak;
  }
  if (!rc) snprintf(r->reason, sizeof r->reason, "%llu instances, %u per launch on %u blocks of %u threads, stress %d",
                    (unsigned long long)done_iters, ninst, nblocks, TPB, o->stress);
  free(hist); free(perm); free(pblock); free(warp_used); free(map);
  for (size_t j = 0; j < nb; j++) { if (dbuf[j]) cuda_free(d, dbuf[j], err, sizeof err); free(image[j]); }
  if (dmap) cuda_free(d, dmap, err, sizeof err);
  if (dscratch) cuda_free(d, dscratch, err, sizeof err);
  free(dbuf); free(image);
cleanup:
  for (size_t j = 0; j < nb; j++) free(init[j]);
  free(init); free(stride); free(param_buf);
done:
  free(w.p);
  free(src);
  cuda_module_free(m);
  cuda_close(d);
  gr_script_free(s);
  gr_context_destroy(emu);
  return rc;
}
