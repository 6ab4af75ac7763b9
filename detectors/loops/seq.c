/* The sequential loops: each loop kernel's `for (i = 0; i < N; i++)
 * body(i)` written in C, run in iteration order over the file's buffers and
 * args.  A file names its loop with `//@ meta seq NAME`.  This is the
 * reference result of the parallel runs (the generators wrote the files'
 * //@ check lines from their own copy of the loop, so a run of this one
 * under the file's checks tests both) and the CPU time that the paper's
 * speedups divide (Section VI: T_s / T_p).
 *
 * Each loop reads its arrays through a small table of the file's buffers,
 * copied out of the context once; the timed part is the loop alone, on a
 * fresh copy of the inputs per repetition. */
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "loops.h"
#include "util.h"

typedef struct {
  gr_script *s;
  size_t n;
  const char **names;
  void **data;         /* the working copies the loop runs on */
  void **orig;         /* the initial contents */
  size_t *bytes;
  const char *missing; /* the first name a loop asked for that the file lacks */
  int oob;             /* an index was out of its buffer (or a bound, or a divisor, was bad) */
  int64_t bad;         /* the first such value */
  uint64_t dummy[1];
} seq_env;

/* The buffer's working copy and its element count; a name the file lacks
 * gives an empty one and is noted. */
static void *buf(seq_env *e, const char *name, size_t elem, size_t *count) {
  for (size_t k = 0; k < e->n; k++)
    if (!strcmp(e->names[k], name)) {
      *count = e->bytes[k] / elem;
      return *count ? e->data[k] : e->dummy;
    }
  if (!e->missing) e->missing = name;
  *count = 0;
  return e->dummy;
}

/* Every access is checked against its buffer, as the emulator checks a
 * kernel's: a file's index arrays are input.  An index out of range is
 * noted and redirected to element 0 (or the dummy), and the run fails. */
static inline size_t at(seq_env *e, int64_t i, size_t n) {
  if (i >= 0 && (uint64_t)i < n) return (size_t)i;
  if (!e->oob) { e->oob = 1; e->bad = i; }
  return 0;
}
#define BUF(T, v, name) size_t v##_n; T *v = buf(e, name, sizeof(T), &v##_n)
#define AT(v, i) v[at(e, (int64_t)(i), v##_n)]

static int64_t arg(seq_env *e, const char *name) {
  int64_t v = 0;
  if (!script_arg_int(e->s, name, &v) && !e->missing) e->missing = name;
  return v;
}

/* Listing 3, read then write: temp = a[r[i]]; a[w[i]] = temp * 0.5 + j */
static void listing3_rw(seq_env *e) {
  BUF(double, a, "a");
  BUF(const int32_t, r, "r");
  BUF(const int32_t, w, "w");
  int64_t n = arg(e, "n"), m = arg(e, "m");
  if (e->missing) return;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < m; j++) {
      double t = AT(a, AT(r, i));
      AT(a, AT(w, i)) = t * 0.5 + (double)j;
    }
}

/* Listing 3, write then read: a[w[i]] = 0.5 * i + j; out[i] = a[r[i]] */
static void listing3_wr(seq_env *e) {
  BUF(double, a, "a");
  BUF(double, out, "out");
  BUF(const int32_t, r, "r");
  BUF(const int32_t, w, "w");
  int64_t n = arg(e, "n"), m = arg(e, "m");
  if (e->missing) return;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < m; j++) {
      AT(a, AT(w, i)) = 0.5 * (double)i + (double)j;
      AT(out, i) = AT(a, AT(r, i));
    }
}

/* Listing 3 with writes only: a[w[i]] = 0.5 * i + j */
static void listing3_w(seq_env *e) {
  BUF(double, a, "a");
  BUF(const int32_t, w, "w");
  int64_t n = arg(e, "n"), m = arg(e, "m");
  if (e->missing) return;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < m; j++) AT(a, AT(w, i)) = 0.5 * (double)i + (double)j;
}

/* Listing 2: the loop computes its index array (kernels/loops/heavy_index.cu) */
static void heavy_index(seq_env *e) {
  BUF(double, array, "array");
  BUF(int32_t, ind, "ind");
  int64_t n = arg(e, "n");
  if (e->missing) return;
  if (n <= 0 || n > INT32_MAX / 64) { e->oob = 1; e->bad = n; return; }
  for (int64_t i = 0; i < n; i++) {
    int64_t h = i;
    for (int k = 0; k < 8; k++) h = (h * 5 + k) % n;
    AT(ind, i) = (int32_t)((h - h + i) * 37 % n);
    AT(array, AT(ind, i)) = 1.0 * (double)i;
  }
}

static void ipvec(seq_env *e) {
  BUF(const int32_t, perm, "perm");
  BUF(const int32_t, in, "in");
  BUF(int32_t, out, "out");
  int64_t n = arg(e, "n");
  if (e->missing) return;
  for (int64_t i = 0; i < n; i++) AT(out, AT(perm, i)) = AT(in, i);
}

static void knap(seq_env *e) {
  BUF(const int32_t, wt, "wt");
  BUF(const int32_t, val, "val");
  BUF(int32_t, best, "best");
  int64_t items = arg(e, "items"), cap = arg(e, "cap");
  if (e->missing) return;
  for (int64_t i = 0; i < items; i++)
    for (int64_t c = cap; c >= AT(wt, i); c--) {
      int32_t with = AT(best, c - AT(wt, i)) + AT(val, i);
      if (with > AT(best, c)) AT(best, c) = with;
    }
}

static void cfd(seq_env *e) {
  BUF(const int32_t, edges, "edges");
  BUF(const int32_t, x, "x");
  BUF(int32_t, res, "res");
  int64_t ne = arg(e, "ne");
  if (e->missing) return;
  for (int64_t k = 0; k < ne; k++) {
    int32_t p = AT(edges, 2 * k), q = AT(edges, 2 * k + 1), f = AT(x, p) - AT(x, q);
    AT(res, p) += f;
    AT(res, q) -= f;
  }
}

static void md(seq_env *e) {
  BUF(const int32_t, partners, "partners");
  BUF(const int32_t, X, "X");
  BUF(int32_t, Y, "Y");
  int64_t mol = arg(e, "mol"), per = arg(e, "per");
  if (e->missing) return;
  for (int64_t i = 0; i < mol; i++)
    for (int64_t k = 0; k < per; k++) AT(Y, AT(partners, i * per + k)) = AT(X, i) * 2 + (int32_t)k;
}

static void fwd(seq_env *e) {
  BUF(const int32_t, rows, "rows");
  BUF(const int32_t, cols, "cols");
  BUF(const int32_t, vals, "vals");
  BUF(const int32_t, members, "members");
  BUF(int32_t, x, "x");
  int64_t nm = arg(e, "nm");
  if (e->missing) return;
  for (int64_t t = 0; t < nm; t++) {
    int32_t i = AT(members, t), s = AT(x, i);
    for (int32_t k = AT(rows, i); k < AT(rows, i + 1) - 1; k++) s -= AT(vals, k) * AT(x, AT(cols, k));
    int32_t d = AT(vals, AT(rows, i + 1) - 1);
    if (d == 0) { e->oob = 1; e->bad = d; return; }
    AT(x, i) = s / d;
  }
}

static void spmv(seq_env *e) {
  BUF(const int32_t, rows, "rows");
  BUF(const int32_t, cols, "cols");
  BUF(const int32_t, v, "v");
  BUF(int32_t, vals, "vals");
  int64_t n = arg(e, "n");
  if (e->missing) return;
  for (int64_t i = 0; i < n; i++) {
    if (AT(rows, i) == AT(rows, i + 1)) continue;
    int32_t sum = 0;
    for (int32_t k = AT(rows, i); k < AT(rows, i + 1); k++) sum += AT(vals, k) * AT(v, AT(cols, k));
    AT(vals, AT(rows, i)) = sum;
  }
}

static void bfs(seq_env *e) {
  BUF(const int32_t, eoff, "eoff");
  BUF(const int32_t, elist, "elist");
  BUF(const int32_t, mask, "mask");
  BUF(const int32_t, visited, "visited");
  BUF(int32_t, cost, "cost");
  int64_t n = arg(e, "n");
  if (e->missing) return;
  for (int64_t v = 0; v < n; v++) {
    if (!AT(mask, v)) continue;
    int32_t c = AT(cost, v);
    for (int32_t k = AT(eoff, v); k < AT(eoff, v + 1); k++)
      if (!AT(visited, AT(elist, k))) AT(cost, AT(elist, k)) = c + 1;
  }
}

static const struct { const char *name; void (*run)(seq_env *); } loops[] = {
  {"listing3_rw", listing3_rw}, {"listing3_wr", listing3_wr}, {"listing3_w", listing3_w}, {"heavy_index", heavy_index}, {"ipvec", ipvec},
  {"knap", knap}, {"cfd", cfd}, {"md", md}, {"fwd", fwd}, {"spmv", spmv}, {"bfs", bfs},
};

int loop_seq_run(gr_script *s, int repeat, double *seconds, char *err, size_t errlen) {
  const char *name = gr_script_meta(s, "seq");
  if (!name) { snprintf(err, errlen, "the file has no '//@ meta seq NAME' line naming its sequential loop"); return GR_EINPUT; }
  void (*run)(seq_env *) = NULL;
  for (size_t k = 0; k < sizeof loops / sizeof loops[0]; k++)
    if (!strcmp(loops[k].name, name)) run = loops[k].run;
  if (!run) {
    int at = snprintf(err, errlen, "no sequential loop named '%s' (there are:", name);
    for (size_t k = 0; k < sizeof loops / sizeof loops[0] && at > 0 && (size_t)at < errlen; k++)
      at += snprintf(err + at, errlen - (size_t)at, " %s", loops[k].name);
    if (at > 0 && (size_t)at < errlen) snprintf(err + at, errlen - (size_t)at, ")");
    return GR_EINPUT;
  }
  gr_context *ctx = script_context(s);
  int rc = script_prepare(s);
  if (rc) { snprintf(err, errlen, "the buffers could not be set up"); return rc; }
  seq_env e = {.s = s, .n = script_nbuffers(s)};
  e.names = xcalloc(e.n + 1, sizeof *e.names);
  e.data = xcalloc(e.n + 1, sizeof *e.data);
  e.orig = xcalloc(e.n + 1, sizeof *e.orig);
  e.bytes = xcalloc(e.n + 1, sizeof *e.bytes);
  gr_ptr *ptr = xcalloc(e.n + 1, sizeof *ptr);
  for (size_t k = 0; k < e.n && rc == GR_OK; k++) {
    script_buffer(s, k, &e.names[k], &ptr[k], &e.bytes[k]);
    e.orig[k] = xmalloc(e.bytes[k] + 1);
    e.data[k] = xmalloc(e.bytes[k] + 1);
    rc = gr_memcpy_dtoh(ctx, e.orig[k], ptr[k], e.bytes[k]);
  }
  double best = 0;
  for (int r = 0; r < (repeat > 0 ? repeat : 1) && rc == GR_OK; r++) {
    for (size_t k = 0; k < e.n; k++) memcpy(e.data[k], e.orig[k], e.bytes[k]);
    double t0 = gr_now();
    run(&e);
    double t = gr_now() - t0;
    if (e.missing) {
      snprintf(err, errlen, "the sequential loop '%s' needs a buffer or integer arg named '%s', which the file lacks", name, e.missing);
      rc = GR_EINPUT;
    } else if (e.oob) {
      snprintf(err, errlen, "the sequential loop '%s' stopped at a bad value (%lld): an index outside its buffer, a bad bound or a zero divisor", name, (long long)e.bad);
      rc = GR_EINPUT;
    }
    if (r == 0 || t < best) best = t;
  }
  for (size_t k = 0; k < e.n && rc == GR_OK; k++) rc = gr_memcpy_htod(ctx, ptr[k], e.data[k], e.bytes[k]);
  for (size_t k = 0; k < e.n; k++) { free(e.orig[k]); free(e.data[k]); }
  free(e.names); free(e.data); free(e.orig); free(e.bytes); free(ptr);
  if (seconds) *seconds = best;
  return rc;
}
