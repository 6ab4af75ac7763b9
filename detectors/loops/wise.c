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

#define NONE UINT64_MAX

typedef struct {
  uint64_t tid;            /* iteration, or NONE */
  uint32_t pc;
  gr_dim3 block;
  uint16_t warp;
  uint8_t lane;
} who;

typedef struct {
  uint64_t addr;           /* 0: empty slot */
  who w, r;                /* write shadow; read shadow (the largest reader) */
} shadow;

typedef struct {
  loop_arrays arrays;
  race_log *log;
  const char *name;
  int fp;
  shadow *tab;
  size_t cap, n;
  pc_table pcs;
  uint64_t ops, detections, first_at;   /* speculative operations; dependencies found; ops before the first */
} wise;

static void *create(gr_context *ctx, const det_options *o, race_log *log, const char *name, int fp) {
  wise *w = xcalloc(1, sizeof *w);
  loop_arrays_init(&w->arrays, ctx, o);
  w->log = log;
  w->name = name;
  w->fp = fp;
  return w;
}

void *wise_create(gr_context *ctx, const det_options *o, race_log *log, const char *name) { return create(ctx, o, log, name, 0); }
void *wise_create_fp(gr_context *ctx, const det_options *o, race_log *log, const char *name) { return create(ctx, o, log, name, 1); }

void wise_destroy(void *self) {
  wise *w = self;
  loop_arrays_free(&w->arrays);
  free(w->tab);
  pc_table_free(&w->pcs);
  free(w);
}

static shadow *lookup(wise *w, uint64_t addr) {
  if ((w->n + 1) * 2 > w->cap) {
    size_t ocap = w->cap;
    shadow *old = w->tab;
    w->cap = ocap ? ocap * 2 : 1024;
    w->tab = xcalloc(w->cap, sizeof *w->tab);
    w->n = 0;
    for (size_t k = 0; k < ocap; k++)
      if (old[k].addr) *lookup(w, old[k].addr) = old[k];
    free(old);
  }
  size_t h = (size_t)((addr * 0x9e3779b97f4a7c15u) >> 17);
  for (size_t i = h & (w->cap - 1);; i = (i + 1) & (w->cap - 1)) {
    if (w->tab[i].addr == addr) return &w->tab[i];
    if (!w->tab[i].addr) {
      w->tab[i].addr = addr;
      w->tab[i].w.tid = w->tab[i].r.tid = NONE;
      w->n++;
      return &w->tab[i];
    }
  }
}

static void report(wise *w, const gr_event *ev, int lane, const who *other, int other_writes, const char *cls,
                   const char *buf, uint64_t off) {
  if (!w->detections++) w->first_at = w->ops;
  gr_race r;
  memset(&r, 0, sizeof r);
  r.detector = w->name;
  r.cls = cls;
  r.space = ev->space;
  r.buffer = buf;
  r.offset = off;
  memset(&r.first, 0, sizeof r.first);
  pc_table_fill(&w->pcs, other->pc, &r.first);
  r.first.block = other->block;
  r.first.warp = other->warp;
  r.first.lane = other->lane;
  r.first.kind = other_writes ? GR_STORE : GR_LOAD;
  race_access_from_event(&r.second, ev, lane);
  race_log_add(w->log, &r);
}

/* t's relation to an earlier access by o: 0 none, 1 another warp, 2 a higher lane of t's warp. */
static int conflict(const wise *w, uint64_t t, uint64_t o) {
  if (o == NONE || o == t) return 0;
  if (o / 32 != t / 32) return 1;
  if (w->fp) return 2;
  return t % 32 < o % 32 ? 2 : 0;
}

void wise_on_event(void *self, const gr_event *ev) {
  wise *w = self;
  if (ev->kind == GR_EV_LAUNCH_BEGIN) {
    if (w->tab) memset(w->tab, 0, w->cap * sizeof *w->tab);
    w->n = 0;
    return;
  }
  if (ev->kind != GR_EV_ACCESS || ev->space == GR_SPACE_LOCAL) return;
  int noted = 0;
  for (int l = 0; l < 32; l++) {
    if (!(ev->mask >> l & 1)) continue;
    const char *buf;
    uint64_t off;
    if (!loop_arrays_has(&w->arrays, ev->addr[l], &buf, &off)) continue;
    if (!noted) { pc_table_note(&w->pcs, ev); noted = 1; }
    uint64_t t = loop_iteration(ev, l);
    shadow *s = lookup(w, ev->addr[l]);
    who me = {t, (uint32_t)ev->pc, ev->block_idx, (uint16_t)ev->warp_in_block, (uint8_t)l};
    if (ev->access != GR_STORE) {          /* Algorithm 2 (an atomic reads, then writes) */
      w->ops++;
      int c = conflict(w, t, s->w.tid);
      if (c) report(w, ev, l, &s->w, 1, c == 1 ? "inter-warp RAW/WAR" : "intra-warp WAR", buf, off);
      if (s->r.tid == NONE || t > s->r.tid) s->r = me;
    }
    if (ev->access != GR_LOAD) {           /* Algorithm 1 */
      w->ops++;
      who prev = s->w;
      s->w = me;
      int c = conflict(w, t, prev.tid);
      if (c) report(w, ev, l, &prev, 1, c == 1 ? "inter-warp WAW" : "intra-warp WAW", buf, off);
      else {
        c = conflict(w, t, s->r.tid);
        if (c) report(w, ev, l, &s->r, 0, c == 1 ? "inter-warp RAW/WAR" : "intra-warp RAW", buf, off);
      }
    }
  }
}

void wise_summary(void *self, FILE *out) {
  wise *w = self;
  fprintf(out, "%s: %llu speculative operations, %llu dependencies", w->name, (unsigned long long)w->ops,
          (unsigned long long)w->detections);
  if (w->detections) fprintf(out, ", the first after %llu operations", (unsigned long long)w->first_at);
  fprintf(out, "; shadow memory %llu bytes (8 per address: write and read shadows of 32 bits)\n",
          (unsigned long long)w->n * 8);
}
