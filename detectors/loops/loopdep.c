/* loopdep: the exact oracle of loop dependencies, the ground truth the
 * schemes are measured against.  Every access to the loop's arrays is
 * recorded with its iteration (flattened thread id), its warp and its time
 * (the engine's execution order, which lockstep makes the order of one
 * warp's instructions).  At the end of the launch, for each address, every
 * pair of iterations i < j with at least one write is a violation when
 *   - they are in different warps (their order is unknown), or, in one warp,
 *   - RAW: i writes, j reads, and j's read came before i's write;
 *   - WAR: i reads, j writes, and i's read came after j's write;
 *   - WAW: both write and j's write came before i's (in one instruction the
 *     lanes store in order, the higher one last: the sequential order).
 * Atomics count as a read and a write. */
#include <stdlib.h>
#include <string.h>

#include "loops.h"
#include "util.h"

typedef struct {
  loop_access a;
  uint64_t time;
  uint32_t warp;           /* global warp id */
  uint8_t read;
} rec;

typedef struct {
  loop_arrays arrays;
  race_log *log;
  const char *name;
  vec recs;                /* rec */
  pc_table pcs;
  uint64_t time;
  uint64_t violations, pairs, accesses;
  const char *why;         /* stopped watching */
} loopdep;

#define MAX_PAIRS ((uint64_t)1 << 32)   /* pair comparisons per launch before the oracle gives up */

void *loopdep_create(gr_context *ctx, const det_options *o, race_log *log, const char *name) {
  loopdep *d = xcalloc(1, sizeof *d);
  loop_arrays_init(&d->arrays, ctx, o);
  d->log = log;
  d->name = name;
  vec_init(&d->recs, sizeof(rec));
  return d;
}

void loopdep_destroy(void *self) {
  loopdep *d = self;
  loop_arrays_free(&d->arrays);
  vec_free(&d->recs);
  pc_table_free(&d->pcs);
  free(d);
}

static int cmp_rec(const void *a, const void *b) {
  const rec *x = a, *y = b;
  if (x->a.addr != y->a.addr) return x->a.addr < y->a.addr ? -1 : 1;
  if (x->a.iter != y->a.iter) return x->a.iter < y->a.iter ? -1 : 1;
  return x->time < y->time ? -1 : x->time > y->time;
}

/* A report of the pair: the accesses as they were (a write side of an atomic shows as a write). */
static void report(loopdep *d, const rec *i, const rec *j, const char *cls, int iw, int jw) {
  d->violations++;
  loop_access x = i->a, y = j->a;
  x.write = (uint8_t)iw;
  y.write = (uint8_t)jw;
  loop_report(d->log, d->name, cls, &d->pcs, &x, &y);
}

/* i < j: the violations of one pair of accesses on one address. */
static void judge(loopdep *d, const rec *i, const rec *j) {
  int inter = i->warp != j->warp;
  int iw = i->a.write, jw = j->a.write;
  if (iw && j->read && (inter || j->time < i->time)) report(d, i, j, inter ? "inter-warp RAW" : "intra-warp RAW", 1, 0);
  if (i->read && jw && (inter || i->time > j->time)) report(d, i, j, inter ? "inter-warp WAR" : "intra-warp WAR", 0, 1);
  if (iw && jw && (inter || j->time < i->time)) report(d, i, j, inter ? "inter-warp WAW" : "intra-warp WAW", 1, 1);
}

static void check_launch(loopdep *d) {
  rec *r = d->recs.data;
  size_t n = d->recs.len;
  if (n > 1) qsort(r, n, sizeof *r, cmp_rec);
  for (size_t a = 0; a < n && !d->why;) {
    size_t b = a;
    int writes = 0;
    while (b < n && r[b].a.addr == r[a].a.addr) writes |= r[b++].a.write;
    if (writes)
      for (size_t x = a; x < b && !d->why; x++)
        for (size_t y = x + 1; y < b; y++) {
          if (r[y].a.iter == r[x].a.iter) continue;   /* one iteration: a thread's own order holds */
          if (++d->pairs > MAX_PAIRS) {
            d->why = "more than 2^32 pairs of accesses to compare: no verdict";
            race_log_unwatched(d->log, d->name, d->why);
            break;
          }
          judge(d, &r[x], &r[y]);
        }
    a = b;
  }
  d->recs.len = 0;
}

void loopdep_on_event(void *self, const gr_event *ev) {
  loopdep *d = self;
  if (ev->kind == GR_EV_LAUNCH_BEGIN) { d->recs.len = 0; d->time = 0; return; }
  if (ev->kind == GR_EV_LAUNCH_END) { check_launch(d); return; }
  if (ev->kind != GR_EV_ACCESS) return;
  d->time++;
  loop_lane ln[32];
  int n = loop_lanes(&d->arrays, &d->pcs, ev, ln);
  for (int k = 0; k < n; k++) {
    rec *x = vec_push(&d->recs);
    loop_access_of(&x->a, ev, ln[k].lane, ln[k].buffer, ln[k].offset, ev->access != GR_LOAD);
    x->time = d->time;
    x->warp = ev->warp;
    x->read = ev->access != GR_STORE;
    d->accesses++;
  }
}

void loopdep_summary(void *self, FILE *out) {
  loopdep *d = self;
  fprintf(out, "%s: %llu accesses to the loop's arrays, %llu pairs compared, %llu violated dependencies\n", d->name,
          (unsigned long long)d->accesses, (unsigned long long)d->pairs, (unsigned long long)d->violations);
}

