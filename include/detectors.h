/* detectors.h: the race detectors and what they have in common.
 *
 * A detector is an observer of the engine's events (gpurace.h) that reports
 * races into a race log.  Every detector of the project is one entry of the
 * registry (detectors/registry.c), in a folder of its own; any subset of
 * them can watch one run.  Reports have one form whatever the detector: the
 * detector, the race class, where (memory space, buffer and offset) and the
 * two accesses.  The log deduplicates them per (detector, class, pair of
 * source positions) with a count and gives them back in a fixed order, so
 * the same run prints the same report byte for byte.
 */
#ifndef GR_DETECTORS_H
#define GR_DETECTORS_H

#include <stdint.h>
#include <stdio.h>

#include "gpurace.h"

/* ---------------------------------------------------------------- reports */

/* One side of a race: who accessed, where in the source, and how. */
#define RACE_WHOLE_BLOCK UINT32_MAX

typedef struct {
  const char *file;          /* source position of the instruction */
  int line, col;
  gr_dim3 block;             /* block coordinates */
  uint32_t warp;             /* warp index in its block; RACE_WHOLE_BLOCK for a side that is a whole block */
  int lane;                  /* -1 for a side that is a whole warp or block */
  gr_access_kind kind;       /* load, store or atomic */
  int atomic_op;             /* atomics: as in gr_event */
  gr_scope scope;            /* strong accesses */
  gr_order order;            /* strong accesses: relaxed, acquire, release or acq_rel */
  int strong;                /* volatile, atomic or __nv_atomic_* */
  const char *role;          /* NULL, or what the side is where it is not one access (LD: a region's
                                start or end, and what the unit's private copy showed); printed
                                instead of the access */
} gr_race_access;

typedef struct {
  const char *detector;      /* registry name, e.g. "scord" */
  const char *cls;           /* race class, e.g. "missing device fence" */
  gr_space space;
  const char *buffer;        /* allocation or __device__ variable; NULL for shared and local memory */
  uint64_t offset;           /* byte offset in it */
  gr_race_access first;      /* the earlier access */
  gr_race_access second;     /* the access at which the race was found */
  uint64_t count;            /* reports folded into this one */
} gr_race;

typedef struct race_log race_log;
GR_API race_log *race_log_new(void);
GR_API void race_log_free(race_log *log);
/* Adds a report (its strings are copied), or counts it against an earlier
 * report with the same detector, class and pair of source positions. */
GR_API void race_log_add(race_log *log, const gr_race *r);
/* The distinct reports, sorted by detector, then the two source positions,
 * then class; valid until the next race_log_add. */
GR_API const gr_race *race_log_reports(race_log *log, size_t *n);
/* Distinct reports of one detector. */
GR_API size_t race_log_count(race_log *log, const char *detector);
GR_API void race_log_clear(race_log *log);
/* A detector that stops watching a run (a bound it cannot go past) says
 * so here, with why; its reports of that run are then incomplete, and the
 * run is a failure in every front end (exit status, table cell "not
 * watched"), never a clean one.  The first reason per detector is kept. */
GR_API void race_log_unwatched(race_log *log, const char *detector, const char *why);
/* Why the detector stopped watching, or NULL if it watched everything. */
GR_API const char *race_log_unwatched_why(race_log *log, const char *detector);

GR_API void race_print_text(FILE *out, const gr_race *r);
GR_API void race_print_json(FILE *out, const gr_race *r);   /* one object, one line */

/* Names for reports. */
GR_API const char *gr_access_kind_name(gr_access_kind k);
GR_API const char *gr_scope_name(gr_scope s);
GR_API const char *gr_space_name(gr_space s);
GR_API const char *gr_atomic_op_name(int op);

/* Fills a report side from an event's lane. */
GR_API void race_access_from_event(gr_race_access *a, const gr_event *ev, int lane);

/* Source positions by pc, learnt from events, for detectors that keep a pc
 * in their shadow state and report it later. */
typedef struct { struct pc_pos *pos; size_t n; } pc_table;
GR_API void pc_table_note(pc_table *t, const gr_event *ev);
GR_API void pc_table_fill(const pc_table *t, uint32_t pc, gr_race_access *a);   /* file, line, col */
GR_API void pc_table_free(pc_table *t);

/* ---------------------------------------------------------------- detectors */

typedef enum { HB_MODEL_SCORD, HB_MODEL_PTX } hb_model;

/* Options shared by the command line and the table; defaults from
 * det_options_default. */
typedef struct {
  int scord_granularity;     /* bytes per ScoRD metadata entry: 4, 8 or 16 (default 4) */
  uint64_t scord_device_memory;   /* scord: the device memory its metadata cache covers, in bytes
                                     (default 1.5 GiB, Table V's GPU; the launch's heap if larger) */
  hb_model hb_model;         /* model of the "hb" detector (default HB_MODEL_SCORD) */
  uint64_t hb_max_memory;    /* hb, hb-ptx: bytes of detector memory past which they stop watching
                                the launch (the run then fails as not watched); 0: no bound */
  int boyer_waw;             /* boyer: add the write-after-write check */
  const char *ld_targets;    /* ld: comma-separated buffers and __device__ variables to privatise, or
                                NULL: every one the kernel writes (found by a plain run) */
  int ld_copies;             /* ld: private copies per pass (memory-adaptive checking); 0: one per unit */
  uint64_t ld_shuffle;       /* ld: regroup units at random each round, from this seed; 0: base-M digits */
  int ld_rounds;             /* ld with ld_shuffle: rounds (default ceil(log_M N)) */
  int ld_deterministic;      /* ld: merge copies in warp and block order instead of checking */
  int ld_timing;             /* ld: time the phases (the summary then varies from run to run) */
  const char *loop_arrays;   /* loopdep, wise, wise-fp, paragon: the loop's arrays (comma-separated buffer
                                names); the file's //@ loop line where not given; NULL: every global buffer */
} det_options;
GR_API void det_options_default(det_options *o);
/* One command-line option of the detectors, shared by every front end, as
 * gr_config_option: the number of words taken (--scord-granularity 4|8|16,
 * --hb-model scord|ptx, --hb-max-memory MIB, --scord-device-memory KIB, --ld-targets LIST, --ld-copies M (2 or more),
 * --ld-shuffle SEED, --ld-rounds K, --loop-arrays LIST: 2; --boyer-waw, --ld-deterministic,
 * --ld-timing: 1), 0 when `opt` is none of them, -1 on a missing or bad
 * value, with the message in err. */
GR_API int det_options_option(det_options *o, const char *opt, const char *val, char *err, size_t errlen);
/* The k-th detector option (as gr_option_at), or NULL past the last. */
GR_API const gr_option *det_option_at(size_t k);

/* A registry entry. */
typedef struct {
  const char *name;
  const char *summary;
  /* Makes an instance for one context; `name` is the registry name it reports under. */
  void *(*create)(gr_context *ctx, const det_options *o, race_log *log, const char *name);
  void (*on_event)(void *self, const gr_event *ev);
  void (*destroy)(void *self);
  /* Optional: what the detector found besides races (boyer-banks: bank
   * conflicts per source line), as text. */
  void (*print_summary)(void *self, FILE *out);
  /* 1: the detector steers execution (snapshots, views) and so must watch
   * a run alone; verdict tables give it a run of its own */
  int runs_alone;
  /* Optional: refuses options that contradict each other (-1, message in err). */
  int (*check_options)(const det_options *o, char *err, size_t n);
  /* 1: it sees asynchronous copies (GR_EV_ASYNC_*, async_copy accesses)
   * for what they are, or says itself that it did not watch them; 0: the
   * registry says it did not watch a launch that has them */
  int models_async;
  /* 1: it needs no event of an access that cannot race (GR_OBSERVE_SKIP_RACE_FREE:
   * a plain load from an allocation the launch never writes, a reduction of
   * an allocation only reductions reach in a kernel without fences, a plain shared load in a barrier
   * interval without shared writes), and says itself that it did not
   * watch a launch where that proof failed (GR_EV_UNSEEN) */
  int skip_race_free;
} detector_kind;

GR_API const detector_kind *detector_lookup(const char *name);
/* Registry entries in order, NULL past the end. */
GR_API const detector_kind *detector_at(size_t k);

/* A set of detectors watching one context. */
typedef struct detector_set detector_set;
/* `list` is comma-separated registry names.  GR_EINPUT with a message in
 * err for an unknown or repeated name, a detector that runs alone named
 * with others, or options that contradict each other. */
GR_API int detectors_attach(gr_context *ctx, const char *list, const det_options *o, race_log *log,
                     detector_set **out, char *err, size_t errlen);
GR_API void detectors_detach(detector_set *set);
GR_API size_t detectors_size(const detector_set *set);
GR_API const char *detectors_name(const detector_set *set, size_t k);
/* The k-th detector's instance, for its own header's queries (ld_get_stats). */
GR_API void *detectors_instance(const detector_set *set, size_t k);
/* Prints the summaries of the detectors that have one, in list order. */
GR_API void detectors_summary(const detector_set *set, FILE *out);

/* ---------------------------------------------------------------- verdict tables */

/* Runs every file under the detectors over seeds first_seed .. first_seed +
 * seeds - 1; each (file, seed) run is one task, with every detector
 * watching it, and tasks run in parallel (OpenMP).  The result does not
 * depend on the number of threads. */
typedef struct {
  const char *detectors;     /* comma-separated registry names */
  det_options dopts;
  int seeds;                 /* default 1 */
  uint64_t first_seed;       /* default 1 */
  gr_memory memory;          /* default sc */
  gr_sched sched;            /* default random: seeds change the interleaving */
  gr_warps warps;            /* default lockstep */
  gr_cc cc;                  /* the front end of .cu files (default subset, or $GPURACE_CC) */
  char cc_flags[256];        /* the CUDA compiler's extra options */
  int sms;                   /* default 4 */
  uint64_t max_steps;        /* default 10M */
  int keep_going;            /* memory errors are dropped and the run goes on (the run still fails) */
  uint64_t max_code, max_source;   /* front-end bounds (gr_config's; 0: defaults) */
  int max_nesting;
  int progress;              /* a progress line on stderr */
  const char *const *defines;   /* -D for every run */
  int ndefines;
  int knobs;                 /* a file with "expect race if KNOB..." gives a row without its
                                knobs and one row per knob, alone (-D KNOB=1) */
  int shard, nshards;        /* this process runs the tasks k with k % nshards == shard (default
                                0 of 1: all); the others' come by table_unpack (MPI ranks) */
} table_opts;
GR_API void table_opts_default(table_opts *o);

typedef struct table table;
/* GR_EINPUT with err set for an unknown detector or an unreadable file;
 * a file whose runs fail is still a row (its cells say so). */
GR_API int table_run(const char *const *files, size_t nfiles, const table_opts *o, table **out, char *err, size_t errlen);
GR_API void table_free(table *t);
/* Sharded tables (table_opts.nshards > 1): a shard's results as bytes, and
 * those bytes added to the table of the shard that writes it; when every
 * shard is in, table_complete, after which the table is what one process
 * would have made, byte for byte.  table_unpack: GR_EINPUT with err for
 * bytes that are not a shard of this table. */
GR_API void table_pack(const table *t, uint8_t **buf, size_t *len);
GR_API int table_unpack(table *t, const uint8_t *buf, size_t len, char *err, size_t errlen);
GR_API void table_complete(table *t);
/* `command` is printed as the way to regenerate the table. */
GR_API void table_write_md(FILE *out, const table *t, const char *title, const char *command);
GR_API void table_write_csv(FILE *out, const table *t);
/* Cells whose verdict differs from the expected one on some seed, for one
 * detector (or all, with NULL).  A test without an expect line is not counted. */
GR_API size_t table_mismatches(const table *t, const char *detector);

#endif
