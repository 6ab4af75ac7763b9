/* twopass and twopass-fp: the two-pass inspector of Section III as a
 * golden model.  The inspector runs the loop's slice twice; both runs stamp
 * every memory operation on the loop's arrays with the intra-warp timestamp
 * of Listing 1 (a per-warp counter that all lanes increment once per
 * operation, exact under lockstep), the same in both runs.  So the model
 * records the accesses of one run with their timestamps, then replays the
 * two passes at the end of the launch, over a 64-bit shadow entry per
 * address as Figure 4a packs it: upper half 8-bit timestamp and 24-bit
 * thread id of the last writer (atomic exchange), lower half the first
 * writer's 6-bit intra-warp id and 26-bit timestamp (minTs), set once.
 * The fields are kept at those widths; the 8-bit field holds timestamps
 * 1..255 ((ts - 1) % 255 + 1) so that a written entry is never 0, the
 * value of an address nobody wrote, as kernels/loops/twopass.cuh, the
 * instrumented CUDA, keeps it: the two agree on every kernel.
 *
 *   WAW pass, per write (t, ts): exchange the upper half; the first write
 *   sets the lower half; a previous writer in another warp is an inter-warp
 *   WAW, in t's warp a higher lane an intra-warp WAW.
 *   RAW/WAR pass, per read (t, ts) of an address some thread wrote: a last
 *   writer in another warp is an inter-warp RAW/WAR; in t's warp, with the
 *   first writer (iwid, minTs) and the last (lane, ts'):
 *     (1) t's lane < iwid and ts > minTs (26 bits): intra-warp WAR (t read
 *         what a later iteration wrote);
 *     (2) t's lane > the last writer's and ts < ts' (8 bits): intra-warp RAW
 *         (t read before an earlier iteration wrote);
 *     (3) t's lane strictly between the first and the last writer's, and
 *         minTs < ts, ts < ts': intra-warp (the summary of the WAW pass
 *         cannot order it).
 * twopass-fp reports every access to an address another iteration wrote.
 *
 * The 8-bit field wraps once a warp has made 255 operations on the arrays
 * (the 26-bit one after 2^26 - 1): comparisons across the wrap are wrong
 * both ways, and the paper's freedom from false negatives is gone.  A
 * launch where a warp's timestamp passes 255 gets no verdict from twopass
 * (the run fails as not watched), as the instrumented CUDA sets tp_wrapped;
 * twopass-fp compares no timestamps and keeps its verdict. */
#include <stdlib.h>
#include <string.h>

#include "loops.h"
#include "util.h"

typedef struct {
  loop_access a;
  uint32_t ts;             /* the warp's intra-warp timestamp at this operation */
} op;

typedef struct {
  uint64_t addr;           /* loop_map's key */
  uint32_t upper, lower;   /* Figure 4a; upper 0: nobody wrote it */
  const op *last;          /* for reports: the last writer's access */
} entry;

typedef struct {
  loop_arrays arrays;
  race_log *log;
  const char *name;
  int fp;
  vec ops;                 /* op, in execution order */
  vec warp_ts;             /* uint32_t per global warp id */
  loop_map shadow;         /* entry */
  pc_table pcs;
  uint64_t writes, reads, waw, rawwar;
  int waw_found;
  uint32_t max_ts;         /* the largest timestamp of any warp in the launch */
} twopass;

static void *create(gr_context *ctx, const det_options *o, race_log *log, const char *name, int fp) {
  twopass *t = xcalloc(1, sizeof *t);
  loop_arrays_init(&t->arrays, ctx, o);
  t->log = log;
  t->name = name;
  t->fp = fp;
  vec_init(&t->ops, sizeof(op));
  vec_init(&t->warp_ts, sizeof(uint32_t));
  loop_map_init(&t->shadow, sizeof(entry));
  return t;
}

void *twopass_create(gr_context *ctx, const det_options *o, race_log *log, const char *name) { return create(ctx, o, log, name, 0); }
void *twopass_create_fp(gr_context *ctx, const det_options *o, race_log *log, const char *name) { return create(ctx, o, log, name, 1); }

void twopass_destroy(void *self) {
  twopass *t = self;
  loop_arrays_free(&t->arrays);
  vec_free(&t->ops);
  vec_free(&t->warp_ts);
  loop_map_free(&t->shadow);
  pc_table_free(&t->pcs);
  free(t);
}

static uint32_t ts8(uint32_t ts) { return (ts - 1) % 255 + 1; }

#define UP_TS(u) ((u) >> 24)
#define UP_TID(u) ((u) & 0xffffffu)
#define LO_IWID(l) ((l) >> 26)
#define LO_MINTS(l) ((l) & 0x3ffffffu)

static void report(twopass *t, const op *earlier, const op *o, const char *cls) {
  loop_report(t->log, t->name, cls, &t->pcs, &earlier->a, &o->a);
}

static void passes(twopass *t) {
  const op *ops = t->ops.data;
  size_t n = t->ops.len;
  loop_map_clear(&t->shadow);
  t->waw_found = 0;
  if (t->max_ts > 255 && !t->fp) {
    char why[200];
    snprintf(why, sizeof why, "a warp made %u operations on the loop's arrays in one launch, past the 255 its 8-bit intra-warp timestamp holds: the timestamps wrapped, no verdict",
             t->max_ts);
    race_log_unwatched(t->log, t->name, why);
    return;
  }
  /* the WAW pass */
  for (size_t k = 0; k < n; k++) {
    const op *o = &ops[k];
    if (!o->a.write) continue;
    t->writes++;
    entry *e = loop_map_get(&t->shadow, o->a.addr);
    uint32_t prev = e->upper;
    const op *last = e->last;
    e->upper = ts8(o->ts) << 24 | ((uint32_t)o->a.iter & 0xffffffu);
    e->last = o;
    if (!prev) {
      e->lower = (uint32_t)(o->a.iter % 32) << 26 | (o->ts & 0x3ffffffu);
      continue;
    }
    uint32_t ptid = UP_TID(prev), tid = (uint32_t)o->a.iter & 0xffffffu;
    if (ptid == tid) continue;
    if (ptid / 32 != tid / 32) { t->waw++; report(t, last, o, "inter-warp WAW"); }
    else if (t->fp || ptid % 32 > tid % 32) { t->waw++; report(t, last, o, "intra-warp WAW"); }
  }
  /* the RAW/WAR pass, where the first found no WAW (the inspector stops at its flag) */
  t->waw_found = t->waw > 0;
  if (t->waw_found) return;
  for (size_t k = 0; k < n; k++) {
    const op *o = &ops[k];
    if (o->a.write) continue;
    t->reads++;
    entry *e = loop_map_get(&t->shadow, o->a.addr);
    if (!e->upper) continue;
    uint32_t wtid = UP_TID(e->upper), wts = UP_TS(e->upper), tid = (uint32_t)o->a.iter & 0xffffffu;
    uint32_t fl = LO_IWID(e->lower), fts = LO_MINTS(e->lower), lane = tid % 32;
    uint32_t ts26 = o->ts & 0x3ffffffu, t8 = ts8(o->ts), wl = wtid % 32;
    const char *cls = NULL;
    if (wtid / 32 != tid / 32) cls = "inter-warp RAW/WAR";
    else if (t->fp) { if (wtid != tid || fl != lane) cls = "intra-warp RAW/WAR"; }
    else if (lane < fl && ts26 > fts) cls = "intra-warp WAR";
    else if (lane > wl && t8 < wts) cls = "intra-warp RAW";
    else if (((fl < lane && lane < wl) || (wl < lane && lane < fl)) && fts < ts26 && t8 < wts) cls = "intra-warp RAW/WAR";
    if (cls) { t->rawwar++; report(t, e->last, o, cls); }
  }
}

void twopass_on_event(void *self, const gr_event *ev) {
  twopass *t = self;
  if (ev->kind == GR_EV_LAUNCH_BEGIN) {
    t->ops.len = 0;
    t->warp_ts.len = 0;
    t->writes = t->reads = t->waw = t->rawwar = 0;
    t->max_ts = 0;
    return;
  }
  if (ev->kind == GR_EV_LAUNCH_END) {
    passes(t);
    t->ops.len = 0;
    return;
  }
  loop_lane ln[32];
  int n = loop_lanes(&t->arrays, &t->pcs, ev, ln);
  if (!n) return;
  /* Listing 1: the warp's counter, incremented once by its active lanes */
  while (t->warp_ts.len <= ev->warp) *(uint32_t *)vec_push(&t->warp_ts) = 0;
  uint32_t ts = ++*(uint32_t *)vec_at(&t->warp_ts, ev->warp);
  if (ts > t->max_ts) t->max_ts = ts;
  for (int j = 0; j < n; j++)
    for (int k = 0; k < 2; k++) {
      int write = k == 1;
      if (write ? ev->access == GR_LOAD : ev->access == GR_STORE) continue;
      op *o = vec_push(&t->ops);
      loop_access_of(&o->a, ev, ln[j].lane, ln[j].buffer, ln[j].offset, write);
      o->ts = ts;
    }
}

void twopass_summary(void *self, FILE *out) {
  twopass *t = self;
  if (t->max_ts > 255 && !t->fp) {
    fprintf(out, "%s: no verdict: a warp's intra-warp timestamp reached %u, past its 8 bits\n", t->name, t->max_ts);
    return;
  }
  fprintf(out, "%s: WAW pass over %llu writes, %llu dependencies; ", t->name, (unsigned long long)t->writes,
          (unsigned long long)t->waw);
  if (t->waw_found) fputs("RAW/WAR pass not run (the first pass raised the flag)", out);
  else fprintf(out, "RAW/WAR pass over %llu reads, %llu dependencies", (unsigned long long)t->reads, (unsigned long long)t->rawwar);
  fprintf(out, "; shadow memory %llu bytes (8 per address)\n", (unsigned long long)t->shadow.n * 8);
}
