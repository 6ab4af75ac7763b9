/* The ScoR application drivers' common part: command line, context and
 * detectors, timing, reports, and glibc's rand(). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"

#ifndef GR_SOURCE_DIR
#define GR_SOURCE_DIR "."
#endif

static void usage(const char *name, const char *msg, const char *arg) {
  fprintf(stderr, "%s: ", name);
  fprintf(stderr, msg, arg);
  fprintf(stderr, "\nusage: %s [--size small|paper] [--input-seed S] [-D KNOB]... [--detect LIST] [--json]\n"
                  "       [--seed N] [--sched rr|random] [--memory sc|weak] [--warps lockstep|its] [--sms N] [--max-steps N]\n"
                  "       [--backend emu|cuda] [--digest]\n"
                  "       [--hb-model scord|ptx] [--hb-max-memory MIB] [--scord-granularity 4|8|16]\n"
                  "       [--boyer-waw] [-q]\n", name);
  exit(2);
}

static uint64_t number(const char *name, const char *opt, const char *v, uint64_t lo, uint64_t hi) {
  char *e;
  errno = 0;
  unsigned long long n = v && *v != '-' ? strtoull(v, &e, 0) : 0;
  if (!v || !*v || *v == '-' || *e || errno || n < lo || n > hi) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s needs an integer from %llu to %llu, not '%%s'", opt, (unsigned long long)lo, (unsigned long long)hi);
    usage(name, buf, v ? v : "");
  }
  return n;
}

void app_begin(app *a, const char *name, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  a->name = name;
  a->input_seed = 1;
  gr_config_default(&a->cfg);
  det_options_default(&a->dopts);
  char err[256];
  int taken;
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKE() do { if (!v) usage(name, "option '%s' needs a value", o); i++; } while (0)
    if (!strcmp(o, "--size")) {
      TAKE();
      if (!strcmp(v, "small")) a->paper = 0;
      else if (!strcmp(v, "paper")) a->paper = 1;
      else usage(name, "--size takes small or paper, not '%s'", v);
    } else if (!strcmp(o, "--input-seed")) { TAKE(); a->input_seed = number(name, o, v, 0, 0xffffffffu); }
    else if ((taken = gr_config_option(&a->cfg, o, v, err, sizeof err)) != 0 ||
             (taken = det_options_option(&a->dopts, o, v, err, sizeof err)) != 0) {
      if (taken < 0) usage(name, "%s", err);
      if (!strcmp(o, "--sms")) a->sms_given = 1;
      if (!strcmp(o, "--max-steps")) a->steps_given = 1;
      i += taken - 1;
    } else if (!strcmp(o, "--detect")) { TAKE(); a->detect = v; }
    else if (!strcmp(o, "--json")) a->json = 1;
    else if (!strcmp(o, "--digest")) a->digest = 1;
    else if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) a->quiet = 1;
    else if (!strncmp(o, "-D", 2)) {
      const char *d = o + 2;
      if (!*d) { TAKE(); d = v; }
      if (!*d || *d == '=') usage(name, "bad macro definition '%s'", d);
      if (a->ndefines == 32) usage(name, "more than 32 -D knobs (at '%s')", d);
      a->defines[a->ndefines++] = d;
    } else usage(name, "unknown option '%s'", o);
#undef TAKE
  }
}

void app_load(app *a, const char *file) {
  a->ctx = gr_context_create(&a->cfg);
  a->log = race_log_new();
  if (a->detect) {
    char err[512];
    if (detectors_attach(a->ctx, a->detect, &a->dopts, a->log, &a->set, err, sizeof err)) usage(a->name, "%s", err);
  }
  const char *src = getenv("GR_SRCDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/scor/apps/%s/%s", src && *src ? src : GR_SOURCE_DIR, a->name, file);
  if (gr_module_load(a->ctx, path, a->defines, a->ndefines, &a->mod)) {
    fprintf(stderr, "%s\n", gr_error(a->ctx));
    exit(2);
  }
}

void app_coresident(app *a, unsigned blocks, unsigned threads) {
  if (a->sms_given) return;
  /* an SM holds up to 16 blocks and 2048 threads (gpurace.h defaults) */
  unsigned per = 2048 / (threads ? threads : 1);
  if (per > 16) per = 16;
  if (per == 0) per = 1;
  unsigned need = (blocks + per - 1) / per;
  if ((int)need > a->cfg.sms) a->cfg.sms = (int)need;
}

void app_steps(app *a, uint64_t steps) {
  if (!a->steps_given && steps > a->cfg.max_steps) a->cfg.max_steps = steps;
}

gr_ptr app_alloc(app *a, size_t bytes, const char *name, const void *init) {
  gr_ptr p;
  if (gr_malloc(a->ctx, bytes, name, &p) || (init && gr_memcpy_htod(a->ctx, p, init, bytes))) {
    fprintf(stderr, "%s: %s\n", a->name, gr_error(a->ctx));
    exit(2);
  }
  if (a->nallocs < 64) {
    a->allocs[a->nallocs].p = p;
    a->allocs[a->nallocs].bytes = bytes;
    a->allocs[a->nallocs].name = name;
    a->nallocs++;
  }
  return p;
}

void app_read(app *a, void *dst, gr_ptr src, size_t bytes) {
  if (gr_memcpy_dtoh(a->ctx, dst, src, bytes)) {
    fprintf(stderr, "%s: %s\n", a->name, gr_error(a->ctx));
    exit(2);
  }
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int app_launch(app *a, const char *kernel, unsigned grid, unsigned block, const gr_arg *args, int nargs) {
  double t0 = now();
  int rc = gr_launch(a->mod, kernel, (gr_dim3){grid, 1, 1}, (gr_dim3){block, 1, 1}, 0, args, nargs);
  a->seconds += now() - t0;
  if (rc) fprintf(stderr, "%s\n", gr_error(a->ctx));
  return rc;
}

int app_end(app *a, int status, int ok) {
  size_t n = 0;
  FILE *text = a->json ? stderr : stdout;
  if (a->set) {
    const gr_race *r = race_log_reports(a->log, &n);
    for (size_t k = 0; k < n; k++) {
      if (a->json) race_print_json(stdout, &r[k]);
      else race_print_text(stdout, &r[k]);
    }
    if (!a->quiet) {
      fprintf(text, "detectors:");
      for (size_t d = 0; d < detectors_size(a->set); d++) {
        size_t c = race_log_count(a->log, detectors_name(a->set, d));
        fprintf(text, "%s %s %zu race report%s", d ? "," : "", detectors_name(a->set, d), c, c == 1 ? "" : "s");
        if (race_log_unwatched_why(a->log, detectors_name(a->set, d))) fputs(" (NOT WATCHED: incomplete)", text);
      }
      fputc('\n', text);
    }
  }
  int unwatched = 0;
  for (size_t d = 0; a->set && d < detectors_size(a->set); d++) {
    const char *why = race_log_unwatched_why(a->log, detectors_name(a->set, d));
    if (why) { fprintf(stderr, "%s: detector %s stopped watching the run: %s\n", a->name, detectors_name(a->set, d), why); unwatched = 1; }
  }
  if (!a->quiet) fprintf(text, "emulation: %.3f s\n", a->seconds);
  for (int k = 0; a->digest && k < a->nallocs; k++) {
    uint8_t *buf = malloc(a->allocs[k].bytes ? a->allocs[k].bytes : 1);
    if (buf && gr_memcpy_dtoh(a->ctx, buf, a->allocs[k].p, a->allocs[k].bytes) == GR_OK)
      fprintf(text, "digest %s %zu %016llx\n", a->allocs[k].name, a->allocs[k].bytes,
              (unsigned long long)gr_digest_bytes(buf, a->allocs[k].bytes));
    else fprintf(stderr, "%s: %s\n", a->name, gr_error(a->ctx));
    free(buf);
  }
  detectors_detach(a->set);
  race_log_free(a->log);
  gr_context_destroy(a->ctx);
  if (status == GR_EINPUT || status == GR_EEMU) return status;
  if (unwatched) return 5;   /* its verdict is void, whatever it reported */
  if (n) return 4;
  return ok ? 0 : 1;
}
