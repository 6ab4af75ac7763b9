/* What the loop detectors share: the loop's arrays, iterations, accesses
 * kept for reports, and an address-keyed table. */
#include <stdlib.h>
#include <string.h>

#include "loops.h"
#include "util.h"

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

int loop_lanes(loop_arrays *a, pc_table *pcs, const gr_event *ev, loop_lane out[32]) {
  if (ev->kind != GR_EV_ACCESS || ev->space == GR_SPACE_LOCAL) return 0;
  int n = 0;
  for (int l = 0; l < 32; l++)
    if ((ev->mask >> l & 1) && loop_arrays_has(a, ev->addr[l], &out[n].buffer, &out[n].offset)) out[n++].lane = l;
  if (n) pc_table_note(pcs, ev);
  return n;
}

uint64_t loop_iteration(const gr_event *ev, int lane) {
  uint64_t per_block = (uint64_t)ev->blockdim.x * ev->blockdim.y * ev->blockdim.z;
  return (uint64_t)ev->block * per_block + (uint64_t)ev->warp_in_block * 32 + (uint64_t)lane;
}

void loop_access_of(loop_access *a, const gr_event *ev, int lane, const char *buffer, uint64_t offset, int write) {
  a->addr = ev->addr[lane];
  a->iter = loop_iteration(ev, lane);
  a->pc = (uint32_t)ev->pc;
  a->block = ev->block_idx;
  a->warp_in_block = (uint16_t)ev->warp_in_block;
  a->lane = (uint8_t)lane;
  a->write = (uint8_t)write;
  a->buffer = buffer;
  a->offset = offset;
  a->space = ev->space;
}

static void side(const pc_table *pcs, const loop_access *x, gr_race_access *a) {
  memset(a, 0, sizeof *a);
  pc_table_fill(pcs, x->pc, a);
  a->block = x->block;
  a->warp = x->warp_in_block;
  a->lane = x->lane;
  a->kind = x->write ? GR_STORE : GR_LOAD;
}

void loop_report(race_log *log, const char *detector, const char *cls, const pc_table *pcs, const loop_access *first,
                 const loop_access *second) {
  gr_race r;
  memset(&r, 0, sizeof r);
  r.detector = detector;
  r.cls = cls;
  r.space = second->space;
  r.buffer = second->buffer;
  r.offset = second->offset;
  side(pcs, first, &r.first);
  side(pcs, second, &r.second);
  race_log_add(log, &r);
}

void loop_map_init(loop_map *m, size_t item) {
  memset(m, 0, sizeof *m);
  m->item = item;
}

void *loop_map_get(loop_map *m, uint64_t addr) {
  if ((m->n + 1) * 2 > m->cap) {
    loop_map old = *m;
    m->cap = old.cap ? old.cap * 2 : 1024;
    m->tab = xcalloc(m->cap, m->item);
    m->n = 0;
    for (size_t k = 0; k < old.cap; k++) {
      uint8_t *e = old.tab + k * old.item;
      uint64_t a;
      memcpy(&a, e, sizeof a);
      if (a) memcpy(loop_map_get(m, a), e, m->item);
    }
    free(old.tab);
  }
  for (size_t i = (size_t)((addr * 0x9e3779b97f4a7c15u) >> 17) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    uint8_t *e = m->tab + i * m->item;
    uint64_t a;
    memcpy(&a, e, sizeof a);
    if (a == addr) return e;
    if (!a) {
      memcpy(e, &addr, sizeof addr);
      m->n++;
      return e;
    }
  }
}

void loop_map_clear(loop_map *m) {
  if (m->tab) memset(m->tab, 0, m->cap * m->item);
  m->n = 0;
}

void loop_map_free(loop_map *m) {
  free(m->tab);
  m->tab = NULL;
  m->cap = m->n = 0;
}
