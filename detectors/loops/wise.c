/* wise and wise-fp: WISE's speculative reads and writes (Algorithms 1 and
 * 2 of the paper) as a golden model.  Each address of the loop's arrays has
 * a write shadow (the last writer's iteration: atomic exchange) and a read
 * shadow (the largest reader's: atomic max).  Accesses are taken in the
 * engine's execution order, the lanes of one instruction in lane order (as
 * the hardware serialises one instruction's atomics on one word).
 *
 *   write by t:  w = xchg(W[a], t); a writer in another warp is an
 *                inter-warp WAW; in t's warp, a higher lane (a later
 *                iteration that already wrote) an intra-warp WAW.  Then
 *                r = R[a]: a reader in another warp is an inter-warp RAW or
 *                WAR; in t's warp, a higher lane an intra-warp RAW (it read
 *                before t, an earlier iteration, wrote).
 *   read by t:   w = W[a]: a writer in another warp is an inter-warp RAW or
 *                WAR; in t's warp, a higher lane an intra-warp WAR (t reads
 *                a value a later iteration wrote).  Then R[a] = max(R[a], t).
 *
 * wise-fp leaves out the intra-warp cases: any other iteration's access is a
 * dependency, as Paragon sees it.  The warp of an iteration is iteration /
 * 32, as the paper computes it from the flattened NDRange index.  The
 * first detection is when WISE's race flag would be set: the summary gives
 * how many speculative operations ran before it (what early termination
 * saves). */
#include <stdlib.h>
#include <string.h>

#include "loops.h"
#include "util.h"

typedef struct {
  uint64_t addr;           /* loop_map's key */
  int has_w, has_r;
  loop_access w, r;        /* write shadow; read shadow (the largest reader) */
} shadow;

typedef struct {
  loop_arrays arrays;
  race_log *log;
  const char *name;
  int fp;
  loop_map shadows;        /* shadow */
  pc_table pcs;
  uint64_t ops, detections, first_at;   /* speculative operations; dependencies found; ops before the first */
} wise;

static void *create(gr_context *ctx, const det_options *o, race_log *log, const char *name, int fp) {
  wise *w = xcalloc(1, sizeof *w);
  loop_arrays_init(&w->arrays, ctx, o);
  w->log = log;
  w->name = name;
  w->fp = fp;
  loop_map_init(&w->shadows, sizeof(shadow));
  return w;
}

void *wise_create(gr_context *ctx, const det_options *o, race_log *log, const char *name) { return create(ctx, o, log, name, 0); }
void *wise_create_fp(gr_context *ctx, const det_options *o, race_log *log, const char *name) { return create(ctx, o, log, name, 1); }

void wise_destroy(void *self) {
  wise *w = self;
  loop_arrays_free(&w->arrays);
  loop_map_free(&w->shadows);
  pc_table_free(&w->pcs);
  free(w);
}

static void report(wise *w, const loop_access *other, const loop_access *me, const char *cls) {
  if (!w->detections++) w->first_at = w->ops;
  loop_report(w->log, w->name, cls, &w->pcs, other, me);
}

/* t's relation to an earlier access by o: 0 none, 1 another warp, 2 a higher lane of t's warp. */
static int conflict(const wise *w, uint64_t t, int has, uint64_t o) {
  if (!has || o == t) return 0;
  if (o / 32 != t / 32) return 1;
  if (w->fp) return 2;
  return t % 32 < o % 32 ? 2 : 0;
}

void wise_on_event(void *self, const gr_event *ev) {
  wise *w = self;
  if (ev->kind == GR_EV_LAUNCH_BEGIN) {
    loop_map_clear(&w->shadows);
    return;
  }
  loop_lane ln[32];
  int n = loop_lanes(&w->arrays, &w->pcs, ev, ln);
  for (int j = 0; j < n; j++) {
    int l = ln[j].lane;
    const char *buf = ln[j].buffer;
    uint64_t off = ln[j].offset;
    shadow *s = loop_map_get(&w->shadows, ev->addr[l]);
    loop_access me;
    if (ev->access != GR_STORE) {          /* Algorithm 2 (an atomic reads, then writes) */
      loop_access_of(&me, ev, l, buf, off, 0);
      w->ops++;
      int c = conflict(w, me.iter, s->has_w, s->w.iter);
      if (c) report(w, &s->w, &me, c == 1 ? "inter-warp RAW/WAR" : "intra-warp WAR");
      if (!s->has_r || me.iter > s->r.iter) { s->r = me; s->has_r = 1; }
    }
    if (ev->access != GR_LOAD) {           /* Algorithm 1 */
      loop_access_of(&me, ev, l, buf, off, 1);
      w->ops++;
      loop_access prev = s->w;
      int had = s->has_w;
      s->w = me;
      s->has_w = 1;
      int c = conflict(w, me.iter, had, prev.iter);
      if (c) report(w, &prev, &me, c == 1 ? "inter-warp WAW" : "intra-warp WAW");
      else if ((c = conflict(w, me.iter, s->has_r, s->r.iter)))
        report(w, &s->r, &me, c == 1 ? "inter-warp RAW/WAR" : "intra-warp RAW");
    }
  }
}

void wise_summary(void *self, FILE *out) {
  wise *w = self;
  fprintf(out, "%s: %llu speculative operations, %llu dependencies", w->name, (unsigned long long)w->ops,
          (unsigned long long)w->detections);
  if (w->detections) fprintf(out, ", the first after %llu operations", (unsigned long long)w->first_at);
  fprintf(out, "; shadow memory %llu bytes (8 per address: write and read shadows of 32 bits)\n",
          (unsigned long long)w->shadows.n * 8);
}
