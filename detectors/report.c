/* The race log: reports in one form, deduplicated, in a fixed order. */
#include <stdlib.h>
#include <string.h>

#include "detectors.h"
#include "util.h"

/* Strings are interned, so that two reports' strings compare by pointer and
 * outlive the modules and contexts they came from. */
typedef struct { char **s; size_t n, cap; } strtab;

static const char *intern(strtab *t, const char *s) {
  if (!s) return NULL;
  for (size_t k = 0; k < t->n; k++) if (!strcmp(t->s[k], s)) return t->s[k];
  if (t->n == t->cap) { t->cap = t->cap ? 2 * t->cap : 16; t->s = xrealloc(t->s, t->cap * sizeof *t->s); }
  size_t len = strlen(s) + 1;
  char *c = xmalloc(len);
  memcpy(c, s, len);
  t->s[t->n++] = c;
  return c;
}

typedef struct { const char *detector, *why; } unwatched;

struct race_log {
  strtab strs;
  unwatched *un;
  size_t nun;
  gr_race *r;
  size_t n, cap;
  size_t *slot;        /* open addressing: index+1 into r, 0 empty */
  size_t nslots;
  int sorted;
};

race_log *race_log_new(void) {
  race_log *l = xmalloc(sizeof *l);
  memset(l, 0, sizeof *l);
  l->sorted = 1;
  return l;
}

void race_log_clear(race_log *l) {
  l->n = 0;
  l->nun = 0;
  if (l->slot) memset(l->slot, 0, l->nslots * sizeof *l->slot);
  l->sorted = 1;
}

void race_log_free(race_log *l) {
  if (!l) return;
  for (size_t k = 0; k < l->strs.n; k++) free(l->strs.s[k]);
  free(l->strs.s);
  free(l->un);
  free(l->r);
  free(l->slot);
  free(l);
}

static uint64_t mix(uint64_t h, uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); return h; }

/* The key: detector, class and the two source positions (strings interned,
 * so their addresses identify them). */
static uint64_t key_hash(const gr_race *r) {
  uint64_t h = 0;
  h = mix(h, (uint64_t)(uintptr_t)r->detector);
  h = mix(h, (uint64_t)(uintptr_t)r->cls);
  h = mix(h, (uint64_t)(uintptr_t)r->first.file);
  h = mix(h, (uint64_t)r->first.line << 20 ^ (uint64_t)r->first.col);
  h = mix(h, (uint64_t)(uintptr_t)r->second.file);
  h = mix(h, (uint64_t)r->second.line << 20 ^ (uint64_t)r->second.col);
  return h;
}

static int same_pos(const gr_race_access *a, const gr_race_access *b) {
  return a->file == b->file && a->line == b->line && a->col == b->col;
}

static int key_eq(const gr_race *a, const gr_race *b) {
  return a->detector == b->detector && a->cls == b->cls && same_pos(&a->first, &b->first) && same_pos(&a->second, &b->second);
}

static void rehash(race_log *l) {
  size_t ns = l->nslots ? 2 * l->nslots : 64;
  free(l->slot);
  l->slot = xmalloc(ns * sizeof *l->slot);
  memset(l->slot, 0, ns * sizeof *l->slot);
  l->nslots = ns;
  for (size_t k = 0; k < l->n; k++) {
    size_t i = key_hash(&l->r[k]) & (ns - 1);
    while (l->slot[i]) i = (i + 1) & (ns - 1);
    l->slot[i] = k + 1;
  }
}

void race_log_unwatched(race_log *l, const char *detector, const char *why) {
  if (race_log_unwatched_why(l, detector)) return;
  l->un = xrealloc(l->un, (l->nun + 1) * sizeof *l->un);
  l->un[l->nun].detector = intern(&l->strs, detector);
  l->un[l->nun].why = intern(&l->strs, why);
  l->nun++;
}

const char *race_log_unwatched_why(race_log *l, const char *detector) {
  for (size_t k = 0; k < l->nun; k++) if (!strcmp(l->un[k].detector, detector)) return l->un[k].why;
  return NULL;
}

void race_log_add(race_log *l, const gr_race *in) {
  gr_race r = *in;
  r.detector = intern(&l->strs, in->detector);
  r.cls = intern(&l->strs, in->cls);
  r.buffer = intern(&l->strs, in->buffer);
  r.first.file = intern(&l->strs, in->first.file);
  r.second.file = intern(&l->strs, in->second.file);
  r.first.role = intern(&l->strs, in->first.role);
  r.second.role = intern(&l->strs, in->second.role);
  if (!r.count) r.count = 1;
  if (l->sorted && l->n) { rehash(l); l->sorted = 0; }  /* sorting moved the reports */
  if (2 * (l->n + 1) > l->nslots) rehash(l);
  size_t i = key_hash(&r) & (l->nslots - 1);
  while (l->slot[i]) {
    gr_race *e = &l->r[l->slot[i] - 1];
    if (key_eq(e, &r)) { e->count += r.count; return; }
    i = (i + 1) & (l->nslots - 1);
  }
  if (l->n == l->cap) { l->cap = l->cap ? 2 * l->cap : 16; l->r = xrealloc(l->r, l->cap * sizeof *l->r); }
  l->r[l->n] = r;
  l->slot[i] = ++l->n;
  l->sorted = 0;
}

static int cmp_str(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : ""); }

static int cmp_pos(const gr_race_access *a, const gr_race_access *b) {
  int c = cmp_str(a->file, b->file);
  if (c) return c;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  if (a->col != b->col) return a->col < b->col ? -1 : 1;
  return 0;
}

static int cmp_race(const void *pa, const void *pb) {
  const gr_race *a = pa, *b = pb;
  int c = cmp_str(a->detector, b->detector);
  if (!c) c = cmp_pos(&a->first, &b->first);
  if (!c) c = cmp_pos(&a->second, &b->second);
  if (!c) c = cmp_str(a->cls, b->cls);
  return c;
}

const gr_race *race_log_reports(race_log *l, size_t *n) {
  if (!l->sorted) { qsort(l->r, l->n, sizeof *l->r, cmp_race); l->sorted = 1; }
  *n = l->n;
  return l->r;
}

size_t race_log_count(race_log *l, const char *detector) {
  size_t c = 0;
  for (size_t k = 0; k < l->n; k++) if (!strcmp(l->r[k].detector, detector)) c++;
  return c;
}

/* ---------------------------------------------------------------- printing */

const char *gr_access_kind_name(gr_access_kind k) {
  switch (k) { case GR_LOAD: return "load"; case GR_STORE: return "store"; case GR_ATOMIC: return "atomic"; }
  return "?";
}
const char *gr_scope_name(gr_scope s) {
  switch (s) { case GR_SCOPE_BLOCK: return "block"; case GR_SCOPE_DEVICE: return "device"; case GR_SCOPE_SYSTEM: return "system"; }
  return "?";
}
const char *gr_space_name(gr_space s) {
  switch (s) { case GR_SPACE_GLOBAL: return "global"; case GR_SPACE_SHARED: return "shared"; case GR_SPACE_LOCAL: return "local"; }
  return "?";
}
const char *gr_atomic_op_name(int op) {
  static const char *const names[] = {"add", "sub", "exch", "min", "max", "inc", "dec", "cas", "and", "or", "xor"};
  return op >= 0 && op < 11 ? names[op] : "?";
}

void race_access_from_event(gr_race_access *a, const gr_event *ev, int lane) {
  memset(a, 0, sizeof *a);
  a->file = ev->file;
  a->line = ev->line;
  a->col = ev->col;
  a->block = ev->block_idx;
  a->warp = ev->warp_in_block;
  a->lane = lane;
  a->kind = ev->access;
  a->atomic_op = ev->atomic_op;
  a->scope = ev->scope;
  a->order = ev->order;
  a->strong = ev->is_volatile || ev->access == GR_ATOMIC;
  if (ev->async_copy) a->role = ev->access == GR_STORE ? "cp.async store" : "cp.async load";
}

struct pc_pos { const char *file; int line, col; };

void pc_table_note(pc_table *t, const gr_event *ev) {
  if (ev->pc < 0) return;
  if ((size_t)ev->pc >= t->n) {
    size_t n = (size_t)ev->pc + 64;
    t->pos = xrealloc(t->pos, n * sizeof *t->pos);
    memset(t->pos + t->n, 0, (n - t->n) * sizeof *t->pos);
    t->n = n;
  }
  t->pos[ev->pc] = (struct pc_pos){ev->file, ev->line, ev->col};
}

void pc_table_fill(const pc_table *t, uint32_t pc, gr_race_access *a) {
  if (pc < t->n) { a->file = t->pos[pc].file; a->line = t->pos[pc].line; a->col = t->pos[pc].col; }
}

void pc_table_free(pc_table *t) {
  free(t->pos);
  t->pos = NULL;
  t->n = 0;
}

static const char *const order_name[] = {"relaxed", "acquire", "release", "acq_rel", "sc"};

/* A volatile access is relaxed at system scope; other strong accesses name
 * their order and scope (an __nv_atomic_* builtin). */
static int is_volatile_kind(const gr_race_access *a) {
  return a->kind != GR_ATOMIC && a->order == GR_ORDER_RELAXED && a->scope == GR_SCOPE_SYSTEM;
}

static void print_how(FILE *out, const gr_race_access *a) {
  if (a->role) fputs(a->role, out);
  else if (a->kind == GR_ATOMIC)
    fprintf(out, "atomic %s%s%s (%s scope)", gr_atomic_op_name(a->atomic_op), a->order ? " " : "", a->order ? order_name[a->order] : "",
            gr_scope_name(a->scope));
  else if (!a->strong) fprintf(out, "plain %s", gr_access_kind_name(a->kind));
  else if (is_volatile_kind(a)) fprintf(out, "volatile %s", gr_access_kind_name(a->kind));
  else fprintf(out, "%s %s (%s scope)", order_name[a->order], gr_access_kind_name(a->kind), gr_scope_name(a->scope));
}

static void print_side(FILE *out, const char *label, const gr_race_access *a) {
  fprintf(out, "  %s %s:%d:%d: ", label, a->file ? a->file : "?", a->line, a->col);
  print_how(out, a);
  fprintf(out, " by block (%u,%u,%u)", a->block.x, a->block.y, a->block.z);
  if (a->warp != RACE_WHOLE_BLOCK) fprintf(out, " warp %u", a->warp);
  if (a->lane >= 0) fprintf(out, " lane %d", a->lane);
  fputc('\n', out);
}

void race_print_text(FILE *out, const gr_race *r) {
  if (r->buffer) fprintf(out, "race [%s] %s: %s %s+%llu", r->detector, r->cls, gr_space_name(r->space), r->buffer, (unsigned long long)r->offset);
  else fprintf(out, "race [%s] %s: %s memory+%llu", r->detector, r->cls, gr_space_name(r->space), (unsigned long long)r->offset);
  if (r->count > 1) fprintf(out, " (%llu times)", (unsigned long long)r->count);
  fputc('\n', out);
  print_side(out, "first: ", &r->first);
  print_side(out, "second:", &r->second);
}

static void json_str(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
    else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
    else fputc(*p, out);
  }
  fputc('"', out);
}

static void json_side(FILE *out, const gr_race_access *a) {
  fputs("{\"file\":", out);
  json_str(out, a->file);
  fprintf(out, ",\"line\":%d,\"col\":%d,\"block\":[%u,%u,%u],\"warp\":", a->line, a->col, a->block.x, a->block.y, a->block.z);
  if (a->warp == RACE_WHOLE_BLOCK) fputs("null", out);
  else fprintf(out, "%u", a->warp);
  if (a->lane < 0) fputs(",\"lane\":null", out);
  else fprintf(out, ",\"lane\":%d", a->lane);
  fprintf(out, ",\"kind\":\"%s\"", gr_access_kind_name(a->kind));
  if (a->role) { fputs(",\"role\":", out); json_str(out, a->role); }
  if (a->kind == GR_ATOMIC) fprintf(out, ",\"op\":\"%s\",\"scope\":\"%s\"", gr_atomic_op_name(a->atomic_op), gr_scope_name(a->scope));
  else if (a->strong && !is_volatile_kind(a)) fprintf(out, ",\"op\":null,\"scope\":\"%s\"", gr_scope_name(a->scope));
  else fputs(",\"op\":null,\"scope\":null", out);
  if (a->strong && a->order) fprintf(out, ",\"order\":\"%s\"", order_name[a->order]);
  fprintf(out, ",\"strong\":%s}", a->strong ? "true" : "false");
}

void race_print_json(FILE *out, const gr_race *r) {
  fputs("{\"detector\":", out);
  json_str(out, r->detector);
  fputs(",\"class\":", out);
  json_str(out, r->cls);
  fprintf(out, ",\"space\":\"%s\",\"buffer\":", gr_space_name(r->space));
  if (r->buffer) json_str(out, r->buffer);
  else fputs("null", out);
  fprintf(out, ",\"offset\":%llu,\"count\":%llu,\"first\":", (unsigned long long)r->offset, (unsigned long long)r->count);
  json_side(out, &r->first);
  fputs(",\"second\":", out);
  json_side(out, &r->second);
  fputs("}\n", out);
}
