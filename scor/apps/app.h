/* app: what the ScoR application drivers share.  A driver generates its
 * input from a seed, runs its kernels on the emulator with any detectors
 * watching, checks the result against a CPU reference computed in the
 * driver, and prints what it checked.  Command line, for every driver:
 *
 *   DRIVER [--size small|paper] [--input-seed S] [-D KNOB]... [--detect LIST]
 *          [--json] [--seed N] [--sched rr|random] [--memory sc|weak]
 *          [--sms N] [--max-steps N] [--hb-model scord|ptx]
 *          [--scord-granularity 4|8|16] [--boyer-waw] [-q]
 *
 * Exit status as gpurace run: 0 the result is right, 1 it is wrong, 2 bad
 * usage or input, 3 emulation error (a racy build that hangs ends at the
 * step limit), 4 a detector reported a race (then the result is printed but
 * not held against the run). */
#ifndef GR_APP_H
#define GR_APP_H

#include <stdint.h>

#include "detectors.h"
#include "gpurace.h"
#include "inputs.h"

typedef struct {
  const char *name;          /* the app, for messages */
  int paper;                 /* --size paper */
  uint64_t input_seed;
  gr_config cfg;
  const char *detect;
  det_options dopts;
  int json, quiet;
  int digest;                /* --digest: print each allocation's final digest at the end */
  struct { gr_ptr p; size_t bytes; const char *name; } allocs[64];
  int nallocs;
  const char *defines[32];
  int ndefines;
  int sms_given;             /* --sms was given: a driver that needs more SMs leaves it alone */
  int steps_given;           /* --max-steps was given */
  /* the run */
  gr_context *ctx;
  gr_module *mod;
  race_log *log;
  detector_set *set;
  double seconds;            /* emulation time of the launches */
} app;

/* Parses the command line; exits with status 2 on bad usage.  The driver
 * may then adjust a->cfg (SMs for co-residency) before app_load. */
void app_begin(app *a, const char *name, int argc, char **argv);
/* Creates the context with the detectors and loads the app's kernel file
 * (scor/apps/NAME/FILE under GR_SRCDIR, or the source tree the driver was
 * built from) with the knobs. */
void app_load(app *a, const char *file);
/* Raises the number of SMs so that `blocks` blocks of `threads` threads are
 * all resident at once (the apps whose threads wait on each other need it),
 * unless --sms was given. */
void app_coresident(app *a, unsigned blocks, unsigned threads);
/* Raises the step limit per launch to `steps` for a long run, unless
 * --max-steps was given. */
void app_steps(app *a, uint64_t steps);
/* Host helpers that exit with status 2 on failure. */
gr_ptr app_alloc(app *a, size_t bytes, const char *name, const void *init);
void app_read(app *a, void *dst, gr_ptr src, size_t bytes);
/* Launches, timing it; returns the status (an emulation error is printed). */
int app_launch(app *a, const char *kernel, unsigned grid, unsigned block, const gr_arg *args, int nargs);
/* Prints the reports and a summary line; returns the exit status for a
 * run whose launches returned `status` and whose result check gave `ok`. */
int app_end(app *a, int status, int ok);

#endif
