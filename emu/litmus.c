/* The litmus runner: a litmus file run many times under weak memory (or
 * explored exhaustively), the histogram of its outcomes, and its verdict. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine.h"

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

/* One run from the initial memory; records its outcome unless an
 * exhaustive run stopped at a known state. */
static int one_run(gr_script *s, gr_litmus_result *r, uint64_t seed, const gr_explore *x) {
  int rc = gr_script_reset(s);
  if (rc == GR_OK) rc = gr_script_run(s);
  if (rc != GR_OK || (x && gr_explore_last_pruned(x))) return rc;
  char text[1024];
  int weak;
  rc = script_outcome(s, text, sizeof text, &weak);
  if (rc == GR_OK) litmus_record(r, text, weak, seed);
  return rc;
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
    gr_context_reseed(ctx, seed);
    p->rc = one_run(s, &p->part, seed, NULL);
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
  int rc = gr_script_load(ctx, path, NULL, 0, &s);
  const char *weak = "";
  if (rc == GR_OK) {
    script_litmus(s, r->id, sizeof r->id, &r->placement, &r->verdict, &weak);
    snprintf(r->where, sizeof r->where, "%s", script_placement(s));
    snprintf(r->weak, sizeof r->weak, "%s", weak);
    if (!r->id[0]) rc = ctx_fail(ctx, GR_EINPUT, "%s: error: not a litmus test (no '//@ litmus' directive)", path);
  }
  gr_explore *x = NULL;
  uint64_t seed = o->seed;
  int parallel = 0;
  if (rc == GR_OK && o->exhaustive) {
    r->exhaustive = 1;
    x = gr_explore_new(o->max_states);
    gr_context_explore(ctx, x);
    double t0 = gr_now(), last = t0;
    uint64_t iter = 0;
    do {
      rc = one_run(s, r, 0, x);
      if (rc == GR_OK && !gr_explore_last_pruned(x)) r->runs++;
      if ((++iter & 63) == 0) {
        double t = gr_now();
        if (o->progress && t - last >= 10) {
          gr_explore_stats(x, &r->explored);
          fprintf(o->progress, "litmus: %s: exhaustive search, %llu runs, %llu states, %.0f s\n", r->id,
                  (unsigned long long)r->runs, (unsigned long long)r->explored.states, t - t0);
          fflush(o->progress);
          last = t;
        }
        if (o->max_seconds > 0 && t - t0 > o->max_seconds) { r->timed_out = 1; break; }
      }
    } while (rc == GR_OK && gr_explore_next(x));
    gr_explore_stats(x, &r->explored);
  } else if (rc == GR_OK) {
    /* in order on this thread; where what is left would take more than a
     * second (judged from the runs so far), the rest goes to every thread,
     * each loading the test once (a preprocessor run) */
    double t0 = gr_now();
    uint64_t k = 0;
    for (; k < o->runs && rc == GR_OK; k++) {
      seed = o->seed + k;
      gr_context_reseed(ctx, seed);
      rc = one_run(s, r, seed, NULL);
      r->runs++;
      if (rc == GR_OK && k + 1 >= 64 && !((k + 1) & 63) && (gr_now() - t0) / (double)(k + 1) * (double)(o->runs - k - 1) > 1.0 &&
          sample_parallel(path, &cfg, o->seed + k + 1, o->runs - k - 1, r, &seed, &rc) == 0) {
        parallel = 1;
        break;
      }
    }
  }
  if (rc != GR_OK) {
    if (parallel) { /* the reason is the failing part's */ }
    else if (x || !s) snprintf(r->reason, sizeof r->reason, "%s", gr_error(ctx));
    else snprintf(r->reason, sizeof r->reason, "run with seed %llu: %s", (unsigned long long)seed, gr_error(ctx));
  } else {
    litmus_sort(r);
    uint64_t first = UINT64_MAX;
    for (size_t k = 0; k < r->noutcomes; k++) if (r->outcomes[k].weak && r->outcomes[k].first_seed < first) first = r->outcomes[k].first_seed;
    int seen = r->weak_count > 0;
    const char *vn = gr_verdict_name(r->verdict);
    if (x && r->timed_out) {
      r->pass = 0;
      snprintf(r->reason, sizeof r->reason, "time bound of %.0f s reached after %llu states: the reachable set is incomplete (raise --max-seconds)",
               o->max_seconds, (unsigned long long)r->explored.states);
    } else if (x && !r->explored.complete) {
      r->pass = 0;
      snprintf(r->reason, sizeof r->reason, "%s after %llu states: the reachable set is incomplete",
               r->explored.nondeterministic ? "a replayed run diverged (engine bug)" : "state bound reached",
               (unsigned long long)r->explored.states);
    } else if (r->verdict == GR_FORBIDDEN) {
      r->pass = !seen;
      if (!seen) snprintf(r->reason, sizeof r->reason, x ? "forbidden outcome unreachable" : "forbidden outcome never seen");
      else if (x) snprintf(r->reason, sizeof r->reason, "forbidden outcome %s is reachable", r->weak);
      else
        snprintf(r->reason, sizeof r->reason,
                 "forbidden outcome %s seen in %llu of %llu runs; reproduce: gpurace run %s --memory weak --sched random --sms %d --seed %llu",
                 r->weak, (unsigned long long)r->weak_count, (unsigned long long)r->runs, path, o->sms, (unsigned long long)first);
    } else {
      r->pass = seen || r->verdict == GR_ALLOWED_OPTIONAL;
      if (x) snprintf(r->reason, sizeof r->reason, "%s outcome %sreachable", vn, seen ? "" : "not ");
      else if (seen)
        snprintf(r->reason, sizeof r->reason, "%s outcome seen in %llu of %llu runs (first: seed %llu)", vn,
                 (unsigned long long)r->weak_count, (unsigned long long)r->runs, (unsigned long long)first);
      else snprintf(r->reason, sizeof r->reason, "%s outcome not seen in %llu runs", vn, (unsigned long long)r->runs);
    }
  }
  gr_explore_free(x);
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
  gr_explore *x = NULL;
  if (rc == GR_OK) {
    r->exhaustive = 1;
    x = gr_explore_new(o->max_states);
    gr_context_explore(ctx, x);
    double t0 = gr_now();
    uint64_t iter = 0;
    do {
      /* every run counts toward the time check, pruned ones too (most are) */
      if ((++iter & 63) == 0 && o->max_seconds > 0 && gr_now() - t0 > o->max_seconds) { r->timed_out = 1; break; }
      rc = gr_script_reset(s);
      if (rc == GR_OK) rc = gr_script_run(s);
      if (rc != GR_OK || gr_explore_last_pruned(x)) continue;
      r->runs++;
      char *text = NULL;
      size_t len = 0;
      FILE *m = open_memstream(&text, &len);
      if (!m) { rc = ctx_fail(ctx, GR_EEMU, "error: out of memory"); break; }
      rc = gr_script_digest(s, m);
      fclose(m);
      if (rc == GR_OK) litmus_record(r, text, 0, 0);
      free(text);
    } while (rc == GR_OK && gr_explore_next(x));
    gr_explore_stats(x, &r->explored);
  }
  if (rc != GR_OK) snprintf(r->reason, sizeof r->reason, "%s", gr_error(ctx));
  else {
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
  gr_explore_free(x);
  gr_script_free(s);
  gr_context_destroy(ctx);
  return rc;
}

void gr_litmus_print(FILE *out, const char *path, const gr_litmus_result *r) {
  if (r->axiomatic)
    fprintf(out, "%s (%s) %s: axiomatic (PTX), %llu trace combinations, %llu candidate executions, %llu consistent\n", r->id,
            r->where, path, (unsigned long long)r->runs, (unsigned long long)r->candidates, (unsigned long long)r->consistent);
  else if (r->exhaustive)
    fprintf(out, "%s (%s) %s: exhaustive, %llu runs to completion, %llu cut at known states, %llu states\n", r->id, r->where,
            path, (unsigned long long)r->runs, (unsigned long long)r->explored.pruned_runs, (unsigned long long)r->explored.states);
  else fprintf(out, "%s (%s) %s: %llu runs\n", r->id, r->where, path, (unsigned long long)r->runs);
  for (size_t k = 0; k < r->noutcomes; k++) {
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
