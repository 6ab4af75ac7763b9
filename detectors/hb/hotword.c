/* The summary of a hot word's entries (hb_int.h).  An agent's live
 * entries in the word are its pieces (at most HW_PIECES kinds: a kind is
 * source position, info, lock set, bytes, copy or thread); each kind
 * counts its agents in all, per block and per warp (rows of an array by
 * place, a block or warp, which each record names).  A relation to an
 * accessor has an agent of the kind where the counts say so, and the one
 * is found by a walk over the word's agents: hb.c asks only for a (class,
 * source pair) it has not reported in the launch, so walks are as many as
 * reports, and an access otherwise costs its own bookkeeping.
 *
 * Agents of a block that has ended never access again, and every later
 * accessor is of another block: their records are retired (hw_retire),
 * leaving per kind only their count in the total and one of their pieces
 * for the other-block relation.  So the records and tables are as large
 * as the resident agents that touched the word, not as all of them: an
 * access costs the same at any launch size. */
#include <stdlib.h>
#include <string.h>

#include "hb_int.h"
#include "util.h"

#define HW_PIECES 4

#define HW_KINDS 65535u   /* a word's kinds at most (a piece's kind is 16 bits) */

/* An agent's record: its pieces, each a kind (which holds the source
 * position, info, lock set and bytes) with the piece's clock and lane, so
 * that a record is 52 bytes, not the 120 of four entries: a racy hot
 * word's records are as many as the resident agents that touched it, and
 * an access's cost is mostly their cache misses (the run of the racy
 * histogram takes twice as long with 16 SMs' resident blocks as with 4).
 * dead: its block has ended; its pieces are retired (hw_retire), the
 * record stays until the dead are as many as the living. */
typedef struct {
  uint32_t agent, block, warp, bp, wp;   /* bp, wp: the places of its block and warp */
  uint16_t g[HW_PIECES];                 /* piece k's kind */
  uint32_t clock[HW_PIECES];
  uint8_t lane[HW_PIECES];
  uint8_t copy, np, dead;
} arec;

/* open addressing, 32-bit keys never removed (0 marks an empty slot), a
 * key and its value in one 8-byte slot, so that a table an access probes
 * is as small as it can be: agents (agent + 1) to their records, blocks
 * and warps (key_of) to their places */
typedef struct { uint32_t k, v; } mslot;
typedef struct { mslot *t; size_t cap, n; } map;

/* a kind, with the count of agents that have a piece of it (retired ones
 * included), and what reps last found for an accessor of the kind: the
 * count of kinds then (kinds are only added; 0: never), the relations
 * want said 1 to (bits 3g..3g+2 for kind g, 21 kinds at most), and the
 * caller's ver when it was last asked.  What an access reads of its kind,
 * in one place. */
typedef struct {
  hw_kind k;
  uint32_t total, nkinds;
  uint64_t wanted, ver;
} kslot;

/* (what every access reads first: one or two cache lines) */
struct hw_sum {
  map am;                  /* agent -> record */
  arec *recs;              /* the agents, those of blocks that have ended marked dead */
  kslot *kinds;
  uint32_t *cnt;           /* per place (a block or warp of the records) and kind: its agents with a
                            * piece of the kind, at cnt[place * capkinds + kind] */
  uint32_t nrecs, caprecs, ndead;
  uint32_t nkinds, capkinds;
  uint32_t nplaces, capplaces;
  uint32_t seen;           /* the launch's count of ended blocks when records were last retired */
  int per_warp;            /* warps hold several agents (else a warp is its agent: no counts per warp) */
  int scord;               /* the ScoRD model's covering applies */
  acc *retired;            /* per kind: a retired agent's piece of it (mask 0: none) */
  map pm;                  /* block, warp -> place */
  size_t bytes;
  uint64_t *acct, *peak;   /* the caller's count of bytes, and its peak, which bytes is part of */
};

enum { K_BLOCK, K_WARP };

/* A block's or warp's key: ids are below 2^31 (hb watches fewer than 2^31
 * threads), the level in the top bit, 0 left for an empty slot. */
static uint32_t key_of(int level, uint32_t id) { return ((uint32_t)level << 31 | id) + 1; }

/* The summary's memory grew by d bytes (or shrank), in the caller's count too. */
static void grow(hw_sum *s, int64_t d) {
  s->bytes += (size_t)d;
  *s->acct += (uint64_t)d;
  if (*s->acct > *s->peak) *s->peak = *s->acct;
}

static size_t slot(const map *m, uint32_t key) {
  size_t i = hb_slot(key, m->cap);
  while (m->t[i].k && m->t[i].k != key) i = (i + 1) & (m->cap - 1);
  return i;
}

/* m made empty with ncap slots. */
static void map_make(hw_sum *s, map *m, size_t ncap) {
  grow(s, ((int64_t)ncap - (int64_t)m->cap) * (int64_t)sizeof *m->t);
  free(m->t);
  m->t = xcalloc(ncap, sizeof *m->t);
  m->cap = ncap;
  m->n = 0;
}

/* m with twice the slots. */
static __attribute__((noinline)) void map_grow(hw_sum *s, map *m) {
  map o = *m;
  m->t = NULL;
  m->cap = 0;
  grow(s, -(int64_t)(o.cap * sizeof *o.t));
  map_make(s, m, o.cap ? 2 * o.cap : 32);
  for (size_t i = 0; i < o.cap; i++) if (o.t[i].k) m->t[slot(m, o.t[i].k)] = o.t[i];
  m->n = o.n;
  free(o.t);
}

/* The value at key in m, made as `init` where it had none. */
static inline uint32_t *map_at(hw_sum *s, map *m, uint32_t key, uint32_t init) {
  if (2 * (m->n + 1) > m->cap) map_grow(s, m);
  mslot *e = &m->t[slot(m, key)];
  if (!e->k) {
    e->k = key;
    e->v = init;
    m->n++;
  }
  return &e->v;
}

/* The place of a block or warp (level K_BLOCK, K_WARP), made where it has none. */
static uint32_t place_of(hw_sum *s, int level, uint32_t id) {
  uint32_t p = *map_at(s, &s->pm, key_of(level, id), s->nplaces);
  if (p < s->nplaces) return p;
  if (s->nplaces == s->capplaces) {
    uint32_t nc = s->capplaces ? 2 * s->capplaces : 8;
    s->cnt = xrealloc(s->cnt, (size_t)nc * s->capkinds * sizeof *s->cnt);
    grow(s, (int64_t)((size_t)(nc - s->capplaces) * s->capkinds * sizeof *s->cnt));
    s->capplaces = nc;
  }
  memset(s->cnt + (size_t)p * s->capkinds, 0, s->capkinds * sizeof *s->cnt);
  s->nplaces++;
  return p;
}

hw_sum *hw_new(int per_warp, int scord, uint64_t *bytes, uint64_t *peak) {
  hw_sum *s = xcalloc(1, sizeof *s);
  s->per_warp = per_warp;
  s->scord = scord;
  s->acct = bytes;
  s->peak = peak;
  grow(s, (int64_t)sizeof *s);
  return s;
}

void hw_free(hw_sum *s) {
  if (!s) return;
  *s->acct -= s->bytes;
  free(s->recs);
  free(s->kinds);
  free(s->retired);
  free(s->am.t);
  free(s->pm.t);
  free(s->cnt);
  free(s);
}

static int kind_eq(const hw_kind *a, const hw_kind *b) {
  /* pc, info and locks in one compare */
  uint64_t u, v;
  memcpy(&u, a, sizeof u);
  memcpy(&v, b, sizeof v);
  return u == v && a->mask == b->mask && a->copy == b->copy;
}

/* The index of kind k, or -1. */
static int kind_find(const hw_sum *s, const hw_kind *k) {
  for (uint32_t g = 0; g < s->nkinds; g++) if (kind_eq(&s->kinds[g].k, k)) return (int)g;
  return -1;
}

/* The index of kind k, added where the summary has none. */
static uint32_t kind_of(hw_sum *s, const hw_kind *k) {
  int f = kind_find(s, k);
  if (f >= 0) return (uint32_t)f;
  if (s->nkinds == s->capkinds) {
    uint32_t nc = s->capkinds ? 2 * s->capkinds : 4;
    s->kinds = xrealloc(s->kinds, nc * sizeof *s->kinds);
    s->retired = xrealloc(s->retired, nc * sizeof *s->retired);
    grow(s, (int64_t)((nc - s->capkinds) * (sizeof *s->kinds + sizeof *s->retired)));
    /* the places' rows widened */
    uint32_t *cnt = s->capplaces ? xcalloc((size_t)s->capplaces * nc, sizeof *cnt) : NULL;
    for (uint32_t p = 0; p < s->nplaces; p++) memcpy(cnt + (size_t)p * nc, s->cnt + (size_t)p * s->capkinds, s->capkinds * sizeof *cnt);
    free(s->cnt);
    s->cnt = cnt;
    grow(s, (int64_t)((size_t)s->capplaces * (nc - s->capkinds) * sizeof *cnt));
    s->capkinds = nc;
  }
  s->kinds[s->nkinds] = (kslot){*k, 0, 0, 0, 0};
  s->retired[s->nkinds].mask = 0;
  return s->nkinds++;
}

/* Piece k of record a as the entry it stands for. */
static acc piece(const hw_sum *s, const arec *a, uint8_t k) {
  const hw_kind *g = &s->kinds[a->g[k]].k;
  return (acc){a->agent, a->clock[k], g->pc, g->info, g->locks, a->lane[k], g->mask};
}

/* Record a's piece of kind g joins (d = 1) or leaves (d = -1) the counts of its block and warp. */
static void count_place(hw_sum *s, const arec *a, uint32_t g, int d) {
  s->cnt[(size_t)a->bp * s->capkinds + g] += (uint32_t)d;
  if (s->per_warp) s->cnt[(size_t)a->wp * s->capkinds + g] += (uint32_t)d;
}

/* A piece of record a of kind g joins (d = 1) or leaves (d = -1) its kind's counts. */
static void count(hw_sum *s, const arec *a, uint32_t g, int d) {
  s->kinds[g].total += (uint32_t)d;
  count_place(s, a, g, d);
}

/* The record of x's agent, made (without pieces) where it has none. */
static uint32_t record_of(hw_sum *s, const acc *x, uint32_t block, uint32_t warp, int copy) {
  /* (agents are fewer than 2^32 - 1: hb stops watching a launch with more) */
  uint32_t r = *map_at(s, &s->am, x->agent + 1, s->nrecs);
  if (r == s->nrecs) {
    if (s->nrecs == s->caprecs) {
      uint32_t nc = s->caprecs ? 2 * s->caprecs : 8;
      s->recs = xrealloc(s->recs, nc * sizeof *s->recs);
      grow(s, (int64_t)((nc - s->caprecs) * sizeof *s->recs));
      s->caprecs = nc;
    }
    arec *a = &s->recs[s->nrecs++];
    memset(a, 0, sizeof *a);
    a->agent = x->agent;
    a->block = block;
    a->warp = warp;
    a->copy = (uint8_t)copy;
    a->bp = place_of(s, K_BLOCK, block);
    a->wp = s->per_warp ? place_of(s, K_WARP, warp) : 0;
  }
  return r;
}

/* x (of kind xk) joins record r: its earlier pieces lose their bytes
 * where x replaces or covers them, and x is a piece (hw_add's answer). */
static int join(hw_sum *s, uint32_t r, const acc *x, const hw_kind *xk, int gx) {
  arec *a = &s->recs[r];
  int cls = s->scord ? hb_cover_class(x->info) : COVER_NONE;
  /* kinds this join may add: each piece's bytes left, and x's */
  if (s->nkinds + HW_PIECES + 1 > HW_KINDS) return -1;
  uint8_t keep = 0;
  for (uint8_t k = 0; k < a->np; k++) {
    uint16_t g = a->g[k];
    const hw_kind *pk = &s->kinds[g].k;
    if (pk->mask & x->mask) {
      if ((pk->info == x->info && pk->locks == x->locks) || (cls != COVER_NONE && hb_cover_takes(cls, pk->info))) {
        /* fewer bytes: another kind, or none */
        hw_kind m = *pk;
        m.mask &= (uint8_t)~x->mask;
        count(s, a, g, -1);
        if (!m.mask) continue;
        count(s, a, g = (uint16_t)kind_of(s, &m), 1);
      }
    }
    a->g[keep] = g;
    a->clock[keep] = a->clock[k];
    a->lane[keep++] = a->lane[k];
  }
  a->np = keep;
  if (a->np == HW_PIECES) return -1;
  uint16_t g = (uint16_t)(gx >= 0 ? (uint32_t)gx : kind_of(s, xk));   /* (kinds keep their indices) */
  a->g[a->np] = g;
  a->clock[a->np] = x->clock;
  a->lane[a->np++] = x->lane;
  count(s, a, g, 1);
  return 0;
}

int hw_add(hw_sum *s, const acc *x, uint32_t block, uint32_t warp, int copy) {
  hw_kind xk = {x->pc, x->info, x->locks, x->mask, (uint8_t)copy};
  return join(s, record_of(s, x, block, warp, copy), x, &xk, -1);
}

/* An entry of kind g of an agent other than `not` in the relation to
 * (block, warp), in *out: 0 where there is none.  A retired agent is of
 * another block than any accessor's. */
static int find(const hw_sum *s, uint32_t g, int rel, uint32_t block, uint32_t warp, uint32_t not, acc *out) {
  if (rel == HW_OTHER_BLOCK && s->retired[g].mask) {
    *out = s->retired[g];
    return 1;
  }
  for (uint32_t r = 0; r < s->nrecs; r++) {
    const arec *a = &s->recs[r];
    if (a->agent == not || a->dead) continue;
    if (rel == HW_SAME_WARP ? a->warp != warp : rel == HW_SAME_BLOCK ? a->block != block || a->warp == warp : a->block == block) continue;
    for (uint8_t k = 0; k < a->np; k++)
      if (a->g[k] == g) {
        *out = piece(s, a, k);
        return 1;
      }
  }
  return 0;
}

void hw_retire(hw_sum *s, const uint8_t *ended, uint32_t nended) {
  if (s->seen == nended) return;
  s->seen = nended;
  for (uint32_t r = 0; r < s->nrecs; r++) {
    arec *a = &s->recs[r];
    if (a->dead || !ended[a->block]) continue;
    /* its pieces stay in the totals; one of each kind stands for them all */
    for (uint8_t k = 0; k < a->np; k++)
      if (!s->retired[a->g[k]].mask) s->retired[a->g[k]] = piece(s, a, k);
    a->dead = 1;
    s->ndead++;
  }
  /* A dead record is never asked for again (its agent accesses nothing
   * more; its block's and warp's counts are asked only by their own
   * agents): the records and tables are made again, of the living, only
   * once the dead are as many, so that a block's end costs a pass over
   * the records, not the tables' making */
  if (2 * s->ndead <= s->nrecs) return;
  uint32_t keep = 0;
  for (uint32_t r = 0; r < s->nrecs; r++) if (!s->recs[r].dead) s->recs[keep++] = s->recs[r];
  s->nrecs = keep;
  s->ndead = 0;
  /* the tables again, of the records left: as large as they are (an
   * agent, a block and a warp each at most) */
  size_t cap = 32, pcap = 32;
  while (cap < 2 * (size_t)(keep + 1)) cap *= 2;
  while (pcap < 2 * (size_t)(2 * keep + 1)) pcap *= 2;
  /* much too large (a factor of 8: no churn of shrinking and growing) */
  if (8 * cap <= s->am.cap) map_make(s, &s->am, cap);
  else memset(s->am.t, 0, s->am.cap * sizeof *s->am.t);
  if (8 * pcap <= s->pm.cap) map_make(s, &s->pm, pcap);
  else memset(s->pm.t, 0, s->pm.cap * sizeof *s->pm.t);
  s->am.n = s->pm.n = 0;
  s->nplaces = 0;
  for (uint32_t r = 0; r < keep; r++) {
    arec *a = &s->recs[r];
    *map_at(s, &s->am, a->agent + 1, r) = r;
    a->bp = place_of(s, K_BLOCK, a->block);
    a->wp = s->per_warp ? place_of(s, K_WARP, a->warp) : 0;
    for (uint8_t k = 0; k < a->np; k++) count_place(s, a, a->g[k], 1);
  }
}

void hw_entries(const hw_sum *s, void (*fn)(const acc *e, void *ctx), void *ctx) {
  for (uint32_t r = 0; r < s->nrecs; r++) {
    const arec *a = &s->recs[r];
    if (a->dead) continue;
    for (uint8_t k = 0; k < a->np; k++) {
      acc e = piece(s, a, k);
      fn(&e, ctx);
    }
  }
  for (uint32_t g = 0; g < s->nkinds; g++)
    if (s->retired[g].mask) fn(&s->retired[g], ctx);
}

/* Of the relations in bits, those `want` asks for of kind g for accessor
 * x (the result, a bit each), and the reports made where an agent in one
 * of them has an entry of the kind. */
static inline int reps_of(hw_sum *s, uint32_t g, const acc *x, uint32_t block, uint32_t warp, const arec *me, unsigned bits,
                          int known, int (*want)(const hw_kind *k, int rel, void *ctx), void (*fn)(const acc *e, void *ctx),
                          void *ctx) {
  unsigned w = known ? bits : 0;
  for (int rel = HW_SAME_WARP; rel <= HW_OTHER_BLOCK && !known; rel++)
    if (bits >> rel & 1 && want(&s->kinds[g].k, rel, ctx)) w |= 1u << rel;
  if (!w || !s->kinds[g].total) return (int)w;
  uint32_t mine = 0;   /* x's agent among the warp's */
  for (uint8_t k = 0; k < me->np && !mine; k++) mine = me->g[k] == g;
  /* (me is of x's block and warp) */
  uint32_t in_block = s->cnt[(size_t)me->bp * s->capkinds + g], in_warp = s->per_warp ? s->cnt[(size_t)me->wp * s->capkinds + g] : mine;
  uint32_t have[3] = {in_warp - mine, in_block - in_warp, s->kinds[g].total - in_block};
  for (int rel = HW_SAME_WARP; rel <= HW_OTHER_BLOCK; rel++) {
    if (!have[rel] || !(w >> rel & 1)) continue;
    acc p;
    if (find(s, g, rel, block, warp, x->agent, &p)) fn(&p, ctx);
  }
  return (int)w;
}

/* hw_access's reports, me the record of x's agent, gx the index of x's
 * kind (-1: none yet) */
static inline void reps(hw_sum *s, const acc *x, int gx, uint32_t block, uint32_t warp, const arec *me, uint64_t ver,
                        int (*want)(const hw_kind *k, int rel, void *ctx), void (*fn)(const acc *e, void *ctx), void *ctx) {
  /* an accessor of a kind seen since the last kind was added: only the
   * relations wanted then can be wanted now */
  kslot *xs = gx >= 0 ? &s->kinds[gx] : NULL;
  if (xs && xs->nkinds == s->nkinds) {
    uint64_t left = 0, was = xs->wanted;
    int known = xs->ver == ver;   /* want would say what it said */
    for (uint64_t b = was; b;) {
      uint32_t g = (uint32_t)__builtin_ctzll(b) / 3;
      b &= ~(7ull << 3 * g);
      left |= (uint64_t)reps_of(s, g, x, block, warp, me, (unsigned)(was >> 3 * g & 7), known, want, fn, ctx) << 3 * g;
    }
    xs->wanted = left;
    xs->ver = ver;
    return;
  }
  uint64_t wanted = 0;
  for (uint32_t g = 0; g < s->nkinds; g++) {
    if (!(s->kinds[g].k.mask & x->mask)) continue;
    /* asked of a kind no agent holds now too, so that the answers hold
     * for the next accessor of x's kind */
    int w = reps_of(s, g, x, block, warp, me, 7, 0, want, fn, ctx);
    if (g < 21) wanted |= (uint64_t)w << 3 * g;
  }
  if (xs && s->nkinds <= 21) {
    xs->nkinds = s->nkinds;
    xs->wanted = wanted;
    xs->ver = ver;
  }
}

int hw_access(hw_sum *s, const acc *x, const hw_kind *xk, uint32_t block, uint32_t warp, uint64_t ver,
              int (*want)(const hw_kind *k, int rel, void *ctx), void (*fn)(const acc *e, void *ctx), void *ctx) {
  /* the record first, made empty where there is none (nothing counts it),
   * so that its agent is looked up once; the reports before x joins */
  uint32_t r = record_of(s, x, block, warp, xk->copy);
  int gx = kind_find(s, xk);
  if (want) reps(s, x, gx, block, warp, &s->recs[r], ver, want, fn, ctx);
  return join(s, r, x, xk, gx);
}
