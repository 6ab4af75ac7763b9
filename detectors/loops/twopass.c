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
 * The fields are kept at those widths: timestamps wrap at 256, as the
 * paper's would.
 *
 *   WAW pass, per write (t, ts): exchange the upper half; the first write
 *   sets the lower half; a previous writer in another warp is an inter-warp
 *   WAW, in t's warp a higher lane an intra-warp WAW.
 *   RAW/WAR pass, per read (t, ts) of an address some thread wrote: a last
 *   writer in another warp is an inter-warp RAW/WAR; in t's warp, with the
 *   first writer (iwid, minTs) and the last (lane, ts'):
 *     (1) t's lane < iwid and ts > minTs: intra-warp WAR (t read what a later
 *         iteration wrote);
 *     (2) t's lane > the last writer's and ts < ts': intra-warp RAW (t read
 *         before an earlier iteration wrote);
 *     (3) t's lane and ts strictly between the first and the last write's:
 *         intra-warp (the summary of the WAW pass cannot order it).
 * twopass-fp reports every access to an address another iteration wrote. */
#include <stdlib.h>
#include <string.h>

#include "loops.h"
#include "util.h"

typedef struct {
  uint64_t addr, iter, seq;
  uint32_t ts;             /* the warp's intra-warp timestamp at this operation */
  uint32_t warp, pc;       /* warp: iteration / 32, as the inspector computes it */
  gr_dim3 block;
  uint16_t warp_in_block;
  uint8_t lane, write;
  const char *buffer;
  uint64_t offset;
  gr_space space;
} op;

typedef struct {
  uint64_t addr;           /* 0: empty */
  uint32_t upper, lower;   /* Figure 4a */
  int valid;
  const op *last;          /* for reports: the last writer's access */
} entry;

typedef struct {
  loop_arrays arrays;
  race_log *log;
  const char *name;
  int fp;
  vec ops;                 /* op, in execution order */
  vec warp_ts;             /* uint32_t per global warp id */
  entry *tab;
  size_t cap, n;
  pc_table pcs;
  uint64_t writes, reads, waw, rawwar;
  int waw_found;
} twopass;

static void *create(gr_context *ctx, const det_options *o, race_log *log, const char *name, int fp) {
  twopass *t = xcalloc(1, sizeof *t);
  loop_arrays_init(&t->arrays, ctx, o);
  t->log = log;
  t->name = name;
  t->fp = fp;
  vec_init(&t->ops, sizeof(op));
  vec_init(&t->warp_ts, sizeof(uint32_t));
  return t;
}

void *twopass_create(gr_context *ctx, const det_options *o, race_log *log, const char *name) { return create(ctx, o, log, name, 0); }
void *twopass_create_fp(gr_context *ctx, const det_options *o, race_log *log, const char *name) { return create(ctx, o, log, name, 1); }

void twopass_destroy(void *self) {
  twopass *t = self;
  loop_arrays_free(&t->arrays);
  vec_free(&t->ops);
  vec_free(&t->warp_ts);
  free(t->tab);
  pc_table_free(&t->pcs);
  free(t);
}

static entry *lookup(twopass *t, uint64_t addr) {
  if ((t->n + 1) * 2 > t->cap) {
    size_t ocap = t->cap;
    entry *old = t->tab;
    t->cap = ocap ? ocap * 2 : 1024;
    t->tab = xcalloc(t->cap, sizeof *t->tab);
    t->n = 0;
    for (size_t k = 0; k < ocap; k++)
      if (old[k].addr) *lookup(t, old[k].addr) = old[k];
    free(old);
  }
  for (size_t i = (size_t)((addr * 0x9e3779b97f4a7c15u) >> 17) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    if (t->tab[i].addr == addr) return &t->tab[i];
    if (!t->tab[i].addr) {
      t->tab[i].addr = addr;
      t->n++;
      return &t->tab[i];
    }
  }
}

#define UP_TS(u) ((u) >> 24)
#define UP_TID(u) ((u) & 0xffffffu)
#define LO_IWID(l) ((l) >> 26)
#define LO_MINTS(l) ((l) & 0x3ffffffu)

static void side(twopass *t, const op *o, gr_race_access *a) {
  memset(a, 0, sizeof *a);
  pc_table_fill(&t->pcs, o->pc, a);
  a->block = o->block;
  a->warp = o->warp_in_block;
  a->lane = o->lane;
  a->kind = o->write ? GR_STORE : GR_LOAD;
}

static void report(twopass *t, const op *earlier, const op *o, const char *cls) {
  gr_race r;
  memset(&r, 0, sizeof r);
  r.detector = t->name;
  r.cls = cls;
  r.space = o->space;
  r.buffer = o->buffer;
  r.offset = o->offset;
  side(t, earlier, &r.first);
  side(t, o, &r.second);
  race_log_add(t->log, &r);
}

static void passes(twopass *t) {
  const op *ops = t->ops.data;
  size_t n = t->ops.len;
  if (t->tab) memset(t->tab, 0, t->cap * sizeof *t->tab);
  t->n = 0;
  /* the WAW pass */
  for (size_t k = 0; k < n; k++) {
    const op *o = &ops[k];
    if (!o->write) continue;
    t->writes++;
    entry *e = lookup(t, o->addr);
    uint32_t prev = e->upper;
    int had = e->valid;
    const op *last = e->last;
    e->upper = (o->ts & 0xffu) << 24 | ((uint32_t)o->iter & 0xffffffu);
    e->last = o;
    if (!had) {
      e->lower = (uint32_t)(o->lane & 0x3f) << 26 | (o->ts & 0x3ffffffu);
      e->valid = 1;
      continue;
    }
    uint32_t ptid = UP_TID(prev), tid = (uint32_t)o->iter & 0xffffffu;
    if (ptid == tid) continue;
    if (ptid / 32 != tid / 32) { t->waw++; report(t, last, o, "inter-warp WAW"); }
    else if (t->fp || ptid % 32 > tid % 32) { t->waw++; report(t, last, o, "intra-warp WAW"); }
  }
  /* the RAW/WAR pass, where the first found no WAW (the inspector stops at its flag) */
  t->waw_found = t->waw > 0;
  if (t->waw_found) return;
  for (size_t k = 0; k < n; k++) {
    const op *o = &ops[k];
    if (o->write) continue;
    t->reads++;
    entry *e = lookup(t, o->addr);
    if (!e->valid) continue;
    uint32_t wtid = UP_TID(e->upper), wts = UP_TS(e->upper), tid = (uint32_t)o->iter & 0xffffffu;
    uint32_t fl = LO_IWID(e->lower), fts = LO_MINTS(e->lower), lane = tid % 32, ts = o->ts & 0xffu;
    uint32_t wl = wtid % 32;
    const char *cls = NULL;
    if (wtid / 32 != tid / 32) cls = "inter-warp RAW/WAR";
    else if (t->fp) { if (wtid != tid || fl != lane) cls = "intra-warp RAW/WAR"; }
    else if (lane < fl && ts > (fts & 0xffu)) cls = "intra-warp WAR";
    else if (lane > wl && ts < wts) cls = "intra-warp RAW";
    else if (((fl < lane && lane < wl) || (wl < lane && lane < fl)) && (fts & 0xffu) < ts && ts < wts) cls = "intra-warp RAW/WAR";
    if (cls) { t->rawwar++; report(t, e->last, o, cls); }
  }
}

void twopass_on_event(void *self, const gr_event *ev) {
  twopass *t = self;
  if (ev->kind == GR_EV_LAUNCH_BEGIN) {
    t->ops.len = 0;
    t->warp_ts.len = 0;
    t->writes = t->reads = t->waw = t->rawwar = 0;
    return;
  }
  if (ev->kind == GR_EV_LAUNCH_END) {
    passes(t);
    t->ops.len = 0;
    return;
  }
  if (ev->kind != GR_EV_ACCESS || ev->space == GR_SPACE_LOCAL) return;
  int any = 0;
  for (int l = 0; l < 32 && !any; l++) {
    const char *buf;
    uint64_t off;
    any = (ev->mask >> l & 1) && loop_arrays_has(&t->arrays, ev->addr[l], &buf, &off);
  }
  if (!any) return;
  pc_table_note(&t->pcs, ev);
  /* Listing 1: the warp's counter, incremented once by its active lanes */
  while (t->warp_ts.len <= ev->warp) *(uint32_t *)vec_push(&t->warp_ts) = 0;
  uint32_t ts = ++*(uint32_t *)vec_at(&t->warp_ts, ev->warp);
  for (int l = 0; l < 32; l++) {
    if (!(ev->mask >> l & 1)) continue;
    const char *buf;
    uint64_t off;
    if (!loop_arrays_has(&t->arrays, ev->addr[l], &buf, &off)) continue;
    for (int k = 0; k < 2; k++) {
      int write = k == 1;
      if (write ? ev->access == GR_LOAD : ev->access == GR_STORE) continue;
      op *o = vec_push(&t->ops);
      o->addr = ev->addr[l];
      o->iter = loop_iteration(ev, l);
      o->ts = ts;
      o->warp = (uint32_t)(o->iter / 32);
      o->pc = (uint32_t)ev->pc;
      o->block = ev->block_idx;
      o->warp_in_block = (uint16_t)ev->warp_in_block;
      o->lane = (uint8_t)(o->iter % 32);
      o->write = (uint8_t)write;
      o->buffer = buf;
      o->offset = off;
      o->space = ev->space;
    }
  }
}

void twopass_summary(void *self, FILE *out) {
  twopass *t = self;
  fprintf(out, "%s: WAW pass over %llu writes, %llu dependencies; ", t->name, (unsigned long long)t->writes,
          (unsigned long long)t->waw);
  if (t->waw_found) fputs("RAW/WAR pass not run (the first pass raised the flag)", out);
  else fprintf(out, "RAW/WAR pass over %llu reads, %llu dependencies", (unsigned long long)t->reads, (unsigned long long)t->rawwar);
  fprintf(out, "; shadow memory %llu bytes (8 per address)\n", (unsigned long long)t->n * 8);
}
