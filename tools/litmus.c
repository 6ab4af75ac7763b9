/* The litmus runner: a litmus file run many times under weak memory (or
 * explored exhaustively), the histogram of its outcomes, and its verdict. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "emu.h"
#include "host.h"
#include "litmus.h"
#include "util.h"

void gr_litmus_opts_default(gr_litmus_opts *o) {
  memset(o, 0, sizeof *o);
  o->runs = 10000;
  o->seed = 1;
  o->max_states = 2000000;
  o->sms = 4;
  o->max_seconds = 600;
}

double gr_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_outcome(const void *a, const void *b) {
  return strcmp(((const gr_outcome *)a)->text, ((const gr_outcome *)b)->text);
}

void litmus_sort(gr_litmus_result *r) {
  if (r->noutcomes) qsort(r->outcomes, r->noutcomes, sizeof(gr_outcome), cmp_outcome);
}

void litmus_record(gr_litmus_result *r, const char *text, int weak, uint64_t seed) {
  size_t k = 0;
  while (k < r->noutcomes && strcmp(r->outcomes[k].text, text)) k++;
  if (k == r->noutcomes) {
    r->outcomes = xrealloc(r->outcomes, (r->noutcomes + 1) * sizeof(gr_outcome));
    gr_outcome *o = &r->outcomes[r->noutcomes++];
    o->text = xstrdup(text);
    o->count = 0;
    o->first_seed = seed;
    o->weak = weak;
  }
  r->outcomes[k].count++;
  if (weak) r->weak_count++;
}

/* The outcome of the run s just made, recorded in r. */
static int record_outcome(gr_script *s, gr_litmus_result *r, uint64_t seed) {
  char text[1024];
  int weak;
  int rc = script_outcome(s, text, sizeof text, &weak);
  if (rc == GR_OK) litmus_record(r, text, weak, seed);
  return rc;
}

/* One sampled run from the initial memory, its outcome recorded. */
static int one_run(gr_script *s, gr_litmus_result *r, uint64_t seed) {
  int rc = gr_script_reset(s);
  if (rc == GR_OK) rc = gr_script_run(s);
  return rc == GR_OK ? record_outcome(s, r, seed) : rc;
}

/* Sampled runs split across threads: a part of the seeds, run in a context
 * of its own, with what it saw; the parts merge in seed order. */
typedef struct {
  gr_litmus_result part;
  uint64_t first, count, runs;
  int rc;
  uint64_t failed_seed;
  char err[512];
} sample_part;

static void sample_run_part(const char *path, const gr_config *cfg, sample_part *p) {
  gr_context *ctx = gr_context_create(cfg);
  gr_script *s = NULL;
  p->rc = gr_script_load(ctx, path, NULL, 0, &s);
  for (uint64_t k = 0; k < p->count && p->rc == GR_OK; k++) {
    uint64_t seed = p->first + k;
    host_reseed(ctx, seed);
    p->rc = one_run(s, &p->part, seed);
    p->runs++;
    if (p->rc != GR_OK) p->failed_seed = seed;
  }
  if (p->rc != GR_OK) snprintf(p->err, sizeof p->err, "%s", gr_error(ctx));
  gr_script_free(s);
  gr_context_destroy(ctx);
}

/* Adds a part's outcomes to r: counts summed, the first seed the least. */
static void merge_outcomes(gr_litmus_result *r, const gr_litmus_result *p) {
  for (size_t j = 0; j < p->noutcomes; j++) {
    const gr_outcome *o = &p->outcomes[j];
    size_t k = 0;
    while (k < r->noutcomes && strcmp(r->outcomes[k].text, o->text)) k++;
    if (k == r->noutcomes) {
      r->outcomes = xrealloc(r->outcomes, (r->noutcomes + 1) * sizeof(gr_outcome));
      r->outcomes[r->noutcomes] = *o;
      r->outcomes[r->noutcomes++].text = xstrdup(o->text);
      continue;
    }
    r->outcomes[k].count += o->count;
    if (o->first_seed < r->outcomes[k].first_seed) r->outcomes[k].first_seed = o->first_seed;
  }
  r->weak_count += p->weak_count;
}

/* The sampled runs first .. first + runs - 1 on the machine's threads,
 * added to r: the same outcomes, counts, first seeds and (on a failure)
 * the same first failing seed, runs and reason as one thread running them
 * in order.  0 where it ran them; -1 where one thread should. */
static int sample_parallel(const char *path, const gr_config *cfg, uint64_t first, uint64_t runs, gr_litmus_result *r,
                           uint64_t *failed_seed, int *rc_out) {
#ifdef _OPENMP
  int threads = omp_get_max_threads();
  if (threads < 2 || runs < (uint64_t)threads) return -1;
  uint64_t nparts = (uint64_t)threads, per = (runs + nparts - 1) / nparts;
  nparts = (runs + per - 1) / per;
  sample_part *parts = xcalloc(nparts, sizeof *parts);
  for (uint64_t j = 0; j < nparts; j++) {
    parts[j].first = first + j * per;
    parts[j].count = j + 1 == nparts ? runs - j * per : per;
  }
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t j = 0; j < (int64_t)nparts; j++) sample_run_part(path, cfg, &parts[j]);
  int rc = GR_OK;
  for (uint64_t j = 0; j < nparts; j++) {
    if (rc == GR_OK) {
      merge_outcomes(r, &parts[j].part);
      r->runs += parts[j].runs;
      if (parts[j].rc != GR_OK) {
        rc = parts[j].rc;
        *failed_seed = parts[j].failed_seed;
        snprintf(r->reason, sizeof r->reason, "run with seed %llu: %s", (unsigned long long)parts[j].failed_seed, parts[j].err);
      }
    }
    gr_litmus_result_free(&parts[j].part);
  }
  free(parts);
  *rc_out = rc;
  return 0;
#else
  (void)path, (void)cfg, (void)first, (void)runs, (void)r, (void)failed_seed, (void)rc_out;
  return -1;
#endif
}

/* The sampled runs first .. first + runs - 1, added to r: in order on
 * this thread; where what is left would take more than a second (judged
 * from the runs so far), the rest goes to every thread, each loading the
 * test once (a preprocessor run).  On a failure r->reason says which run. */
static int sample_range(const char *path, const gr_config *cfg, gr_context *ctx, gr_script *s, uint64_t first, uint64_t runs,
                        gr_litmus_result *r) {
  double t0 = gr_now();
  int rc = GR_OK;
  uint64_t seed = first;
  for (uint64_t k = 0; k < runs && rc == GR_OK; k++) {
    seed = first + k;
    host_reseed(ctx, seed);
    rc = one_run(s, r, seed);
    r->runs++;
    if (rc == GR_OK && k + 1 >= 64 && !((k + 1) & 63) && (gr_now() - t0) / (double)(k + 1) * (double)(runs - k - 1) > 1.0 &&
        sample_parallel(path, cfg, first + k + 1, runs - k - 1, r, &seed, &rc) == 0)
      return rc;   /* the failing part wrote the reason */
  }
  if (rc != GR_OK) snprintf(r->reason, sizeof r->reason, "run with seed %llu: %s", (unsigned long long)seed, gr_error(ctx));
  return rc;
}

/* ------------------------------------------------------------- exhaustive searches, split */

/* A search is split into the subtrees under its first choices: a search
 * cut at a horizon of choices, deepened one choice at a time until the
 * states at the horizon are SPLIT_UNITS or more (or the runs end before
 * it, or SPLIT_MAX_RUNS cut runs were made), each distinct state there the
 * root of one subtree.  Every subtree's search records its states in one
 * visited set per process, shared by its threads: a state is explored once
 * in a process, whichever thread meets it first, and the set a complete
 * search ends with is the set of reachable states, whatever the order.
 * So the split depends on the test alone, and what is reported (the
 * reachable outcomes, the number of states) on nothing else. */
#define SPLIT_UNITS 16
#define SPLIT_MAX_DEPTH 32
#define SPLIT_MAX_RUNS 4096

typedef struct {
  explore_step *prefix;
  size_t len;
  uint64_t root;              /* the hash of the state it starts at */
  uint64_t skip;              /* scheduling points between the prefix's end and that state */
} subtree;

typedef struct {
  gr_litmus_result part;      /* the outcomes it reached */
  gr_explore_info explored;
  int rc, timed_out;
  char err[512];
} subtree_result;

/* What a run that completed leaves: its outcome, recorded in r. */
typedef int (*record_fn)(gr_context *ctx, gr_script *s, gr_litmus_result *r);

static int record_litmus(gr_context *ctx, gr_script *s, gr_litmus_result *r) {
  (void)ctx;
  return record_outcome(s, r, 0);
}

static int record_digest(gr_context *ctx, gr_script *s, gr_litmus_result *r) {
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  if (!m) return host_fail(ctx, GR_EEMU, "error: out of memory");
  int rc = gr_script_digest(s, m);
  fclose(m);
  if (rc == GR_OK) litmus_record(r, text, 0, 0);
  free(text);
  return rc;
}

static void subtrees_free(subtree *u, size_t n) {
  for (size_t k = 0; k < n; k++) free(u[k].prefix);
  free(u);
}

/* The subtrees of the search from s's initial state, in the search's
 * order, the visited set holding the states above them, and in `above`
 * the outcomes of the runs that end above them; or an error of a run
 * above them. */
static int split_frontier(gr_context *ctx, gr_script *s, uint64_t max_states, record_fn record, gr_litmus_result *above,
                          subtree **out, size_t *nout, explore_set **set_out) {
  subtree *u = NULL;
  size_t n = 0;
  explore_set *set = NULL;
  int rc = GR_OK;
  for (size_t depth = 1;; depth++) {
    set = explore_set_new(max_states);
    gr_explore *x = explore_new_frontier(set, depth);
    gr_context_explore(ctx, x);
    bytes roots = {0};           /* the states at the horizon, each after its length */
    size_t cap = 0, runs = 0;
    int deeper = 0;
    n = 0;
    gr_litmus_result_free(above);
    above->runs = above->weak_count = 0;
    do {
      rc = gr_script_reset(s);
      if (rc == GR_OK) rc = gr_script_run(s);
      if (rc != GR_OK) break;
      runs++;
      const explore_step *p;
      const uint8_t *key;
      size_t len, klen;
      int at = explore_at_frontier(x, &p, &len, &key, &klen);
      if (at < 0) continue;      /* stopped above the horizon at a known state */
      if (at == 0) {             /* ended above it: a run of the search, done */
        above->runs++;
        rc = record(ctx, s, above);
        if (rc != GR_OK) break;
        continue;
      }
      {
        deeper = 1;
        int seen = 0;
        for (size_t off = 0; off < roots.len && !seen;) {
          uint64_t l;
          memcpy(&l, roots.p + off, 8);
          seen = l == klen && !memcmp(roots.p + off + 8, key, klen);
          off += 8 + l;
        }
        if (seen) continue;
        uint64_t l = klen;
        bytes_put(&roots, &l, 8);
        bytes_put(&roots, key, klen);
      }
      if (n == cap) { cap = cap ? 2 * cap : 16; u = xrealloc(u, cap * sizeof *u); }
      u[n].prefix = xmalloc((len ? len : 1) * sizeof(explore_step));
      memcpy(u[n].prefix, p, len * sizeof(explore_step));
      u[n].len = len;
      u[n].root = hash_bytes(key, klen);
      u[n].skip = 0;   /* the horizon is met at the first point past it */
      n++;
    } while (gr_explore_next(x));
    gr_explore_info info;
    gr_explore_stats(x, &info);
    gr_context_explore(ctx, NULL);
    gr_explore_free(x);
    free(roots.p);
    if (rc == GR_OK && info.nondeterministic)
      rc = host_fail(ctx, GR_EEMU, "internal error: a replayed run diverged while the search was split (engine bug)");
    if (rc != GR_OK || n >= SPLIT_UNITS || !deeper || depth == SPLIT_MAX_DEPTH || runs >= SPLIT_MAX_RUNS) break;
    for (size_t k = 0; k < n; k++) free(u[k].prefix);
    explore_set_free(set);
  }
  if (rc != GR_OK) {
    subtrees_free(u, n);
    explore_set_free(set);
    gr_litmus_result_free(above);
    u = NULL, n = 0, set = NULL;
  }
  *out = u;
  *nout = n;
  *set_out = set;
  return rc;
}

/* The depth-first search of one subtree, in ctx and s; the time bound is
 * the whole search's, from t0. */
typedef struct outboxes outboxes;
static void forward_state(void *user, const void *key, size_t len, const explore_step *prefix, size_t plen, uint64_t skip);

static void explore_subtree(gr_context *ctx, gr_script *s, explore_set *set, const subtree *u, const gr_litmus_opts *o,
                            double t0, record_fn record, outboxes *ob, subtree_result *res) {
  gr_explore *x = explore_new_subtree(set, u->prefix, u->len, u->skip);
  if (ob) explore_set_owner(x, o->shard, o->nshards, forward_state, ob);
  gr_context_explore(ctx, x);
  int rc = GR_OK;
  uint64_t iter = 0;
  do {
    /* every run counts toward the time check, pruned ones too (most are) */
    if ((++iter & 63) == 0 && o->max_seconds > 0 && gr_now() - t0 > o->max_seconds) { res->timed_out = 1; break; }
    rc = gr_script_reset(s);
    if (rc == GR_OK) rc = gr_script_run(s);
    if (rc != GR_OK || gr_explore_last_pruned(x)) continue;
    res->part.runs++;
    rc = record(ctx, s, &res->part);
  } while (rc == GR_OK && gr_explore_next(x));
  gr_explore_stats(x, &res->explored);
  res->rc = rc;
  if (rc != GR_OK) snprintf(res->err, sizeof res->err, "%s", gr_error(ctx));
  gr_context_explore(ctx, NULL);
  gr_explore_free(x);
}

/* ------------------------------------------------------------- a split search across processes */

/* Across processes every state has one owner, the process its hash names:
 * each explores the subtrees whose roots it owns, hands every other state
 * its searches meet to the owner (with the choices that lead there), and
 * takes those handed to it, in rounds, until no process has any left.  A
 * state is explored once in the whole search, and the owners' visited
 * sets, disjoint, add up to the reachable set. */

static void put64(bytes *b, uint64_t v) { bytes_put(b, &v, 8); }

typedef struct { const uint8_t *p; size_t len, at; int bad; } reader;

static uint64_t get64(reader *rd) {
  uint64_t v = 0;
  if (rd->bad || rd->len - rd->at < 8) { rd->bad = 1; return 0; }
  memcpy(&v, rd->p + rd->at, 8);
  rd->at += 8;
  return v;
}

static const uint8_t *getbytes(reader *rd, uint64_t n) {
  if (rd->bad || rd->len - rd->at < n) { rd->bad = 1; return rd->p; }
  const uint8_t *s = rd->p + rd->at;
  rd->at += n;
  return s;
}

/* One exchange among the processes: send[j] goes to process j; *in gets
 * what each sent here, in process order, each after its 8-byte length. */
static int exchange(const gr_litmus_opts *o, bytes *send, uint8_t **in, size_t *inlen, char *err, size_t errlen) {
  const void **p = xcalloc((size_t)o->nshards, sizeof *p);
  size_t *len = xcalloc((size_t)o->nshards, sizeof *len);
  for (int j = 0; j < o->nshards; j++) p[j] = send[j].p ? send[j].p : (const void *)"", len[j] = send[j].len;
  void *all = NULL;
  *inlen = 0;
  int rc = o->alltoall(o->alltoall_user, p, len, &all, inlen, err, errlen);
  *in = all;
  free(p);
  free(len);
  return rc;
}

/* The same 8 bytes from every process to every process; their sum. */
static int exchange_sum(const gr_litmus_opts *o, uint64_t v, uint64_t *sum, char *err, size_t errlen) {
  bytes *send = xcalloc((size_t)o->nshards, sizeof *send);
  for (int j = 0; j < o->nshards; j++) put64(&send[j], v);
  uint8_t *in = NULL;
  size_t inlen = 0;
  int rc = exchange(o, send, &in, &inlen, err, errlen);
  reader rd = {in, inlen, 0, 0};
  *sum = 0;
  for (int j = 0; j < o->nshards && rc == 0; j++) {
    if (get64(&rd) != 8) rc = -1;
    *sum += get64(&rd);
  }
  if (rc == 0 && rd.bad) rc = -1;
  if (rc && !err[0]) snprintf(err, errlen, "a malformed count");
  for (int j = 0; j < o->nshards; j++) free(send[j].p);
  free(send);
  free(in);
  return rc;
}

/* The states handed on, one outbox per process: each as its key, then the
 * scheduling points to skip and the choices that lead to it. */
struct outboxes {
  bytes *out;
  int n;
};

static void forward_state(void *user, const void *key, size_t len, const explore_step *prefix, size_t plen, uint64_t skip) {
  outboxes *ob = user;
#ifdef _OPENMP
#pragma omp critical(explore_forward)
#endif
  {
    bytes *b = &ob->out[hash_bytes(key, len) % (uint64_t)ob->n];
    put64(b, len);
    bytes_put(b, key, len);
    put64(b, skip);
    put64(b, plen);
    for (size_t k = 0; k < plen; k++) {
      put64(b, (uint64_t)(uint32_t)prefix[k].choice);
      put64(b, (uint64_t)(uint32_t)prefix[k].n);
    }
  }
}

/* The states handed here in a round that are new to this process: the
 * next round's subtrees.  -1 if malformed. */
static int take_forwarded(const uint8_t *in, size_t inlen, explore_set *set, subtree **q, size_t *nq) {
  reader rd = {in, inlen, 0, 0};
  explore_set *round = explore_set_new(UINT64_MAX);   /* the same state from two senders: once */
  size_t cap = 0;
  *q = NULL, *nq = 0;
  while (rd.at < rd.len && !rd.bad) {
    uint64_t l = get64(&rd);
    if (rd.bad || l > rd.len - rd.at) { rd.bad = 1; break; }
    size_t end = rd.at + (size_t)l;
    while (rd.at < end && !rd.bad) {
      uint64_t kl = get64(&rd);
      const uint8_t *key = getbytes(&rd, kl);
      uint64_t skip = get64(&rd), pl = get64(&rd);
      if (rd.bad || pl > (rd.len - rd.at) / 16) { rd.bad = 1; break; }
      uint64_t h = hash_bytes(key, (size_t)kl);
      int fresh = !explore_set_has(set, key, (size_t)kl, h) && explore_set_add(round, key, (size_t)kl, h) == 1;
      explore_step *p = fresh ? xmalloc((size_t)(pl ? pl : 1) * sizeof *p) : NULL;
      for (uint64_t k = 0; k < pl; k++) {
        uint64_t c = get64(&rd), n = get64(&rd);
        if (p) p[k] = (explore_step){(int)c, (int)n};
      }
      if (!fresh) continue;
      if (*nq == cap) { cap = cap ? 2 * cap : 64; *q = xrealloc(*q, cap * sizeof **q); }
      (*q)[(*nq)++] = (subtree){p, (size_t)pl, h, skip};
    }
  }
  explore_set_free(round);
  return rd.bad ? -1 : 0;
}

/* This process's result, for every other: flags, error, outcomes. */
static void pack_result(const gr_litmus_result *r, int rc, const char *err, bytes *b) {
  put64(b, (uint64_t)r->explored.complete | (uint64_t)r->explored.nondeterministic << 1 | (uint64_t)r->timed_out << 2);
  put64(b, (uint64_t)(int64_t)rc);
  size_t el = strlen(err);
  put64(b, el);
  bytes_put(b, err, el);
  put64(b, r->noutcomes);
  for (size_t j = 0; j < r->noutcomes; j++) {
    size_t tl = strlen(r->outcomes[j].text);
    put64(b, (uint64_t)r->outcomes[j].weak);
    put64(b, tl);
    bytes_put(b, r->outcomes[j].text, tl);
  }
}

/* Every process's result, in process order, into one: the first error. */
static int share_result(const gr_litmus_opts *o, gr_litmus_result *r, int *rc, char *err, size_t errlen) {
  int np = o->nshards;
  bytes *send = xcalloc((size_t)np, sizeof *send);
  pack_result(r, *rc, *rc ? r->reason : "", &send[0]);
  for (int j = 1; j < np; j++) bytes_put(&send[j], send[0].p, send[0].len);
  uint8_t *in = NULL;
  size_t inlen = 0;
  int xr = exchange(o, send, &in, &inlen, err, errlen);
  if (xr == 0) {
    int complete = 1, nondet = 0, timed_out = 0, first_rc = GR_OK;
    char first_err[sizeof r->reason] = "";
    gr_litmus_result all;
    memset(&all, 0, sizeof all);
    reader rd = {in, inlen, 0, 0};
    for (int j = 0; j < np && !rd.bad; j++) {
      get64(&rd);   /* the piece's length: the fields say where it ends */
      uint64_t fl = get64(&rd);
      int prc = (int)(int64_t)get64(&rd);
      uint64_t el = get64(&rd);
      const uint8_t *e = getbytes(&rd, el);
      if (rd.bad) break;
      if (!(fl & 1)) complete = 0;
      if (fl >> 1 & 1) nondet = 1;
      if (fl >> 2 & 1) timed_out = 1;
      if (first_rc == GR_OK && prc != GR_OK) {
        first_rc = prc;
        snprintf(first_err, sizeof first_err, "%.*s", (int)(el < sizeof first_err ? el : sizeof first_err - 1), (const char *)e);
      }
      uint64_t no = get64(&rd);
      for (uint64_t k = 0; k < no && !rd.bad; k++) {
        uint64_t weak = get64(&rd), tl = get64(&rd);
        const uint8_t *t = getbytes(&rd, tl);
        if (rd.bad) break;
        char *text = xmalloc(tl + 1);
        memcpy(text, t, tl);
        text[tl] = 0;
        litmus_record(&all, text, (int)weak, 0);
        free(text);
      }
    }
    if (rd.bad || rd.at != rd.len) {
      xr = -1;
      snprintf(err, errlen, "a malformed share of the results");
      gr_litmus_result_free(&all);
    } else {
      gr_litmus_result_free(r);
      r->outcomes = all.outcomes, r->noutcomes = all.noutcomes, r->weak_count = all.weak_count;
      r->explored.complete = complete, r->explored.nondeterministic = nondet, r->timed_out = timed_out;
      *rc = first_rc;
      if (first_rc) snprintf(r->reason, sizeof r->reason, "%s", first_err);
    }
  }
  for (int j = 0; j < np; j++) free(send[j].p);
  free(send);
  free(in);
  return xr;
}

/* Sampled runs across processes (MPI ranks): process j runs the j-th of
 * as many contiguous parts of the seeds (on its threads, as sample_range
 * does), and every process merges every part's result in seed order, up
 * to the first part that failed: the same outcomes, counts, first seeds
 * and first failure as one process running them all in order. */
static int sample_ranks(const char *path, const gr_config *cfg, gr_context *ctx, gr_script *s, const gr_litmus_opts *o,
                        gr_litmus_result *r) {
  uint64_t np = (uint64_t)o->nshards, per = (o->runs + np - 1) / np, me = (uint64_t)o->shard;
  uint64_t first = me * per < o->runs ? me * per : o->runs;
  uint64_t count = o->runs - first < per ? o->runs - first : per;
  gr_litmus_result mine;
  memset(&mine, 0, sizeof mine);
  int rc = count ? sample_range(path, cfg, ctx, s, o->seed + first, count, &mine) : GR_OK;
  bytes *send = xcalloc((size_t)np, sizeof *send);
  put64(&send[0], (uint64_t)(int64_t)rc);
  put64(&send[0], mine.runs);
  size_t el = rc ? strlen(mine.reason) : 0;
  put64(&send[0], el);
  bytes_put(&send[0], mine.reason, el);
  put64(&send[0], mine.noutcomes);
  for (size_t k = 0; k < mine.noutcomes; k++) {
    const gr_outcome *oc = &mine.outcomes[k];
    size_t tl = strlen(oc->text);
    put64(&send[0], (uint64_t)oc->weak);
    put64(&send[0], oc->count);
    put64(&send[0], oc->first_seed);
    put64(&send[0], tl);
    bytes_put(&send[0], oc->text, tl);
  }
  gr_litmus_result_free(&mine);
  for (uint64_t j = 1; j < np; j++) bytes_put(&send[j], send[0].p, send[0].len);
  uint8_t *in = NULL;
  size_t inlen = 0;
  char err[512] = "";
  int xr = exchange(o, send, &in, &inlen, err, sizeof err);
  rc = GR_OK;
  reader rd = {in, inlen, 0, 0};
  for (uint64_t j = 0; j < np && xr == 0 && !rd.bad && rc == GR_OK; j++) {
    get64(&rd);   /* the piece's length: the fields say where it ends */
    int prc = (int)(int64_t)get64(&rd);
    gr_litmus_result part;
    memset(&part, 0, sizeof part);
    part.runs = get64(&rd);
    uint64_t rl = get64(&rd);
    const uint8_t *reason = getbytes(&rd, rl);
    uint64_t no = get64(&rd);
    for (uint64_t k = 0; k < no && !rd.bad; k++) {
      uint64_t weak = get64(&rd), n = get64(&rd), fs = get64(&rd), tl = get64(&rd);
      const uint8_t *t = getbytes(&rd, tl);
      if (rd.bad) break;
      part.outcomes = xrealloc(part.outcomes, (part.noutcomes + 1) * sizeof(gr_outcome));
      gr_outcome *oc = &part.outcomes[part.noutcomes++];
      oc->text = xmalloc(tl + 1);
      memcpy(oc->text, t, tl);
      oc->text[tl] = 0;
      oc->count = n;
      oc->first_seed = fs;
      oc->weak = (int)weak;
      if (weak) part.weak_count += n;
    }
    if (!rd.bad) {
      merge_outcomes(r, &part);
      r->runs += part.runs;
      if (prc != GR_OK) {
        rc = prc;
        snprintf(r->reason, sizeof r->reason, "%.*s", (int)(rl < sizeof r->reason ? rl : sizeof r->reason - 1), (const char *)reason);
      }
    }
    gr_litmus_result_free(&part);
  }
  if (xr == 0 && rd.bad) {
    xr = -1;
    snprintf(err, sizeof err, "a malformed share of the results");
  }
  if (xr) {
    rc = GR_EEMU;
    snprintf(r->reason, sizeof r->reason, "the processes could not share their runs: %s", err);
  }
  for (uint64_t j = 0; j < np; j++) free(send[j].p);
  free(send);
  free(in);
  return rc;
}

typedef struct { uint64_t n; int shard, nshards; } owned_count;

static void count_owned(void *user, const uint8_t *key, size_t len) {
  owned_count *c = user;
  c->n += hash_bytes(key, len) % (uint64_t)c->nshards == (uint64_t)c->shard;
}

/* The exhaustive search of the script s (loaded from path in ctx), split
 * into subtrees explored on every thread and, across processes, by their
 * owners; the whole result in r (outcomes, explored, timed_out; on an
 * error, its text in r->reason), in every process. */
static int explore_split(const char *path, const gr_config *cfg, gr_context *ctx, gr_script *s, const gr_litmus_opts *o,
                         const char *label, record_fn record, gr_litmus_result *r) {
  double t0 = gr_now();
  subtree *units = NULL;
  size_t n = 0;
  explore_set *set = NULL;
  int rc = split_frontier(ctx, s, o->max_states, record, r, &units, &n, &set);
  if (rc != GR_OK) { snprintf(r->reason, sizeof r->reason, "%s", gr_error(ctx)); return rc; }
  gr_litmus_opts so = *o;
  so.nshards = o->nshards > 1 && o->alltoall ? o->nshards : 1;
  so.shard = so.nshards > 1 ? o->shard : 0;
  int np = so.nshards;
  outboxes ob = {xcalloc((size_t)np, sizeof(bytes)), np};
  /* the first round: the subtrees whose roots this process owns */
  subtree *q = xcalloc(n ? n : 1, sizeof *q);
  size_t nq = 0, rounds = 0;
  for (size_t k = 0; k < n; k++)
    if (units[k].root % (uint64_t)np == (uint64_t)so.shard) q[nq++] = units[k], units[k].prefix = NULL;
  subtrees_free(units, n);
  r->explored = (gr_explore_info){r->runs, 0, 0, n, 1, 0};
  char err[256] = "";
  int xr = 0;
  for (;;) {
    rounds++;
    subtree_result *res = xcalloc(nq ? nq : 1, sizeof *res);
    size_t finished = 0;
    double last = t0;
#ifdef _OPENMP
    int threads = omp_get_max_threads();
    if (threads > (int)nq) threads = (int)nq;
    if (threads < 1) threads = 1;
#pragma omp parallel num_threads(threads)
#endif
    {
      gr_context *c = ctx;
      gr_script *sc = s;
      int lrc = GR_OK;
      char lerr[512] = "";
#ifdef _OPENMP
      /* every thread but the first runs in a context of its own */
      if (omp_get_thread_num() != 0) {
        c = gr_context_create(cfg);
        sc = NULL;
        lrc = gr_script_load(c, path, NULL, 0, &sc);
        if (lrc != GR_OK) snprintf(lerr, sizeof lerr, "%s", gr_error(c));
      }
#pragma omp for schedule(dynamic, 1)
#endif
      for (int64_t k = 0; k < (int64_t)nq; k++) {
        if (lrc != GR_OK) {
          res[k].rc = lrc;
          snprintf(res[k].err, sizeof res[k].err, "%s", lerr);
        } else explore_subtree(c, sc, set, &q[k], &so, t0, record, np > 1 ? &ob : NULL, &res[k]);
#ifdef _OPENMP
#pragma omp critical(explore_progress)
#endif
        {
          finished++;
          double t = gr_now();
          if (o->progress && t - last >= 10) {
            fprintf(o->progress, "litmus: %s: exhaustive search, round %zu, %zu of %zu subtrees done, %llu states here, %.0f s\n",
                    label, rounds, finished, nq, (unsigned long long)explore_set_count(set), t - t0);
            fflush(o->progress);
            last = t;
          }
        }
      }
      if (c != ctx) {
        gr_script_free(sc);
        gr_context_destroy(c);
      }
    }
    /* in the round's order: the first error is this process's */
    for (size_t k = 0; k < nq; k++) {
      subtree_result *p = &res[k];
      if (rc == GR_OK && p->rc != GR_OK) {
        rc = p->rc;
        snprintf(r->reason, sizeof r->reason, "%s", p->err);
      }
      merge_outcomes(r, &p->part);
      r->runs += p->part.runs;
      r->explored.runs += p->explored.runs;
      r->explored.pruned_runs += p->explored.pruned_runs;
      if (!p->explored.complete) r->explored.complete = 0;
      if (p->explored.nondeterministic) r->explored.nondeterministic = 1;
      if (p->timed_out) r->timed_out = 1;
      gr_litmus_result_free(&p->part);
    }
    free(res);
    subtrees_free(q, nq);
    q = NULL, nq = 0;
    if (np == 1) break;
    /* the states handed on reach their owners; the search ends when no process has any */
    uint8_t *in = NULL;
    size_t inlen = 0;
    if (rc != GR_OK || r->timed_out) for (int j = 0; j < np; j++) ob.out[j].len = 0;   /* stopping: hand nothing on */
    if ((xr = exchange(&so, ob.out, &in, &inlen, err, sizeof err)) == 0 && take_forwarded(in, inlen, set, &q, &nq))
      xr = -1, snprintf(err, sizeof err, "a malformed share of the states handed on");
    free(in);
    for (int j = 0; j < np; j++) ob.out[j].len = 0;
    uint64_t left = 0;
    if (xr == 0) xr = exchange_sum(&so, nq, &left, err, sizeof err);
    if (xr || left == 0) break;
  }
  for (int j = 0; j < np; j++) free(ob.out[j].p);
  free(ob.out);
  subtrees_free(q, nq);
  uint64_t states = explore_set_count(set);
  int full = explore_set_full(set);
  if (np > 1 && xr == 0) {
    owned_count oc = {0, so.shard, np};
    explore_set_each(set, count_owned, &oc);
    uint64_t fulls = 0;
    xr = exchange_sum(&so, oc.n, &states, err, sizeof err);
    if (xr == 0) xr = exchange_sum(&so, (uint64_t)full, &fulls, err, sizeof err);
    full = fulls > 0;
    if (xr == 0) xr = share_result(&so, r, &rc, err, sizeof err);
  }
  explore_set_free(set);
  if (xr) {
    rc = host_fail(ctx, GR_EEMU, "error: %s: the split search's results: %s", path, err);
    snprintf(r->reason, sizeof r->reason, "%s", gr_error(ctx));
  }
  /* a search stopped by its bound says the bound: how far past it each
   * process's share went depends on how the work was split */
  r->explored.states = full || states > o->max_states ? o->max_states : states;
  if (full || states > o->max_states) r->explored.complete = 0;
  return rc;
}

int litmus_open(gr_context *ctx, const char *path, gr_script **s, gr_litmus_result *r) {
  int rc = gr_script_load(ctx, path, NULL, 0, s);
  if (rc) return rc;
  const char *weak = "";
  script_litmus(*s, r->id, sizeof r->id, &r->placement, &r->verdict, &weak);
  snprintf(r->where, sizeof r->where, "%s", script_placement(*s));
  snprintf(r->weak, sizeof r->weak, "%s", weak);
  if (!r->id[0]) return host_fail(ctx, GR_EINPUT, "%s: error: not a litmus test (no '//@ litmus' directive)", path);
  return GR_OK;
}

int gr_litmus_run(const char *path, const gr_litmus_opts *o, gr_litmus_result *r) {
  memset(r, 0, sizeof *r);
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = GR_MEMORY_WEAK;
  cfg.sched = GR_SCHED_RANDOM;
  cfg.sms = o->sms;
  cfg.warps = o->warps;
  cfg.seed = o->seed;
  gr_context *ctx = gr_context_create(&cfg);
  gr_script *s = NULL;
  int rc = litmus_open(ctx, path, &s, r);
  int split = 0;
  int reasoned = 0;   /* a failure's reason written by the runs' part that failed */
  if (rc == GR_OK && o->exhaustive) {
    r->exhaustive = 1;
    split = 1;
    rc = explore_split(path, &cfg, ctx, s, o, r->id, record_litmus, r);
  } else if (rc == GR_OK && o->nshards > 1 && o->alltoall) {
    reasoned = 1;
    rc = sample_ranks(path, &cfg, ctx, s, o, r);
  } else if (rc == GR_OK) {
    reasoned = 1;
    rc = sample_range(path, &cfg, ctx, s, o->seed, o->runs, r);
  }
  if (rc != GR_OK) {
    if (!reasoned && !split) snprintf(r->reason, sizeof r->reason, "%s", gr_error(ctx));
  } else {
    litmus_sort(r);
    uint64_t first = UINT64_MAX;
    for (size_t k = 0; k < r->noutcomes; k++) if (r->outcomes[k].weak && r->outcomes[k].first_seed < first) first = r->outcomes[k].first_seed;
    int seen = r->weak_count > 0;
    const char *vn = gr_verdict_name(r->verdict);
    if (split && r->timed_out) {
      r->pass = 0;
      snprintf(r->reason, sizeof r->reason, "time bound of %.0f s reached after %llu states: the reachable set is incomplete (raise --max-seconds)",
               o->max_seconds, (unsigned long long)r->explored.states);
    } else if (split && !r->explored.complete) {
      r->pass = 0;
      snprintf(r->reason, sizeof r->reason, "%s after %llu states: the reachable set is incomplete",
               r->explored.nondeterministic ? "a replayed run diverged (engine bug)" : "state bound reached",
               (unsigned long long)r->explored.states);
    } else if (r->verdict == GR_FORBIDDEN) {
      r->pass = !seen;
      if (!seen) snprintf(r->reason, sizeof r->reason, split ? "forbidden outcome unreachable" : "forbidden outcome never seen");
      else if (split) snprintf(r->reason, sizeof r->reason, "forbidden outcome %s is reachable", r->weak);
      else
        snprintf(r->reason, sizeof r->reason,
                 "forbidden outcome %s seen in %llu of %llu runs; reproduce: gpurace run %s --memory weak --sched random --sms %d --seed %llu",
                 r->weak, (unsigned long long)r->weak_count, (unsigned long long)r->runs, path, o->sms, (unsigned long long)first);
    } else {
      r->pass = seen || r->verdict == GR_ALLOWED_OPTIONAL;
      if (split) snprintf(r->reason, sizeof r->reason, "%s outcome %sreachable", vn, seen ? "" : "not ");
      else if (seen)
        snprintf(r->reason, sizeof r->reason, "%s outcome seen in %llu of %llu runs (first: seed %llu)", vn,
                 (unsigned long long)r->weak_count, (unsigned long long)r->runs, (unsigned long long)first);
      else snprintf(r->reason, sizeof r->reason, "%s outcome not seen in %llu runs", vn, (unsigned long long)r->runs);
    }
  }
  gr_script_free(s);
  gr_context_destroy(ctx);
  return rc;
}

int gr_final_states(const char *path, const gr_litmus_opts *o, gr_memory memory, gr_litmus_result *r) {
  memset(r, 0, sizeof *r);
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = memory;
  cfg.sched = GR_SCHED_RANDOM;
  cfg.sms = o->sms;
  cfg.warps = o->warps;
  gr_context *ctx = gr_context_create(&cfg);
  gr_script *s = NULL;
  int rc = gr_script_load(ctx, path, NULL, 0, &s);
  if (rc == GR_OK) {
    r->exhaustive = 1;
    rc = explore_split(path, &cfg, ctx, s, o, path, record_digest, r);
  } else snprintf(r->reason, sizeof r->reason, "%s", gr_error(ctx));
  if (rc == GR_OK) {
    litmus_sort(r);
    r->pass = !r->timed_out && r->explored.complete;
    if (r->timed_out)
      snprintf(r->reason, sizeof r->reason, "time bound of %.0f s reached after %llu states: the set of final states is incomplete",
               o->max_seconds, (unsigned long long)r->explored.states);
    else if (!r->explored.complete)
      snprintf(r->reason, sizeof r->reason, "%s after %llu states: the set of final states is incomplete",
               r->explored.nondeterministic ? "a replayed run diverged (engine bug)" : "state bound reached",
               (unsigned long long)r->explored.states);
    else snprintf(r->reason, sizeof r->reason, "complete: %zu final states, %llu machine states", r->noutcomes,
                  (unsigned long long)r->explored.states);
  }
  gr_script_free(s);
  gr_context_destroy(ctx);
  return rc;
}

void gr_litmus_print(FILE *out, const char *path, const gr_litmus_result *r) {
  if (r->axiomatic)
    fprintf(out, "%s (%s) %s: axiomatic (PTX), %llu trace combinations, %llu candidate executions, %llu consistent\n", r->id,
            r->where, path, (unsigned long long)r->runs, (unsigned long long)r->candidates, (unsigned long long)r->consistent);
  else if (r->exhaustive)
    fprintf(out, "%s (%s) %s: exhaustive, %llu states%s\n", r->id, r->where, path, (unsigned long long)r->explored.states,
            r->explored.subtrees ? ", searched as subtrees" : "");
  else fprintf(out, "%s (%s) %s: %llu runs\n", r->id, r->where, path, (unsigned long long)r->runs);
  /* an unfinished search's outcomes depend on what its threads reached first: not shown */
  int partial = r->exhaustive && !r->axiomatic && (r->timed_out || !r->explored.complete);
  for (size_t k = 0; k < r->noutcomes && !partial; k++) {
    const gr_outcome *o = &r->outcomes[k];
    if (r->axiomatic) fprintf(out, "  allowed    %s%s\n", o->text, o->weak ? "   <- weak" : "");
    else if (r->exhaustive) fprintf(out, "  reachable  %s%s\n", o->text, o->weak ? "   <- weak" : "");
    else fprintf(out, "  %9llu  %s%s\n", (unsigned long long)o->count, o->text, o->weak ? "   <- weak" : "");
  }
  fprintf(out, "%s %s: %s: %s\n", r->pass ? "PASS" : "FAIL", r->id, r->weak, r->reason);
}

void gr_litmus_result_free(gr_litmus_result *r) {
  for (size_t k = 0; k < r->noutcomes; k++) free(r->outcomes[k].text);
  free(r->outcomes);
  r->outcomes = NULL;
  r->noutcomes = 0;
}

int gr_litmus_compare(FILE *out, const gr_litmus_result *op, const gr_litmus_result *ax) {
  int beyond = 0;
  for (size_t k = 0; k < op->noutcomes; k++) {
    size_t j = 0;
    while (j < ax->noutcomes && strcmp(ax->outcomes[j].text, op->outcomes[k].text)) j++;
    if (j < ax->noutcomes) continue;
    beyond++;
    if (out) fprintf(out, "  beyond PTX %s   <- reachable here, forbidden by the PTX model\n", op->outcomes[k].text);
  }
  for (size_t j = 0; j < ax->noutcomes; j++) {
    size_t k = 0;
    while (k < op->noutcomes && strcmp(ax->outcomes[j].text, op->outcomes[k].text)) k++;
    if (k == op->noutcomes && out) fprintf(out, "  gap        %s   <- allowed by the PTX model, unreachable here\n", ax->outcomes[j].text);
  }
  return beyond;
}
