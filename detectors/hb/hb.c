/* The happens-before oracle, in two models.  Nothing is bounded: counters
 * and clocks are 32 bits and never wrap in a run the step limit allows,
 * lock sets are exact, launches have any number of threads.
 *
 * Shadow state: for each 4-byte word of global and shared memory, the
 * accesses that a later access may still race with, each with the bytes
 * of the word it touched.  An access replaces, byte by byte, the earlier
 * access of its agent that has the same signature (kind, strength, scope,
 * lock set), since anything ordered after the later one is ordered after
 * the earlier; in the ScoRD model it also covers what it is ordered after
 * (below).  Every racy access is found, with at least one partner.
 *
 * Cost.  Most words hold one access, and a warp's coalesced plain access
 * of a line of 32 words that nothing else touched is one record for the
 * line (line_access).  A word many agents touch (an
 * atomicAdd histogram's bins) is kept linear: the whole list is skipped
 * when no entry can race with the access (a read where nothing wrote,
 * device atomics among device atomics, morally strong accesses among
 * morally strong ones), and an agent's replacement of its own earlier
 * entries is applied lazily, in one pass over the list, before the list
 * is next read (word_compact); a long list that no release has touched
 * is summarised, and while the summary stands it holds the entries
 * (hotword.c).  In the ScoRD model an access's covering
 * of other agents' entries is also skipped while no entry of the word can
 * have been released to anyone (no fence or barrier since the word was
 * last scanned, and none of its entries released then).
 *
 * ScoRD model (scor-spec.md §0.2), agents are warps.  No clocks: an access
 * records its warp's fence counts (any scope, device) and its block's
 * barrier count, and is ordered before a later access of another warp once
 * its warp has fenced since (a device fence for another block), or its
 * block has passed a barrier: release side only, no acquire.  A pair
 * ordered by a barrier needs nothing more; one ordered by a fence must be
 * strong (volatile or atomic) on both sides and, where either side held an
 * inferred lock, hold one in common.  Transitivity is per location: a
 * write covers the earlier accesses to its byte that are ordered before it
 * (scord_covers), as ScoRD's last-accessor metadata does; a read covers
 * nothing (the hardware forgets a write once it is read, and misses a
 * later read of a third warp; the oracle does not).  An earlier block-scope atomic
 * races with a later atomic of another block whatever fences came
 * between; a later block-scope atomic races with an earlier device atomic
 * of another block that was not released to it (§0.2 point 3, R110-2).
 *
 * PTX model, agents are threads with vector clocks (vclock.h: a block's
 * barrier clock, shared, plus what a thread learnt since, plus its own
 * epoch).  A fence is an acquire (it joins the clocks its thread's earlier
 * strong reads observed) and a release (the clock it leaves is what its
 * thread's later strong writes carry).  A strong read that reads a
 * location observes the release clock of the write it reads from, taken as
 * the last write to the location in event order.  An atomic read-modify-
 * write continues the release sequence of the write it read.  An acquire
 * access (ld.acquire, atom.acquire or .acq_rel) joins what it observed at
 * once; a release access (st.release, atom.release or .acq_rel) carries
 * its thread's clock at the access.  Barriers join their block, __syncwarp
 * its lanes.  In the ScoRD model, which has no acquire, a release access is
 * a fence of its scope followed by the access.  Conflicting accesses race unless
 * ordered or morally strong (both strong, each in the other's scope).
 *
 * Asynchronous copies (cp.async), PTX model: thread a's copies are an
 * agent of their own, a + n (n threads), forked at each issue (the copies
 * know what the thread knew; the thread ticks, so that its later accesses
 * are unknown to them) and joined at each wait (the thread learns what
 * they did; they tick).  Their clock has no block clock under it: a
 * barrier the thread passes orders nothing of its copies in flight.  The
 * ScoRD model has no such agent, and does not watch a launch with one.
 */
#include <stdlib.h>
#include <string.h>

#include "hb.h"
#include "hb_int.h"
#include "util.h"
#include "vclock.h"

/* hb's invariants, checked in debug and sanitizer builds (GR_DEBUG), as
 * emu/invariant.h's emu_assert. */
#ifdef GR_DEBUG
#include <assert.h>
#define hb_assert(c) assert(c)
#else
#define hb_assert(c) ((void)0)
#endif

/* Lists longer than this apply replacement lazily (word_compact), and
 * are summarised while no entry can be ordered before a later access
 * (hotword.c). */
#define LAZY_MIN 16

/* A word's entries beyond the first.  lazy: entries were appended without
 * their replacement of earlier ones applied; compacted: the count after
 * the last compaction.  anywrite, alldev: hints for skipping the list (a
 * write may be among the entries; every entry is a device atomic (ScoRD)
 * or strong at device scope or wider (PTX)).  quiet, stamp (ScoRD): at the
 * last full scan no entry had been released to anyone, and the launch's
 * count of fences and barriers was stamp. */
typedef struct {
  uint32_t n, cap, compacted;
  uint32_t stamp;
  uint8_t lazy, anywrite, alldev, quiet;
  /* the summary of the entries (hotword.c), valid while the launch's count
   * of releases (ScoRD) or publications (PTX) is sum_stamp; sum_tried - 1:
   * the count at which one could not be made (an entry was released) */
  hw_sum *sum;
  uint64_t sum_stamp, sum_tried;
  uint32_t sum_seen;        /* the launch's count of ended blocks when the summary last retired */
  acc e[];
} accs;

/* first.mask == 0: none; with more, all entries are there.  more is a
 * pointer kept as bytes, so that a word's record is 24 bytes, not 32. */
typedef struct { acc first; unsigned char more[sizeof(accs *)]; } loc;

static accs *more_of(const loc *L) { accs *m; memcpy(&m, L->more, sizeof m); return m; }
static void set_more(loc *L, accs *m) { memcpy(L->more, &m, sizeof m); }

/* PTX: the release clock a location's last write carries (per byte). */
typedef struct { vclock *clock; uint32_t block; uint8_t scope; } rel;

/* The shadow by lines of 32 words (128 bytes, a warp's coalesced access
 * of 4-byte words): words, the line's records, once an access needed
 * them; before, uni: where its mask is set, every word of the line holds
 * exactly one entry, uni for word 0 and for word k the same access of lane
 * k (agent + k where agents are threads), so that a warp's coalesced plain
 * access costs one record, not 32 (line_words makes them). */
#define LINE_WORDS 32u
typedef struct { acc uni; loc *words; } line;

/* A block's shared memory, between two barriers, is often a tile that its
 * warps only read (a matrix multiply's As and Bs): on the word path each
 * warp's read of a row costs a record per word, which the barrier then
 * forgets.  A shared line that only plain 4-byte loads have touched since
 * it was last cleared keeps, instead of its words' records, the loads
 * themselves: runs of lanes that read consecutive words (lane l0 + k the
 * word lo + k; agent + k where agents are threads) or one word (a
 * broadcast, where agents are threads), in their order, each
 * lane the last of its warp's access to read its word (the lane its
 * word's entry would end with: repeat_lane).  A load races with no load:
 * while the line holds only loads nothing is checked, and a barrier
 * forgets them unread; line_words replays them through check_word, in
 * order, as soon as another access needs the words, which then hold
 * exactly the word path's records. */
typedef struct { acc x; uint8_t lo, cnt, step; } grun;
typedef struct { uint32_t n, cap; grun r[]; } lgroup;
#define GROUP_MAX 64     /* runs a line keeps before it is replayed */
#define GROUP_RUNS 8     /* runs an access may make (else the word path) */

/* groups: by line, in shared memory only (a barrier clears it) */
typedef struct { line *lines; lgroup **groups; rel *rels; uint64_t size; } shadow;

static uint64_t nlines(uint64_t size) { return (size + 4 * LINE_WORDS - 1) / (4 * LINE_WORDS); }

/* word: allocation id << 32 | offset >> 2; from: 0 for a lock the agent
 * took, 1 + the holder for one it inherited at a __syncwarp (ITS) */
typedef struct { uint64_t word; uint32_t key; int enabled; uint32_t from; } lock;
typedef struct { lock *l; int n, cap; uint16_t set; } lockset;

typedef struct { vclock *clock; uint32_t block; } pending;

#define PAGE 1024u

/* PTX: a thread's release clock since its last fence, or (vc NULL) lazily
 * its block clock and epoch at that fence; own 0: it has not fenced. */
typedef struct { vclock *vc, *base; uint32_t own; uint8_t scope; } trel;

/* PTX: what a thread knows beyond its block's barrier clock, and the
 * clocks its strong reads observed that a later fence will acquire. */
typedef struct {
  vc_list x;
  pending *pend;
  uint32_t npend, cappend;
} tstate;

typedef struct {
  gr_context *ctx;
  race_log *log;
  const char *name;
  hb_model model;
  uint64_t max_memory;              /* 0: no bound */
  int its;                          /* the launch runs under independent thread scheduling */
  int lanewise;                     /* no shortcuts: every lane its own way (--one-per-turn) */
  int copies;                       /* hb-ptx: the launch has issued asynchronous copies */
  int disabled;
  /* launch */
  gr_dim3 grid;
  uint32_t nblocks, per_block, n;   /* agents per block, agents */
  /* ScoRD model: the sequence numbers of each agent's last fence (any
   * scope) and last device fence, and of each block's last barrier */
  uint32_t *fblk, *fdev, *bars;
  uint32_t releases;                /* fences and barriers so far: their sequence numbers */
  uint8_t *ended;                   /* per block: it has ended (hot words retire its agents) */
  uint32_t nended;
  uint64_t *cm_k;                   /* word_compact's two tables, kept from call to call (2 * cm_cap slots) */
  uint32_t *cm_v;
  size_t cm_cap;
  /* the (class, source pair)s that hot words' summaries have reported in
   * this launch: another finds nothing the log lacks */
  struct memo_ent { const char *cls; uint32_t epc, xpc; } *memo;
  size_t nmemo, capmemo;
  /* ScoRD model under ITS (agents are threads): per warp, the sequence
   * number of its last __syncwarp of every lane (base), of any (last),
   * and after a partial one, what each lane knows of each other's past:
   * known[l*32 + k], the __syncwarp through which lane l last learnt
   * lane k's past (a chain of partial __syncwarps is transitive) */
  uint32_t wpb, *wbase, *wlast, **known;
  /* per agent; under ITS a lane that passes a __syncwarp with the holder
   * of a lock holds it too (UTS's lane 0 takes the lock for its warp),
   * until the holder releases it */
  lockset *locks;
  uint32_t nlocks;
  /* interned lock sets: sorted (word, key) lists */
  struct { lock *l; int n; } *sets;
  size_t nsets;
  /* PTX model: own epochs, block barrier clocks, thread states (lazily) */
  uint32_t *own;
  /* PTX model: per agent, the last epoch of its that another agent may
   * have learnt (a release, barrier, __syncwarp, copy); pubs counts those
   * events, so that an entry of a later epoch is ordered before nothing
   * of another agent while the count stays */
  uint32_t *pub;
  uint64_t pubs;
  vclock **bbase;
  /* per thread, in pages of PAGE threads made when one of them first
   * needs it: its state beyond its block clock, and its release */
  tstate ***tsp;
  trel **relp;
  vc_heap clocks;
  /* shadow, by allocation id; shared memory's by block, from its first
   * shared access to its end */
  shadow *sh;
  size_t nsh;
  shadow *shared;
  uint32_t shared_bytes;
  /* group_load's mark of the words an access read (by word of a block's
   * shared memory: the access's number), so that a lane knows in constant
   * time whether a later lane read its word */
  uint32_t *gmark, gnum;
  uint64_t bytes, peak;             /* shadow and per-agent memory (hb_memory) */
  pc_table pcs;
} hb;

static void mem_add(hb *h, int64_t d) {
  h->bytes += (uint64_t)d;
  if (h->bytes > h->peak) h->peak = h->bytes;
}

static void *mem_calloc(hb *h, size_t n, size_t size) {
  mem_add(h, (int64_t)(n * size));
  return xcalloc(n, size);
}

/* Agents with state: threads, and in the PTX model their copies. */
static uint32_t nagents(const hb *h) { return h->model == HB_MODEL_PTX ? 2 * h->n : h->n; }
static uint32_t pages(const hb *h) { return (nagents(h) + PAGE - 1) / PAGE; }
/* The thread an agent is, or whose copies it is. */
static uint32_t thread_of(const hb *h, uint32_t agent) { return agent >= h->n ? agent - h->n : agent; }
static int is_copy(const hb *h, uint32_t agent) { return agent >= h->n; }

static void *hb_new(gr_context *ctx, const det_options *o, race_log *log, const char *name, hb_model model) {
  hb *h = xcalloc(1, sizeof *h);
  h->max_memory = o->hb_max_memory;
  h->ctx = ctx;
  h->log = log;
  h->name = name;
  h->model = model;
  return h;
}

void *hb_create(gr_context *ctx, const det_options *o, race_log *log, const char *name) {
  return hb_new(ctx, o, log, name, o->hb_model);
}
void *hb_create_ptx(gr_context *ctx, const det_options *o, race_log *log, const char *name) {
  return hb_new(ctx, o, log, name, HB_MODEL_PTX);
}

uint64_t hb_memory_peak(void *self) {
  const hb *h = self;
  return h->peak + h->clocks.peak;   /* the two peaks need not coincide: a bound */
}

static void group_free(hb *h, lgroup *g) {
  mem_add(h, -(int64_t)(sizeof *g + g->cap * sizeof(grun)));
  free(g);
}

/* The records of every line of s gone: no access there yet. */
static void lines_clear(hb *h, shadow *s) {
  uint64_t nl = nlines(s->size);
  for (uint64_t i = 0; i < nl; i++) {
    line *ln = &s->lines[i];
    ln->uni.mask = 0;
    if (s->groups && s->groups[i]) {
      group_free(h, s->groups[i]);
      s->groups[i] = NULL;
    }
    if (!ln->words) continue;
    for (uint32_t k = 0; k < LINE_WORDS; k++) {
      accs *m = more_of(&ln->words[k]);
      if (!m) continue;
      mem_add(h, -(int64_t)(sizeof(accs) + m->cap * sizeof(acc)));
      hw_free(m->sum);
      free(m);
    }
    free(ln->words);
    ln->words = NULL;
    mem_add(h, -(int64_t)(LINE_WORDS * sizeof(loc)));
  }
}

static void shadow_free(hb *h, shadow *s) {
  if (s->lines) {
    lines_clear(h, s);
    mem_add(h, -(int64_t)(nlines(s->size) * sizeof(line)));
  }
  if (s->groups) mem_add(h, -(int64_t)(nlines(s->size) * sizeof *s->groups));
  free(s->groups);
  if (s->rels) {
    for (uint64_t i = 0; i < s->size; i++) vc_unref(&h->clocks, s->rels[i].clock);
    mem_add(h, -(int64_t)(s->size * sizeof(rel)));
  }
  free(s->lines);
  free(s->rels);
  memset(s, 0, sizeof *s);
}

static void hb_free_launch(hb *h) {
  free(h->ended); h->ended = NULL; h->nended = 0;
  free(h->cm_k); free(h->cm_v); h->cm_k = NULL; h->cm_v = NULL; h->cm_cap = 0;
  if (h->gmark) mem_add(h, -(int64_t)((h->shared_bytes / 4 + 1) * sizeof *h->gmark));
  free(h->gmark); h->gmark = NULL; h->gnum = 0;
  free(h->fblk); h->fblk = NULL;
  free(h->fdev); h->fdev = NULL;
  free(h->bars); h->bars = NULL;
  if (h->known) for (uint32_t w = 0; w < h->nblocks * h->wpb; w++) free(h->known[w]);
  free(h->known); h->known = NULL;
  free(h->wbase); h->wbase = NULL;
  free(h->wlast); h->wlast = NULL;
  if (h->locks) for (uint32_t a = 0; a < h->nlocks; a++) free(h->locks[a].l);
  free(h->locks); h->locks = NULL;
  for (size_t k = 0; k < h->nsets; k++) free(h->sets[k].l);
  free(h->sets); h->sets = NULL; h->nsets = 0;
  for (uint32_t p = 0; h->tsp && p < pages(h); p++) {
    if (!h->tsp[p]) continue;
    for (uint32_t i = 0; i < PAGE; i++) {
      tstate *t = h->tsp[p][i];
      if (!t) continue;
      vc_list_free(&h->clocks, &t->x);
      for (uint32_t k = 0; k < t->npend; k++) vc_unref(&h->clocks, t->pend[k].clock);
      free(t->pend);
      free(t);
    }
    free(h->tsp[p]);
  }
  for (uint32_t p = 0; h->relp && p < pages(h); p++) {
    if (!h->relp[p]) continue;
    for (uint32_t i = 0; i < PAGE; i++) { vc_unref(&h->clocks, h->relp[p][i].vc); vc_unref(&h->clocks, h->relp[p][i].base); }
    free(h->relp[p]);
  }
  if (h->bbase) for (uint32_t b = 0; b < h->nblocks; b++) vc_unref(&h->clocks, h->bbase[b]);
  for (size_t k = 0; k < h->nsh; k++) shadow_free(h, &h->sh[k]);
  if (h->shared) for (uint32_t b = 0; b < h->nblocks; b++) shadow_free(h, &h->shared[b]);
  free(h->tsp); h->tsp = NULL;
  free(h->relp); h->relp = NULL;
  free(h->own); h->own = NULL;
  free(h->pub); h->pub = NULL;
  h->pubs = 0;
  free(h->bbase); h->bbase = NULL;
  free(h->sh); h->sh = NULL; h->nsh = 0;
  free(h->shared); h->shared = NULL;
  pc_table_free(&h->pcs);
  free(h->memo);
  h->memo = NULL;
  h->nmemo = h->capmemo = 0;
  h->n = 0;
  h->bytes = 0;
}

void hb_destroy(void *self) {
  hb *h = self;
  hb_free_launch(h);
  free(h);
}

static void hb_launch(hb *h, const gr_event *ev) {
  hb_free_launch(h);
  h->disabled = 0;
  h->its = gr_context_config(h->ctx)->warps == GR_WARPS_ITS;
  h->peak = 0;
  h->clocks.peak = h->clocks.bytes;
  h->releases = 0;
  h->grid = ev->grid;
  h->nblocks = ev->grid.x * ev->grid.y * ev->grid.z;
  uint32_t threads = ev->blockdim.x * ev->blockdim.y * ev->blockdim.z;
  /* agents: threads in the PTX model and under ITS, else warps */
  h->wpb = (threads + 31) / 32;
  /* --one-per-turn: every access lane by lane here too (line_access and
   * repeat_lane's shortcuts off), so that tests compare the two */
  h->lanewise = gr_context_config(h->ctx)->one_per_turn != 0;
  h->copies = 0;
  h->per_block = h->model == HB_MODEL_PTX || h->its ? threads : h->wpb;
  uint64_t n = (uint64_t)h->nblocks * h->per_block;
  if (n > UINT32_MAX / 2) {
    race_log_unwatched(h->log, h->name, "more than 2^31 agents in one launch; it watched nothing in this launch");
    h->disabled = 1;
    return;
  }
  if (n == 0) { h->disabled = 1; return; }
  h->n = (uint32_t)n;
  if (h->model == HB_MODEL_SCORD) {
    h->nlocks = (uint32_t)n;
    h->locks = mem_calloc(h, h->nlocks, sizeof *h->locks);
    h->fblk = mem_calloc(h, n, sizeof *h->fblk);
    h->fdev = mem_calloc(h, n, sizeof *h->fdev);
    h->bars = mem_calloc(h, h->nblocks, sizeof *h->bars);
    if (h->its) {
      h->wbase = mem_calloc(h, (size_t)h->nblocks * h->wpb, sizeof *h->wbase);
      h->wlast = mem_calloc(h, (size_t)h->nblocks * h->wpb, sizeof *h->wlast);
      h->known = mem_calloc(h, (size_t)h->nblocks * h->wpb, sizeof *h->known);
    }
  } else {
    h->own = mem_calloc(h, nagents(h), sizeof *h->own);
    for (uint32_t a = 0; a < nagents(h); a++) h->own[a] = 1;
    h->pub = mem_calloc(h, nagents(h), sizeof *h->pub);
    h->bbase = mem_calloc(h, h->nblocks, sizeof *h->bbase);
    h->tsp = mem_calloc(h, pages(h), sizeof *h->tsp);
    h->relp = mem_calloc(h, pages(h), sizeof *h->relp);
  }
  h->nsh = gr_allocation_count(h->ctx) + 1;
  h->sh = mem_calloc(h, h->nsh, sizeof *h->sh);
  h->shared_bytes = ev->shared_bytes;
  h->shared = mem_calloc(h, h->nblocks, sizeof *h->shared);
  h->ended = mem_calloc(h, h->nblocks, sizeof *h->ended);
  /* lock set 0 is the empty set */
  h->sets = xcalloc(1, sizeof *h->sets);
  h->nsets = 1;
}

static uint32_t block_of(const hb *h, uint32_t agent) { return thread_of(h, agent) / h->per_block; }
static uint32_t in_block(const hb *h, uint32_t t) { return t % h->per_block; }

/* Agents that are threads: the warp (launch-wide index) and lane of one. */
static uint32_t warp_of(const hb *h, uint32_t agent) { return block_of(h, agent) * h->wpb + in_block(h, thread_of(h, agent)) / 32; }
static uint32_t lane_of(const hb *h, uint32_t agent) { return in_block(h, thread_of(h, agent)) % 32; }
static int same_warp(const hb *h, uint32_t a, uint32_t b) { return block_of(h, a) == block_of(h, b) && warp_of(h, a) == warp_of(h, b); }

static tstate *ts_get(const hb *h, uint32_t a) {
  tstate **pg = h->tsp[a / PAGE];
  return pg ? pg[a % PAGE] : NULL;
}

static trel *rel_at(hb *h, uint32_t a, int make) {
  trel *pg = h->relp[a / PAGE];
  if (!pg) {
    if (!make) return NULL;
    pg = h->relp[a / PAGE] = mem_calloc(h, PAGE, sizeof *pg);
  }
  return &pg[a % PAGE];
}

static int scope_includes(const hb *h, int scope, uint32_t a, uint32_t b) {
  return scope != GR_SCOPE_BLOCK || block_of(h, a) == block_of(h, b);
}

/* ---------------------------------------------------------------- clocks (PTX model) */

static tstate *ts_of(hb *h, uint32_t a) {
  tstate **pg = h->tsp[a / PAGE];
  if (!pg) pg = h->tsp[a / PAGE] = mem_calloc(h, PAGE, sizeof *pg);
  if (!pg[a % PAGE]) pg[a % PAGE] = mem_calloc(h, 1, sizeof(tstate));
  return pg[a % PAGE];
}

/* What agent a's clock says of agent b (copies have no block clock). */
static uint32_t clock_of(const hb *h, uint32_t a, uint32_t b) {
  if (a == b) return h->own[a];
  uint32_t c = is_copy(h, a) ? 0 : vc_get(h->bbase[block_of(h, a)], b);
  const tstate *t = ts_get(h, a);
  if (t) {
    uint32_t x = vc_find(t->x.e, t->x.n, b);
    if (x > c) c = x;
  }
  return c;
}

/* Agent a's epoch now may reach other agents. */
static void publish(hb *h, uint32_t a) {
  h->pub[a] = h->own[a];
  h->pubs++;
}

/* Thread a's clock now, as an immutable clock: its entries with its own
 * epoch put in, over its block clock. */
static vclock *clock_snapshot(hb *h, uint32_t a) {
  publish(h, a);
  const tstate *t = ts_get(h, a);
  uint32_t nx = t ? t->x.n : 0, k = 0, i = 0;
  vclock *v = vc_new(&h->clocks, nx + 1, h->bbase[block_of(h, a)]);
  while (i < nx && t->x.e[i].agent < a) v->e[k++] = t->x.e[i++];
  v->e[k++] = (vc_ent){a, h->own[a]};
  if (i < nx && t->x.e[i].agent == a) i++;   /* older than the own epoch */
  while (i < nx) v->e[k++] = t->x.e[i++];
  v->n = k;
  return v;
}

/* Whether barrier clock p is included in thread a's block clock. */
static int base_covers(const hb *h, uint32_t a, const vclock *p) {
  const vclock *b = h->bbase[block_of(h, a)];
  return b && p->block == b->block && p->gen <= b->gen;
}

/* Thread a acquires clock s. */
static void clock_join(hb *h, uint32_t a, const vclock *s) {
  if (!s) return;
  tstate *t = ts_of(h, a);
  const vclock *base = h->bbase[block_of(h, a)];
  if (s->parent && !base_covers(h, a, s->parent)) vc_list_join(&h->clocks, &t->x, s->parent->e, s->parent->n, base);
  if (s->block != UINT32_MAX && base_covers(h, a, s)) return;
  vc_list_join(&h->clocks, &t->x, s->e, s->n, base);
}

/* The join of two released clocks, over a's parent (a release sequence
 * continued by a read-modify-write). */
static vclock *clock_union(hb *h, const vclock *mine, const vclock *other) {
  vc_list l = {0};
  vclock *p = mine->parent;
  vc_list_join(&h->clocks, &l, mine->e, mine->n, NULL);
  if (other->parent && !(p && other->parent->block == p->block && other->parent->gen <= p->gen))
    vc_list_join(&h->clocks, &l, other->parent->e, other->parent->n, p);
  vc_list_join(&h->clocks, &l, other->e, other->n, p);
  vclock *v = vc_new(&h->clocks, l.n, p);
  memcpy(v->e, l.e, (size_t)l.n * sizeof *l.e);
  vc_list_free(&h->clocks, &l);
  return v;
}

static void tick(hb *h, uint32_t a) { h->own[a]++; }

/* Thread a issues copies: they learn its whole clock (its block clock's
 * entries too), and it ticks. */
static void copy_fork(hb *h, uint32_t a) {
  publish(h, a);
  tstate *c = ts_of(h, a + h->n);
  const vclock *base = h->bbase[block_of(h, a)];
  if (base) vc_list_join(&h->clocks, &c->x, base->e, base->n, NULL);
  const tstate *t = ts_get(h, a);
  if (t) vc_list_join(&h->clocks, &c->x, t->x.e, t->x.n, NULL);
  vc_ent me = {a, h->own[a]};
  vc_list_join(&h->clocks, &c->x, &me, 1, NULL);
  tick(h, a);
}

/* Thread a waits for its copies: it learns what they knew and did, and
 * they tick. */
static void copy_join(hb *h, uint32_t a) {
  uint32_t c = a + h->n;
  publish(h, c);
  const tstate *ct = ts_get(h, c);
  tstate *t = ts_of(h, a);
  const vclock *base = h->bbase[block_of(h, a)];
  if (ct) vc_list_join(&h->clocks, &t->x, ct->x.e, ct->x.n, base);
  vc_ent me = {c, h->own[c]};
  vc_list_join(&h->clocks, &t->x, &me, 1, base);
  tick(h, c);
}

/* Thread a's release clock (from its last fence), made on first use. */
static vclock *release_of(hb *h, uint32_t a) {
  trel *r = rel_at(h, a, 0);
  if (!r || r->vc || !r->own) return r ? r->vc : NULL;
  vclock *v = vc_new(&h->clocks, 1, r->base);
  v->e[0] = (vc_ent){a, r->own};
  vc_unref(&h->clocks, r->base);
  r->base = NULL;
  r->vc = v;
  return v;
}

/* A fence of thread a: the release clock it leaves is its clock now. */
static void set_release(hb *h, uint32_t a, int scope) {
  publish(h, a);
  trel *r = rel_at(h, a, 1);
  vc_unref(&h->clocks, r->vc);
  vc_unref(&h->clocks, r->base);
  r->vc = r->base = NULL;
  const tstate *t = ts_get(h, a);
  if (t && t->x.n) r->vc = clock_snapshot(h, a);
  else r->base = vc_ref(h->bbase[block_of(h, a)]);
  r->own = h->own[a];
  r->scope = (uint8_t)scope;
}

/* ---------------------------------------------------------------- locks (ScoRD model) */

static int lock_cmp(const lock *a, const lock *b) {
  if (a->word != b->word) return a->word < b->word ? -1 : 1;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return 0;
}

/* The id of the set of enabled locks the agent holds. */
static void lockset_update(hb *h, lockset *s) {
  lock tmp[64];
  int n = 0;
  for (int k = 0; k < s->n && n < 64; k++) {
    if (!s->l[k].enabled) continue;
    int i = n++;
    while (i > 0 && lock_cmp(&tmp[i - 1], &s->l[k]) > 0) { tmp[i] = tmp[i - 1]; i--; }
    tmp[i] = s->l[k];
  }
  for (size_t id = 0; id < h->nsets; id++) {
    if (h->sets[id].n != n) continue;
    int same = 1;
    for (int k = 0; k < n && same; k++) same = !lock_cmp(&h->sets[id].l[k], &tmp[k]);
    if (same) { s->set = (uint16_t)id; return; }
  }
  if (h->nsets >= 65535) { s->set = 0; return; }
  h->sets = xrealloc(h->sets, (h->nsets + 1) * sizeof *h->sets);
  h->sets[h->nsets].l = xcalloc((size_t)n, sizeof(lock));
  memcpy(h->sets[h->nsets].l, tmp, (size_t)n * sizeof(lock));
  h->sets[h->nsets].n = n;
  s->set = (uint16_t)h->nsets++;
}

static int sets_meet(const hb *h, uint16_t a, uint16_t b) {
  const lock *x = h->sets[a].l, *y = h->sets[b].l;
  int i = 0, j = 0;
  while (i < h->sets[a].n && j < h->sets[b].n) {
    int c = lock_cmp(&x[i], &y[j]);
    if (!c) return 1;
    if (c < 0) i++; else j++;
  }
  return 0;
}

static lockset *locks_of(const hb *h, uint32_t a) { return &h->locks[a]; }

static void lock_acquire(hb *h, uint32_t a, uint64_t word, uint32_t key) {
  lockset *s = locks_of(h, a);
  for (int k = 0; k < s->n; k++) if (s->l[k].word == word && s->l[k].key == key) return;
  if (s->n == s->cap) { s->cap = s->cap ? 2 * s->cap : 4; s->l = xrealloc(s->l, (size_t)s->cap * sizeof *s->l); }
  s->l[s->n++] = (lock){word, key, 0, 0};
}

static void lock_drop(hb *h, lockset *s, uint64_t word, uint32_t key, uint32_t from) {
  for (int k = 0; k < s->n; k++) {
    if (s->l[k].word == word && s->l[k].key == key && s->l[k].from == from) {
      s->l[k] = s->l[--s->n];
      lockset_update(h, s);
      return;
    }
  }
}

static void lock_release(hb *h, uint32_t a, uint64_t word, uint32_t key) {
  lock_drop(h, locks_of(h, a), word, key, 0);
  /* ITS: the lanes that inherited it from a hold it no more */
  if (h->its) {
    uint32_t first = a - lane_of(h, a);
    for (uint32_t k = 0; k < 32 && first + k < h->n && block_of(h, first + k) == block_of(h, a); k++)
      if (first + k != a) lock_drop(h, locks_of(h, first + k), word, key, a + 1);
  }
}

/* ---------------------------------------------------------------- reports */

static void side_of(const hb *h, const acc *e, gr_race_access *s) {
  memset(s, 0, sizeof *s);
  pc_table_fill(&h->pcs, e->pc, s);
  uint32_t b = block_of(h, e->agent), in = in_block(h, thread_of(h, e->agent));
  if (h->model == HB_MODEL_PTX && is_copy(h, e->agent)) s->role = e->info & I_WRITE ? "cp.async store" : "cp.async load";
  s->block.x = b % h->grid.x;
  s->block.y = b / h->grid.x % h->grid.y;
  s->block.z = b / h->grid.x / h->grid.y;
  s->warp = h->model == HB_MODEL_PTX || h->its ? in / 32 : in;
  s->lane = e->lane;
  s->kind = (gr_access_kind)(e->info >> I_KIND_SHIFT & 3);
  s->atomic_op = e->info >> I_OP_SHIFT & 15;
  s->scope = (gr_scope)(e->info >> I_SCOPE_SHIFT & 3);
  s->order = (gr_order)(e->info >> I_ORDER_SHIFT & 3);
  s->strong = (e->info & I_STRONG) != 0;
}

/* ---------------------------------------------------------------- the check */

/* ScoRD model under ITS: the sequence number of the last __syncwarp
 * through which thread x learnt the past of thread a of its warp. */
static uint32_t syncwarp_known(const hb *h, uint32_t x, uint32_t a) {
  uint32_t w = warp_of(h, x), k = h->wbase[w];
  const uint32_t *kn = h->known[w];
  if (kn && kn[lane_of(h, x) * 32 + lane_of(h, a)] > k) k = kn[lane_of(h, x) * 32 + lane_of(h, a)];
  return k;
}

/* ScoRD model: e's agent has released e to x's agent, by a barrier of
 * their block or (ITS) a __syncwarp of their lanes (2), or by a fence of
 * sufficient scope since e (1); else 0. */
static int released_scord(const hb *h, const acc *e, const acc *x) {
  uint32_t b = block_of(h, e->agent);
  if (b != block_of(h, x->agent)) return h->fdev[e->agent] > e->clock;
  if (h->bars[b] > e->clock) return 2;
  if (h->its && same_warp(h, e->agent, x->agent) && syncwarp_known(h, x->agent, e->agent) > e->clock) return 2;
  return h->fblk[e->agent] > e->clock;
}

/* the ScoRD model's covering (hb_int.h) of entries */
static int block_atomic(const acc *e) { return hb_block_atomic(e->info); }
static int cover_class(const acc *x) { return hb_cover_class(x->info); }
static int cover_class_takes(int cls, const acc *e) { return hb_cover_takes(cls, e->info); }
static int scord_covers(const acc *x, const acc *e) { return hb_cover_takes(hb_cover_class(x->info), e->info); }

static const char *classify_scord(hb *h, const acc *e, const acc *x) {
  int both_atomic = (e->info & I_ATOM) && (x->info & I_ATOM);
  int rel = released_scord(h, e, x);
  if (rel == 2) return NULL;   /* barriers need nothing more */
  int ordered = rel == 1;
  int scoped = block_atomic(e) || block_atomic(x);
  int same_block = block_of(h, e->agent) == block_of(h, x->agent);
  /* An earlier block-scope atomic was not coherent outside its block: a
   * later atomic of another block races with it whatever fences came
   * between.  A later block-scope atomic races with an earlier device one
   * that was not released to it (R110-2), not with one that was (N4). */
  if (both_atomic) return !same_block && (block_atomic(e) || (block_atomic(x) && !ordered)) ? "scoped atomic" : NULL;
  if (!ordered) {
    if (scoped && !same_block) return "scoped atomic";
    if (h->its && same_warp(h, e->agent, x->agent)) return "missing __syncwarp";
    return same_block ? "missing block fence" : "missing device fence";
  }
  if (!(e->info & I_STRONG) || !(x->info & I_STRONG)) return "not a strong access";
  if ((e->locks || x->locks) && !sets_meet(h, e->locks, x->locks))
    return (x->info & I_WRITE) ? "missing common lock on store" : "missing common lock on load";
  return NULL;
}

static const char *classify_ptx(hb *h, const acc *e, const acc *x) {
  int es = e->info >> I_SCOPE_SHIFT & 3, xs = x->info >> I_SCOPE_SHIFT & 3;
  int strong = (e->info & I_STRONG) && (x->info & I_STRONG);
  if (strong && scope_includes(h, es, e->agent, x->agent) && scope_includes(h, xs, x->agent, e->agent)) return NULL;
  if (clock_of(h, x->agent, e->agent) >= e->clock) return NULL;
  if (is_copy(h, e->agent) || is_copy(h, x->agent)) return "copy in flight (cp.async)";
  /* two lanes of one warp under independent thread scheduling: what
   * orders them is a __syncwarp */
  if (h->its && same_warp(h, e->agent, x->agent)) return "missing __syncwarp";
  return strong ? "scope too narrow" : "not morally strong";
}

/* The memo of reported (class, source pair)s: the slot of one, or of
 * where it goes. */
static size_t memo_slot(const hb *h, const char *cls, uint32_t epc, uint32_t xpc) {
  uint64_t k = (uint64_t)(uintptr_t)cls * 0x9e3779b97f4a7c15ull ^ ((uint64_t)epc << 32 | xpc) * 0xbf58476d1ce4e5b9ull;
  size_t i = (size_t)(k ^ k >> 29) & (h->capmemo - 1);
  while (h->memo[i].cls && !(h->memo[i].cls == cls && h->memo[i].epc == epc && h->memo[i].xpc == xpc)) i = (i + 1) & (h->capmemo - 1);
  return i;
}

static int memo_has(const hb *h, const char *cls, uint32_t epc, uint32_t xpc) {
  return h->capmemo && h->memo[memo_slot(h, cls, epc, xpc)].cls;
}

static void memo_put(hb *h, const char *cls, uint32_t epc, uint32_t xpc) {
  if (2 * (h->nmemo + 1) > h->capmemo) {
    size_t oc = h->capmemo;
    struct memo_ent *old = h->memo;
    h->capmemo = oc ? 2 * oc : 64;
    h->memo = xcalloc(h->capmemo, sizeof *h->memo);
    for (size_t k = 0; k < oc; k++)
      if (old[k].cls) h->memo[memo_slot(h, old[k].cls, old[k].epc, old[k].xpc)] = old[k];
    free(old);
  }
  size_t i = memo_slot(h, cls, epc, xpc);
  if (!h->memo[i].cls) { h->memo[i].cls = cls; h->memo[i].epc = epc; h->memo[i].xpc = xpc; h->nmemo++; }
}

typedef struct { uint32_t agent, pc; const char *cls; } seen;
#define SEEN_AGENTS 32
#define SEEN_MAX 64

static void report(hb *h, const acc *e, const char *cls, const gr_event *ev, int lane, uint64_t addr, seen *done, int *ndone) {
  /* one report per partner agent, position and class at an access, for
   * the first SEEN_AGENTS; past them, one per position and class: a long
   * list of one kind's partners must not hide another kind (it did: a
   * plain load after 128 atomics, the lanes of its own warp past the
   * first 32) */
  int dup = 0, past = *ndone >= SEEN_AGENTS;
  for (int d = 0; d < *ndone && !dup; d++)
    dup = (past || done[d].agent == e->agent) && done[d].pc == e->pc && done[d].cls == cls;
  if (dup) return;
  /* the summaries of hot words look only for pairs not in it (rep_wanted):
   * a pair the scan of a list reported is not looked for again */
  memo_put(h, cls, e->pc, (uint32_t)ev->pc);
  if (*ndone < SEEN_MAX) done[(*ndone)++] = (seen){e->agent, e->pc, cls};
  gr_race r;
  memset(&r, 0, sizeof r);
  r.detector = h->name;
  r.cls = cls;
  r.space = ev->space;
  if (ev->space == GR_SPACE_GLOBAL) {
    const char *buf = "?";
    uint64_t off = 0;
    gr_describe_address(h->ctx, addr, &buf, &off);
    r.buffer = buf;
    r.offset = off;
  } else r.offset = (uint32_t)addr;   /* shared memory: the offset in the block's */
  side_of(h, e, &r.first);
  race_access_from_event(&r.second, ev, lane);
  race_log_add(h->log, &r);
}

/* ---------------------------------------------------------------- a word's entries */

static acc *entries(loc *L, uint32_t *n) {
  accs *m = more_of(L);
  if (m) { *n = m->n; return m->e; }
  *n = L->first.mask ? 1 : 0;
  return &L->first;
}

static void set_count(loc *L, uint32_t n) {
  accs *m = more_of(L);
  if (m) m->n = n;
  else if (!n) L->first.mask = 0;
}

/* The hints of the skip test, for an access or an entry. */
static int is_dev(const hb *h, uint16_t info) {
  int scope = info >> I_SCOPE_SHIFT & 3;
  if (h->model == HB_MODEL_PTX) return (info & I_STRONG) && scope != GR_SCOPE_BLOCK;
  return (info & I_ATOM) && scope != GR_SCOPE_BLOCK;
}

static void hints(hb *h, loc *L) {
  accs *m = more_of(L);
  if (!m) return;
  m->anywrite = 0;
  m->alldev = 1;
  for (uint32_t k = 0; k < m->n; k++) {
    if (m->e[k].info & I_WRITE) m->anywrite = 1;
    if (!is_dev(h, m->e[k].info)) m->alldev = 0;
  }
}

static void append(hb *h, loc *L, const acc *x) {
  if (!more_of(L)) {
    if (!L->first.mask) { L->first = *x; return; }
    accs *m = xmalloc(sizeof *m + 4 * sizeof(acc));
    mem_add(h, (int64_t)(sizeof *m + 4 * sizeof(acc)));
    m->n = 1;
    m->cap = 4;
    m->compacted = 1;
    m->stamp = 0;
    m->lazy = m->quiet = 0;
    m->sum = NULL;
    m->sum_stamp = m->sum_tried = 0;
    m->sum_seen = 0;
    m->e[0] = L->first;
    L->first.mask = 0;
    set_more(L, m);
    hints(h, L);
  }
  accs *m = more_of(L);
  if (m->n == m->cap) {
    mem_add(h, (int64_t)(m->cap * sizeof(acc)));
    m->cap *= 2;
    m = xrealloc(m, sizeof *m + m->cap * sizeof(acc));
    set_more(L, m);
  }
  m->e[m->n++] = *x;
  if (x->info & I_WRITE) m->anywrite = 1;
  if (!is_dev(h, x->info)) m->alldev = 0;
}

/* A small open-addressing map from 64-bit keys to masks (UINT32_MAX: an
 * empty slot), for the backward pass of word_compact. */
typedef struct { uint64_t *k; uint32_t *v; size_t cap; } maskmap;

static uint32_t *maskmap_at(maskmap *mm, uint64_t key) {
  size_t i = hb_slot(key, mm->cap);
  while (mm->v[i] != UINT32_MAX && mm->k[i] != key) i = (i + 1) & (mm->cap - 1);
  if (mm->v[i] == UINT32_MAX) { mm->k[i] = key; mm->v[i] = 0; }
  return &mm->v[i];
}

static uint64_t sig_key(const acc *e) { return (uint64_t)e->agent << 32 | (uint64_t)e->info << 16 | e->locks; }

/* Applies the replacement the lazily appended entries did not: an entry
 * keeps the bytes that no later entry of its agent took over (the same
 * signature; in the ScoRD model also a later write of its agent that
 * covers it, scord_covers: a plain or strong write any entry, a block-scope
 * atomic any atomic, a device atomic a device atomic). */
static void word_compact(hb *h, loc *L) {
  accs *m = more_of(L);
  if (!m || !m->lazy) return;
  size_t cap = 16;   /* a quarter full at most: short probes */
  while (cap < 4 * (size_t)m->n) cap *= 2;
  if (cap > h->cm_cap) {
    h->cm_k = xrealloc(h->cm_k, 2 * cap * sizeof *h->cm_k);
    h->cm_v = xrealloc(h->cm_v, 2 * cap * sizeof *h->cm_v);
    h->cm_cap = cap;
  }
  maskmap sig = {h->cm_k, h->cm_v, cap};
  /* per agent, the bytes its later writes took, a byte per cover class */
  maskmap wr = {h->cm_k + cap, h->cm_v + cap, cap};
  memset(sig.v, 0xff, cap * sizeof *sig.v);
  int scord = h->model == HB_MODEL_SCORD;
  if (scord) memset(wr.v, 0xff, cap * sizeof *wr.v);
  for (uint32_t k = m->n; k-- > 0;) {
    acc *e = &m->e[k];
    uint8_t orig = e->mask;
    uint32_t *s = maskmap_at(&sig, sig_key(e));
    uint8_t taken = (uint8_t)*s;
    if (scord) {
      uint32_t *w = maskmap_at(&wr, e->agent);
      for (int j = 0; j < 3; j++) if (cover_class_takes(j, e)) taken |= (uint8_t)(*w >> 8 * j);
      if (cover_class(e) != COVER_NONE) *w |= (uint32_t)orig << 8 * cover_class(e);
    }
    e->mask = orig & (uint8_t)~taken;
    *s |= orig;
  }
  /* ScoRD model: an entry of an ended block is ordered before a later
   * access (of another block, as all are) by its agent's device fences
   * alone, which are over: it races with what its kind (source position,
   * info, lock set) and that frozen order say, as any such entry whose
   * bytes hold its own does.  One is kept (the oldest), so the list is as
   * long as the resident agents and the kinds, not as all that touched it. */
  if (scord && h->nended) {
    memset(sig.v, 0xff, cap * sizeof *sig.v);
    for (uint32_t k = 0; k < m->n; k++) {
      acc *e = &m->e[k];
      if (!e->mask || !h->ended[block_of(h, e->agent)]) continue;
      uint64_t rel = h->fdev[e->agent] > e->clock;   /* in info's bit 15, which no I_ field uses */
      uint32_t *u = maskmap_at(&sig, (uint64_t)e->pc << 32 | (uint64_t)(e->info | rel << 15) << 16 | e->locks);
      if (!(e->mask & (uint8_t)~*u)) e->mask = 0;
      else *u |= e->mask;
    }
  }
  uint32_t keep = 0;
  for (uint32_t k = 0; k < m->n; k++) if (m->e[k].mask) m->e[keep++] = m->e[k];
  m->n = keep;
  m->compacted = keep;
  m->lazy = 0;
  hints(h, L);
}

/* ScoRD model: e has been released to some later access of another warp. */
static int released_any(const hb *h, const acc *e) {
  return h->bars[block_of(h, e->agent)] > e->clock || h->fblk[e->agent] > e->clock ||
         (h->its && h->wlast[warp_of(h, e->agent)] > e->clock);
}

/* ---------------------------------------------------------------- hot words */

/* The count whose change may order an entry before a later access of
 * another agent: fences, barriers and __syncwarps (ScoRD), publications of
 * an agent's epoch (PTX). */
static uint64_t sync_count(const hb *h) { return h->model == HB_MODEL_PTX ? h->pubs : h->releases; }

/* The summary's warp of an agent: its warp where agents are threads, the
 * agent itself where they are warps. */
static uint32_t hw_warp(const hb *h, uint32_t agent) { return h->model == HB_MODEL_PTX || h->its ? warp_of(h, agent) : agent; }

static void sum_drop(accs *m) {
  hw_free(m->sum);
  m->sum = NULL;
}

/* The summary's records of ended blocks retired (a pass over them where
 * a block has ended since the last). */
static void sum_retire(hb *h, accs *m) {
  if (m->sum_seen == h->nended) return;
  m->sum_seen = h->nended;
  hw_retire(m->sum, h->ended, h->nended);
}

/* x joins the summary's entries; -1 where it cannot (hw_add's: an agent
 * with too many kinds of entry in the word, or the word with too many
 * kinds; x is not in it). */
static int sum_add(hb *h, accs *m, const acc *x) {
  sum_retire(h, m);
  return hw_add(m->sum, x, block_of(h, x->agent), hw_warp(h, x->agent), h->model == HB_MODEL_PTX && is_copy(h, x->agent));
}

static void unfold_one(const acc *e, void *ctx) {
  void **c = ctx;
  append(c[0], c[1], e);
}

/* A standing summary holds the word's entries, its list empty: the
 * entries it stands for become the list again (compacted: no agent's
 * pieces replace each other), and it goes. */
static void sum_unfold(hb *h, loc *L) {
  accs *m = more_of(L);
  hw_sum *sum = m->sum;
  hb_assert(m->n == 0);
  void *c[2] = {h, L};
  hw_entries(sum, unfold_one, c);
  m = more_of(L);
  m->compacted = m->n;
  m->lazy = 0;
  hints(h, L);
  sum_drop(m);
}

/* Whether the long list of L is summarised now, made so where every entry
 * is ordered before nothing of another agent (ScoRD: none released; PTX:
 * each of an epoch its agent has not published): then that stays so until
 * the sync count changes, and only kind and place decide a race. */
static int summarised(hb *h, loc *L) {
  accs *m = more_of(L);
  uint64_t now = sync_count(h);
  if (m->sum) return 1;   /* (check_word unfolds one that stands no more) */
  if (m->sum_tried == now + 1u) return 0;
  word_compact(h, L);
  m = more_of(L);
  for (uint32_t k = 0; k < m->n; k++) {
    const acc *e = &m->e[k];
    if (h->model == HB_MODEL_PTX ? e->clock <= h->pub[e->agent] : released_any(h, e)) {
      m->sum_tried = now + 1u;
      return 0;
    }
  }
  m->sum = hw_new(h->model == HB_MODEL_PTX || h->its, h->model == HB_MODEL_SCORD, &h->bytes, &h->peak);
  m->sum_seen = 0;
  for (uint32_t k = 0; k < m->n; k++)
    if (sum_add(h, m, &m->e[k])) {
      sum_drop(m);
      m->sum_tried = now + 1u;
      return 0;
    }
  m->sum_stamp = now;
  /* it holds the entries now: the list goes, and each access is added to
   * the summary alone while it stands (sum_unfold makes the list again) */
  m->n = m->compacted = 0;
  m->lazy = 0;
  if (m->cap > 4) {
    mem_add(h, -(int64_t)((m->cap - 4) * sizeof(acc)));
    m->cap = 4;
    m = xrealloc(m, sizeof *m + m->cap * sizeof(acc));
    set_more(L, m);
  }
  return 1;
}

typedef struct {
  hb *h;
  const acc *x;
  const gr_event *ev;
  int lane;
  uint64_t wordaddr;
  seen *done;
  int *ndone;
} rep_ctx;

static const char *classify(hb *h, const acc *e, const acc *x) {
  return h->model == HB_MODEL_PTX ? classify_ptx(h, e, x) : classify_scord(h, e, x);
}

/* An agent in relation rel to agent xa (its warp, its block's other warps,
 * another block), of the kind's sort (a thread's copies or not); 0 where
 * the launch has none. */
static int proto_agent(const hb *h, uint32_t xa, int rel, int copy, uint32_t *out) {
  int threads = h->model == HB_MODEL_PTX || h->its;
  uint32_t t = thread_of(h, xa), in = in_block(h, t), a;
  /* lane 0 of the warp or block, or lane 1 (warp 1) where that is x's: a
   * block's last warp may be partial, and the answer must hold for every
   * agent of x's kind (hw_access keeps it) */
  if (rel == HW_SAME_WARP) {
    uint32_t lane = in % 32;
    if (!threads || (!lane && in + 1 >= h->per_block)) return 0;
    a = t - lane + (lane ? 0 : 1);
  } else if (rel == HW_SAME_BLOCK) {
    /* agents are threads, or warps numbered from the block's first thread */
    uint32_t w = threads ? in / 32 : in, nw = threads ? (h->per_block + 31) / 32 : h->wpb;
    if (nw < 2) return 0;
    a = t - in + (w ? 0 : threads ? 32 : 1);
  } else {
    if (t + h->per_block < h->n) a = t + h->per_block;
    else if (t >= h->per_block) a = t - h->per_block;
    else return 0;
  }
  *out = copy ? a + h->n : a;
  return 1;
}

/* Whether the summary should look for an entry of kind k in relation rel
 * to the access: only where one would race with it in a way the memo has
 * not seen.  In a summarised word every entry is ordered before nothing of
 * another agent, so an agent in that relation, with an entry of that kind
 * made now, classifies as each member does. */
static int rep_wanted(const hw_kind *k, int rel, void *arg) {
  rep_ctx *c = arg;
  hb *h = c->h;
  const acc *x = c->x;
  if (!((k->info | x->info) & I_WRITE)) return 0;
  acc e = {0, h->model == HB_MODEL_PTX ? UINT32_MAX : h->releases, k->pc, k->info, k->locks, 0, k->mask};
  if (!proto_agent(h, x->agent, rel, k->copy, &e.agent)) return 0;
  const char *cls = classify(h, &e, x);
  return cls && !memo_has(h, cls, k->pc, x->pc);
}

static void rep_one(const acc *e, void *arg) {
  rep_ctx *c = arg;
  hb *h = c->h;
  const acc *x = c->x;
  uint8_t both = e->mask & x->mask;
  if (!both || e->agent == x->agent || !((e->info | x->info) & I_WRITE)) return;
  const char *cls = classify(h, e, x);
  if (!cls) return;
  report(h, e, cls, c->ev, c->lane, c->wordaddr + (uint64_t)__builtin_ctz(both), c->done, c->ndone);
}

static void word_settle(hb *h, loc *L, const acc *x, int xrel);

/* x (of kind xk, block xb, summary warp xwp) through the standing summary
 * of L's word (m): its reports (none looked for where skip: nothing there
 * can race with it), then it joins the summary; where it cannot (its
 * agent, or the word, has too many kinds of entry), the summary is the
 * list again and x joins that (word_settle).  check_word's and hot_lane's. */
static inline __attribute__((always_inline)) void sum_access(hb *h, loc *L, accs *m, const acc *x, const hw_kind *xk,
                                                             uint32_t xb, uint32_t xwp, int skip, const gr_event *ev,
                                                             int lane, uint64_t wordaddr, seen *done, int *ndone) {
  rep_ctx c = {h, x, ev, lane, wordaddr, done, ndone};
  sum_retire(h, m);
  hb_assert(xb == block_of(h, x->agent) && xwp == hw_warp(h, x->agent));
  if (!hw_access(m->sum, x, xk, xb, xwp, h->nmemo, skip ? NULL : rep_wanted, rep_one, &c)) {
    if (x->info & I_WRITE) m->anywrite = 1;
    if (!is_dev(h, x->info)) m->alldev = 0;
    return;
  }
  sum_unfold(h, L);
  word_settle(h, L, x, 0);
}

/* The access x (its bytes of this word, in x->mask) against the word's
 * entries: races reported, replacement and covering applied, x added.  A
 * long list that no release has touched is scanned through its summary:
 * one entry of each kind and place gives every report (class and source
 * pair) the list would, at a cost that does not grow with it.  (Inlined
 * into its two callers: the call, eight arguments, was a tenth of a
 * summarised word's access.) */
static inline __attribute__((always_inline)) void check_word(hb *h, loc *L, const acc *x, const gr_event *ev, int lane,
                                                             uint64_t wordaddr, seen *done, int *ndone) {
  int ptx = h->model == HB_MODEL_PTX, xw = (x->info & I_WRITE) != 0, xdev = is_dev(h, x->info);
  accs *m = more_of(L);
  /* a read group's load replayed (group_replay: no event) happened before
   * now, and its agent may have fenced or passed a barrier since: then it
   * is ordered before later accesses of others, which no entry of a
   * summary may be (summarised): the word's list takes it */
  int xrel = !ev && (ptx ? x->clock <= h->pub[x->agent] : released_any(h, x));
  if (m && m->sum && (m->sum_stamp != sync_count(h) || xrel)) {   /* a summary that stands no more, or cannot take x */
    sum_unfold(h, L);
    m = more_of(L);
  }
  int skip = m && ((!xw && !m->anywrite) || (xdev && m->alldev));
  if (m && (m->sum || (!skip && !xrel && m->n > LAZY_MIN && summarised(h, L)))) {
    /* a standing summary holds the word's entries: x's reports through it,
     * and x joins it (nothing of other agents can be covered: none is
     * released) */
    m = more_of(L);
    hw_kind xk = {x->pc, x->info, x->locks, x->mask, (uint8_t)(ptx && is_copy(h, x->agent))};
    /* x's block and summary warp: the event's, without block_of's and
     * warp_of's divisions (a tenth of a hot word's access) */
    uint32_t xb = ev ? ev->block : block_of(h, x->agent);
    uint32_t xwp = !ev ? hw_warp(h, x->agent) : ptx || h->its ? ev->block * h->wpb + ev->warp_in_block : x->agent;
    /* (not xrel here: a replayed load that was released unfolded it above) */
    sum_access(h, L, m, x, &xk, xb, xwp, skip, ev, lane, wordaddr, done, ndone);
    return;
  } else if (!skip) {
    word_compact(h, L);
    uint32_t n;
    acc *e = entries(L, &n);
    for (uint32_t k = 0; k < n; k++) {
      uint8_t both = e[k].mask & x->mask;
      if (!both || e[k].agent == x->agent || !((e[k].info | x->info) & I_WRITE)) continue;
      const char *cls = ptx ? classify_ptx(h, &e[k], x) : classify_scord(h, &e[k], x);
      if (cls) report(h, &e[k], cls, ev, lane, wordaddr + (uint64_t)__builtin_ctz(both), done, ndone);
    }
  }
  word_settle(h, L, x, xrel);
}

/* check_word's end: x's replacement of its agent's entries (and, ScoRD,
 * its covering) applied at once on a short list, lazily on a long one,
 * where (ScoRD) nothing of other warps can be covered now; x appended.
 * xrel: x is a replayed load ordered before later accesses of others. */
static void word_settle(hb *h, loc *L, const acc *x, int xrel) {
  int ptx = h->model == HB_MODEL_PTX, xw = (x->info & I_WRITE) != 0;
  accs *m = more_of(L);
  int lazy = m && m->n > LAZY_MIN && (ptx || (!xrel && m->quiet && m->stamp == h->releases));
  if (lazy) {
    m->lazy = 1;
    append(h, L, x);
    m = more_of(L);
    if (m->n >= 2 * m->compacted && m->n > 4 * LAZY_MIN) word_compact(h, L);   /* memory stays linear */
    return;
  }
  word_compact(h, L);
  uint32_t n, keep = 0;
  acc *e = entries(L, &n);
  for (uint32_t k = 0; k < n; k++) {
    acc *c = &e[k];
    int covered = c->agent == x->agent && c->info == x->info && c->locks == x->locks;
    if (!covered && !ptx) covered = c->agent == x->agent ? scord_covers(x, c) : xw && released_scord(h, c, x);
    if (covered) c->mask &= (uint8_t)~x->mask;
    if (!c->mask) continue;
    if (keep != k) e[keep] = *c;
    keep++;
  }
  /* quiet is read only by the test for a lazy append, of a list longer
   * than LAZY_MIN: made only for one (the short lists of read-mostly
   * words are scanned at every access) */
  int quiet = 0;
  if (!ptx && keep + 1 > LAZY_MIN) {
    quiet = !xrel;
    for (uint32_t k = 0; k < keep && quiet; k++) quiet = !released_any(h, &e[k]);
  }
  set_count(L, keep);
  if ((m = more_of(L))) {
    m->compacted = keep;
    m->quiet = (uint8_t)quiet;
    m->stamp = h->releases;
    if (keep != n) hints(h, L);   /* (append keeps them while entries are only added) */
  }
  append(h, L, x);
}

static shadow *shadow_of(hb *h, size_t id) {
  if (id == 0 || id >= h->nsh) return NULL;
  shadow *s = &h->sh[id];
  if (!s->lines) {
    uint64_t size;
    if (gr_allocation_info(h->ctx, id, &size, NULL)) return NULL;
    s->size = size;
    s->lines = mem_calloc(h, nlines(size), sizeof *s->lines);
  }
  return s;
}

/* The block's shared memory: every thread of it may touch it, none other. */
static shadow *shared_of(hb *h, uint32_t block) {
  if (block >= h->nblocks || !h->shared_bytes) return NULL;
  shadow *s = &h->shared[block];
  if (!s->lines) {
    s->size = h->shared_bytes;
    s->lines = mem_calloc(h, nlines(s->size), sizeof *s->lines);
    s->groups = mem_calloc(h, nlines(s->size), sizeof *s->groups);
  }
  return s;
}

static rel *rels_of(hb *h, shadow *s) {
  if (!s->rels) s->rels = mem_calloc(h, s->size, sizeof *s->rels);
  return s->rels;
}

static uint32_t agent_of(const hb *h, const gr_event *ev, int lane) {
  if (h->model == HB_MODEL_PTX || h->its) return ev->block * h->per_block + ev->warp_in_block * 32 + (uint32_t)lane;
  return ev->block * h->per_block + ev->warp_in_block;
}

static void ptx_pending_add(hb *h, uint32_t a, const rel *r) {
  tstate *t = ts_of(h, a);
  if (t->npend == t->cappend) {
    t->cappend = t->cappend ? 2 * t->cappend : 4;
    t->pend = xrealloc(t->pend, t->cappend * sizeof *t->pend);
  }
  t->pend[t->npend++] = (pending){vc_ref(r->clock), r->block};
}

static void scord_fence(hb *h, uint32_t a, int device);

/* A group's loads, through check_word in their order (they report
 * nothing: a load races with no load, and the words hold only loads). */
static void group_replay(hb *h, loc *words, const lgroup *g) {
  int threads = h->model == HB_MODEL_PTX || h->its;
  for (uint32_t j = 0; j < g->n; j++) {
    const grun *r = &g->r[j];
    for (uint32_t k = 0; k < r->cnt; k++) {
      acc y = r->x;
      y.lane = (uint8_t)(y.lane + k);
      if (threads) y.agent += k;
      seen done[SEEN_MAX];
      int nd = 0;
      check_word(h, &words[r->lo + k * r->step], &y, NULL, y.lane, 0, done, &nd);
    }
  }
}

/* Line i's records made, from its uniform record or its group where it
 * had one. */
static loc *line_make(hb *h, shadow *s, uint64_t i) {
  line *ln = &s->lines[i];
  ln->words = mem_calloc(h, LINE_WORDS, sizeof *ln->words);
  lgroup *g = s->groups ? s->groups[i] : NULL;
  /* a line is in one state: its uniform record, a read group, or words */
  hb_assert(!(g && ln->uni.mask));
  if (g) {
    s->groups[i] = NULL;
    group_replay(h, ln->words, g);
    group_free(h, g);
  }
  if (ln->uni.mask) {
    int threads = h->model == HB_MODEL_PTX || h->its;
    for (uint32_t k = 0; k < LINE_WORDS; k++) {
      acc *e = &ln->words[k].first;
      *e = ln->uni;
      e->lane = (uint8_t)k;
      if (threads) e->agent += k;
    }
    ln->uni.mask = 0;
  }
  return ln->words;
}

/* Line i's records (made where they were not: a call only then). */
static inline loc *line_words(hb *h, shadow *s, uint64_t i) {
  loc *w = s->lines[i].words;
  return w ? w : line_make(h, s, i);
}

/* A full warp's plain access of the 32 words of one line, lane k word k,
 * agent a0 for lane 0: kept as the line's uniform record where the words'
 * records would each hold exactly the lane's access after it: the line was
 * never accessed, or every word holds an earlier access of the same lane
 * that the new one replaces (the same signature; in the ScoRD model also
 * a write, which covers its agent's earlier accesses).  Neither case can
 * race: nothing else is there.  0: the lanes go word by word. */
static int line_access(hb *h, shadow *s, const gr_event *ev, uint32_t a0, uint16_t info, uint64_t off) {
  int ptx = h->model == HB_MODEL_PTX, threads = ptx || h->its;
  line *ln = &s->lines[off / (4 * LINE_WORDS)];
  if (ln->words || (s->groups && s->groups[off / (4 * LINE_WORDS)]) || (threads ? a0 + LINE_WORDS - 1 : a0) >= h->n)
    return 0;
  acc x = {a0, ptx ? h->own[a0] : h->releases, (uint32_t)ev->pc, info, ptx ? 0 : locks_of(h, a0)->set, 0, 0xf};
  for (uint32_t k = 1; threads && k < LINE_WORDS; k++)
    if (ptx ? h->own[a0 + k] != x.clock : locks_of(h, a0 + k)->set != x.locks) return 0;
  const acc *u = &ln->uni;
  if (u->mask && (u->agent != a0 || !((u->info == info && u->locks == x.locks) || (!ptx && scord_covers(&x, u))))) return 0;
  /* (hb-ptx's release clocks, per byte, come only from strong writes,
   * which went lane by lane and made the words' records: a line still
   * uniform has none for a plain write to end) */
  hb_assert(!ln->words && !(s->groups && s->groups[off / (4 * LINE_WORDS)]));
  ln->uni = x;
  return 1;
}

/* ScoRD model under lockstep, where a warp's lanes are one agent: a lane
 * that accesses the one word an earlier lane of the same access did
 * (prev), where that lane reported nothing, reports nothing (the other
 * agents' entries it meets are those the earlier lane met, less what that
 * one covered) and leaves the word as the earlier lane did but for the
 * lane: the earlier lane's entry, last in the list, becomes its.  0 where
 * that entry is not last or the word is summarised (the summary holds the
 * lane too): then the lane goes the long way. */
static int repeat_lane(loc *L, const acc *x, uint8_t prev) {
  accs *m = more_of(L);
  if (m && m->sum) return 0;
  uint32_t n;
  acc *e = entries(L, &n);
  if (!n) return 0;
  acc *last = &e[n - 1];
  if (last->agent != x->agent || last->clock != x->clock || last->pc != x->pc || last->info != x->info ||
      last->locks != x->locks || last->mask != x->mask || last->lane != prev)
    return 0;
  last->lane = x->lane;
  return 1;
}

/* Whether a warp's access is plain and coalesced: every lane, 4 bytes,
 * lane k at the first's address + 4k, the first at a line's start. */
static int coalesced_plain(const gr_event *ev) {
  if (ev->mask != UINT32_MAX || ev->size != 4 || ev->access == GR_ATOMIC || ev->is_volatile || ev->async_copy ||
      (uint32_t)ev->addr[0] % (4 * LINE_WORDS))
    return 0;
  uint64_t apart = 0;   /* no early exit: the loop vectorises */
  for (uint32_t l = 1; l < 32; l++) apart |= ev->addr[l] ^ (ev->addr[0] + 4 * l);
  return !apart;
}

/* A warp's plain 4-byte load of the block's shared memory s, kept as its
 * runs in the groups of the lines it reads (lgroup), where each of those
 * lines holds only a group (or nothing) and the lanes make at most
 * GROUP_RUNS runs; 0: the word path does the access (a line whose group
 * is full is first replayed, so that it goes that way too). */
static int group_load(hb *h, shadow *s, const gr_event *ev, uint16_t info) {
  int ptx = h->model == HB_MODEL_PTX, threads = ptx || h->its;
  uint32_t wi[32];
  uint64_t last = UINT64_MAX;
  for (uint32_t mm = ev->mask; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    uint64_t off = (uint32_t)ev->addr[l];
    if (off % 4 || off + 4 > s->size) return 0;
    if (off / (4 * LINE_WORDS) != last) {
      last = off / (4 * LINE_WORDS);
      if (s->lines[last].words || s->lines[last].uni.mask) return 0;
    }
    wi[l] = (uint32_t)(off / 4);
  }
  if (agent_of(h, ev, 31 - __builtin_clz(ev->mask)) >= h->n) return 0;   /* (the last lane's is the largest) */
  /* the lanes whose entries stand: under lockstep (one agent a warp) the
   * last lane to read each word, else every lane */
  uint32_t keep = ev->mask;
  if (!threads) {
    if (!h->gmark) h->gmark = mem_calloc(h, h->shared_bytes / 4 + 1, sizeof *h->gmark);
    if (!++h->gnum) {   /* the numbers wrapped: no mark is of this access */
      memset(h->gmark, 0, (h->shared_bytes / 4 + 1) * sizeof *h->gmark);
      h->gnum = 1;
    }
    for (uint32_t mm = ev->mask; mm; mm &= ~(1u << (31 - __builtin_clz(mm)))) {
      int l = 31 - __builtin_clz(mm);
      if (h->gmark[wi[l]] == h->gnum) keep &= ~(1u << l);
      else h->gmark[wi[l]] = h->gnum;
    }
  }
  grun runs[GROUP_RUNS];
  int nr = 0, prev = -2;
  uint32_t a = agent_of(h, ev, 0), clock = ptx ? 0 : h->releases;
  uint16_t locks = threads ? 0 : locks_of(h, a)->set;
  for (uint32_t mm = keep; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    if (threads) {
      a = agent_of(h, ev, l);
      if (ptx) clock = h->own[a];
      else locks = locks_of(h, a)->set;
    }
    grun *r = nr ? &runs[nr - 1] : NULL;
    if (r && prev == l - 1 && clock == r->x.clock && locks == r->x.locks) {
      /* a run's second lane says which it is */
      int step = wi[l] == wi[prev] + 1 && wi[l] % LINE_WORDS ? 1 : wi[l] == wi[prev] ? 0 : -1;
      if (step >= 0 && (r->cnt == 1 || step == r->step)) {
        r->step = (uint8_t)step;
        r->cnt++;
        prev = l;
        continue;
      }
    }
    if (nr == GROUP_RUNS) return 0;
    runs[nr++] = (grun){{a, clock, (uint32_t)ev->pc, info, locks, (uint8_t)l, 0xf}, (uint8_t)(wi[l] % LINE_WORDS), 1, 1};
    prev = l;
  }
  uint64_t line[GROUP_RUNS];
  for (int j = 0; j < nr; j++) {
    uint64_t i = line[j] = wi[runs[j].x.lane] / LINE_WORDS;
    if (s->groups[i] && s->groups[i]->n + (uint32_t)nr > GROUP_MAX) {
      line_words(h, s, i);
      return 0;
    }
  }
  for (int j = 0; j < nr; j++) {
    uint64_t i = line[j];
    lgroup *g = s->groups[i];
    hb_assert(!s->lines[i].words && !s->lines[i].uni.mask);
    if (!g || g->n == g->cap) {
      uint32_t cap = g ? 2 * g->cap : 4;
      /* the group's new size less its old */
      mem_add(h, (int64_t)(sizeof *g + cap * sizeof(grun)) - (g ? (int64_t)(sizeof *g + g->cap * sizeof(grun)) : 0));
      lgroup *ng = xrealloc(g, sizeof *ng + cap * sizeof(grun));
      if (!g) ng->n = 0;
      ng->cap = cap;
      s->groups[i] = g = ng;
    }
    g->r[g->n++] = runs[j];
  }
  return 1;
}

/* What a plain 4-byte access's lanes share on hot_lane's path, made once
 * per access: the entry less its lane's agent, lane and clock (x), its
 * kind (xk; its lock set is the lane's under ITS in the ScoRD model),
 * agent and summary warp of lane 0, and the shadow of the last lane's
 * allocation. */
typedef struct {
  acc x;
  hw_kind xk;
  uint32_t a0, xwp;
  int threads, xw, xdev;
  uint64_t now, hi;
  shadow *s;
} hot_acc;

/* Lane l of a plain 4-byte access whose word's summary stands (a hot word
 * that no release touched since it was summarised): check_word's summary
 * branch, with what hot_acc holds taken once per access, not once per
 * lane (on_access's and check_word's per-lane preamble were half of a hot
 * word's access).  0, having changed nothing, where the lane is not such
 * a lane: on_access takes it the long way.  *met: the lane's words met
 * without a report, as on_access keeps them (repeats). */
static int hot_lane(hb *h, const gr_event *ev, hot_acc *ha, int l, int repeats, uint64_t *met_addr, uint8_t *met_lane) {
  uint32_t a = ha->threads ? ha->a0 + (uint32_t)l : ha->a0;
  uint64_t addr = ev->addr[l];
  if (a >= h->n || addr & 3) return 0;
  shadow *s = ha->s;
  if (ev->space == GR_SPACE_GLOBAL && addr >> 32 != ha->hi) {
    ha->hi = addr >> 32;
    ha->s = s = shadow_of(h, gr_allocation_id(addr));
  }
  uint64_t off = (uint32_t)addr;
  if (!s || off + 4 > s->size || (h->model == HB_MODEL_PTX && s->rels)) return 0;
  loc *w = s->lines[off / (4 * LINE_WORDS)].words;
  if (!w) return 0;
  loc *L = &w[off / 4 % LINE_WORDS];
  accs *m = more_of(L);
  if (!m || !m->sum || m->sum_stamp != ha->now) return 0;
  acc x = ha->x;
  x.agent = a;
  x.lane = (uint8_t)l;
  if (h->model == HB_MODEL_PTX) x.clock = h->own[a];
  else if (ha->threads) ha->xk.locks = x.locks = locks_of(h, a)->set;
  seen done[SEEN_MAX];
  int ndone = 0;
  int skip = (!ha->xw && !m->anywrite) || (ha->xdev && m->alldev);
  sum_access(h, L, m, &x, &ha->xk, ev->block, ha->xwp, skip, ev, l, addr, done, &ndone);
  if (repeats) {
    unsigned q = (unsigned)(addr >> 2) & 63;
    met_lane[q] = ndone ? 0 : (uint8_t)(l + 1);
    met_addr[q] = addr;
  }
  return 1;
}

/* Global and shared memory.  Local memory is the thread's own: no other
 * thread can reach it (a local address names the accessor's own frame), so
 * it has no race to find. */
static void on_access(hb *h, const gr_event *ev) {
  if (ev->space != GR_SPACE_GLOBAL && ev->space != GR_SPACE_SHARED) return;
  int shared = ev->space == GR_SPACE_SHARED;
  int atom = ev->access == GR_ATOMIC, write = ev->access != GR_LOAD, strong = atom || ev->is_volatile;
  int scope = strong ? (int)ev->scope : GR_SCOPE_SYSTEM;
  int acquire = strong && (ev->order == GR_ORDER_ACQUIRE || ev->order == GR_ORDER_ACQ_REL);
  int release = strong && write && (ev->order == GR_ORDER_RELEASE || ev->order == GR_ORDER_ACQ_REL);
  int ptx = h->model == HB_MODEL_PTX;
  uint16_t info = (uint16_t)((write ? I_WRITE : 0) | (atom ? I_ATOM : 0) | (strong ? I_STRONG : 0) |
                             (unsigned)scope << I_SCOPE_SHIFT | (unsigned)ev->access << I_KIND_SHIFT |
                             (unsigned)(atom ? ev->atomic_op & 15 : 0) << I_OP_SHIFT |
                             (unsigned)(strong ? ev->order & 3 : 0) << I_ORDER_SHIFT);
  pc_table_note(&h->pcs, ev);
  if (!h->lanewise && coalesced_plain(ev)) {
    shadow *s = shared ? shared_of(h, ev->block) : shadow_of(h, gr_allocation_id(ev->addr[0]));
    uint64_t off = (uint32_t)ev->addr[0];
    if (s && off + 4 * LINE_WORDS <= s->size && line_access(h, s, ev, agent_of(h, ev, 0), info, off)) return;
  }
  /* (after the line's one record, which a later store of the warp's may
   * replace where a group would be replayed) */
  if (shared && !h->lanewise && ev->access == GR_LOAD && !strong && !ev->async_copy && ev->size == 4) {
    shadow *s = shared_of(h, ev->block);
    if (s && group_load(h, s, ev, info)) return;
  }
  /* the words that earlier lanes of this access met without a report
   * (repeat_lane), by address: lane + 1, 0 for none */
  int repeats = !ptx && !h->its && !atom && !release && !h->lanewise;
  uint64_t met_addr[64];
  uint8_t met_lane[64];
  if (repeats) memset(met_lane, 0, sizeof met_lane);
  /* the lanes' allocation (a function of an address's upper half, which
   * lanes mostly share) and its shadow */
  uint64_t hi = UINT64_MAX;
  size_t id = 0;
  shadow *s = shared ? shared_of(h, ev->block) : NULL;
  /* a plain 4-byte access: its lanes on hot words through hot_lane */
  int hot = !h->lanewise && !strong && !ev->async_copy && ev->size == 4;
  hot_acc ha;
  if (hot) {
    int threads = ptx || h->its;
    ha.a0 = agent_of(h, ev, 0);
    ha.x = (acc){ha.a0, ptx ? 0 : h->releases, (uint32_t)ev->pc, info, ptx || threads ? 0 : locks_of(h, ha.a0)->set, 0, 0xf};
    ha.xk = (hw_kind){ha.x.pc, info, ha.x.locks, 0xf, 0};
    ha.xwp = threads ? ev->block * h->wpb + ev->warp_in_block : ha.a0;
    ha.threads = threads;
    ha.xw = write;
    ha.xdev = is_dev(h, info);
    ha.now = sync_count(h);
    ha.hi = UINT64_MAX;
    ha.s = s;
  }
  for (uint32_t mm = ev->mask; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    if (hot && hot_lane(h, ev, &ha, l, repeats, met_addr, met_lane)) continue;
    uint32_t a = agent_of(h, ev, l);
    if (a >= h->n) continue;
    if (ev->async_copy) a += h->n;   /* its copies' agent (PTX model: ScoRD's does not watch them) */
    if (release && !ptx && (h->its || l == __builtin_ctz(ev->mask))) scord_fence(h, a, scope != GR_SCOPE_BLOCK);
    acc x = {a, ptx ? h->own[a] : h->releases, (uint32_t)ev->pc, info, ptx ? 0 : locks_of(h, a)->set, (uint8_t)l, 0};
    uint64_t addr = ev->addr[l];
    if (!shared && addr >> 32 != hi) {
      hi = addr >> 32;
      id = gr_allocation_id(addr);
      s = shadow_of(h, id);
    }
    if (!s) continue;
    uint64_t off = (uint32_t)addr;
    seen done[SEEN_MAX];
    int ndone = 0;
    uint64_t end = off + (uint64_t)ev->size < s->size ? off + (uint64_t)ev->size : s->size;
    /* one word (its bytes all, the common case, at once) */
    int word = ev->size == 4 && !(off & 3) && end == off + 4, one = repeats && (word || (off / 4 == (end - 1) / 4 && end > off));
    unsigned q = (unsigned)(addr >> 2) & 63;
    if (one && met_lane[q] && met_addr[q] == addr) {
      x.mask = (uint8_t)(((1u << (end - off)) - 1) << (off & 3));
      if (repeat_lane(&line_words(h, s, off / 4 / LINE_WORDS)[off / 4 % LINE_WORDS], &x, (uint8_t)(met_lane[q] - 1))) {
        met_lane[q] = (uint8_t)(l + 1);
        continue;
      }
    }
    if (word) {   /* (its own call: the loop's byte bounds were 4% of the racy histogram's run under hb) */
      x.mask = 0xf;
      check_word(h, &line_words(h, s, off / 4 / LINE_WORDS)[off / 4 % LINE_WORDS], &x, ev, l, addr, done, &ndone);
    } else
      for (uint64_t w = off / 4; w * 4 < end; w++) {
        unsigned lo = off > w * 4 ? (unsigned)(off - w * 4) : 0, up = end < w * 4 + 4 ? (unsigned)(end - w * 4) : 4;
        x.mask = (uint8_t)(((1u << up) - 1) & ~((1u << lo) - 1));   /* its bytes of the word */
        check_word(h, &line_words(h, s, w / LINE_WORDS)[w % LINE_WORDS], &x, ev, l, addr - off + w * 4, done, &ndone);
      }
    if (one) {
      met_lane[q] = ndone ? 0 : (uint8_t)(l + 1);
      met_addr[q] = addr;
    }
    if (ptx && (strong || s->rels)) {
      rel *rs = rels_of(h, s);
      /* a release access carries the clock its thread has at the access */
      vclock *mine = !strong ? NULL : release ? clock_snapshot(h, a) : vc_ref(release_of(h, a));
      const trel *tr = rel_at(h, a, 0);
      int mine_scope = release ? scope : tr ? tr->scope : scope;
      for (uint64_t i = off; i < end; i++) {
        rel *r = &rs[i];
        /* acquire side: a strong read observes the release its write carried */
        if (strong && !(write && !atom) && r->clock && scope_includes(h, scope, a, r->block * h->per_block) &&
            (r->scope != GR_SCOPE_BLOCK || r->block == block_of(h, a))) {
          if (acquire) clock_join(h, a, r->clock);
          else ptx_pending_add(h, a, r);
        }
        if (!write) continue;
        /* release side */
        if (mine) {
          int sc = mine_scope < scope ? mine_scope : scope;
          if (atom && r->clock) {   /* a read-modify-write continues the release sequence */
            vclock *u = clock_union(h, mine, r->clock);
            vc_unref(&h->clocks, r->clock);
            r->clock = u;
            if (sc < r->scope) r->scope = (uint8_t)sc;
          } else {
            vc_unref(&h->clocks, r->clock);
            r->clock = vc_ref(mine);
            r->scope = (uint8_t)sc;
            r->block = block_of(h, a);
          }
        } else if (!atom) {
          vc_unref(&h->clocks, r->clock);   /* a plain or unreleased write ends the release sequence */
          r->clock = NULL;
        }
      }
      vc_unref(&h->clocks, mine);
    }
    /* the thread's later accesses are not covered by what it released */
    if (release && ptx) tick(h, a);
    /* lock inference (ScoRD model): successful atomicCAS(L, 0, v != 0)
     * acquires L, atomicExch(L, 0) releases it; a device-scope lock is also
     * a block-scope lock of the holder's block */
    if (atom && !ptx) {
      /* a lock in shared memory is its block's: its word names the block */
      uint64_t word = shared ? (uint64_t)(0x80000000u | ev->block) << 32 | off >> 2 : (uint64_t)id << 32 | off >> 2;
      uint32_t bkey = block_of(h, a) + 1;
      int device = ev->scope != GR_SCOPE_BLOCK;
      if (ev->atomic_op == 7 && ev->operand[l] == 0 && ev->value[l] == 0 && ev->operand2[l] != 0) {
        if (device) lock_acquire(h, a, word, 0);
        lock_acquire(h, a, word, bkey);
      } else if (ev->atomic_op == 2 && ev->operand[l] == 0) {
        if (device) lock_release(h, a, word, 0);
        lock_release(h, a, word, bkey);
      }
    }
  }
}

/* ScoRD model: agent a (a warp, or a thread under ITS) fences.  A thread
 * releases with its own past what it learnt of its lanes' at __syncwarps. */
static void scord_fence(hb *h, uint32_t a, int device) {
  h->fblk[a] = ++h->releases;
  if (device) h->fdev[a] = h->releases;
  if (h->its) {
    uint32_t first = a - lane_of(h, a);
    for (uint32_t k = 0; k < 32 && first + k < h->n && block_of(h, first + k) == block_of(h, a); k++) {
      uint32_t b = first + k, s = syncwarp_known(h, a, b);
      if (b == a || !s) continue;
      if (s > h->fblk[b]) h->fblk[b] = s;
      if (device && s > h->fdev[b]) h->fdev[b] = s;
    }
  }
  lockset *s = locks_of(h, a);
  for (int k = 0; k < s->n; k++) if (device || s->l[k].key != 0) s->l[k].enabled = 1;
  lockset_update(h, s);
}

/* PTX model: thread a fences (scope): it acquires what its strong reads
 * observed within the scope, and leaves its clock as its release. */
static void ptx_fence(hb *h, uint32_t a, int scope) {
  int device = scope != GR_SCOPE_BLOCK;
  tstate *t = ts_get(h, a);
  if (t) {
    uint32_t keep = 0;
    for (uint32_t k = 0; k < t->npend; k++) {
      pending *p = &t->pend[k];
      if (device || p->block == block_of(h, a)) {
        clock_join(h, a, p->clock);
        vc_unref(&h->clocks, p->clock);
      } else t->pend[keep++] = *p;
    }
    t->npend = keep;
  }
  set_release(h, a, scope);
  tick(h, a);
}

static void on_fence(hb *h, const gr_event *ev) {
  int device = ev->scope != GR_SCOPE_BLOCK;
  if (h->model == HB_MODEL_SCORD && !h->its) {
    uint32_t a = agent_of(h, ev, 0);
    if (a < h->n) scord_fence(h, a, device);
    return;
  }
  if (h->model == HB_MODEL_SCORD) {
    for (uint32_t mm = ev->mask; mm; mm &= mm - 1) {
      uint32_t a = agent_of(h, ev, __builtin_ctz(mm));
      if (a < h->n) scord_fence(h, a, device);
    }
    return;
  }
  for (uint32_t mm = ev->mask; mm; mm &= mm - 1) {
    uint32_t a = agent_of(h, ev, __builtin_ctz(mm));
    if (a < h->n) ptx_fence(h, a, (int)ev->scope);
  }
}

/* ScoRD model under ITS: the lanes a __syncwarp names hold, beside their
 * own locks, those the others took (the lane-0 lock for its warp). */
static void scord_share_locks(hb *h, uint32_t first, uint32_t mask) {
  for (uint32_t mm = mask; mm; mm &= mm - 1) {
    uint32_t a = first + (uint32_t)__builtin_ctz(mm);
    if (a >= h->n) continue;
    for (int i = 0; i < locks_of(h, a)->n; i++) {
      lock own = locks_of(h, a)->l[i];
      if (own.from) continue;
      for (uint32_t m2 = mask; m2; m2 &= m2 - 1) {
        uint32_t b = first + (uint32_t)__builtin_ctz(m2);
        if (b == a || b >= h->n) continue;
        lockset *t = locks_of(h, b);
        int have = 0;
        for (int k = 0; k < t->n && !have; k++) have = t->l[k].word == own.word && t->l[k].key == own.key;
        if (have) continue;
        if (t->n == t->cap) { t->cap = t->cap ? 2 * t->cap : 4; t->l = xrealloc(t->l, (size_t)t->cap * sizeof *t->l); }
        t->l[t->n++] = (lock){own.word, own.key, own.enabled, a + 1};
        lockset_update(h, t);
      }
    }
  }
}

/* ScoRD model under ITS: a __syncwarp is a barrier of the lanes it names.
 * One of every lane of the warp needs no per-lane state. */
static void scord_syncwarp(hb *h, const gr_event *ev) {
  uint32_t w = ev->block * h->wpb + ev->warp_in_block;
  if (ev->block >= h->nblocks || ev->warp_in_block >= h->wpb) return;
  uint32_t s = ++h->releases, in = h->per_block - ev->warp_in_block * 32;
  uint32_t all = in >= 32 ? 0xffffffffu : (1u << in) - 1;
  h->wlast[w] = s;
  scord_share_locks(h, ev->block * h->per_block + ev->warp_in_block * 32, ev->mask & all);
  if ((ev->mask & all) == all) {
    h->wbase[w] = s;
    if (h->known[w]) mem_add(h, -(int64_t)(32 * 32 * sizeof(uint32_t)));
    free(h->known[w]);
    h->known[w] = NULL;
    return;
  }
  uint32_t *kn = h->known[w];
  if (!kn) kn = h->known[w] = mem_calloc(h, 32 * 32, sizeof *kn);
  uint32_t row[32];
  for (int k = 0; k < 32; k++) row[k] = h->wbase[w];
  for (uint32_t mm = ev->mask & all; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    for (int k = 0; k < 32; k++) if (kn[l * 32 + k] > row[k]) row[k] = kn[l * 32 + k];
  }
  for (uint32_t mm = ev->mask & all; mm; mm &= mm - 1) row[__builtin_ctz(mm)] = s;
  for (uint32_t mm = ev->mask & all; mm; mm &= mm - 1) memcpy(&kn[__builtin_ctz(mm) * 32], row, sizeof row);
}

static int ent_cmp(const void *x, const void *y) {
  const vc_ent *a = x, *b = y;
  if (a->agent != b->agent) return a->agent < b->agent ? -1 : 1;
  return a->clock < b->clock ? -1 : a->clock > b->clock;
}

/* out = the entrywise max of two lists sorted by agent, one entry an
 * agent: its length. */
static size_t merge_max(vc_ent *out, const vc_ent *a, size_t na, const vc_ent *b, size_t nb) {
  size_t i = 0, j = 0, m = 0;
  while (i < na && j < nb) {
    if (a[i].agent < b[j].agent) out[m++] = a[i++];
    else if (b[j].agent < a[i].agent) out[m++] = b[j++];
    else {
      out[m++] = a[i].clock >= b[j].clock ? a[i] : b[j];
      i++;
      j++;
    }
  }
  while (i < na) out[m++] = a[i++];
  while (j < nb) out[m++] = b[j++];
  return m;
}

/* PTX: the threads [first, first+count) named by mask (all with use_mask
 * 0) join their clocks, then each ticks.  A whole block (a barrier) gets a
 * new block clock; a warp's lanes (__syncwarp) share their entries. */
static void join_group(hb *h, uint32_t first, uint32_t count, uint32_t member_mask, int use_mask) {
  uint32_t b = block_of(h, first);
  vclock *base = h->bbase[b];
  size_t cap = count + (base ? base->n : 0), n = 0;
  uint32_t runs = 0;   /* threads that learnt entries since the block clock */
  for (uint32_t i = 0; i < count; i++) {
    uint32_t a = first + i;
    if ((use_mask && !(member_mask >> i & 1)) || a >= h->n) continue;
    if (ts_get(h, a) && ts_get(h, a)->x.n) {
      cap += ts_get(h, a)->x.n;
      runs++;
    }
  }
  vc_ent *all = xmalloc((cap ? cap : 1) * sizeof *all), *tmp = xmalloc((cap ? cap : 1) * sizeof *tmp);
  for (uint32_t i = 0; i < count; i++) {   /* the threads' own epochs, sorted by agent */
    uint32_t a = first + i;
    if ((use_mask && !(member_mask >> i & 1)) || a >= h->n) continue;
    all[n++] = (vc_ent){a, h->own[a]};
    publish(h, a);
  }
  size_t m;
  if (runs <= 16) {
    /* every list is sorted by agent: merged with the max, in linear time
     * a list (a barrier where few threads acquired: the common case) */
    if (!use_mask && base) {
      n = merge_max(tmp, all, n, base->e, base->n);
      vc_ent *was = all;
      all = tmp;
      tmp = was;
    }
    for (uint32_t i = 0; i < count && runs; i++) {
      uint32_t a = first + i;
      if ((use_mask && !(member_mask >> i & 1)) || a >= h->n) continue;
      tstate *t = ts_get(h, a);
      if (!t || !t->x.n) continue;
      n = merge_max(tmp, all, n, t->x.e, t->x.n);
      vc_ent *was = all;
      all = tmp;
      tmp = was;
    }
    m = n;
  } else {
    for (uint32_t i = 0; i < count; i++) {
      uint32_t a = first + i;
      if ((use_mask && !(member_mask >> i & 1)) || a >= h->n) continue;
      tstate *t = ts_get(h, a);
      if (t) for (uint32_t k = 0; k < t->x.n; k++) all[n++] = t->x.e[k];
    }
    if (!use_mask && base) for (uint32_t k = 0; k < base->n; k++) all[n++] = base->e[k];
    qsort(all, n, sizeof *all, ent_cmp);
    m = 0;
    for (size_t k = 0; k < n; k++) {   /* sorted by agent, then clock: the last of each agent is its max */
      if (m && all[m - 1].agent == all[k].agent) all[m - 1] = all[k];
      else all[m++] = all[k];
    }
  }
  free(tmp);
  if (!use_mask) {
    vclock *nb = vc_new(&h->clocks, (uint32_t)m, NULL);
    memcpy(nb->e, all, m * sizeof *all);
    nb->block = b;
    nb->gen = base ? base->gen + 1 : 1;
    vc_unref(&h->clocks, base);
    h->bbase[b] = nb;
    for (uint32_t i = 0; i < count; i++) {
      uint32_t a = first + i;
      if (a >= h->n) continue;
      if (ts_get(h, a)) vc_list_free(&h->clocks, &ts_get(h, a)->x);
      tick(h, a);
    }
  } else {
    for (uint32_t i = 0; i < count; i++) {
      uint32_t a = first + i;
      if (!(member_mask >> i & 1) || a >= h->n) continue;
      tstate *t = ts_of(h, a);
      vc_list_join(&h->clocks, &t->x, all, (uint32_t)m, base);
      tick(h, a);
    }
  }
  free(all);
}

void hb_on_event(void *self, const gr_event *ev) {
  hb *h = self;
  if (ev->kind == GR_EV_LAUNCH_BEGIN) { hb_launch(h, ev); return; }
  if (h->disabled || !h->n) return;
  switch (ev->kind) {
  case GR_EV_ACCESS: on_access(h, ev); break;
  case GR_EV_FENCE: on_fence(h, ev); break;
  case GR_EV_BARRIER:
    if (h->model == HB_MODEL_PTX) {
      /* bar.sync: a block-scope fence of each thread, then the join */
      uint32_t first = ev->block * h->per_block;
      for (uint32_t i = 0; i < h->per_block && first + i < h->n; i++) ptx_fence(h, first + i, GR_SCOPE_BLOCK);
      join_group(h, first, h->per_block, 0, 0);
    } else {
      h->releases++;
      if (ev->block < h->nblocks) h->bars[ev->block] = h->releases;
    }
    /* Every access of the block's threads before the barrier is now ordered
     * before every later one of theirs (hb: the barrier releases it; hb-ptx:
     * each thread's clock has every other's epoch), and only they reach its
     * shared memory: its records can race with nothing more, and go.  Not
     * the copies' of hb-ptx (cp.async), which a barrier does not order.
     * (Not a shortcut that --one-per-turn turns off: the lists that no
     * longer hold them are summarised sooner, which finds the same pairs
     * but counts them otherwise.) */
    if (ev->block < h->nblocks && h->shared && h->shared[ev->block].lines && !h->copies)
      lines_clear(h, &h->shared[ev->block]);
    break;
  case GR_EV_SYNCWARP:
    if (h->model == HB_MODEL_PTX) join_group(h, ev->block * h->per_block + ev->warp_in_block * 32, 32, ev->mask, 1);
    else if (h->its) scord_syncwarp(h, ev);
    break;
  case GR_EV_ASYNC_ISSUE: case GR_EV_ASYNC_WAIT:
    if (h->model != HB_MODEL_PTX) {
      race_log_unwatched(h->log, h->name, "asynchronous copies (cp.async) are outside the ScoRD model; it watched nothing of the launch (hb-ptx models them)");
      hb_free_launch(h);
      h->disabled = 1;
      return;
    }
    for (uint32_t mm = ev->mask; mm; mm &= mm - 1) {
      uint32_t a = agent_of(h, ev, __builtin_ctz(mm));
      if (a >= h->n) continue;
      if (ev->kind == GR_EV_ASYNC_ISSUE) {
        copy_fork(h, a);
        h->copies = 1;
      } else copy_join(h, a);
    }
    break;
  case GR_EV_BLOCK_END:   /* its shared memory ends with it; its agents access nothing more */
    if (h->shared && ev->block < h->nblocks) shadow_free(h, &h->shared[ev->block]);
    if (h->ended && ev->block < h->nblocks && !h->ended[ev->block]) { h->ended[ev->block] = 1; h->nended++; }
    break;
  case GR_EV_UNSEEN:
    race_log_unwatched(h->log, h->name, "an address fell outside what its pointer was proved to point into, and an "
                       "access reached an allocation whose accesses it had not been shown, proved to race with nothing");
    hb_free_launch(h);
    h->disabled = 1;
    return;
  case GR_EV_LAUNCH_END: hb_free_launch(h); break;
  default: break;
  }
  if (h->releases == UINT32_MAX) {   /* 2^32 - 1 fences and barriers: sequence numbers would wrap */
    race_log_unwatched(h->log, h->name, "2^32 fences and barriers in one launch; it watched nothing more in it");
    hb_free_launch(h);
    h->disabled = 1;
    return;
  }
  /* the one bound, the user's: past it, the launch is not watched */
  if (h->max_memory && h->n && h->bytes + h->clocks.bytes > h->max_memory) {
    char why[160];
    snprintf(why, sizeof why, "its state passed --hb-max-memory (%llu MiB) in a launch; it watched nothing more in it",
             (unsigned long long)(h->max_memory >> 20));
    race_log_unwatched(h->log, h->name, why);
    hb_free_launch(h);
    h->disabled = 1;
  }
}
