/* Kernel files that run themselves: the //@ directives.
 *
 *   //@ launch KERNEL grid(X[,Y[,Z]]) block(X[,Y[,Z]]) [shared(BYTES)] [if KNOB...]
 *   //@ buffer NAME TYPE[COUNT] [= zeros | VALUE | {V, ...} | iota[(START[,STEP])] | random(SEED[,LO,HI])]
 *   //@ arg NAME = VALUE
 *   //@ expect race | norace
 *   //@ expect race if KNOB...              (a race when one of the -D knobs is defined)
 *   //@ meta KEY VALUE                    (free-form facts for reports: id, category)
 *   //@ check NAME = {V, ...} | VALUE [tol(EPS)]
 *   //@ litmus ID W|B|G                   (a litmus test and its placement)
 *   //@ observe VAR=NAME[INDEX] ...       (the outcome: values after the run)
 *   //@ outcome VAR=VALUE ... forbidden | allowed-required | allowed-optional
 *
 * Kernel parameters bind by name: a pointer parameter to the buffer of that
 * name, a scalar parameter to the arg of that name.  Directives are read
 * from the file as written (before preprocessing). */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "front.h"
#include "host.h"
#include "kir_sem.h"

/* A directive's number: f always holds its value as a double; an integer
 * also has i and u (the same bits) and neg when it was written negative. */
typedef struct { int is_float; int neg; int64_t i; uint64_t u; double f; } num;

/* An integer num's exact value. */
static __int128 num_wide(num v) { return v.neg ? (__int128)v.i : (__int128)v.u; }

typedef enum { INIT_ZEROS, INIT_CONST, INIT_LIST, INIT_IOTA, INIT_RANDOM } init_kind;

typedef struct {
  char *name;
  gr_type type;
  uint64_t count;
  init_kind init;
  num c, step, lo, hi;
  int has_range;
  uint64_t seed;
  num *list;
  size_t nlist;
  gr_ptr ptr;
  int line;
  int used;
} sbuffer;

/* An argument: a number, or for a struct passed by value a list of its
 * scalar leaves in order, each a number or the name of a buffer (a pointer). */
typedef struct { char *name; num v; int line; int used; int is_list; num *list; char **refs; size_t n; } sarg;
typedef struct { char *name; num *vals; size_t n; int all_equal; double tol; int line; } scheck;
typedef struct { char var[32]; char buf[256]; uint64_t index; int line; } sobserve;
typedef struct { char var[32]; num v; } sweak;
typedef struct { char key[32]; char val[256]; } smeta;
/* knobs: with 'if KNOB...' the launch runs only where one of the -D knobs is
 * defined (an instrumented kernel's extra passes); knobs[0][0] == 0 otherwise */
typedef struct { char *kernel; gr_dim3 grid, block; uint64_t shared; unsigned flags; int line; char knobs[4][64]; } slaunch;

#define MAX_NAME 256      /* buffer, argument, kernel and knob names */

struct gr_script {
  gr_context *ctx;
  gr_stats stats;            /* summed over the last run's launches */
  gr_module *mod;
  char *path;
  slaunch *launches;         /* run in order, over the same buffers: a kernel boundary orders memory */
  size_t nlaunches;
  int expect;
  int expect_line;
  int arch;                  /* //@ arch sm_NN, else 0 */
  sbuffer *bufs; size_t nbufs;
  sarg *args; size_t nargs;
  scheck *checks; size_t nchecks;
  int ran;
  /* litmus tests */
  char litmus_id[32];
  char placement;            /* W, B, G, or M: per thread, in where_b/where_w */
  char where[128];           /* the placement as written */
  int where_b[32], where_w[32], nwhere;
  gr_verdict verdict;
  int litmus_line;
  sobserve *obs; size_t nobs;
  sweak *weak; size_t nweak;
  char weak_text[256];
  smeta *meta; size_t nmeta;
  char **assume; int *assume_line; size_t nassume;   /* //@ assume: hypotheses on parameters, for static checkers */
  char loop_arrays[512];     /* //@ loop ARRAY...: the shared arrays of a loop kernel, comma-separated */
  int loop_line;
  char knobs[16][MAX_NAME];  /* expect race if KNOB...: the race sites' knobs */
  int nknobs;
};

typedef struct {
  gr_script *s;
  const char *line_start, *p;
  int line;
  const char *too_long;    /* where word() met a name longer than its field */
  const char *at;      /* the directive being parsed: where its keyword starts */
} dp;

static int derr(dp *d, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int derr(dp *d, const char *at, const char *fmt, ...) {
  char body[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  if (d->too_long) { at = d->too_long; snprintf(body, sizeof body, "name too long (at most %d characters)", MAX_NAME - 1); }
  int col = (int)((at ? at : d->p) - d->line_start) + 1;
  return host_fail(d->s->ctx, GR_EINPUT, "%s:%d:%d: error: %s", d->s->path, d->line, col, body);
}

static void skipws(dp *d) { while (*d->p == ' ' || *d->p == '\t') d->p++; }
static int at_end(dp *d) { skipws(d); return *d->p == 0 || *d->p == '\n' || *d->p == '\r'; }
static int eat(dp *d, char c) { skipws(d); if (*d->p == c) { d->p++; return 1; } return 0; }

/* A name: letters, digits, '_'.  One longer than the field is an error,
 * never two names. */
static int word(dp *d, char *out, size_t n) {
  skipws(d);
  size_t k = 0;
  const char *start = d->p;
  while (isalnum((unsigned char)*d->p) || *d->p == '_') {
    if (k + 1 >= n) { d->too_long = start; out[0] = 0; while (isalnum((unsigned char)*d->p) || *d->p == '_') d->p++; return 0; }
    out[k++] = *d->p++;
  }
  out[k] = 0;
  return k > 0;
}

static int parse_num(dp *d, num *v) {
  skipws(d);
  const char *s = d->p;
  char *e;
  memset(v, 0, sizeof *v);
  int neg = *s == '-';
  errno = 0;
  if (!strncmp(s + neg, "inf", 3) || !strncmp(s + neg, "nan", 3)) {
    v->is_float = 1;
    v->f = strtod(s, &e);
  } else {
    int is_float = 0;
    const char *q = s + (neg || *s == '+');
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) is_float = 0;
    else for (const char *r = q; isalnum((unsigned char)*r) || *r == '.' || ((*r == '-' || *r == '+') && (r[-1] == 'e' || r[-1] == 'E')); r++)
      if (*r == '.' || *r == 'e' || *r == 'E') is_float = 1;
    if (is_float) { v->is_float = 1; v->f = strtod(s, &e); }
    else if (neg) { v->i = strtoll(s, &e, 0); v->u = (uint64_t)v->i; v->f = (double)v->i; v->neg = 1; }
    else { v->u = strtoull(s, &e, 0); v->i = (int64_t)v->u; v->f = (double)v->u; }
  }
  if (e == s) return derr(d, s, "expected a number");
  if (errno == ERANGE && !v->is_float) return derr(d, s, "number out of range");
  if (isalnum((unsigned char)*e) || *e == '.') return derr(d, s, "malformed number");
  d->p = e;
  return GR_OK;
}

/* Whether a directive's number is a value of element type t: integers in
 * range (never wrapped), floats only for float types, finite floats within
 * f32's range for f32.  NULL when it is, else why not. */
static const char *num_misfit(num v, gr_type t) {
  if (t == GR_F32 || t == GR_F64) {
    if (v.is_float && isfinite(v.f) && t == GR_F32 && fabs(v.f) > 3.4028234663852886e38) return "out of range for f32";
    return NULL;
  }
  if (v.is_float) return "not an integer";
  int bits = gr_type_size(t) * 8;
  int is_signed = t == GR_I8 || t == GR_I16 || t == GR_I32 || t == GR_I64;
  if (t == GR_BOOL) return v.neg || v.u > 1 ? "out of range for bool" : NULL;
  if (is_signed) {
    int64_t lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1)), hi = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
    if (!v.neg && v.u > (uint64_t)hi) return "out of range";
    if (v.neg && v.i < lo) return "out of range";
    return NULL;
  }
  if (v.neg) return "negative for an unsigned type";
  if (bits < 64 && v.u >> bits) return "out of range";
  return NULL;
}

static int check_num(dp *d, const char *at, num v, gr_type t, const char *what) {
  const char *why = num_misfit(v, t);
  if (!why) return GR_OK;
  char val[64];
  if (v.is_float) snprintf(val, sizeof val, "%.17g", v.f);
  else if (v.neg) snprintf(val, sizeof val, "%lld", (long long)v.i);
  else snprintf(val, sizeof val, "%llu", (unsigned long long)v.u);
  return derr(d, at, "%s %s is %s (%s)", what, val, why, gr_type_name(t));
}

static int parse_dims(dp *d, const char *what, gr_dim3 *out) {
  if (!eat(d, '(')) return derr(d, NULL, "expected '(' after '%s'", what);
  unsigned v[3] = {1, 1, 1};
  for (int k = 0; k < 3; k++) {
    num n;
    const char *at = (skipws(d), d->p);
    if (parse_num(d, &n)) return GR_EINPUT;
    if (n.is_float || n.i < 1 || n.u > 0x7fffffffu) return derr(d, at, "%s dimension must be a positive integer", what);
    v[k] = (unsigned)n.u;
    if (eat(d, ')')) { out->x = v[0]; out->y = v[1]; out->z = v[2]; return GR_OK; }
    if (!eat(d, ',')) return derr(d, NULL, "expected ',' or ')' in %s(...)", what);
  }
  return derr(d, NULL, "%s takes at most three dimensions", what);
}

static int parse_type(dp *d, gr_type *t) {
  char w[16];
  const char *at = (skipws(d), d->p);
  if (!word(d, w, sizeof w)) return derr(d, at, "expected an element type (u8..u64, i8..i64, f32, f64)");
  static const struct { const char *n; gr_type t; } tab[] = {{"u8", GR_U8}, {"u16", GR_U16}, {"u32", GR_U32}, {"u64", GR_U64},
    {"i8", GR_I8}, {"i16", GR_I16}, {"i32", GR_I32}, {"i64", GR_I64}, {"f32", GR_F32}, {"f64", GR_F64}};
  for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++) if (!strcmp(w, tab[k].n)) { *t = tab[k].t; return GR_OK; }
  return derr(d, at, "unknown element type '%s' (u8..u64, i8..i64, f32, f64)", w);
}

#define LIST_MAX (1u << 22)

/* {V, ...}: values, where "A, B, ..., Z" continues the step B - A until it
 * reaches Z exactly (integers, or floats computed as A + k * step). */
static int parse_list(dp *d, num **out, size_t *n) {
  size_t cap = 16;
  *out = xmalloc(cap * sizeof(num));
  *n = 0;
  if (eat(d, '}')) return GR_OK;
  for (;;) {
    if (*n == cap) { cap *= 2; *out = xrealloc(*out, cap * sizeof(num)); }
    skipws(d);
    if (!strncmp(d->p, "...", 3)) {
      const char *at = d->p;
      d->p += 3;
      if (*n < 2) return derr(d, at, "'...' needs two values before it to give the step");
      num a = (*out)[*n - 2], b = (*out)[*n - 1], z;
      if (!eat(d, ',')) return derr(d, NULL, "expected ', LAST' after '...'");
      const char *zp = (skipws(d), d->p);
      if (parse_num(d, &z)) return GR_EINPUT;
      int fl = a.is_float || b.is_float || z.is_float;
      double fa = a.f, fb = b.f, fz = z.f;
      uint64_t steps;   /* elements after b up to and including z */
      if (fl) {
        double st = fb - fa, k = (fz - fb) / st;
        if (st == 0 || !(k >= 1) || k > (double)(1u << 28) || fb + st * round(k) != fz) return derr(d, zp, "'...' cannot reach %.17g from %.17g in steps of %.17g", fz, fb, st);
        steps = (uint64_t)round(k);
      } else {
        __int128 ia = num_wide(a), ib = num_wide(b), iz = num_wide(z), st = ib - ia;
        if (st == 0 || (iz - ib) % st || (iz - ib) / st < 1 || (iz - ib) / st > (1 << 28))
          return derr(d, zp, "'...' cannot reach the last value in steps of B - A");
        steps = (uint64_t)((iz - ib) / st);
      }
      if (*n + steps > LIST_MAX) return derr(d, at, "the list would hold more than %u values", LIST_MAX);
      for (uint64_t k = 1; k <= steps; k++) {
        if (*n == cap) { cap *= 2; *out = xrealloc(*out, cap * sizeof(num)); }
        num v;
        memset(&v, 0, sizeof v);
        if (fl) { v.is_float = 1; v.f = fb + (fb - fa) * (double)k; }
        else {
          __int128 ia = num_wide(a), ib = num_wide(b), x = ib + (ib - ia) * (__int128)k;
          v.neg = x < 0; v.i = (int64_t)x; v.u = (uint64_t)x; v.f = (double)x;
        }
        (*out)[(*n)++] = v;
      }
    } else {
      if (*n >= LIST_MAX) return derr(d, NULL, "the list holds more than %u values", LIST_MAX);
      if (parse_num(d, &(*out)[*n])) return GR_EINPUT;
      (*n)++;
    }
    if (eat(d, '}')) return GR_OK;
    if (!eat(d, ',')) return derr(d, NULL, "expected ',' or '}' in the list");
  }
}

/* The knobs after 'if' to the end of the line: at least one, at most max
 * macro names, stored stride bytes apart from out. */
static int parse_knobs(dp *d, char *out, size_t stride, int max, int *n) {
  while (!at_end(d)) {
    const char *kp = (skipws(d), d->p);
    if (*n == max) return derr(d, kp, "more than %d knobs", max);
    char *k = out + (size_t)*n * stride;
    if (!word(d, k, stride) || isdigit((unsigned char)k[0])) return derr(d, kp, "expected a macro name (a -D knob)");
    (*n)++;
  }
  if (!*n) return derr(d, NULL, "expected at least one knob after 'if'");
  return GR_OK;
}

static int dir_launch(dp *d, gr_script *s) {
  slaunch l;
  memset(&l, 0, sizeof l);
  char name[MAX_NAME];
  const char *np = (skipws(d), d->p);
  if (!word(d, name, sizeof name)) return derr(d, np, "expected a kernel name after 'launch'");
  /* a C++ name: ns::kernel, or a template instance kernel<int, 256> */
  while (d->p[0] == ':' && d->p[1] == ':') {
    size_t k = strlen(name);
    if (k + 3 >= sizeof name) return derr(d, np, "kernel name too long");
    memcpy(name + k, "::", 3);
    d->p += 2;
    char more[MAX_NAME];
    if (!word(d, more, sizeof more) || strlen(name) + strlen(more) + 1 >= sizeof name) return derr(d, np, "expected a name after '::'");
    strcat(name, more);
  }
  if (*d->p == '<') {
    const char *q = d->p;
    int depth = 0;
    do {
      if (*q == '<') depth++;
      else if (*q == '>') depth--;
      else if (!*q || *q == '\n') return derr(d, d->p, "unterminated template arguments in the kernel name");
      q++;
    } while (depth > 0);
    size_t k = strlen(name), m = (size_t)(q - d->p);
    if (k + m + 1 >= sizeof name) return derr(d, np, "kernel name too long");
    memcpy(name + k, d->p, m);
    name[k + m] = 0;
    d->p = q;
  }
  l.line = d->line;
  int have_grid = 0, have_block = 0, have_shared = 0;
  while (!at_end(d)) {
    char w[32];
    const char *wp = d->p;
    if (!word(d, w, sizeof w)) return derr(d, wp, "unexpected '%c' in launch directive", *wp);
    if (!strcmp(w, "if")) {
      int nk = 0;
      if (parse_knobs(d, l.knobs[0], sizeof l.knobs[0], 4, &nk)) return GR_EINPUT;
      break;
    }
    if (!strcmp(w, "cooperative")) {   /* cudaLaunchCooperativeKernel */
      if (l.flags & GR_LAUNCH_COOPERATIVE) return derr(d, wp, "'cooperative' given twice in one launch");
      l.flags |= GR_LAUNCH_COOPERATIVE;
      continue;
    }
    int *seen = !strcmp(w, "grid") ? &have_grid : !strcmp(w, "block") ? &have_block : !strcmp(w, "shared") ? &have_shared : NULL;
    if (seen && *seen) return derr(d, wp, "'%s' given twice in one launch", w);
    if (!strcmp(w, "grid")) { if (parse_dims(d, "grid", &l.grid)) return GR_EINPUT; have_grid = 1; }
    else if (!strcmp(w, "block")) { if (parse_dims(d, "block", &l.block)) return GR_EINPUT; have_block = 1; }
    else if (!strcmp(w, "shared")) {
      num n;
      if (!eat(d, '(')) return derr(d, NULL, "expected '(' after 'shared'");
      const char *vp = (skipws(d), d->p);
      if (parse_num(d, &n)) return GR_EINPUT;
      if (n.is_float || n.i < 0 || n.u > 0xffffffffu) return derr(d, vp, "shared bytes must be an integer from 0 to 2^32-1");
      l.shared = n.u;
      have_shared = 1;
      if (!eat(d, ')')) return derr(d, NULL, "expected ')'");
    } else return derr(d, wp, "unknown launch option '%s' (grid, block, shared, cooperative, if)", w);
  }
  if (!have_grid || !have_block) return derr(d, d->at, "launch needs grid(...) and block(...)");
  l.kernel = xstrdup(name);
  s->launches = xrealloc(s->launches, (s->nlaunches + 1) * sizeof *s->launches);
  s->launches[s->nlaunches++] = l;
  return GR_OK;
}

static int dir_buffer(dp *d, gr_script *s) {
  sbuffer b;
  memset(&b, 0, sizeof b);
  char name[MAX_NAME];
  const char *np = (skipws(d), d->p);
  if (!word(d, name, sizeof name)) return derr(d, np, "expected a buffer name");
  for (size_t k = 0; k < s->nbufs; k++) if (!strcmp(s->bufs[k].name, name)) return derr(d, np, "buffer '%s' declared twice", name);
  if (parse_type(d, &b.type)) return GR_EINPUT;
  if (!eat(d, '[')) return derr(d, NULL, "expected '[COUNT]' after the element type");
  num c;
  const char *cp = (skipws(d), d->p);
  if (parse_num(d, &c)) return GR_EINPUT;
  if (c.is_float || c.i < 1 || c.u > (1ull << 28)) return derr(d, cp, "buffer count must be an integer from 1 to 2^28");
  b.count = c.u;
  if (!eat(d, ']')) return derr(d, NULL, "expected ']'");
  b.init = INIT_ZEROS;
  const char *cat = NULL, *loat = NULL, *hiat = NULL, *ip = NULL;
  if (eat(d, '=')) {
    skipws(d);
    ip = d->p;
    char w[32];
    if (*d->p == '{') {
      d->p++;
      b.init = INIT_LIST;
      if (parse_list(d, &b.list, &b.nlist)) { free(b.list); return GR_EINPUT; }
      if (b.nlist != b.count) { free(b.list); return derr(d, ip, "list has %zu values for %llu elements", b.nlist, (unsigned long long)b.count); }
    } else if (isalpha((unsigned char)*d->p) && strncmp(d->p, "inf", 3) && strncmp(d->p, "nan", 3)) {
      word(d, w, sizeof w);
      if (!strcmp(w, "zeros")) b.init = INIT_ZEROS;
      else if (!strcmp(w, "iota")) {
        b.init = INIT_IOTA;
        b.step.u = 1; b.step.i = 1; b.step.f = 1;
        if (eat(d, '(')) {
          cat = (skipws(d), d->p);
          if (parse_num(d, &b.c)) return GR_EINPUT;
          if (eat(d, ',') && parse_num(d, &b.step)) return GR_EINPUT;
          if (!eat(d, ')')) return derr(d, NULL, "expected ')'");
        }
      } else if (!strcmp(w, "random")) {
        b.init = INIT_RANDOM;
        if (!eat(d, '(')) return derr(d, NULL, "random needs a seed: random(SEED[, LO, HI])");
        num sd;
        if (parse_num(d, &sd)) return GR_EINPUT;
        b.seed = sd.u;
        if (eat(d, ',')) {
          loat = (skipws(d), d->p);
          if (parse_num(d, &b.lo)) return GR_EINPUT;
          if (!eat(d, ',')) return derr(d, NULL, "random range needs LO and HI");
          hiat = (skipws(d), d->p);
          if (parse_num(d, &b.hi)) return GR_EINPUT;
          b.has_range = 1;
        }
        if (!eat(d, ')')) return derr(d, NULL, "expected ')'");
      } else return derr(d, ip, "unknown initialiser '%s' (zeros, VALUE, {list}, iota, random)", w);
    } else {
      b.init = INIT_CONST;
      cat = d->p;
      if (parse_num(d, &b.c)) return GR_EINPUT;
    }
  }
  if (!at_end(d)) { free(b.list); return derr(d, NULL, "unexpected text after the buffer directive"); }
  int is_f = b.type == GR_F32 || b.type == GR_F64;
  if (!is_f) {
    num *vals[4] = {&b.c, &b.step, &b.lo, &b.hi};
    for (int k = 0; k < 4; k++) if (vals[k]->is_float) { free(b.list); return derr(d, np, "buffer '%s' of %s has a non-integer initialiser", name, gr_type_name(b.type)); }
    for (size_t k = 0; k < b.nlist; k++) if (b.list[k].is_float) { free(b.list); return derr(d, np, "buffer '%s' of %s has a non-integer value in its list", name, gr_type_name(b.type)); }
  }
  /* values of the element type, never wrapped into it */
  if ((cat && check_num(d, cat, b.c, b.type, "value")) || (loat && check_num(d, loat, b.lo, b.type, "LO")) ||
      (hiat && check_num(d, hiat, b.hi, b.type, "HI"))) { free(b.list); return GR_EINPUT; }
  for (size_t k = 0; k < b.nlist; k++) {
    const char *why = num_misfit(b.list[k], b.type);
    if (why) { free(b.list); return derr(d, ip, "list value %zu of buffer '%s' is %s (%s)", k + 1, name, why, gr_type_name(b.type)); }
  }
  if (b.init == INIT_IOTA && !is_f && b.count > 1) {
    /* the last element must be a value of the type too */
    __int128 last = num_wide(b.c) + (__int128)(b.count - 1) * num_wide(b.step);
    num lv;
    memset(&lv, 0, sizeof lv);
    int fits64 = last >= (__int128)INT64_MIN && last <= (__int128)UINT64_MAX;
    lv.neg = last < 0; lv.i = (int64_t)last; lv.u = (uint64_t)last;
    if (!fits64 || num_misfit(lv, b.type)) { free(b.list); return derr(d, ip, "iota's last element (index %llu) leaves the range of %s", (unsigned long long)(b.count - 1), gr_type_name(b.type)); }
  }
  if (b.has_range) {
    int empty = is_f ? b.lo.f > b.hi.f
              : (b.lo.neg || b.hi.neg) ? b.lo.i > b.hi.i : b.lo.u > b.hi.u;
    if (empty) { free(b.list); return derr(d, ip, "random range is empty"); }
  }
  b.name = xstrdup(name);
  b.line = d->line;
  s->bufs = xrealloc(s->bufs, (s->nbufs + 1) * sizeof(sbuffer));
  s->bufs[s->nbufs++] = b;
  return GR_OK;
}

static int dir_arg(dp *d, gr_script *s) {
  char name[MAX_NAME];
  const char *np = (skipws(d), d->p);
  if (!word(d, name, sizeof name)) return derr(d, np, "expected an argument name");
  if (!eat(d, '=')) return derr(d, NULL, "expected '=' after the argument name");
  for (size_t k = 0; k < s->nargs; k++) if (!strcmp(s->args[k].name, name)) return derr(d, np, "argument '%s' given twice", name);
  sarg a;
  memset(&a, 0, sizeof a);
  if (eat(d, '{')) {   /* a struct: its leaves in order, numbers or buffer names */
    a.is_list = 1;
    size_t cap = 8;
    a.list = xcalloc(cap, sizeof(num));
    a.refs = xcalloc(cap, sizeof(char *));
    int bad = GR_OK;
    while (bad == GR_OK && !eat(d, '}')) {
      if (a.n == cap) {
        cap *= 2;
        a.list = xrealloc(a.list, cap * sizeof(num));
        a.refs = xrealloc(a.refs, cap * sizeof(char *));
      }
      memset(&a.list[a.n], 0, sizeof(num));
      a.refs[a.n] = NULL;
      skipws(d);
      if (isalpha((unsigned char)*d->p) || *d->p == '_') {
        char ref[MAX_NAME];
        if (!word(d, ref, sizeof ref)) bad = derr(d, NULL, "expected a buffer name");
        else a.refs[a.n] = xstrdup(ref);
      } else bad = parse_num(d, &a.list[a.n]);
      a.n++;
      if (bad == GR_OK && a.n > 4096) bad = derr(d, NULL, "more than 4096 values");
      if (bad == GR_OK && !eat(d, ',') && (skipws(d), *d->p != '}')) bad = derr(d, NULL, "expected ',' or '}' in the list");
    }
    if (bad != GR_OK) {
      for (size_t k = 0; k < a.n; k++) free(a.refs[k]);
      free(a.list); free(a.refs);
      return bad;
    }
  } else if (parse_num(d, &a.v)) return GR_EINPUT;
  if (!at_end(d)) {
    for (size_t k = 0; k < a.n; k++) free(a.refs[k]);
    free(a.list); free(a.refs);
    return derr(d, NULL, "unexpected text after the argument value");
  }
  a.name = xstrdup(name);
  a.line = d->line;
  s->args = xrealloc(s->args, (s->nargs + 1) * sizeof(sarg));
  s->args[s->nargs++] = a;
  return GR_OK;
}

static int dir_expect(dp *d, gr_script *s) {
  if (s->expect_line) return derr(d, d->at, "a second expect directive (the first is on line %d)", s->expect_line);
  s->expect_line = d->line;
  char w[32];
  const char *wp = (skipws(d), d->p);
  word(d, w, sizeof w);
  /* a loop kernel's ground truth: a cross-iteration dependency (a violation of sequential order) */
  if (!strcmp(w, "race") || !strcmp(w, "dependency")) s->expect = 1;
  else if (!strcmp(w, "norace") || !strcmp(w, "nodependency")) s->expect = 0;
  else return derr(d, wp, "expect takes 'race', 'norace', 'dependency' or 'nodependency'");
  if (s->expect == 1 && !at_end(d)) {
    char kw2[8];
    const char *ip = (skipws(d), d->p);
    if (!word(d, kw2, sizeof kw2) || strcmp(kw2, "if")) return derr(d, ip, "expected 'if KNOB...' or the end of the line after 'expect race'");
    if (parse_knobs(d, s->knobs[0], sizeof s->knobs[0], 16, &s->nknobs)) return GR_EINPUT;
  }
  if (!at_end(d)) return derr(d, NULL, "unexpected text after expect");
  return GR_OK;
}

static int dir_meta(dp *d, gr_script *s) {
  smeta m;
  memset(&m, 0, sizeof m);
  const char *kp = (skipws(d), d->p);
  if (!word(d, m.key, sizeof m.key)) return derr(d, kp, "expected a key after 'meta'");
  const char *vp = (skipws(d), d->p);
  if (!word(d, m.val, sizeof m.val)) {
    if (d->too_long) { d->too_long = NULL; return derr(d, vp, "meta value too long (at most %zu characters)", sizeof m.val - 1); }
    return derr(d, vp, "expected a value (letters, digits, '_') after the key");
  }
  if (!at_end(d)) return derr(d, NULL, "unexpected text after the meta value");
  for (size_t k = 0; k < s->nmeta; k++)
    if (!strcmp(s->meta[k].key, m.key)) return derr(d, kp, "meta key '%s' given twice", m.key);
  s->meta = xrealloc(s->meta, (s->nmeta + 1) * sizeof *s->meta);
  s->meta[s->nmeta++] = m;
  return GR_OK;
}

static int dir_loop(dp *d, gr_script *s) {
  /* a loop kernel: iteration i is flattened thread i; the arrays whose accesses may carry dependencies */
  if (s->loop_line) return derr(d, d->at, "a second loop directive (the first is on line %d)", s->loop_line);
  s->loop_line = d->line;
  while (!at_end(d)) {
    char name[MAX_NAME];
    const char *np = (skipws(d), d->p);
    if (!word(d, name, sizeof name)) return derr(d, np, "expected an array (a buffer or __device__ variable) after 'loop'");
    if (strlen(s->loop_arrays) + strlen(name) + 2 > sizeof s->loop_arrays) return derr(d, np, "too many loop arrays");
    if (s->loop_arrays[0]) strcat(s->loop_arrays, ",");
    strcat(s->loop_arrays, name);
    eat(d, ',');   /* names apart by spaces or commas */
  }
  if (!s->loop_arrays[0]) return derr(d, NULL, "expected at least one array after 'loop'");
  return GR_OK;
}

static int dir_assume(dp *d, gr_script *s) {
  /* read by BabyCUDA's checker, which parses and checks the expression */
  skipws(d);
  const char *e = d->p;
  while (*d->p && *d->p != '\n' && *d->p != '\r') d->p++;
  if (d->p == e) return derr(d, e, "expected a condition on the kernel's parameters after 'assume'");
  s->assume = xrealloc(s->assume, (s->nassume + 1) * sizeof *s->assume);
  s->assume_line = xrealloc(s->assume_line, (s->nassume + 1) * sizeof *s->assume_line);
  s->assume[s->nassume] = xmalloc((size_t)(d->p - e) + 1);
  memcpy(s->assume[s->nassume], e, (size_t)(d->p - e));
  s->assume[s->nassume][d->p - e] = 0;
  s->assume_line[s->nassume++] = d->line;
  return GR_OK;
}

static int dir_check(dp *d, gr_script *s) {
  scheck c;
  memset(&c, 0, sizeof c);
  char name[MAX_NAME];
  const char *np = (skipws(d), d->p);
  if (!word(d, name, sizeof name)) return derr(d, np, "expected a buffer or variable name");
  if (!eat(d, '=')) return derr(d, NULL, "expected '=' after the name");
  if (eat(d, '{')) { if (parse_list(d, &c.vals, &c.n)) { free(c.vals); return GR_EINPUT; } }
  else { c.vals = xmalloc(sizeof(num)); c.n = 1; c.all_equal = 1; if (parse_num(d, &c.vals[0])) { free(c.vals); return GR_EINPUT; } }
  if (!at_end(d)) {
    char w[16];
    const char *wp = d->p;
    num t;
    if (!word(d, w, sizeof w) || strcmp(w, "tol") || !eat(d, '(') || parse_num(d, &t) || !eat(d, ')') || t.f < 0) {
      free(c.vals);
      return derr(d, wp, "expected 'tol(EPS)' or the end of the check");
    }
    c.tol = t.f;
    if (!at_end(d)) { free(c.vals); return derr(d, NULL, "unexpected text after the check"); }
  }
  c.name = xstrdup(name);
  c.line = d->line;
  s->checks = xrealloc(s->checks, (s->nchecks + 1) * sizeof(scheck));
  s->checks[s->nchecks++] = c;
  return GR_OK;
}

static int dir_litmus(dp *d, gr_script *s) {
  if (s->litmus_id[0]) return derr(d, d->at, "a second litmus directive");
  const char *ip = (skipws(d), d->p);
  if (!word(d, s->litmus_id, sizeof s->litmus_id)) return derr(d, ip, "expected the test's id after 'litmus'");
  const char *pp = (skipws(d), d->p);
  size_t n = 0;
  while (pp[n] && pp[n] != ' ' && pp[n] != '\t' && pp[n] != '\n' && pp[n] != '\r') n++;
  if (n == 1 && strchr("WBG", pp[0])) {
    s->placement = pp[0];
    s->where[0] = pp[0];
    s->where[1] = 0;
  } else {
    /* one entry per test thread: bBwW, its block and its warp in the block */
    if (!n || n >= sizeof s->where || pp[0] != 'b')
      return derr(d, pp, "expected the placement: W (one warp), B (one block, several warps), G (one thread per block) or a "
                         "list bBwW,... giving each thread's block and warp");
    const char *q = pp;
    s->nwhere = 0;
    while (q < pp + n) {
      char *e;
      if (*q != 'b' || !(q[1] >= '0' && q[1] <= '9')) return derr(d, q, "expected bBLOCKwWARP in the placement list");
      unsigned long b = strtoul(q + 1, &e, 10);
      if (*e != 'w' || !(e[1] >= '0' && e[1] <= '9')) return derr(d, e, "expected wWARP after the block in the placement list");
      unsigned long w = strtoul(e + 1, &e, 10);
      if (b > 1023 || w > 31) return derr(d, q, "a placement names blocks 0 to 1023 and warps 0 to 31");
      if (s->nwhere == 32) return derr(d, q, "a placement list names at most 32 threads");
      s->where_b[s->nwhere] = (int)b;
      s->where_w[s->nwhere++] = (int)w;
      q = e;
      if (q < pp + n && *q++ != ',') return derr(d, q - 1, "expected ',' between the threads of the placement list");
      if (q == pp + n && q[-1] == ',') return derr(d, q - 1, "a placement list does not end with ','");
    }
    memcpy(s->where, pp, n);
    s->where[n] = 0;
    s->placement = 'M';
  }
  d->p = pp + n;
  s->litmus_line = d->line;
  if (!at_end(d)) return derr(d, NULL, "unexpected text after the litmus directive");
  return GR_OK;
}

static int dir_observe(dp *d, gr_script *s) {
  while (!at_end(d)) {
    sobserve o;
    memset(&o, 0, sizeof o);
    const char *vp = d->p;
    if (!word(d, o.var, sizeof o.var)) return derr(d, vp, "expected VAR=BUFFER[INDEX]");
    for (size_t k = 0; k < s->nobs; k++) if (!strcmp(s->obs[k].var, o.var)) return derr(d, vp, "'%s' observed twice", o.var);
    if (!eat(d, '=')) return derr(d, NULL, "expected '=' after '%s'", o.var);
    const char *bp = (skipws(d), d->p);
    if (!word(d, o.buf, sizeof o.buf)) return derr(d, bp, "expected a buffer or variable name");
    if (eat(d, '[')) {
      num n;
      const char *np = (skipws(d), d->p);
      if (parse_num(d, &n)) return GR_EINPUT;
      if (n.is_float || n.i < 0) return derr(d, np, "index must be a non-negative integer");
      o.index = n.u;
      if (!eat(d, ']')) return derr(d, NULL, "expected ']'");
    }
    o.line = d->line;
    s->obs = xrealloc(s->obs, (s->nobs + 1) * sizeof(sobserve));
    s->obs[s->nobs++] = o;
  }
  if (!s->nobs) return derr(d, d->at, "observe needs at least one VAR=BUFFER[INDEX]");
  return GR_OK;
}

static int dir_outcome(dp *d, gr_script *s) {
  if (s->verdict != GR_VERDICT_NONE) return derr(d, d->at, "a second outcome directive");
  const char *start = (skipws(d), d->p);
  for (;;) {
    const char *vp = (skipws(d), d->p);
    char w[32];
    if (!word(d, w, sizeof w)) return derr(d, vp, "expected VAR=VALUE ... and a verdict");
    if (!strcmp(w, "forbidden") || !strcmp(w, "allowed")) {
      const char *end = vp;
      if (!strcmp(w, "forbidden")) s->verdict = GR_FORBIDDEN;
      else {
        char w2[32];
        if (!eat(d, '-') || !word(d, w2, sizeof w2) || (strcmp(w2, "required") && strcmp(w2, "optional")))
          return derr(d, vp, "expected forbidden, allowed-required or allowed-optional");
        s->verdict = !strcmp(w2, "required") ? GR_ALLOWED_REQUIRED : GR_ALLOWED_OPTIONAL;
      }
      while (end > start && (end[-1] == ' ' || end[-1] == '\t')) end--;
      snprintf(s->weak_text, sizeof s->weak_text, "%.*s", (int)(end - start), start);
      break;
    }
    sweak x;
    memset(&x, 0, sizeof x);
    snprintf(x.var, sizeof x.var, "%s", w);
    if (!eat(d, '=')) return derr(d, NULL, "expected '=' after '%s'", w);
    if (parse_num(d, &x.v)) return GR_EINPUT;
    s->weak = xrealloc(s->weak, (s->nweak + 1) * sizeof(sweak));
    s->weak[s->nweak++] = x;
  }
  if (!s->nweak) return derr(d, d->at, "outcome needs at least one VAR=VALUE before the verdict");
  if (!at_end(d)) return derr(d, NULL, "unexpected text after the verdict");
  return GR_OK;
}

/* //@ arch sm_NN: the oldest architecture the kernel compiles for (redux,
 * cp.async and bf16 need sm_80): the CUDA compiler's target where --cc
 * gives it none. */
static int dir_arch(dp *d, gr_script *s) {
  char w[32];
  const char *wp = (skipws(d), d->p);
  unsigned v = 0;
  if (!word(d, w, sizeof w) || sscanf(w, "sm_%u", &v) != 1 || v < 50 || v > 200 || strspn(w + 3, "0123456789") != strlen(w + 3))
    return derr(d, wp, "expected an architecture such as sm_80 after 'arch'");
  if (s->arch) return derr(d, d->at, "'arch' given twice");
  if (!at_end(d)) return derr(d, NULL, "unexpected text after the architecture");
  s->arch = (int)v;
  return GR_OK;
}

/* The directives, each parsed by its handler after its keyword. */
static const struct {
  const char *name;
  int (*parse)(dp *d, gr_script *s);
} directives[] = {
  {"launch", dir_launch},
  {"buffer", dir_buffer},
  {"arg", dir_arg},
  {"expect", dir_expect},
  {"meta", dir_meta},
  {"loop", dir_loop},
  {"assume", dir_assume},
  {"check", dir_check},
  {"litmus", dir_litmus},
  {"observe", dir_observe},
  {"outcome", dir_outcome},
  {"arch", dir_arch},
};

/* The directives' names, for messages. */
static const char *directive_names(void) {
  static char names[256];
  if (!names[0])
    for (size_t k = 0; k < sizeof directives / sizeof *directives; k++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "", directives[k].name);
  return names;
}

static int directive(dp *d) {
  char kw[32];
  const char *at = (skipws(d), d->p);
  if (!word(d, kw, sizeof kw)) return derr(d, at, "expected a directive (%s)", directive_names());
  d->at = at;
  for (size_t k = 0; k < sizeof directives / sizeof *directives; k++)
    if (!strcmp(kw, directives[k].name)) return directives[k].parse(d, d->s);
  return derr(d, at, "unknown directive '%s' (%s)", kw, directive_names());
}

void gr_script_free(gr_script *s) {
  if (!s) return;
  for (size_t k = 0; k < s->nlaunches; k++) free(s->launches[k].kernel);
  free(s->launches);
  for (size_t k = 0; k < s->nbufs; k++) { free(s->bufs[k].name); free(s->bufs[k].list); }
  for (size_t k = 0; k < s->nargs; k++) {
    free(s->args[k].name);
    for (size_t j = 0; j < s->args[k].n; j++) free(s->args[k].refs[j]);
    free(s->args[k].list); free(s->args[k].refs);
  }
  for (size_t k = 0; k < s->nchecks; k++) { free(s->checks[k].name); free(s->checks[k].vals); }
  free(s->bufs); free(s->args); free(s->checks);
  free(s->obs); free(s->weak); free(s->meta);
  for (size_t k = 0; k < s->nassume; k++) free(s->assume[k]);
  free(s->assume); free(s->assume_line);
  free(s->path);
  free(s);
}

/* Reads every //@ line of text (len bytes and a NUL, modified in place). */
static int parse_directives(gr_script *s, char *text, size_t len) {
  /* a NUL byte would end the text early and drop every directive after it */
  const char *nul = memchr(text, 0, len);
  if (nul) {
    int line = 1;
    const char *ls = text;
    for (const char *c = text; c < nul; c++) if (*c == '\n') { line++; ls = c + 1; }
    return host_fail(s->ctx, GR_EINPUT, "%s:%d:%d: error: the file holds a NUL byte (not a text file?)", s->path, line, (int)(nul - ls) + 1);
  }
  if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) text += 3;   /* a UTF-8 byte-order mark */
  dp d = {s, text, text, 1, NULL, NULL};
  for (char *line = text; line && *line; d.line++) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = 0;
    char *q = line;
    while (*q == ' ' || *q == '\t') q++;
    if (!strncmp(q, "//@", 3)) {
      d.line_start = line;
      d.p = q + 3;
      int rc = directive(&d);
      if (rc != GR_OK) return rc;
    }
    line = nl ? nl + 1 : NULL;
  }
  if (!s->nlaunches) return host_fail(s->ctx, GR_EINPUT, "%s: error: no '//@ launch' directive: the file does not say how to run it", s->path);
  return GR_OK;
}

/* A litmus file is complete, and its placement matches its launch. */
static int check_litmus(gr_script *s) {
  if (!s->nobs && !s->nweak && !s->litmus_id[0]) return GR_OK;
  gr_context *ctx = s->ctx;
  if (!s->litmus_id[0] || !s->nobs || !s->nweak)
    return host_fail(ctx, GR_EINPUT, "%s: error: a litmus test needs '//@ litmus', '//@ observe' and '//@ outcome' directives", s->path);
  for (size_t k = 0; k < s->nweak; k++) {
    size_t j = 0;
    while (j < s->nobs && strcmp(s->obs[j].var, s->weak[k].var)) j++;
    if (j == s->nobs) return host_fail(ctx, GR_EINPUT, "%s: error: the outcome names '%s', which no '//@ observe' defines", s->path, s->weak[k].var);
  }
  if (s->nlaunches != 1)
    return host_fail(ctx, GR_EINPUT, "%s:%d:1: error: a litmus test has one launch (this is the second)", s->path, s->launches[1].line);
  /* the placement is a claim about the launch: hold the file to it */
  slaunch *l = &s->launches[0];
  uint64_t nb = (uint64_t)l->grid.x * l->grid.y * l->grid.z, nt = (uint64_t)l->block.x * l->block.y * l->block.z;
  const char *bad = NULL;
  if (s->placement == 'W' && (nb != 1 || nt > 32)) bad = "W needs one block of at most 32 threads";
  if (s->placement == 'B' && (nb != 1 || nt <= 32)) bad = "B needs one block of more than 32 threads";
  if (s->placement == 'G' && (nb < 2 || nt != 1)) bad = "G needs several blocks of one thread";
  if (s->placement == 'G' && nb > (uint64_t)ctx->cfg.sms) bad = "G needs a block per SM: more blocks than SMs";
  if (s->placement == 'M') {
    int maxb = 0, maxw = 0, used[1024] = {0};
    for (int k = 0; k < s->nwhere; k++) {
      if (s->where_b[k] > maxb) maxb = s->where_b[k];
      if (s->where_w[k] > maxw) maxw = s->where_w[k];
      used[s->where_b[k]] = 1;
    }
    for (int b = 0; b <= maxb && !bad; b++) if (!used[b]) bad = "every block of the launch holds a test thread";
    if (!bad && nb != (uint64_t)maxb + 1) bad = "the grid has one block per block the list names";
    if (!bad && nt <= (uint64_t)maxw * 32) bad = "a block has too few threads for the warps the list names";
    if (!bad && nb > (uint64_t)ctx->cfg.sms) bad = "each block needs an SM of its own: more blocks than SMs";
  }
  if (bad) return host_fail(ctx, GR_EINPUT, "%s:%d:1: error: placement %s does not match the launch: %s", s->path, s->litmus_line, s->where, bad);
  return GR_OK;
}

/* Every check names a buffer or __device__ variable, and its values are
 * values of that element type: an error with the check's position before
 * anything runs, never a check that cannot hold or silently wraps. */
/* The element type and count of a buffer or __device__ variable by name;
 * 0 when there is none. */
static int named_data(const gr_script *s, const char *name, gr_type *t, uint64_t *count) {
  for (size_t j = 0; j < s->nbufs; j++)
    if (!strcmp(s->bufs[j].name, name)) { *t = s->bufs[j].type; *count = s->bufs[j].count; return 1; }
  const kir_module *km = s->mod->km;
  for (int j = 0; j < km->nglobals; j++)
    if (!strcmp(km->globals[j].name, name)) {
      kir_sk e = km->globals[j].elem;
      *t = (gr_type)(e == SK_PTR ? SK_U64 : e == SK_BOOL ? SK_U8 : e);
      *count = km->globals[j].size / (uint64_t)gr_type_size(*t);
      return 1;
    }
  return 0;
}

static int check_checks(gr_script *s) {
  for (size_t k = 0; k < s->nchecks; k++) {
    scheck *c = &s->checks[k];
    gr_type t;
    uint64_t count;
    if (!named_data(s, c->name, &t, &count))
      return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: check names '%s', which is neither a buffer nor a __device__ variable", s->path, c->line, c->name);
    for (size_t j = 0; j < c->n; j++) {
      const char *why = num_misfit(c->vals[j], t);
      if (why) return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: check value %zu of '%s' is %s (%s)", s->path, c->line, j + 1, c->name, why, gr_type_name(t));
    }
    /* a list of the wrong length is a mistake of the file, as in '//@ buffer' */
    if (!c->all_equal && c->n != count)
      return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: check lists %zu values for '%s', which has %llu elements", s->path, c->line, c->n,
                       c->name, (unsigned long long)count);
    if (c->tol > 0 && t != GR_F32 && t != GR_F64)
      return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: tol() applies to float values; '%s' holds %s", s->path, c->line, c->name, gr_type_name(t));
  }
  return GR_OK;
}

/* Every observe names a buffer or __device__ variable and an index inside
 * it: known at load, so a bad one fails before any run is counted. */
static int check_observes(gr_script *s) {
  for (size_t k = 0; k < s->nobs; k++) {
    sobserve *o = &s->obs[k];
    gr_type t;
    uint64_t count;
    if (!named_data(s, o->buf, &t, &count)) return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: observe %s=%s[%llu]: no buffer or __device__ variable '%s'", s->path, o->line, o->var, o->buf, (unsigned long long)o->index, o->buf);
    if (o->index >= count)
      return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: observe %s=%s[%llu]: '%s' has %llu elements", s->path, o->line, o->var, o->buf,
                      (unsigned long long)o->index, o->buf, (unsigned long long)count);
  }
  return GR_OK;
}

static gr_script *script_new(gr_context *ctx, const char *path) {
  gr_script *s = xcalloc(1, sizeof *s);
  s->ctx = ctx;
  s->path = xstrdup(path);
  s->expect = -1;
  return s;
}

/* Whether -D KNOB is given, whatever its value, as #ifdef KNOB reads it. */
static int knob_defined(const char *knob, const char *const *defines, int ndefines) {
  size_t L = strlen(knob);
  for (int j = 0; j < ndefines; j++)
    if (!strncmp(defines[j], knob, L) && (defines[j][L] == 0 || defines[j][L] == '=')) return 1;
  return 0;
}

int gr_script_load(gr_context *ctx, const char *path, const char *const *defines, int ndefines, gr_script **out) {
  *out = NULL;
  size_t len;
  char err[1024];
  /* read once: the file may be a pipe */
  char *text = source_read_file(path, (size_t)ctx->cfg.max_source, &len, err, sizeof err);
  if (!text) return host_fail(ctx, GR_EINPUT, "%s", err);
  char *copy = xmalloc(len + 1);
  memcpy(copy, text, len + 1);
  gr_script *s = script_new(ctx, path);
  int rc = parse_directives(s, copy, len);
  free(copy);
  if (rc == GR_OK) rc = host_module_load_text(ctx, path, text, len, defines, ndefines, s->arch, &s->mod);
  free(text);
  if (rc == GR_OK && s->nknobs) {
    /* expect race if KNOB...: racy when one of them is defined */
    s->expect = 0;
    for (int k = 0; k < s->nknobs; k++)
      if (knob_defined(s->knobs[k], defines, ndefines)) s->expect = 1;
  }
  /* launch ... if KNOB...: kept where one of its knobs is defined */
  size_t kept = 0, declared = s->nlaunches;
  for (size_t k = 0; k < s->nlaunches; k++) {
    slaunch *l = &s->launches[k];
    int run = !l->knobs[0][0];
    for (int j = 0; j < 4 && l->knobs[j][0]; j++)
      if (knob_defined(l->knobs[j], defines, ndefines)) run = 1;
    if (run) s->launches[kept++] = *l;
    else free(l->kernel);
  }
  s->nlaunches = kept;
  if (rc == GR_OK && declared && !kept) rc = host_fail(ctx, GR_EINPUT, "%s: error: every '//@ launch' has a knob that is not defined: nothing to run", path);
  for (size_t k = 0; k < s->nlaunches && rc == GR_OK; k++) {
    int np = gr_kernel_nparams(s->mod, s->launches[k].kernel);
    const char *why = NULL, *front = gr_module_front(s->mod, &why);
    /* where --cc auto passed the subset by, what the subset said may be why
     * (a preprocessor error the CUDA compiler did not meet) */
    if (np < 0)
      rc = host_fail(ctx, GR_EINPUT, "%s:%d:1: error: the launch names '%s', which is not a __global__ function of the file%s%s%s%s", path,
                     s->launches[k].line, s->launches[k].kernel, why ? " as " : "", why ? front : "",
                     why ? " compiled it; the CUDA-subset front end could not read it: " : "", why ? why : "");
  }
  if (rc == GR_OK) rc = check_litmus(s);
  if (rc == GR_OK) rc = check_checks(s);
  if (rc == GR_OK) rc = check_observes(s);
  if (rc != GR_OK) { gr_script_free(s); return rc; }
  *out = s;
  return GR_OK;
}

int gr_script_check_directives(gr_context *ctx, const char *name, const char *text, size_t len) {
  char *copy = xmalloc(len + 1);
  memcpy(copy, text, len);
  copy[len] = 0;
  gr_script *s = script_new(ctx, name);
  int rc = parse_directives(s, copy, len);
  if (rc == GR_OK) rc = check_litmus(s);
  free(copy);
  gr_script_free(s);
  return rc;
}

static uint64_t num_to_bits(num v, gr_type t) {
  if (t == GR_F32) return sem_bits32((float)v.f);
  if (t == GR_F64) return sem_bits64(v.f);
  return (uint64_t)v.i;
}

static void write_elem(uint8_t *p, gr_type t, uint64_t bits) { memcpy(p, &bits, (size_t)gr_type_size(t)); }

static int init_buffer(gr_script *s, sbuffer *b) {
  size_t es = (size_t)gr_type_size(b->type), n = (size_t)b->count;
  uint8_t *host = xcalloc(n, es);
  int is_f = b->type == GR_F32 || b->type == GR_F64;
  rng r;
  rng_seed(&r, b->seed);
  for (size_t k = 0; k < n && b->init != INIT_ZEROS; k++) {
    uint64_t bits = 0;
    switch (b->init) {
    case INIT_CONST: bits = num_to_bits(b->c, b->type); break;
    case INIT_LIST: bits = num_to_bits(b->list[k], b->type); break;
    case INIT_IOTA: {
      num v;
      memset(&v, 0, sizeof v);
      if (is_f) { v.is_float = 1; v.f = b->c.f + (double)k * b->step.f; }
      else v.i = (int64_t)((uint64_t)b->c.i + (uint64_t)k * (uint64_t)b->step.i);
      bits = num_to_bits(v, b->type);
      break;
    }
    case INIT_RANDOM: {
      uint64_t x = rng_next(&r);
      if (is_f) {
        double u = (double)(x >> 11) * 0x1.0p-53;
        double lo = b->has_range ? b->lo.f : 0.0;
        double hi = b->has_range ? b->hi.f : 1.0;
        num v = {1, 0, 0, 0, lo + u * (hi - lo)};
        bits = num_to_bits(v, b->type);
      } else if (b->has_range) {
        uint64_t span = (uint64_t)b->hi.i - (uint64_t)b->lo.i + 1;
        bits = (uint64_t)b->lo.i + (span ? x % span : x);
      } else bits = x;
      break;
    }
    default: break;
    }
    write_elem(host + k * es, b->type, bits);
  }
  int rc = b->ptr ? GR_OK : gr_malloc(s->ctx, n * es, b->name, &b->ptr);
  if (rc == GR_OK) rc = gr_memcpy_htod(s->ctx, b->ptr, host, n * es);
  free(host);
  return rc;
}

int gr_script_reset(gr_script *s) {
  for (size_t k = 0; k < s->nbufs; k++) {
    if (!s->bufs[k].ptr) continue;
    int rc = init_buffer(s, &s->bufs[k]);
    if (rc) return rc;
  }
  kir_module *km = s->mod->km;
  for (int k = 0; k < km->nglobals; k++) {
    kir_global *g = &km->globals[k];
    int rc = g->init ? gr_memcpy_htod(s->ctx, s->mod->gaddr[k], g->init, g->size) : gr_memset(s->ctx, s->mod->gaddr[k], 0, g->size);
    if (rc) return rc;
  }
  return GR_OK;
}

/* Binds one launch's parameters by name: pointers to buffers, scalars to
 * args, each value checked against the parameter's type. */
/* A struct by value from its list of leaves: each a value of its leaf's
 * type, pointers from buffer names (or 0). */
static int bind_struct(gr_script *s, slaunch *l, int k, sarg *a, gr_arg *out, uint8_t **bytes) {
  size_t size;
  int nleaves;
  const uint32_t *off;
  const gr_type *types;
  gr_kernel_param_struct(s->mod, l->kernel, k, &size, &nleaves, &off, &types);
  if (nleaves == 0 && size > 0)
    return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: argument '%s' is a struct whose fields are unknown: PTX gives only its size (%zu bytes), and the subset front end, which would give them, cannot read this file",
                    s->path, a->line, a->name, size);
  if (!a->is_list) return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: argument '%s' is a struct: give its %d values as {V, ...}", s->path, a->line, a->name, nleaves);
  if ((int)a->n != nleaves)
    return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: argument '%s' has %zu values; the struct has %d scalar fields", s->path, a->line, a->name, a->n, nleaves);
  uint8_t *b = xcalloc(size + 1, 1);
  bytes[k] = b;
  for (int j = 0; j < nleaves; j++) {
    uint64_t bits;
    if (types[j] == GR_PTR) {
      if (a->refs[j]) {
        sbuffer *buf = NULL;
        for (size_t q = 0; q < s->nbufs; q++) if (!strcmp(s->bufs[q].name, a->refs[j])) buf = &s->bufs[q];
        if (!buf) return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: argument '%s': value %d names '%s', which is no buffer", s->path, a->line, a->name, j + 1, a->refs[j]);
        buf->used = 1;
        bits = buf->ptr;
      } else if (!a->list[j].is_float && !a->list[j].neg && a->list[j].u == 0) bits = 0;
      else return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: argument '%s': value %d is a pointer: a buffer name or 0", s->path, a->line, a->name, j + 1);
    } else {
      if (a->refs[j]) return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: argument '%s': value %d is a %s, not a buffer", s->path, a->line, a->name, j + 1, gr_type_name(types[j]));
      const char *why = num_misfit(a->list[j], types[j]);
      if (why) return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: argument '%s': value %d is %s (%s)", s->path, a->line, a->name, j + 1, why, gr_type_name(types[j]));
      bits = num_to_bits(a->list[j], types[j]);
    }
    memcpy(b + off[j], &bits, (size_t)(types[j] == GR_PTR ? 8 : gr_type_size(types[j])));
  }
  *out = gr_arg_struct(b, size);
  return GR_OK;
}

static int bind_launch(gr_script *s, slaunch *l, gr_arg **out, int *nout, uint8_t ***structs_out) {
  gr_context *ctx = s->ctx;
  int np = gr_kernel_nparams(s->mod, l->kernel);
  gr_arg *args = xcalloc((size_t)np + 1, sizeof(gr_arg));
  uint8_t **structs = xcalloc((size_t)np + 1, sizeof *structs);
  *structs_out = structs;
  int rc = GR_OK;
  for (int k = 0; k < np && rc == GR_OK; k++) {
    const char *pname;
    gr_type pt, pointee;
    gr_kernel_param(s->mod, l->kernel, k, &pname, &pt, &pointee);
    if (pt == GR_PTR) {
      sbuffer *b = NULL;
      for (size_t j = 0; j < s->nbufs; j++) if (!strcmp(s->bufs[j].name, pname)) b = &s->bufs[j];
      if (!b) { rc = host_fail(ctx, GR_EINPUT, "%s:%d:1: error: pointer parameter '%s' of '%s' has no '//@ buffer %s ...'", s->path, l->line, pname, l->kernel, pname); break; }
      b->used = 1;
      args[k] = gr_arg_ptr(b->ptr);
    } else {
      sarg *a = NULL;
      for (size_t j = 0; j < s->nargs; j++) if (!strcmp(s->args[j].name, pname)) a = &s->args[j];
      if (!a) { rc = host_fail(ctx, GR_EINPUT, "%s:%d:1: error: parameter '%s' of '%s' has no '//@ arg %s = VALUE'", s->path, l->line, pname, l->kernel, pname); break; }
      a->used = 1;
      if (pt == GR_STRUCT) {
        rc = bind_struct(s, l, k, a, &args[k], structs);
        if (rc) break;
        continue;
      }
      if (a->is_list) { rc = host_fail(ctx, GR_EINPUT, "%s:%d:1: error: argument '%s' is a list, but parameter '%s' is a %s", s->path, a->line, pname, pname, gr_type_name(pt)); break; }
      const char *why = num_misfit(a->v, pt);
      if (why) { rc = host_fail(ctx, GR_EINPUT, "%s:%d:1: error: argument '%s' is %s for parameter type %s", s->path, a->line, pname, why, gr_type_name(pt)); break; }
      if (pt == GR_F32 || pt == GR_F64) args[k] = gr_arg_f64(a->v.f);
      else args[k] = gr_arg_i64(a->v.i);
    }
  }
  *out = args;
  *nout = np;
  return rc;
}

int gr_script_run(gr_script *s) {
  gr_context *ctx = s->ctx;
  int rc = GR_OK;
  for (size_t k = 0; k < s->nbufs && rc == GR_OK; k++) if (!s->bufs[k].ptr) rc = init_buffer(s, &s->bufs[k]);
  gr_arg **args = xcalloc(s->nlaunches, sizeof *args);
  uint8_t ***structs = xcalloc(s->nlaunches, sizeof *structs);
  int *np = xcalloc(s->nlaunches, sizeof *np);
  /* every binding first: a misspelt name fails before anything runs */
  for (size_t k = 0; k < s->nlaunches && rc == GR_OK; k++) rc = bind_launch(s, &s->launches[k], &args[k], &np[k], &structs[k]);
  const char *kname = s->nlaunches == 1 ? s->launches[0].kernel : "any launched kernel";
  for (size_t j = 0; j < s->nbufs && rc == GR_OK; j++)
    if (!s->bufs[j].used) rc = host_fail(ctx, GR_EINPUT, "%s:%d:1: error: buffer '%s' is not a parameter of '%s'", s->path, s->bufs[j].line, s->bufs[j].name, kname);
  for (size_t j = 0; j < s->nargs && rc == GR_OK; j++)
    if (!s->args[j].used) rc = host_fail(ctx, GR_EINPUT, "%s:%d:1: error: argument '%s' is not a parameter of '%s'", s->path, s->args[j].line, s->args[j].name, kname);
  memset(&s->stats, 0, sizeof s->stats);
  /* in order, over the same buffers; a failed launch ends the sequence */
  for (size_t k = 0; k < s->nlaunches && rc == GR_OK; k++) {
    slaunch *l = &s->launches[k];
    rc = gr_launch_ex(s->mod, l->kernel, l->grid, l->block, (size_t)l->shared, l->flags, args[k], np[k]);
    gr_stats st;
    gr_last_stats(ctx, &st);
    s->stats.warp_steps += st.warp_steps;
    s->stats.thread_instructions += st.thread_instructions;
    s->stats.divergences += st.divergences;
    s->stats.barriers += st.barriers;
    s->stats.memory_actions += st.memory_actions;
    s->stats.memory_at_once += st.memory_at_once;
    s->stats.memory_at_once_stopped += st.memory_at_once_stopped;
    s->stats.compiled += st.compiled;   /* here: the launches that ran compiled code */
    s->stats.compile_seconds += st.compile_seconds;
    s->stats.whole += st.whole;
    s->stats.compiled_declined += st.compiled_declined;
    for (int sp = 0; sp < 2; sp++)
      for (int k = 0; k < 3; k++) {
        s->stats.mem_ops[sp][k] += st.mem_ops[sp][k];
        s->stats.mem_bytes[sp][k] += st.mem_bytes[sp][k];
      }
    if (rc == GR_EINPUT && !strncmp(gr_error(ctx), "error: ", 7)) {
      /* the launch was refused (grid, block, shared memory): say which directive */
      char msg[sizeof ctx->err];
      snprintf(msg, sizeof msg, "%s", gr_error(ctx));
      rc = host_fail(ctx, GR_EINPUT, "%s:%d:1: %s", s->path, l->line, msg);
    }
  }
  for (size_t k = 0; k < s->nlaunches; k++) {
    for (int j = 0; structs[k] && j < np[k]; j++) free(structs[k][j]);
    free(structs[k]);
    free(args[k]);
  }
  free(structs);
  free(args);
  free(np);
  s->ran = rc == GR_OK;
  return rc;
}

/* Contents of a buffer or module global: host copy, element type, count. */
static int fetch(gr_script *s, const char *name, uint8_t **data, gr_type *t, size_t *count) {
  for (size_t k = 0; k < s->nbufs; k++) {
    sbuffer *b = &s->bufs[k];
    if (strcmp(b->name, name)) continue;
    if (!b->ptr) return host_fail(s->ctx, GR_EINPUT, "error: buffer '%s' does not exist before the run", name);
    size_t bytes = (size_t)b->count * (size_t)gr_type_size(b->type);
    *data = xmalloc(bytes ? bytes : 1);
    int rc = gr_memcpy_dtoh(s->ctx, *data, b->ptr, bytes);
    if (rc) { free(*data); return rc; }
    *t = b->type;
    *count = (size_t)b->count;
    return GR_OK;
  }
  kir_module *km = s->mod->km;
  for (int k = 0; k < km->nglobals; k++) {
    kir_global *g = &km->globals[k];
    if (strcmp(g->name, name)) continue;
    *t = (gr_type)(g->elem == SK_PTR ? SK_U64 : g->elem == SK_BOOL ? SK_U8 : g->elem);
    size_t es = (size_t)gr_type_size(*t);
    *count = g->size / es;
    *data = xmalloc(g->size ? g->size : 1);
    int rc = gr_memcpy_dtoh(s->ctx, *data, s->mod->gaddr[k], g->size);
    if (rc) { free(*data); return rc; }
    return GR_OK;
  }
  return host_fail(s->ctx, GR_EINPUT, "%s: error: no buffer or __device__ variable named '%s'", s->path, name);
}

static uint64_t read_elem(const uint8_t *p, gr_type t) {
  uint64_t v = 0;
  memcpy(&v, p, (size_t)gr_type_size(t));
  return sem_canon((int)t, v);
}

static void fmt_elem(char *buf, size_t n, uint64_t v, gr_type t) {
  if (t == GR_F32) snprintf(buf, n, "%.9g", (double)sem_f32(v));
  else if (t == GR_F64) snprintf(buf, n, "%.17g", sem_f64(v));
  else if (sem_sk_is_signed((int)t)) snprintf(buf, n, "%lld", (long long)v);
  else snprintf(buf, n, "%llu", (unsigned long long)v);
}

static void print_elem(FILE *out, uint64_t v, gr_type t) {
  char buf[64];
  fmt_elem(buf, sizeof buf, v, t);
  fputs(buf, out);
}

int gr_script_dump(gr_script *s, const char *name, FILE *out) {
  uint8_t *data;
  gr_type t;
  size_t n;
  int rc = fetch(s, name, &data, &t, &n);
  if (rc) return rc;
  fprintf(out, "%s %s[%zu] = {", name, gr_type_name(t), n);
  size_t es = (size_t)gr_type_size(t);
  for (size_t k = 0; k < n; k++) {
    if (k) fputs(", ", out);
    print_elem(out, read_elem(data + k * es, t), t);
  }
  fputs("}\n", out);
  free(data);
  return GR_OK;
}

int gr_script_dump_all(gr_script *s, FILE *out) {
  for (size_t k = 0; k < s->nbufs; k++) {
    int rc = gr_script_dump(s, s->bufs[k].name, out);
    if (rc) return rc;
  }
  return GR_OK;
}

/* FNV-1a, 64 bits: a digest of raw bytes, so that two runs (two backends)
 * can be compared byte for byte without printing whole buffers. */
uint64_t gr_digest_bytes(const void *p, size_t n) { return hash_fnv(HASH_FNV_SEED, p, n); }

static int digest_one(gr_script *s, const char *name, FILE *out) {
  uint8_t *data;
  gr_type t;
  size_t n;
  int rc = fetch(s, name, &data, &t, &n);
  if (rc) return rc;
  size_t bytes = n * (size_t)gr_type_size(t);
  fprintf(out, "digest %s %zu %016llx\n", name, bytes, (unsigned long long)gr_digest_bytes(data, bytes));
  free(data);
  return GR_OK;
}

int gr_script_digest(gr_script *s, FILE *out) {
  for (size_t k = 0; k < s->nbufs; k++) {
    int rc = digest_one(s, s->bufs[k].name, out);
    if (rc) return rc;
  }
  for (int k = 0; k < s->mod->km->nglobals; k++) {
    if (s->mod->km->globals[k].internal) continue;
    int rc = digest_one(s, s->mod->km->globals[k].name, out);
    if (rc) return rc;
  }
  return GR_OK;
}

int script_prepare(gr_script *s) {
  for (size_t k = 0; k < s->nbufs; k++) {
    int rc = init_buffer(s, &s->bufs[k]);
    if (rc) return rc;
  }
  return GR_OK;
}
size_t script_nbuffers(const gr_script *s) { return s->nbufs; }
gr_context *script_context(const gr_script *s) { return s->ctx; }
void gr_script_stats(const gr_script *s, gr_stats *out) { *out = s->stats; }
void script_buffer(const gr_script *s, size_t k, const char **name, gr_ptr *ptr, size_t *bytes) {
  *name = s->bufs[k].name;
  *ptr = s->bufs[k].ptr;
  *bytes = (size_t)s->bufs[k].count * (size_t)gr_type_size(s->bufs[k].type);
}
const char *script_launch(const gr_script *s, gr_dim3 *grid, gr_dim3 *block) {
  *grid = s->launches[0].grid;
  *block = s->launches[0].block;
  return s->launches[0].kernel;
}
size_t script_nargs(const gr_script *s) { return s->nargs; }
int script_arg_int(const gr_script *s, const char *name, int64_t *v) {
  for (size_t k = 0; k < s->nargs; k++)
    if (!strcmp(s->args[k].name, name) && !s->args[k].is_list && !s->args[k].v.is_float) {
      *v = s->args[k].v.i;
      return 1;
    }
  return 0;
}
size_t script_nassume(const gr_script *s) { return s->nassume; }
const char *script_assume(const gr_script *s, size_t k, int *line) {
  *line = s->assume_line[k];
  return s->assume[k];
}

static int num_matches(num want, uint64_t got, gr_type t, double tol) {
  if (t == GR_F32 || t == GR_F64) {
    double g = t == GR_F32 ? (double)sem_f32(got) : sem_f64(got);
    double w = want.f;
    if (t == GR_F32) w = (double)(float)w;   /* the value as an f32 holds it, as the buffer does */
    if (isnan(w)) return isnan(g);
    return g == w || fabs(g - w) <= tol;
  }
  if (want.is_float) return 0;
  return sem_canon((int)t, (uint64_t)want.i) == got;
}

int gr_script_check(gr_script *s, FILE *out) {
  int rc = GR_OK;
  for (size_t k = 0; k < s->nchecks; k++) {
    scheck *c = &s->checks[k];
    uint8_t *data;
    gr_type t;
    size_t n;
    int frc = fetch(s, c->name, &data, &t, &n);
    if (frc) {
      fprintf(out, "check %s: error: %s\n", c->name, gr_error(s->ctx));
      rc = GR_EINPUT;
      continue;
    }
    size_t es = (size_t)gr_type_size(t);
    if (!c->all_equal && c->n != n) {
      fprintf(out, "check %s: FAILED (%s:%d): expected %zu values, the %s has %zu\n", c->name, s->path, c->line, c->n,
              "buffer", n);
      if (rc == GR_OK) rc = GR_ECHECK;
      free(data);
      continue;
    }
    size_t bad = n, nbad = 0;
    for (size_t j = 0; j < n; j++) {
      if (!num_matches(c->vals[c->all_equal ? 0 : j], read_elem(data + j * es, t), t, c->tol)) { if (bad == n) bad = j; nbad++; }
    }
    if (nbad == 0) fprintf(out, "check %s: ok\n", c->name);
    else {
      num w = c->vals[c->all_equal ? 0 : bad];
      fprintf(out, "check %s: FAILED (%s:%d): %zu of %zu elements differ; first at [%zu]: expected ", c->name, s->path, c->line, nbad, n, bad);
      print_elem(out, num_to_bits(w, t) , t == GR_F32 || t == GR_F64 ? t : GR_I64);
      fputs(", got ", out);
      print_elem(out, read_elem(data + bad * es, t), t);
      fputc('\n', out);
      if (rc == GR_OK) rc = GR_ECHECK;
    }
    free(data);
  }
  return rc;
}

int gr_script_knob_count(const gr_script *s) { return s->nknobs; }
const char *gr_script_knob(const gr_script *s, int k) { return k >= 0 && k < s->nknobs ? s->knobs[k] : NULL; }

const char *gr_script_meta(const gr_script *s, const char *key) {
  for (size_t k = 0; k < s->nmeta; k++) if (!strcmp(s->meta[k].key, key)) return s->meta[k].val;
  return NULL;
}

int gr_script_expect_race(const gr_script *s) { return s->expect; }
const char *gr_script_loop_arrays(const gr_script *s) { return s->loop_arrays[0] ? s->loop_arrays : NULL; }

const char *gr_verdict_name(gr_verdict v) {
  switch (v) {
  case GR_FORBIDDEN: return "forbidden";
  case GR_ALLOWED_REQUIRED: return "allowed-required";
  case GR_ALLOWED_OPTIONAL: return "allowed-optional";
  default: return "none";
  }
}

const char *script_placement(const gr_script *s) { return s->where; }

void script_litmus(const gr_script *s, char *id, size_t idn, char *placement, gr_verdict *v, const char **weak) {
  snprintf(id, idn, "%s", s->litmus_id);
  *placement = s->placement;
  *v = s->verdict;
  *weak = s->weak_text;
}

int script_outcome(gr_script *s, char *buf, size_t n, int *is_weak) {
  size_t len = 0;
  *is_weak = 1;
  buf[0] = 0;
  for (size_t k = 0; k < s->nobs; k++) {
    sobserve *o = &s->obs[k];
    uint8_t *data;
    gr_type t;
    size_t count;
    int rc = fetch(s, o->buf, &data, &t, &count);
    if (rc) return rc;
    if (o->index >= count) {
      free(data);
      return host_fail(s->ctx, GR_EINPUT, "%s: error: observe %s=%s[%llu]: '%s' has %zu elements", s->path, o->var, o->buf,
                      (unsigned long long)o->index, o->buf, count);
    }
    uint64_t v = read_elem(data + o->index * (size_t)gr_type_size(t), t);
    free(data);
    char val[64];
    fmt_elem(val, sizeof val, v, t);
    len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s=%s", k ? " " : "", o->var, val);
    for (size_t j = 0; j < s->nweak; j++)
      if (!strcmp(s->weak[j].var, o->var) && !num_matches(s->weak[j].v, v, t, 0)) *is_weak = 0;
  }
  return GR_OK;
}
gr_module *gr_script_module(gr_script *s) { return s->mod; }

size_t script_nobserves(const gr_script *s) { return s->nobs; }

int script_observed(gr_script *s, size_t k, gr_ptr *addr, int *size) {
  const sobserve *o = &s->obs[k];
  for (size_t j = 0; j < s->nbufs; j++) {
    const sbuffer *b = &s->bufs[j];
    if (strcmp(b->name, o->buf)) continue;
    if (!b->ptr || o->index >= b->count)
      return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: observe %s=%s[%llu] names no element of a buffer", s->path, o->line, o->var,
                      o->buf, (unsigned long long)o->index);
    *size = gr_type_size(b->type);
    *addr = b->ptr + o->index * (uint64_t)*size;
    return GR_OK;
  }
  return host_fail(s->ctx, GR_EINPUT, "%s:%d:1: error: observe %s=%s[...]: no buffer '%s'", s->path, o->line, o->var, o->buf, o->buf);
}
