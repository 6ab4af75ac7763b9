/* Verdict tables: suites x detectors x seeds. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "babycuda/babycuda.h"
#include "detectors.h"
#include "util.h"

void table_opts_default(table_opts *o) {
  memset(o, 0, sizeof *o);
  det_options_default(&o->dopts);
  o->detectors = "scord";
  o->seeds = 1;
  o->first_seed = 1;
  o->memory = GR_MEMORY_SC;
  o->sched = GR_SCHED_RANDOM;
  o->sms = 4;
  o->max_steps = 10000000;
  o->nshards = 1;
  gr_config c;   /* $GPURACE_CC and $GPURACE_CC_FLAGS, as for every command */
  gr_config_default(&c);
  o->cc = c.cc;
  snprintf(o->cc_flags, sizeof o->cc_flags, "%s", c.cc_flags);
}

typedef struct {
  int *status;               /* per detector: GR_OK, or the error of the run it watched */
  char **err;
  char **unwatched;          /* per detector: NULL, or why it stopped watching the run */
  size_t *count;             /* per detector: distinct reports */
  char **classes;            /* per detector: its classes, sorted, ';'-separated */
} run_result;

struct table {
  table_opts o;
  char *detlist;
  char **runs_of;            /* the detector lists of one (file, seed): the detectors that watch
                                together, then one list per detector that runs alone */
  size_t nruns_of;
  size_t *run_of;            /* per detector: its list in runs_of */
  size_t nfiles, ndet;
  char **det;
  int *is_static;            /* per detector: babycuda, a static verdict per file (gpurace check) */
  char **path, **name, **id, **category;
  char **knob;               /* the row's knob, or NULL */
  int *expect;               /* 1 race, 0 norace, -1 not stated */
  run_result *runs;          /* [file * seeds + seed] */
};

static int cmp_strp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted distinct items of a ';'-separated list plus the extra items. */
static char *join_classes(char **items, size_t n) {
  if (n > 1) qsort(items, n, sizeof *items, cmp_strp);
  size_t len = 1;
  for (size_t k = 0; k < n; k++) len += strlen(items[k]) + 1;
  char *out = xmalloc(len);
  out[0] = 0;
  for (size_t k = 0; k < n; k++) {
    if (k && !strcmp(items[k], items[k - 1])) continue;
    if (out[0]) strcat(out, ";");
    strcat(out, items[k]);
  }
  return out;
}

/* One run of file f on seed k under the detectors of runs_of[g]; fills
 * their columns of r. */
/* The configuration of every run of the table. */
static void table_config(const table_opts *o, gr_config *cfg) {
  gr_config_default(cfg);
  cfg->sched = o->sched;
  cfg->memory = o->memory;
  cfg->warps = o->warps;
  cfg->sms = o->sms;
  cfg->max_steps = o->max_steps;
  cfg->keep_going = o->keep_going;
  cfg->max_code = o->max_code;
  cfg->max_source = o->max_source;
  cfg->max_nesting = o->max_nesting;
  cfg->cc = o->cc;
  snprintf(cfg->cc_flags, sizeof cfg->cc_flags, "%s", o->cc_flags);
}

static void run_group(table *t, size_t f, int k, size_t g, run_result *r) {
  const char *list = t->runs_of[g];
  gr_config cfg;
  table_config(&t->o, &cfg);
  cfg.seed = t->o.first_seed + (uint64_t)k;
  gr_context *ctx = gr_context_create(&cfg);
  gr_script *s = NULL;
  race_log *log = race_log_new();
  detector_set *set = NULL;
  char err[512];
  const char *defs[66];
  int nd = 0;
  for (int k = 0; k < t->o.ndefines && nd < 64; k++) defs[nd++] = t->o.defines[k];
  char knobdef[64];
  if (t->knob[f]) { snprintf(knobdef, sizeof knobdef, "%s=1", t->knob[f]); defs[nd++] = knobdef; }
  int status = gr_script_load(ctx, t->path[f], defs, nd, &s);
  char *msg = NULL;
  det_options dopts = t->o.dopts;   /* a loop kernel's arrays from its //@ loop line */
  if (!status && !dopts.loop_arrays) dopts.loop_arrays = gr_script_loop_arrays(s);
  if (status) msg = xstrdup(gr_error(ctx));
  else if (detectors_attach(ctx, list, &dopts, log, &set, err, sizeof err)) {
    status = GR_EINPUT;
    msg = xstrdup(err);
  } else {
    status = gr_script_run(s);
    if (status) msg = xstrdup(gr_error(ctx));
  }
  size_t n;
  const gr_race *rep = race_log_reports(log, &n);
  char **items = xcalloc(n + 1, sizeof *items);
  for (size_t d = 0; d < t->ndet; d++) {
    if (t->run_of[d] != g) continue;
    size_t m = 0;
    for (size_t j = 0; j < n; j++) if (!strcmp(rep[j].detector, t->det[d])) items[m++] = (char *)rep[j].cls;
    r->count[d] = m;
    r->classes[d] = join_classes(items, m);
    r->status[d] = status;
    r->err[d] = msg ? xstrdup(msg) : NULL;
    const char *why = race_log_unwatched_why(log, t->det[d]);
    r->unwatched[d] = why ? xstrdup(why) : NULL;
  }
  free(items);
  free(msg);
  detectors_detach(set);
  race_log_free(log);
  gr_script_free(s);
  gr_context_destroy(ctx);
}

/* babycuda's column: the file's static verdict (the same on every seed).
 * A racy array is a report (its class says whether the alarm is true);
 * outside the calculus or unknown is no verdict ("not watched"), never
 * "no race". */
static void run_static(table *t, size_t f, size_t d, run_result *r) {
  const char *defs[66];
  int nd = 0;
  for (int k = 0; k < t->o.ndefines && nd < 64; k++) defs[nd++] = t->o.defines[k];
  char knobdef[64];
  if (t->knob[f]) { snprintf(knobdef, sizeof knobdef, "%s=1", t->knob[f]); defs[nd++] = knobdef; }
  bc_check_opts o;
  memset(&o, 0, sizeof o);
  o.defines = defs;
  o.ndefines = nd;
  bc_check_result c;
  char err[1200];
  r->status[d] = bc_check_file(t->path[f], &o, &c, err, sizeof err);
  if (r->status[d]) { r->err[d] = xstrdup(err); r->classes[d] = xstrdup(""); return; }
  char *items[64];
  size_t m = 0;
  for (int a = 0; a < c.narrays && m < 64; a++) {
    const bc_array_check *ac = &c.arrays[a];
    if (ac->verdict == BC_CHECK_RACY) items[m++] = "true alarm";
    else if (ac->verdict == BC_CHECK_POSSIBLE) items[m++] = "possible false alarm";
    else if (ac->verdict == BC_CHECK_DIVERGENT) items[m++] = "barrier divergence";
  }
  r->count[d] = m;
  r->classes[d] = join_classes(items, m);
  if (c.verdict == BC_CHECK_OUTSIDE) {
    const char *why = strstr(c.outside, "outside the calculus: ");
    char buf[1100];
    snprintf(buf, sizeof buf, "outside the calculus: %s", why ? why + 22 : c.outside);
    r->unwatched[d] = xstrdup(buf);
  } else if (c.verdict == BC_CHECK_UNKNOWN) {
    for (int a = 0; a < c.narrays; a++)
      if (c.arrays[a].verdict == BC_CHECK_UNKNOWN) {
        char buf[700];
        snprintf(buf, sizeof buf, "unknown: %s", c.arrays[a].map.why);
        r->unwatched[d] = xstrdup(buf);
        break;
      }
  }
  bc_check_result_free(&c);
}

static void run_one(table *t, size_t f, int k, run_result *r) {
  r->count = xcalloc(t->ndet, sizeof *r->count);
  r->classes = xcalloc(t->ndet, sizeof *r->classes);
  r->status = xcalloc(t->ndet, sizeof *r->status);
  r->err = xcalloc(t->ndet, sizeof *r->err);
  r->unwatched = xcalloc(t->ndet, sizeof *r->unwatched);
  for (size_t g = 0; g < t->nruns_of; g++) run_group(t, f, k, g, r);
  /* a static verdict is the file's: checked with the first seed, copied to the others after the runs */
  for (size_t d = 0; d < t->ndet && k == 0; d++)
    if (t->is_static[d]) run_static(t, f, d, r);
}

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

static void copy_static(table *t) {
  for (size_t f = 0; f < t->nfiles; f++)
    for (int k = 1; k < t->o.seeds; k++)
      for (size_t d = 0; d < t->ndet; d++) {
        if (!t->is_static[d]) continue;
        const run_result *a = &t->runs[f * (size_t)t->o.seeds];
        run_result *b = &t->runs[f * (size_t)t->o.seeds + (size_t)k];
        b->status[d] = a->status[d];
        b->count[d] = a->count[d];
        b->classes[d] = dup_or_null(a->classes[d]);
        b->err[d] = dup_or_null(a->err[d]);
        b->unwatched[d] = dup_or_null(a->unwatched[d]);
      }
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

int table_run(const char *const *files, size_t nfiles, const table_opts *o, table **out, char *err, size_t errlen) {
  *out = NULL;
  table *t = xcalloc(1, sizeof *t);
  t->o = *o;
  if (t->o.seeds < 1) t->o.seeds = 1;
  t->detlist = xstrdup(o->detectors);
  /* the detector names, checked once here */
  {
    gr_config cfg;
    gr_config_default(&cfg);
    gr_context *ctx = gr_context_create(&cfg);
    race_log *log = race_log_new();
    detector_set *set = NULL;
    /* the detectors that watch together make one run; each that runs
     * alone (it steers execution) has one of its own */
    size_t cap = 2;
    for (const char *p = t->detlist; *p; p++) cap += *p == ',';
    t->det = xcalloc(cap, sizeof *t->det);
    t->is_static = xcalloc(cap, sizeof *t->is_static);
    t->runs_of = xcalloc(cap, sizeof *t->runs_of);
    char *copy = xstrdup(t->detlist), *together = xcalloc(strlen(t->detlist) + 1, 1);
    int rc = GR_OK;
    const char *list = t->detlist;
    if (!list[0] || list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,"))
      rc = detectors_attach(ctx, list, &t->o.dopts, log, &set, err, errlen);   /* its message */
    for (char *sv, *tok = strtok_r(copy, ",", &sv); tok && !rc; tok = strtok_r(NULL, ",", &sv)) {
      const detector_kind *k = detector_lookup(tok);
      if (!strcmp(tok, "babycuda")) {
        for (size_t d = 0; d < t->ndet && !rc; d++)
          if (!strcmp(t->det[d], tok)) { snprintf(err, errlen, "detector '%s' named twice", tok); rc = GR_EINPUT; }
        if (rc) break;
        t->is_static[t->ndet] = 1;
        t->det[t->ndet++] = xstrdup(tok);
        continue;
      }
      if (!k) { rc = detectors_attach(ctx, tok, &t->o.dopts, log, &set, err, errlen); break; }
      for (size_t d = 0; d < t->ndet && !rc; d++)
        if (!strcmp(t->det[d], tok)) { snprintf(err, errlen, "detector '%s' named twice", tok); rc = GR_EINPUT; }
      if (rc) break;
      t->det[t->ndet++] = xstrdup(tok);
      if (!k->runs_alone) { if (together[0]) strcat(together, ","); strcat(together, tok); }
    }
    t->run_of = xcalloc(cap, sizeof *t->run_of);
    if (together[0]) t->runs_of[t->nruns_of++] = together;
    else free(together);
    for (size_t d = 0; d < t->ndet; d++) {
      if (t->is_static[d] || !detector_lookup(t->det[d])->runs_alone) continue;
      t->run_of[d] = t->nruns_of;
      t->runs_of[t->nruns_of++] = xstrdup(t->det[d]);
    }
    /* every list once, so that option conflicts show here */
    for (size_t g = 0; g < t->nruns_of && !rc; g++) {
      detectors_detach(set);
      set = NULL;
      rc = detectors_attach(ctx, t->runs_of[g], &t->o.dopts, log, &set, err, errlen);
    }
    free(copy);
    detectors_detach(set);
    race_log_free(log);
    gr_context_destroy(ctx);
    if (rc) { table_free(t); return GR_EINPUT; }
  }
  /* rows: each file, and with knobs one more row per knob */
  size_t cap = nfiles + 1;
  t->path = xcalloc(cap, sizeof *t->path);
  t->name = xcalloc(cap, sizeof *t->name);
  t->id = xcalloc(cap, sizeof *t->id);
  t->category = xcalloc(cap, sizeof *t->category);
  t->knob = xcalloc(cap, sizeof *t->knob);
  t->expect = xcalloc(cap, sizeof *t->expect);
  size_t nrows = 0;
  for (size_t f = 0; f < nfiles; f++) {
    gr_config cfg;
    table_config(o, &cfg);
    gr_context *ctx = gr_context_create(&cfg);
    gr_script *s = NULL;
    if (gr_script_load(ctx, files[f], o->defines, o->ndefines, &s)) {
      snprintf(err, errlen, "%s", gr_error(ctx));
      gr_context_destroy(ctx);
      t->nfiles = nrows;
      table_free(t);
      return GR_EINPUT;
    }
    int nk = o->knobs ? gr_script_knob_count(s) : 0;
    if (nrows + 1 + (size_t)nk >= cap) {
      cap = 2 * (nrows + 1 + (size_t)nk);
      t->path = xrealloc(t->path, cap * sizeof *t->path);
      t->name = xrealloc(t->name, cap * sizeof *t->name);
      t->id = xrealloc(t->id, cap * sizeof *t->id);
      t->category = xrealloc(t->category, cap * sizeof *t->category);
      t->knob = xrealloc(t->knob, cap * sizeof *t->knob);
      t->expect = xrealloc(t->expect, cap * sizeof *t->expect);
    }
    char *nm = xstrdup(base_name(files[f]));
    size_t L = strlen(nm);
    if (L > 3 && !strcmp(nm + L - 3, ".cu")) nm[L - 3] = 0;
    const char *id = gr_script_meta(s, "id"), *cat = gr_script_meta(s, "category");
    for (int k = -1; k < nk; k++) {
      size_t r = nrows++;
      t->path[r] = xstrdup(files[f]);
      t->knob[r] = k < 0 ? NULL : xstrdup(gr_script_knob(s, k));
      char buf[256];
      snprintf(buf, sizeof buf, "%s%s%s", nm, k < 0 ? "" : " +", k < 0 ? "" : t->knob[r]);
      t->name[r] = xstrdup(buf);
      snprintf(buf, sizeof buf, "%s%s%s", id ? id : nm, k < 0 ? "" : " +", k < 0 ? "" : t->knob[r]);
      t->id[r] = xstrdup(buf);
      t->category[r] = xstrdup(cat ? cat : "");
      /* with knobs, each row's expectation is its own: the row without them, or one knob alone */
      t->expect[r] = nk ? (k >= 0) : gr_script_expect_race(s);
    }
    free(nm);
    gr_script_free(s);
    gr_context_destroy(ctx);
  }
  t->nfiles = nrows;
  nfiles = nrows;
  long total = (long)nfiles * t->o.seeds;
  t->runs = xcalloc((size_t)total + 1, sizeof *t->runs);
  long done = 0, shown = -1;
  int tty = isatty(2);
  if (t->o.nshards < 1 || t->o.shard < 0 || t->o.shard >= t->o.nshards) t->o.nshards = 1, t->o.shard = 0;
  long nsh = t->o.nshards, mine = total / nsh + (t->o.shard < total % nsh);
#pragma omp parallel for schedule(dynamic, 1)
  for (long j = 0; j < mine; j++) {
    long task = j * nsh + t->o.shard;
    run_one(t, (size_t)(task / t->o.seeds), (int)(task % t->o.seeds), &t->runs[task]);
    if (t->o.progress) {
      long now;
#pragma omp atomic capture
      now = ++done;
#pragma omp critical(table_progress)
      {
        long pct = now * 10 / mine;
        if (tty) fprintf(stderr, "\rtable: %ld/%ld runs", now, mine);
        else if (pct > shown) { fprintf(stderr, "table: %ld/%ld runs\n", now, mine); shown = pct; }
        if (tty && now == mine) fputc('\n', stderr);
      }
    }
  }
  if (t->o.nshards == 1) copy_static(t);
  *out = t;
  return GR_OK;
}

void table_complete(table *t) { copy_static(t); }

static void put_u64(bytes *b, uint64_t v) { bytes_put(b, &v, sizeof v); }
static void put_str(bytes *b, const char *s) {
  uint64_t n = s ? strlen(s) : UINT64_MAX;
  put_u64(b, n);
  if (s) bytes_put(b, s, (size_t)n);
}

/* Per task of the shard: its index, then per detector its status, count
 * and strings (length, or all ones for none, then the bytes). */
void table_pack(const table *t, uint8_t **buf, size_t *len) {
  bytes b = {0};
  long total = (long)t->nfiles * t->o.seeds;
  put_u64(&b, (uint64_t)total);
  put_u64(&b, t->ndet);
  for (long task = t->o.shard; task < total; task += t->o.nshards) {
    const run_result *r = &t->runs[task];
    put_u64(&b, (uint64_t)task);
    for (size_t d = 0; d < t->ndet; d++) {
      put_u64(&b, (uint64_t)(int64_t)r->status[d]);
      put_u64(&b, r->count[d]);
      put_str(&b, r->err[d]);
      put_str(&b, r->unwatched[d]);
      put_str(&b, r->classes[d]);
    }
  }
  *buf = b.p;
  *len = b.len;
}

typedef struct { const uint8_t *p; size_t left; int bad; } reader;
static uint64_t get_u64(reader *r) {
  uint64_t v = 0;
  if (r->left < 8) { r->bad = 1; return 0; }
  memcpy(&v, r->p, 8);
  r->p += 8, r->left -= 8;
  return v;
}
static char *get_str(reader *r) {
  uint64_t n = get_u64(r);
  if (n == UINT64_MAX || r->bad) return NULL;
  if (n > r->left) { r->bad = 1; return NULL; }
  char *s = xmalloc((size_t)n + 1);
  memcpy(s, r->p, (size_t)n);
  s[n] = 0;
  r->p += n, r->left -= (size_t)n;
  return s;
}

int table_unpack(table *t, const uint8_t *buf, size_t len, char *err, size_t errlen) {
  reader r = {buf, len, 0};
  long total = (long)t->nfiles * t->o.seeds;
  if (get_u64(&r) != (uint64_t)total || get_u64(&r) != t->ndet || r.bad) {
    snprintf(err, errlen, "a shard's results do not fit this table (another file list or detector list?)");
    return GR_EINPUT;
  }
  while (r.left && !r.bad) {
    uint64_t task = get_u64(&r);
    if (r.bad || task >= (uint64_t)total || t->runs[task].count) { r.bad = 1; break; }
    run_result *x = &t->runs[task];
    x->count = xcalloc(t->ndet, sizeof *x->count);
    x->classes = xcalloc(t->ndet, sizeof *x->classes);
    x->status = xcalloc(t->ndet, sizeof *x->status);
    x->err = xcalloc(t->ndet, sizeof *x->err);
    x->unwatched = xcalloc(t->ndet, sizeof *x->unwatched);
    for (size_t d = 0; d < t->ndet && !r.bad; d++) {
      x->status[d] = (int)(int64_t)get_u64(&r);
      x->count[d] = (size_t)get_u64(&r);
      x->err[d] = get_str(&r);
      x->unwatched[d] = get_str(&r);
      x->classes[d] = get_str(&r);
    }
  }
  if (r.bad) { snprintf(err, errlen, "a shard's results are truncated or repeat a task"); return GR_EINPUT; }
  return GR_OK;
}

void table_free(table *t) {
  if (!t) return;
  if (t->runs) {
    for (long k = 0; k < (long)t->nfiles * t->o.seeds; k++) {
      run_result *r = &t->runs[k];
      for (size_t d = 0; d < t->ndet; d++) {
        if (r->classes) free(r->classes[d]);
        if (r->err) free(r->err[d]);
        if (r->unwatched) free(r->unwatched[d]);
      }
      free(r->err);
      free(r->unwatched);
      free(r->status);
      free(r->classes);
      free(r->count);
    }
  }
  for (size_t f = 0; f < t->nfiles; f++) {
    if (t->path) free(t->path[f]);
    if (t->name) free(t->name[f]);
    if (t->id) free(t->id[f]);
    if (t->category) free(t->category[f]);
    if (t->knob) free(t->knob[f]);
  }
  for (size_t d = 0; d < t->ndet; d++) free(t->det[d]);
  free(t->det);
  free(t->is_static);
  for (size_t g = 0; g < t->nruns_of; g++) free(t->runs_of[g]);
  free(t->runs_of);
  free(t->run_of);
  free(t->path); free(t->name); free(t->id); free(t->category); free(t->knob); free(t->expect);
  free(t->runs);
  free(t->detlist);
  free(t);
}

/* ---------------------------------------------------------------- one cell */

typedef struct {
  int racy, errors;          /* seeds with a report; seeds whose run failed */
  int unwatched;             /* seeds the detector stopped watching: no verdict */
  const char *why;           /* the first reason */
  size_t min, max;           /* reports on the racy seeds */
  char *classes;             /* union over seeds */
  const char *err;           /* the first failure */
} cell;

static void cell_of(const table *t, size_t f, size_t d, cell *c) {
  memset(c, 0, sizeof *c);
  char **items = NULL;
  size_t n = 0, cap = 0;
  for (int k = 0; k < t->o.seeds; k++) {
    const run_result *r = &t->runs[f * (size_t)t->o.seeds + (size_t)k];
    if (r->status && r->status[d]) { c->errors++; if (!c->err) c->err = r->err[d]; }
    if (r->unwatched && r->unwatched[d]) { c->unwatched++; if (!c->why) c->why = r->unwatched[d]; }
    if (!r->count || !r->count[d]) continue;
    if (!c->racy || r->count[d] < c->min) c->min = r->count[d];
    if (r->count[d] > c->max) c->max = r->count[d];
    c->racy++;
    char *cl = xstrdup(r->classes[d]);
    for (char *sv, *tok = strtok_r(cl, ";", &sv); tok; tok = strtok_r(NULL, ";", &sv)) {
      if (n == cap) { cap = cap ? 2 * cap : 8; items = xrealloc(items, cap * sizeof *items); }
      items[n++] = xstrdup(tok);
    }
    free(cl);
  }
  c->classes = join_classes(items, n);
  for (size_t k = 0; k < n; k++) free(items[k]);
  free(items);
}

static int cell_mismatch(const table *t, size_t f, const cell *c) {
  if (c->unwatched) return 1;   /* a detector that did not watch has no verdict to match */
  if (t->expect[f] == 1) return c->racy < t->o.seeds;
  if (t->expect[f] == 0) return c->racy > 0;
  return 0;
}

size_t table_mismatches(const table *t, const char *detector) {
  size_t n = 0;
  for (size_t d = 0; d < t->ndet; d++) {
    if (detector && strcmp(detector, t->det[d])) continue;
    for (size_t f = 0; f < t->nfiles; f++) {
      cell c;
      cell_of(t, f, d, &c);
      n += (size_t)cell_mismatch(t, f, &c);
      free(c.classes);
    }
  }
  return n;
}

static const char *expect_name(int e) { return e == 1 ? "race" : e == 0 ? "norace" : "?"; }

static void print_cell_md(FILE *out, const table *t, size_t f, const cell *c) {
  int seeds = t->o.seeds;
  if (c->unwatched)   /* no verdict: what it saw is not all there was */
    fprintf(out, "**not watched** on %d/%d seeds: %.*s", c->unwatched, seeds, (int)strcspn(c->why, "\n"), c->why);
  else if (cell_mismatch(t, f, c)) fputs(t->expect[f] == 1 ? "**miss** " : "**false alarm** ", out);
  if (c->unwatched) {
  } else if (c->racy == 0) fputs("no race", out);
  else {
    fputs("race", out);
    if (c->racy < seeds) fprintf(out, " on %d/%d seeds (differs)", c->racy, seeds);
    if (c->min == c->max) fprintf(out, " (%zu)", c->min);
    else fprintf(out, " (%zu-%zu)", c->min, c->max);
    fputs(": ", out);
    for (const char *p = c->classes; *p; p++) {
      if (*p == ';') fputs(", ", out);
      else fputc(*p, out);
    }
  }
  if (c->errors) {
    /* the first line of the message: a table row is one line */
    const char *e = c->err ? c->err : "?";
    fprintf(out, "; run failed on %d/%d seeds: %.*s", c->errors, seeds, (int)strcspn(e, "\n"), e);
  }
}

void table_write_md(FILE *out, const table *t, const char *title, const char *command) {
  fprintf(out, "# %s\n\n", title);
  fprintf(out, "Generated by `%s`.\n\n", command);
  fprintf(out, "Every file runs once per seed (%llu..%llu), %s memory, %s scheduler, %d SMs; every detector watches the same run",
          (unsigned long long)t->o.first_seed, (unsigned long long)(t->o.first_seed + (uint64_t)t->o.seeds - 1),
          t->o.memory == GR_MEMORY_WEAK ? "weak" : "sc", t->o.sched == GR_SCHED_RANDOM ? "random" : "round-robin", t->o.sms);
  if (t->o.warps == GR_WARPS_ITS) fputs(", independent thread scheduling (--warps its)", out);
  int alone = 0;
  for (size_t d = 0; d < t->ndet; d++) {
    const detector_kind *k = detector_lookup(t->det[d]);
    if (k && k->runs_alone) fprintf(out, "%s%s", alone++ ? ", " : ", except ", t->det[d]);
  }
  if (alone) fputs(alone == 1 ? ", which steers execution and has a run of its own (same seed)" : ", which steer execution and have runs of their own (same seed)", out);
  fputs(". ", out);
  fputs("A cell gives the verdict, the number of distinct reports (a range where it varies across seeds) and the race classes "
        "reported; a verdict that is not the same on every seed says so; **miss** and **false alarm** mark disagreement "
        "with the expected verdict.\n\n", out);
  fputs("| ID | test | category | expected |", out);
  for (size_t d = 0; d < t->ndet; d++) fprintf(out, " %s |", t->det[d]);
  fputs("\n|---|---|---|---|", out);
  for (size_t d = 0; d < t->ndet; d++) fputs("---|", out);
  fputc('\n', out);
  for (size_t f = 0; f < t->nfiles; f++) {
    fprintf(out, "| %s | %s | %s | %s |", t->id[f], t->name[f], t->category[f], expect_name(t->expect[f]));
    for (size_t d = 0; d < t->ndet; d++) {
      cell c;
      cell_of(t, f, d, &c);
      fputc(' ', out);
      print_cell_md(out, t, f, &c);
      fputs(" |", out);
      free(c.classes);
    }
    fputc('\n', out);
  }
  /* totals, overall and per category in order of first appearance */
  const char *cats[64];
  size_t ncat = 0;
  for (size_t f = 0; f < t->nfiles && ncat < 64; f++) {
    int seen = 0;
    for (size_t k = 0; k < ncat; k++) seen |= !strcmp(cats[k], t->category[f]);
    if (!seen && t->category[f][0]) cats[ncat++] = t->category[f];
  }
  fputs("\n## Totals\n\n| | ", out);
  for (size_t d = 0; d < t->ndet; d++) fprintf(out, "%s | ", t->det[d]);
  fputs("\n|---|", out);
  for (size_t d = 0; d < t->ndet; d++) fputs("---|", out);
  fputc('\n', out);
  for (size_t g = 0; g <= ncat; g++) {
    const char *cat = g == 0 ? NULL : cats[g - 1];
    size_t nr = 0, nn = 0;
    for (size_t f = 0; f < t->nfiles; f++) {
      if (cat && strcmp(cat, t->category[f])) continue;
      nr += t->expect[f] == 1;
      nn += t->expect[f] == 0;
    }
    for (int row = 0; row < 3; row++) {
      if (row == 0) fprintf(out, "| %s%sraces found on every seed (of %zu) |", cat ? cat : "", cat ? ": " : "", nr);
      if (row == 1) fprintf(out, "| %s%sraces found on some seed (of %zu) |", cat ? cat : "", cat ? ": " : "", nr);
      if (row == 2) fprintf(out, "| %s%sfalse alarms on some seed (of %zu) |", cat ? cat : "", cat ? ": " : "", nn);
      for (size_t d = 0; d < t->ndet; d++) {
        size_t v = 0;
        for (size_t f = 0; f < t->nfiles; f++) {
          if (cat && strcmp(cat, t->category[f])) continue;
          cell c;
          cell_of(t, f, d, &c);
          if (row == 0) v += t->expect[f] == 1 && c.racy == t->o.seeds;
          if (row == 1) v += t->expect[f] == 1 && c.racy > 0;
          if (row == 2) v += t->expect[f] == 0 && c.racy > 0;
          free(c.classes);
        }
        fprintf(out, " %zu |", v);
      }
      fputc('\n', out);
    }
  }
}

static void csv_field(FILE *out, const char *s) {
  int quote = strpbrk(s, ",\"\n") != NULL;
  if (!quote) { fputs(s, out); return; }
  fputc('"', out);
  for (; *s; s++) { if (*s == '"') fputc('"', out); fputc(*s, out); }
  fputc('"', out);
}

void table_write_csv(FILE *out, const table *t) {
  fputs("id,test,category,expected", out);
  for (size_t d = 0; d < t->ndet; d++)
    fprintf(out, ",%s,%s_racy_seeds,%s_reports_min,%s_reports_max,%s_classes,%s_failed_seeds", t->det[d], t->det[d], t->det[d],
            t->det[d], t->det[d], t->det[d]);
  fputc('\n', out);
  for (size_t f = 0; f < t->nfiles; f++) {
    csv_field(out, t->id[f]);
    fputc(',', out);
    csv_field(out, t->name[f]);
    fputc(',', out);
    csv_field(out, t->category[f]);
    fprintf(out, ",%s", expect_name(t->expect[f]));
    for (size_t d = 0; d < t->ndet; d++) {
      cell c;
      cell_of(t, f, d, &c);
      const char *verdict = c.unwatched ? "notwatched" : c.racy == 0 ? "norace" : c.racy == t->o.seeds ? "race" : "differs";
      fprintf(out, ",%s,%d,%zu,%zu,", verdict, c.racy, c.min, c.max);
      csv_field(out, c.classes);
      fprintf(out, ",%d", c.errors);
      free(c.classes);
    }
    fputc('\n', out);
  }
}
