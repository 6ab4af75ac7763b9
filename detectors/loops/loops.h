/* loops: dependency checking for speculatively parallelised loops (Liu et
 * al., "Lightweight Dependency Checking for Parallelizing Loops with
 * Non-deterministic Dependency on GPU", shared/papers/wise-twopass.txt).
 *
 * A loop kernel runs iteration i of `for (i = 0; i < N; i++) body(i)` as
 * flattened thread i; its //@ loop line names the shared arrays (whose
 * index expressions are not affine in i).  The parallel run is correct
 * only if no cross-iteration dependency is violated.  These are golden
 * models that watch the engine's events on those arrays:
 *
 *   loopdep  the exact oracle: every violated dependency (iterations i < j
 *            on one address, one of them writing, in different warps, or in
 *            one warp in an order that contradicts the sequential one:
 *            Figure 6's shaded area);
 *   wise     WISE's speculative reads and writes (Algorithms 1 and 2) on a
 *            write shadow and a read shadow, with its intra-warp cases;
 *            wise-fp without them (every other thread's access is one);
 *   twopass  the two-pass inspector (Section III): a WAW pass and a RAW/WAR
 *            pass over 64-bit shadow entries with intra-warp timestamps;
 *            twopass-fp without the intra-warp cases;
 *   paragon  Paragon's read and write sets per thread, compared pairwise.
 *
 * Each reports the dependencies it finds as race reports (detector, class
 * such as "inter-warp RAW", the two accesses), so `gpurace run --detect`
 * and `gpurace table` compare them on the same runs. */
#ifndef GR_LOOPS_H
#define GR_LOOPS_H

#include "detectors.h"

void *loopdep_create(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void loopdep_on_event(void *self, const gr_event *ev);
void loopdep_destroy(void *self);
void loopdep_summary(void *self, FILE *out);

void *wise_create(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void *wise_create_fp(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void wise_on_event(void *self, const gr_event *ev);
void wise_destroy(void *self);
void wise_summary(void *self, FILE *out);

void *twopass_create(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void *twopass_create_fp(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void twopass_on_event(void *self, const gr_event *ev);
void twopass_destroy(void *self);
void twopass_summary(void *self, FILE *out);

void *paragon_create(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void paragon_on_event(void *self, const gr_event *ev);
void paragon_destroy(void *self);
void paragon_summary(void *self, FILE *out);

/* The two-pass inspector's slice of every kernel of the module for the
 * loop arrays named (comma-separated), printed as KIR (`gpurace ir
 * --slice`).  GR_EINPUT with err for a name the kernel does not have. */
int loop_print_slice(FILE *out, gr_module *mod, const char *arrays, char *err, size_t errlen);

/* The file's sequential loop (its `//@ meta seq NAME`: detectors/loops/seq.c)
 * in C over its buffers and args, in iteration order, repeat times on fresh
 * inputs; the buffers then hold its result (for the file's checks and
 * dumps) and *seconds the fastest repetition's time.  GR_EINPUT with err
 * for a file without one, a loop that lacks a buffer, a bad index. */
int loop_seq_run(gr_script *s, int repeat, double *seconds, char *err, size_t errlen);

/* Shared by the three: which accesses are to the loop's arrays, and the
 * iteration (flattened thread id) of an event's lane. */
typedef struct {
  gr_context *ctx;
  char **names;
  int n;
  uint32_t last_alloc;     /* a one-entry cache of the allocation last looked up */
  int last_in;
} loop_arrays;
void loop_arrays_init(loop_arrays *a, gr_context *ctx, const det_options *o);
void loop_arrays_free(loop_arrays *a);
/* 1 when addr lies in one of the loop's arrays (all global buffers where
 * the file named none), with the buffer's name and the offset. */
int loop_arrays_has(loop_arrays *a, uint64_t addr, const char **name, uint64_t *offset);
uint64_t loop_iteration(const gr_event *ev, int lane);
/* The lanes of an access event that touch the loop's arrays, in lane
 * order (none for other events and for local memory); where there are
 * some, the event's source position is noted in pcs for later reports. */
typedef struct { int lane; const char *buffer; uint64_t offset; } loop_lane;
int loop_lanes(loop_arrays *a, pc_table *pcs, const gr_event *ev, loop_lane out[32]);

/* One access to a loop array, as the detectors keep it for their reports. */
typedef struct {
  uint64_t addr, iter;
  uint32_t pc;
  gr_dim3 block;
  uint16_t warp_in_block;
  uint8_t lane, write;
  const char *buffer;
  uint64_t offset;
  gr_space space;
} loop_access;
void loop_access_of(loop_access *a, const gr_event *ev, int lane, const char *buffer, uint64_t offset, int write);
/* Reports a dependency between two accesses to one address. */
void loop_report(race_log *log, const char *detector, const char *cls, const pc_table *pcs, const loop_access *first,
                 const loop_access *second);

/* A table from addresses to fixed-size items whose first field is the
 * uint64_t address (0: an empty slot), open addressing. */
typedef struct { uint8_t *tab; size_t cap, n, item; } loop_map;
void loop_map_init(loop_map *m, size_t item);
void *loop_map_get(loop_map *m, uint64_t addr);   /* a new item is zero but for its address */
void loop_map_clear(loop_map *m);
void loop_map_free(loop_map *m);

#endif
