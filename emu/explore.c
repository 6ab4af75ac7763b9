/* Exhaustive exploration: a depth-first search over choice sequences with
 * an exact visited-state set, which several searches may share.  See
 * explore.h. */
#include "explore.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

typedef explore_step step;
typedef struct { uint64_t hash, off; uint32_t len; } slot;

struct explore_set {
  uint8_t *keys;            /* every visited state, concatenated */
  size_t nkeys, keycap;
  slot *tab;                /* open addressing over keys */
  size_t ntab, nstates;
  uint64_t max_states;
  int full;                 /* a state was refused at the bound */
#ifdef _OPENMP
  omp_lock_t lock;          /* the searches of one process's threads share it */
#endif
};

struct gr_explore {
  step *trail;              /* the choices of the current run */
  size_t ntrail, cap;
  size_t pos;               /* next choice to replay */
  explore_set *set;
  int own_set;
  uint64_t runs, pruned_runs;
  int last_pruned, bound_hit, mismatch;
  size_t floor;             /* a subtree: the prefix below it is never backtracked */
  size_t horizon;           /* the frontier mode: runs stop past this many choices */
  int cut;                  /* the frontier mode: the last run stopped at the frontier */
  uint8_t *cut_key;         /* ... at this state */
  size_t cut_len, cut_cap;
  uint64_t launches;        /* launches begun in this run: part of every state */
  uint64_t tail;            /* visits since the last choice: a state is its choices and this */
  uint64_t skip;            /* a subtree's first run: visits past its last choice before its root */
  int shard, nshards;       /* across processes: the states this one owns (by hash) */
  explore_forward_fn forward;
  void *forward_user;
};

explore_set *explore_set_new(uint64_t max_states) {
  explore_set *s = xcalloc(1, sizeof *s);
  s->max_states = max_states ? max_states : 1000000;
  s->ntab = 1024;
  s->tab = xcalloc(s->ntab, sizeof(slot));
#ifdef _OPENMP
  omp_init_lock(&s->lock);
#endif
  return s;
}

void explore_set_free(explore_set *s) {
  if (!s) return;
#ifdef _OPENMP
  omp_destroy_lock(&s->lock);
#endif
  free(s->keys);
  free(s->tab);
  free(s);
}

uint64_t explore_set_count(const explore_set *s) { return s->nstates; }
int explore_set_full(const explore_set *s) { return s->full; }

void explore_set_each(const explore_set *s, void (*fn)(void *user, const uint8_t *key, size_t len), void *user) {
  for (size_t k = 0; k < s->ntab; k++)
    if (s->tab[k].len) fn(user, s->keys + s->tab[k].off, s->tab[k].len);
}

static void grow(explore_set *s) {
  size_t n = s->ntab * 2;
  slot *t = xcalloc(n, sizeof(slot));
  for (size_t k = 0; k < s->ntab; k++) {
    if (!s->tab[k].len) continue;
    size_t i = s->tab[k].hash & (n - 1);
    while (t[i].len) i = (i + 1) & (n - 1);
    t[i] = s->tab[k];
  }
  free(s->tab);
  s->tab = t;
  s->ntab = n;
}

int explore_set_has(explore_set *s, const void *key, size_t len, uint64_t h) {
  int r = 0;
#ifdef _OPENMP
  omp_set_lock(&s->lock);
#endif
  for (size_t i = h & (s->ntab - 1); s->tab[i].len && !r; i = (i + 1) & (s->ntab - 1)) {
    slot *e = &s->tab[i];
    r = e->hash == h && e->len == len && !memcmp(s->keys + e->off, key, len);
  }
#ifdef _OPENMP
  omp_unset_lock(&s->lock);
#endif
  return r;
}

int explore_set_add(explore_set *s, const void *key, size_t len, uint64_t h) {
  int r = 1;
#ifdef _OPENMP
  omp_set_lock(&s->lock);
#endif
  size_t i = h & (s->ntab - 1);
  for (; s->tab[i].len; i = (i + 1) & (s->ntab - 1)) {
    slot *e = &s->tab[i];
    if (e->hash == h && e->len == len && !memcmp(s->keys + e->off, key, len)) { r = 0; goto out; }
  }
  if (s->nstates >= s->max_states) { s->full = 1; r = -1; goto out; }
  if (s->nkeys + len > s->keycap) {
    while (s->nkeys + len > s->keycap) s->keycap = s->keycap ? s->keycap * 2 : 1 << 16;
    s->keys = xrealloc(s->keys, s->keycap);
  }
  memcpy(s->keys + s->nkeys, key, len);
  s->tab[i].hash = h;
  s->tab[i].off = s->nkeys;
  s->tab[i].len = (uint32_t)len;
  s->nkeys += len;
  if (++s->nstates * 2 > s->ntab) grow(s);
out:
#ifdef _OPENMP
  omp_unset_lock(&s->lock);
#endif
  return r;
}

gr_explore *gr_explore_new(uint64_t max_states) {
  gr_explore *x = xcalloc(1, sizeof *x);
  x->set = explore_set_new(max_states);
  x->own_set = 1;
  x->runs = 1;
  return x;
}

gr_explore *explore_new_frontier(explore_set *set, size_t depth) {
  gr_explore *x = explore_new_subtree(set, NULL, 0, 0);
  x->horizon = depth ? depth : 1;
  return x;
}

gr_explore *explore_new_subtree(explore_set *set, const explore_step *prefix, size_t len, uint64_t skip) {
  gr_explore *x = xcalloc(1, sizeof *x);
  x->skip = skip;
  x->set = set;
  x->runs = 1;
  x->cap = len ? len : 1;
  x->trail = xmalloc(x->cap * sizeof(step));
  if (len) memcpy(x->trail, prefix, len * sizeof(step));
  x->ntrail = x->floor = len;
  return x;
}

int explore_at_frontier(const gr_explore *x, const explore_step **prefix, size_t *len, const uint8_t **key, size_t *klen) {
  *prefix = x->trail;
  *len = x->ntrail;
  *key = x->cut ? x->cut_key : NULL;
  *klen = x->cut ? x->cut_len : 0;
  return x->cut ? 1 : x->last_pruned ? -1 : 0;
}

void explore_set_owner(gr_explore *x, int shard, int nshards, explore_forward_fn fn, void *user) {
  x->shard = shard, x->nshards = nshards, x->forward = fn, x->forward_user = user;
}

void explore_launch_begun(gr_explore *x) { x->launches++; }
uint64_t explore_launches(const gr_explore *x) { return x->launches; }

void gr_explore_free(gr_explore *x) {
  if (!x) return;
  if (x->own_set) explore_set_free(x->set);
  free(x->cut_key);
  free(x->trail);
  free(x);
}

int explore_choose(gr_explore *x, int n) {
  x->tail = 0;
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

int explore_replaying(const gr_explore *x) { return x->pos < x->ntrail; }

int explore_visit(gr_explore *x, const void *key, size_t len) {
  if (x->pos < x->ntrail) return 0;
  /* a choice of one alternative is no choice: several states can follow
   * the same choices, told apart by how many visits came between */
  uint64_t tail = x->tail++;
  if (x->skip) { x->skip--; return 0; }
  if (x->horizon && x->ntrail >= x->horizon) {
    /* the frontier mode stops each run at the first state past the
     * horizon, which roots a subtree, and leaves it to that subtree */
    if (len > x->cut_cap) { x->cut_cap = len; x->cut_key = xrealloc(x->cut_key, len); }
    memcpy(x->cut_key, key, len);
    x->cut_len = len;
    x->cut = 1;
    return 1;
  }
  uint64_t h = hash_bytes(key, len);
  if (x->nshards > 1 && h % (uint64_t)x->nshards != (uint64_t)x->shard) {
    /* another process's state: it explores it, from the choices that led here */
    x->forward(x->forward_user, key, len, x->trail, x->ntrail, tail);
    return 1;
  }
  int r = explore_set_add(x->set, key, len, h);
  if (r < 0) x->bound_hit = 1;
  return r <= 0;
}

void explore_mark_pruned(gr_explore *x) { x->last_pruned = 1; }

int gr_explore_next(gr_explore *x) {
  if (x->last_pruned) x->pruned_runs++;
  x->last_pruned = 0;
  x->cut = 0;
  x->launches = 0;
  x->tail = 0;
  x->skip = 0;
  /* the choices made past the end of the trail are all 0: backtrack over
   * the exhausted ones and advance the deepest open one */
  while (x->ntrail > x->floor && x->trail[x->ntrail - 1].choice == x->trail[x->ntrail - 1].n - 1) x->ntrail--;
  x->pos = 0;
  if (x->ntrail <= x->floor || x->bound_hit || x->mismatch) return 0;
  x->trail[x->ntrail - 1].choice++;
  x->runs++;
  return 1;
}

int gr_explore_last_pruned(const gr_explore *x) { return x->last_pruned; }

void gr_explore_stats(const gr_explore *x, gr_explore_info *out) {
  memset(out, 0, sizeof *out);
  out->runs = x->runs;
  out->pruned_runs = x->pruned_runs;
  out->states = x->set->nstates;
  out->complete = !x->bound_hit && !x->mismatch && !x->set->full;
  out->nondeterministic = x->mismatch;
}
