/* Exhaustive exploration: a depth-first search over choice sequences with
 * an exact visited-state set.  See explore.h. */
#include "explore.h"

#include <stdlib.h>
#include <string.h>

typedef struct { int choice, n; } step;
typedef struct { uint64_t hash, off; uint32_t len; } slot;

struct gr_explore {
  step *trail;              /* the choices of the current run */
  size_t ntrail, cap;
  size_t pos;               /* next choice to replay */
  uint8_t *keys;            /* every visited state, concatenated */
  size_t nkeys, keycap;
  slot *tab;                /* open addressing over keys */
  size_t ntab, nstates;
  uint64_t max_states, runs, pruned_runs;
  int last_pruned, bound_hit, mismatch;
};

gr_explore *gr_explore_new(uint64_t max_states) {
  gr_explore *x = xcalloc(1, sizeof *x);
  x->max_states = max_states ? max_states : 1000000;
  x->ntab = 1024;
  x->tab = xcalloc(x->ntab, sizeof(slot));
  x->runs = 1;
  return x;
}

void gr_explore_free(gr_explore *x) {
  if (!x) return;
  free(x->trail);
  free(x->keys);
  free(x->tab);
  free(x);
}

int explore_choose(gr_explore *x, int n) {
  if (x->pos < x->ntrail) {
    step *s = &x->trail[x->pos++];
    /* replay must see the same alternatives: the engine is deterministic */
    if (s->n != n) { x->mismatch = 1; return s->choice < n ? s->choice : 0; }
    return s->choice;
  }
  if (x->ntrail == x->cap) {
    x->cap = x->cap ? x->cap * 2 : 256;
    x->trail = xrealloc(x->trail, x->cap * sizeof(step));
  }
  x->trail[x->ntrail].choice = 0;
  x->trail[x->ntrail].n = n;
  x->ntrail++;
  x->pos++;
  return 0;
}

static uint64_t hash_bytes(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603ull ^ n;
  for (size_t k = 0; k < n; k++) h = (h ^ p[k]) * 1099511628211ull;
  return h ^ (h >> 29);
}

static void grow(gr_explore *x) {
  size_t n = x->ntab * 2;
  slot *t = xcalloc(n, sizeof(slot));
  for (size_t k = 0; k < x->ntab; k++) {
    if (!x->tab[k].len) continue;
    size_t i = x->tab[k].hash & (n - 1);
    while (t[i].len) i = (i + 1) & (n - 1);
    t[i] = x->tab[k];
  }
  free(x->tab);
  x->tab = t;
  x->ntab = n;
}

int explore_visit(gr_explore *x, const void *key, size_t len) {
  if (x->pos < x->ntrail) return 0;
  uint64_t h = hash_bytes(key, len);
  size_t i = h & (x->ntab - 1);
  for (; x->tab[i].len; i = (i + 1) & (x->ntab - 1)) {
    slot *s = &x->tab[i];
    if (s->hash == h && s->len == len && !memcmp(x->keys + s->off, key, len)) return 1;
  }
  if (x->nstates >= x->max_states) { x->bound_hit = 1; return 1; }
  if (x->nkeys + len > x->keycap) {
    while (x->nkeys + len > x->keycap) x->keycap = x->keycap ? x->keycap * 2 : 1 << 16;
    x->keys = xrealloc(x->keys, x->keycap);
  }
  memcpy(x->keys + x->nkeys, key, len);
  x->tab[i].hash = h;
  x->tab[i].off = x->nkeys;
  x->tab[i].len = (uint32_t)len;
  x->nkeys += len;
  if (++x->nstates * 2 > x->ntab) grow(x);
  return 0;
}

void explore_mark_pruned(gr_explore *x) { x->last_pruned = 1; }

int gr_explore_next(gr_explore *x) {
  if (x->last_pruned) x->pruned_runs++;
  x->last_pruned = 0;
  /* the choices made past the end of the trail are all 0: backtrack over
   * the exhausted ones and advance the deepest open one */
  while (x->ntrail && x->trail[x->ntrail - 1].choice == x->trail[x->ntrail - 1].n - 1) x->ntrail--;
  x->pos = 0;
  if (!x->ntrail || x->bound_hit || x->mismatch) return 0;
  x->trail[x->ntrail - 1].choice++;
  x->runs++;
  return 1;
}

int gr_explore_last_pruned(const gr_explore *x) { return x->last_pruned; }

void gr_explore_stats(const gr_explore *x, gr_explore_info *out) {
  out->runs = x->runs;
  out->pruned_runs = x->pruned_runs;
  out->states = x->nstates;
  out->complete = !x->bound_hit && !x->mismatch;
  out->nondeterministic = x->mismatch;
}
