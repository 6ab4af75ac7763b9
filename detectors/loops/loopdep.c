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
  uint64_t addr;
  uint64_t iter;
  uint64_t time;
  uint32_t warp;           /* global warp id */
  uint32_t pc;
  gr_dim3 block;
  uint16_t warp_in_block;
  uint8_t lane, write, read;
  const char *buffer;
  uint64_t offset;
  gr_space space;
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
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  if (x->iter != y->iter) return x->iter < y->iter ? -1 : 1;
  return x->time < y->time ? -1 : x->time > y->time;
}

static void side(loopdep *d, const rec *r, gr_race_access *a, int write) {
  memset(a, 0, sizeof *a);
  pc_table_fill(&d->pcs, r->pc, a);
  a->block = r->block;
  a->warp = r->warp_in_block;
  a->lane = r->lane;
  a->kind = write ? GR_STORE : GR_LOAD;
}

static void report(loopdep *d, const rec *i, const rec *j, const char *cls, int iw, int jw) {
  d->violations++;
  gr_race r;
  memset(&r, 0, sizeof r);
  r.detector = d->name;
  r.cls = cls;
  r.space = i->space;
  r.buffer = i->buffer;
  r.offset = i->offset;
  side(d, i, &r.first, iw);
  side(d, j, &r.second, jw);
  race_log_add(d->log, &r);
}

/* i < j: the violations of one pair of accesses on one address. */
static void judge(loopdep *d, const rec *i, const rec *j) {
  int inter = i->warp != j->warp;
  if (i->write && j->read && (inter || j->time < i->time)) report(d, i, j, inter ? "inter-warp RAW" : "intra-warp RAW", 1, 0);
  if (i->read && j->write && (inter || i->time > j->time)) report(d, i, j, inter ? "inter-warp WAR" : "intra-warp WAR", 0, 1);
  if (i->write && j->write && (inter || j->time < i->time)) report(d, i, j, inter ? "inter-warp WAW" : "intra-warp WAW", 1, 1);
}

static void check_launch(loopdep *d) {
  rec *r = d->recs.data;
  size_t n = d->recs.len;
  if (n > 1) qsort(r, n, sizeof *r, cmp_rec);
  for (size_t a = 0; a < n && !d->why;) {
    size_t b = a;
    int writes = 0;
    while (b < n && r[b].addr == r[a].addr) writes |= r[b++].write;
    if (writes)
      for (size_t x = a; x < b && !d->why; x++)
        for (size_t y = x + 1; y < b; y++) {
          if (r[y].iter == r[x].iter) continue;   /* one iteration: a thread's own order holds */
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
  if (ev->kind != GR_EV_ACCESS || ev->space == GR_SPACE_LOCAL) return;
  d->time++;
  int noted = 0;
  for (int l = 0; l < 32; l++) {
    if (!(ev->mask >> l & 1)) continue;
    const char *buf;
    uint64_t off;
    if (!loop_arrays_has(&d->arrays, ev->addr[l], &buf, &off)) continue;
    if (!noted) { pc_table_note(&d->pcs, ev); noted = 1; }
    rec *x = vec_push(&d->recs);
    x->addr = ev->addr[l];
    x->iter = loop_iteration(ev, l);
    x->time = d->time;
    x->warp = ev->warp;
    x->pc = (uint32_t)ev->pc;
    x->block = ev->block_idx;
    x->warp_in_block = (uint16_t)ev->warp_in_block;
    x->lane = (uint8_t)l;
    x->write = ev->access != GR_LOAD;
    x->read = ev->access != GR_STORE;
    x->buffer = buf;
    x->offset = off;
    x->space = ev->space;
    d->accesses++;
  }
}

void loopdep_summary(void *self, FILE *out) {
  loopdep *d = self;
  fprintf(out, "%s: %llu accesses to the loop's arrays, %llu pairs compared, %llu violated dependencies\n", d->name,
          (unsigned long long)d->accesses, (unsigned long long)d->pairs, (unsigned long long)d->violations);
}

/* ---------------------------------------------------------------- shared by the loop detectors */

void loop_arrays_init(loop_arrays *a, gr_context *ctx, const det_options *o) {
  memset(a, 0, sizeof *a);
  a->ctx = ctx;
  a->last_alloc = UINT32_MAX;
  if (!o->loop_arrays || !*o->loop_arrays) return;
  char *copy = xstrdup(o->loop_arrays);
  for (char *sv, *t = strtok_r(copy, ", ", &sv); t; t = strtok_r(NULL, ", ", &sv)) {
    a->names = xrealloc(a->names, (size_t)(a->n + 1) * sizeof *a->names);
    a->names[a->n++] = xstrdup(t);
  }
  free(copy);
}

void loop_arrays_free(loop_arrays *a) {
  for (int k = 0; k < a->n; k++) free(a->names[k]);
  free(a->names);
}

int loop_arrays_has(loop_arrays *a, uint64_t addr, const char **name, uint64_t *offset) {
  if (gr_describe_address(a->ctx, addr, name, offset)) return 0;   /* shared memory, or no allocation */
  uint32_t id = (uint32_t)gr_allocation_id(addr);
  if (id != a->last_alloc) {
    a->last_alloc = id;
    a->last_in = !a->n;
    for (int k = 0; k < a->n && !a->last_in; k++) a->last_in = !strcmp(a->names[k], *name);
  }
  return a->last_in;
}

uint64_t loop_iteration(const gr_event *ev, int lane) {
  uint64_t per_block = (uint64_t)ev->blockdim.x * ev->blockdim.y * ev->blockdim.z;
  return (uint64_t)ev->block * per_block + (uint64_t)ev->warp_in_block * 32 + (uint64_t)lane;
}
