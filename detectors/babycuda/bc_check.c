/* gpurace check: a file's BabyCUDA program, typed and checked per array,
 * with a verdict that says what it is worth (Theorem 1: an alarm on a
 * well-typed program is a true alarm). */
#include "babycuda.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "front.h"
#include "gpurace.h"
#include "host.h"

static int ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && !strcmp(s + n - m, suf);
}

/* Buffer sizes and contents, argument values and assumptions from the
 * kernel file's directives. */
static int fill_from_script(gr_context *ctx, gr_script *s, bc_program *p, const char *path, char *err, size_t errlen) {
  for (int k = 0; k < p->nparams; k++) {
    int64_t v;
    if (script_arg_int(s, p->params[k].name, &v)) { p->params[k].value = v; p->params[k].has_value = 1; }
  }
  if (script_prepare(s)) { snprintf(err, errlen, "%s", gr_error(ctx)); return GR_EINPUT; }
  for (size_t k = 0; k < script_nbuffers(s); k++) {
    const char *name;
    gr_ptr ptr;
    size_t bytes;
    script_buffer(s, k, &name, &ptr, &bytes);
    int a = bc_find_array(p, name);
    if (a < 0 || p->arrays[a].space != BC_GLOBAL) continue;
    bc_array *A = &p->arrays[a];
    int es = kir_sk_size[A->sk];
    if (!es) continue;
    A->size = (int64_t)(bytes / (size_t)es);
    uint8_t *host = xmalloc(bytes ? bytes : 1);
    if (gr_memcpy_dtoh(ctx, host, ptr, bytes)) { free(host); snprintf(err, errlen, "%s", gr_error(ctx)); return GR_EINPUT; }
    A->init = arena_alloc(&p->ar, (size_t)A->size * sizeof *A->init);
    int is_signed = A->sk == SK_I8 || A->sk == SK_I16 || A->sk == SK_I32 || A->sk == SK_I64;
    for (int64_t j = 0; j < A->size; j++) {
      uint64_t v = 0;
      if (A->sk == SK_F32 || A->sk == SK_F64) { A->init[j] = 0; continue; }   /* opaque to the calculus */
      memcpy(&v, host + (size_t)j * (size_t)es, (size_t)es);
      if (is_signed && es < 8 && (v >> (es * 8 - 1) & 1)) v |= ~(uint64_t)0 << (es * 8);
      A->init[j] = (int64_t)v;
    }
    free(host);
  }
  /* //@ assume lines: read as a .bc declaration over the parameters */
  for (size_t k = 0; k < script_nassume(s); k++) {
    int line;
    const char *text = script_assume(s, k, &line);
    size_t cap = strlen(text) + 64;
    for (int q = 0; q < p->nparams; q++) cap += strlen(p->params[q].name) + 16;
    char *src = xmalloc(cap), msg[600];
    size_t n = 0;
    for (int q = 0; q < p->nparams; q++) n += (size_t)snprintf(src + n, cap - n, "param %s;", p->params[q].name);
    snprintf(src + n, cap - n, "assume %s; kernel { skip }", text);
    bc_program *a = bc_parse(path, src, strlen(src), msg, sizeof msg);
    free(src);
    if (!a) {
      const char *m = strstr(msg, "error: ");
      snprintf(err, errlen, "%s:%d: error: in //@ assume: %s", path, line, m ? m + 7 : msg);
      return GR_EINPUT;
    }
    /* the expression lives in a's arena: a copy in p's */
    p->assume = xrealloc(p->assume, (size_t)(p->nassume + 1) * sizeof *p->assume);
    p->assume_pos = xrealloc(p->assume_pos, (size_t)(p->nassume + 1) * sizeof *p->assume_pos);
    srcpos at = {p->file, line, 1};
    p->assume_pos[p->nassume] = at;
    p->assume[p->nassume++] = bc_expr_copy(p, a->assume[0]);
    bc_program_free(a);
  }
  return GR_OK;
}

bc_program *bc_load(const char *path, const bc_check_opts *o, int *outside, char *err, size_t errlen) {
  *outside = 0;
  if (ends_with(path, ".bc")) {
    size_t len;
    char *text = source_read_file(path, 0, &len, err, errlen);
    if (!text) return NULL;
    bc_program *p = bc_parse(path, text, len, err, errlen);
    free(text);
    return p;
  }
  gr_config cfg;
  gr_config_default(&cfg);
  gr_context *ctx = gr_context_create(&cfg);
  gr_script *s = NULL;
  bc_program *p = NULL;
  if (gr_script_load(ctx, path, o ? o->defines : NULL, o ? o->ndefines : 0, &s)) {
    snprintf(err, errlen, "%s", gr_error(ctx));
  } else {
    gr_dim3 grid, block;
    const char *kname = script_launch(s, &grid, &block);
    const kir_module *km = host_module_kir(gr_script_module(s));
    const kir_func *f = kname ? kir_find(km, kname) : NULL;
    if (!kname) snprintf(err, errlen, "%s: error: no //@ launch line: the checker needs the launch's grid", path);
    else if (!f) snprintf(err, errlen, "%s: error: no kernel '%s'", path, kname);
    else {
      int64_t b[3] = {block.x, block.y, block.z}, g[3] = {grid.x, grid.y, grid.z};
      p = bc_extract(km, f, b, g, path, err, errlen);
      if (!p) *outside = 1;
      else if (fill_from_script(ctx, s, p, path, err, errlen)) { bc_program_free(p); p = NULL; }
    }
  }
  gr_script_free(s);
  gr_context_destroy(ctx);
  return p;
}

static int worse(bc_check_verdict a, bc_check_verdict b) {
  static const int rank[6] = {0, 5, 4, 3, 2, 1};   /* racy > racy? > divergent > unknown > outside > DRF */
  return rank[a] > rank[b];
}

int bc_check_file(const char *path, const bc_check_opts *o, bc_check_result *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int outside;
  r->prog = bc_load(path, o, &outside, err, errlen);
  if (!r->prog) {
    if (!outside) return GR_EINPUT;
    snprintf(r->outside, sizeof r->outside, "%s", err);
    r->verdict = BC_CHECK_OUTSIDE;
    return 0;
  }
  bc_program *p = r->prog;
  if (o && o->array && bc_find_array(p, o->array) < 0) {
    snprintf(err, errlen, "%s: error: no array '%s' in the program", path, o->array);
    bc_check_result_free(r);
    return GR_EINPUT;
  }
  r->arrays = xcalloc((size_t)(p->narrays ? p->narrays : 1), sizeof *r->arrays);
  r->verdict = BC_CHECK_DRF;

  for (int a = 0; a < p->narrays; a++) {
    if (o && o->array && strcmp(o->array, p->arrays[a].name)) continue;
    bc_array_check *c = &r->arrays[r->narrays++];
    c->array = a;
    bc_map *m = bc_type(p, a, &c->typing);
    bc_map_check(p, a, m, o ? o->timeout_ms : 0, &c->map);
    /* a verdict over the calculus's integers is one over CUDA's only where
     * nothing that decides the array's accesses wraps */
    bc_exact ex;
    bc_exact_check(p, a, o ? o->timeout_ms : 0, &ex);
    switch (c->map.verdict) {
    case BC_MAP_DRF: c->verdict = BC_CHECK_DRF; break;
    case BC_MAP_RACY: c->verdict = c->typing.well_typed ? BC_CHECK_RACY : BC_CHECK_POSSIBLE; break;
    case BC_MAP_DIVERGENT: c->verdict = BC_CHECK_DIVERGENT; break;
    default: c->verdict = BC_CHECK_UNKNOWN; break;
    }
    if (!ex.exact && c->verdict == BC_CHECK_DRF) {
      c->verdict = BC_CHECK_UNKNOWN;
      snprintf(c->map.why, sizeof c->map.why, "not proved: %.490s", ex.why);
    } else if (!ex.exact && c->verdict == BC_CHECK_RACY) {
      c->verdict = BC_CHECK_POSSIBLE;   /* the witness is one of the calculus's integers, maybe not of the kernel's */
      c->typing.well_typed = 0;
      snprintf(c->typing.why, sizeof c->typing.why, "%.500s", ex.why);
    }
    if (worse(c->verdict, r->verdict)) r->verdict = c->verdict;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  return 0;
}

void bc_check_result_free(bc_check_result *r) {
  bc_program_free(r->prog);
  free(r->arrays);
  memset(r, 0, sizeof *r);
}

int bc_check_status(const bc_check_result *r) {
  switch (r->verdict) {
  case BC_CHECK_DRF: return 0;
  case BC_CHECK_RACY: case BC_CHECK_POSSIBLE: case BC_CHECK_DIVERGENT: return 4;
  default: return 5;
  }
}

static void thread_text(char *buf, size_t n, const bc_program *p, const bc_thread *t) {
  size_t k = (size_t)snprintf(buf, n, "tid %" PRId64, t->tid[0]);
  if (p->block[1] > 1 || p->block[2] > 1) k += (size_t)snprintf(buf + k, n - k, ",%" PRId64, t->tid[1]);
  if (p->block[2] > 1) k += (size_t)snprintf(buf + k, n - k, ",%" PRId64, t->tid[2]);
  if (bc_blocks(p) > 1) {
    k += (size_t)snprintf(buf + k, n - k, " of block %" PRId64, t->bid[0]);
    if (p->grid[1] > 1 || p->grid[2] > 1) k += (size_t)snprintf(buf + k, n - k, ",%" PRId64, t->bid[1]);
    if (p->grid[2] > 1) snprintf(buf + k, n - k, ",%" PRId64, t->bid[2]);
  }
}

static const char *long_name(const bc_array_check *c) {
  switch (c->verdict) {
  case BC_CHECK_DRF: return "DRF (proved)";
  case BC_CHECK_RACY: return "racy (true alarm: well-typed)";
  case BC_CHECK_POSSIBLE: return "racy (possible false alarm: not well-typed, because ";
  case BC_CHECK_DIVERGENT: return "barrier divergence";
  default: return "unknown";
  }
}

void bc_check_print(FILE *out, const char *path, const bc_check_result *r, int timing) {
  if (r->verdict == BC_CHECK_OUTSIDE && !r->prog) {
    fprintf(out, "%s: outside the calculus (%s)\n", path, r->outside);
    return;
  }
  const bc_program *p = r->prog;
  fprintf(out, "%s:", path);
  if (p->kernel) fprintf(out, " kernel %s,", p->kernel);
  fprintf(out, " grid(%" PRId64 ",%" PRId64 ",%" PRId64 ") block(%" PRId64 ",%" PRId64 ",%" PRId64 ")\n", p->grid[0],
          p->grid[1], p->grid[2], p->block[0], p->block[1], p->block[2]);
  if (!r->narrays) fputs("  no array is accessed: DRF (proved)\n", out);
  for (int k = 0; k < r->narrays; k++) {
    const bc_array_check *c = &r->arrays[k];
    fprintf(out, "  %s: %s", p->arrays[c->array].name, long_name(c));
    if (c->verdict == BC_CHECK_POSSIBLE) fprintf(out, "%s)", c->typing.why);
    const bc_witness *w = &c->map.w;
    if (c->verdict == BC_CHECK_RACY || c->verdict == BC_CHECK_POSSIBLE) {
      char t0[96], t1[96];
      thread_text(t0, sizeof t0, p, &w->t[0]);
      thread_text(t1, sizeof t1, p, &w->t[1]);
      fprintf(out, "\n    witness: %s %s %s[%" PRId64 "] at %d:%d", t0, w->write[0] ? "writes" : "reads",
              p->arrays[c->array].name, w->index, w->pos[0].line, w->pos[0].col);
      if (w->loops[0][0]) fprintf(out, " (%s)", w->loops[0]);
      fprintf(out, ", %s %s it at %d:%d", t1, w->write[1] ? "writes" : "reads", w->pos[1].line, w->pos[1].col);
      if (w->loops[1][0]) fprintf(out, " (%s)", w->loops[1]);
      if (p->arrays[c->array].space == BC_SHARED || w->t[0].bid[0] == w->t[1].bid[0])
        fprintf(out, ", phase %" PRId64, w->phase);
      if (w->params[0]) fprintf(out, "; %s", w->params);
    } else if (c->verdict == BC_CHECK_DIVERGENT || c->verdict == BC_CHECK_UNKNOWN) {
      fprintf(out, ": %s", c->map.why);
    }
    if (c->verdict == BC_CHECK_DRF && !c->typing.well_typed) fputs(" (not well-typed, but a DRF protocol proves it)", out);
    if (timing) fprintf(out, "  [%d queries, %.3f s]", c->map.queries, c->map.seconds);
    fputc('\n', out);
  }
}

static void json_str(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
    else if (c < 0x20) fprintf(out, "\\u%04x", c);
    else fputc(c, out);
  }
  fputc('"', out);
}

static void json_thread(FILE *out, const bc_thread *t) {
  fprintf(out, "{\"tid\":[%" PRId64 ",%" PRId64 ",%" PRId64 "],\"bid\":[%" PRId64 ",%" PRId64 ",%" PRId64 "]}", t->tid[0],
          t->tid[1], t->tid[2], t->bid[0], t->bid[1], t->bid[2]);
}

void bc_check_print_json(FILE *out, const char *path, const bc_check_result *r, int timing) {
  static const char *const vname[6] = {"drf", "racy", "possible-false-alarm", "barrier-divergence", "unknown", "outside"};
  fputs("{\"file\":", out);
  json_str(out, path);
  fprintf(out, ",\"verdict\":\"%s\"", vname[r->verdict]);
  if (!r->prog) {
    fputs(",\"why\":", out);
    json_str(out, r->outside);
    fputs(",\"arrays\":[]}\n", out);
    return;
  }
  const bc_program *p = r->prog;
  if (p->kernel) { fputs(",\"kernel\":", out); json_str(out, p->kernel); }
  fputs(",\"arrays\":[", out);
  for (int k = 0; k < r->narrays; k++) {
    const bc_array_check *c = &r->arrays[k];
    fputs(k ? ",{\"array\":" : "{\"array\":", out);
    json_str(out, p->arrays[c->array].name);
    fprintf(out, ",\"verdict\":\"%s\",\"well_typed\":%s", vname[c->verdict], c->typing.well_typed ? "true" : "false");
    if (!c->typing.well_typed) { fputs(",\"typing\":", out); json_str(out, c->typing.why); }
    if (c->map.why[0]) { fputs(",\"why\":", out); json_str(out, c->map.why); }
    if (c->verdict == BC_CHECK_RACY || c->verdict == BC_CHECK_POSSIBLE) {
      const bc_witness *w = &c->map.w;
      fputs(",\"witness\":{\"threads\":[", out);
      json_thread(out, &w->t[0]);
      fputc(',', out);
      json_thread(out, &w->t[1]);
      fprintf(out, "],\"index\":%" PRId64 ",\"phase\":%" PRId64 ",\"accesses\":[", w->index, w->phase);
      for (int s = 0; s < 2; s++) {
        fprintf(out, "%s{\"kind\":\"%s\",\"line\":%d,\"col\":%d,\"loops\":", s ? "," : "", w->write[s] ? "write" : "read",
                w->pos[s].line, w->pos[s].col);
        json_str(out, w->loops[s]);
        fputc('}', out);
      }
      fputs("],\"params\":", out);
      json_str(out, w->params);
      fputc('}', out);
    }
    if (timing) fprintf(out, ",\"queries\":%d,\"seconds\":%.6f", c->map.queries, c->map.seconds);
    fputc('}', out);
  }
  fputs("]}\n", out);
}
