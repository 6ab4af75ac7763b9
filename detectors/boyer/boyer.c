/* Boyer et al. (2008) on shared memory: race hazards and bank conflicts.
 *
 * Race hazards.  The paper instruments every shared-memory access with two
 * global bookkeeping arrays, the reads and the writes of each location since
 * the last __syncthreads, and two per-thread arrays, the thread's own reads
 * and writes; all four are reset at each barrier.  A thread accessing
 * location i flags it when i has been both read and written, at least one
 * access came from another thread (the global counts exceed the thread's
 * own) and at least one from the thread itself (the access being made).
 * The paper assumes one block; shared memory is per block, so here each
 * block has its own arrays, created when the block starts and reset at its
 * barriers.  Locations are bytes.  The per-thread arrays are stored
 * sparsely (a hash of (thread, byte) with its counts, emptied at each
 * barrier), which holds exactly what the dense arrays hold.
 *
 * Threads are the agents, as in the paper: two lanes of one warp that touch
 * a location in different instructions are a hazard, although pre-Volta
 * lockstep orders them; such reports say "within a warp".
 *
 * The counters cannot say which other thread made the conflicting access.
 * For the report only, each byte also remembers its last read and write
 * and the last ones by a different thread, which names a partner.
 */
#include <stdlib.h>
#include <string.h>

#include "boyer.h"
#include "util.h"

/* ---------------------------------------------------------------- races */

typedef struct { uint32_t thread1, pc; uint8_t kind, atomic_op, scope; } site;   /* thread1: thread + 1, 0 none */

/* Atomics are counted apart from plain reads and writes: two atomics are
 * serialised by the hardware and never a hazard, while an atomic against
 * another thread's plain access is (it reads and writes). */
typedef struct {
  uint32_t r, w, a;          /* the global bookkeeping arrays, and atomics */
  site rd[2], wr[2], at[2];  /* [0] the last access, [1] the last by another thread than [0]'s (report only) */
} cell;

/* Counts of one thread (own) or one warp at a byte since the block's
 * barrier (r, w, a), and those since the warp's last __syncwarp (gr, gw,
 * ga, valid while gen is the warp's generation).  key: agent << 32 |
 * byte + 1, 0 empty; an entry of an earlier epoch (ep) than its block's
 * is empty too: a barrier empties the tables by starting an epoch, not
 * by clearing them (a 256-thread block's tile loop filled 64 K slots, and
 * clearing them at each barrier was most of matmul's 550x under boyer). */
typedef struct { uint64_t key; uint32_t r, w, a, gr, gw, ga, gen, ep; } own;

typedef struct {
  cell *c;
  uint32_t cap;
  uint32_t *touched;
  size_t ntouched, captouched;
  own *h;                    /* per (thread, byte) */
  size_t hcap, hn;
  own *wh;                   /* per (warp, byte) */
  size_t whcap, whn;
  uint32_t *gen;             /* per warp: its __syncwarp generation */
  uint32_t *lanes;           /* per warp: lanes that accessed shared memory since the barrier */
  uint32_t nwarps;
  uint32_t epoch;            /* the tables' entries of this epoch are the live ones */
} blockstate;

typedef struct {
  gr_context *ctx;
  race_log *log;
  const char *name;
  int waw;
  gr_dim3 grid;
  uint32_t nblocks;
  blockstate **blk;
  pc_table pcs;
} boyer;

void *boyer_create(gr_context *ctx, const det_options *o, race_log *log, const char *name) {
  boyer *b = xcalloc(1, sizeof *b);
  b->ctx = ctx;
  b->log = log;
  b->name = name;
  b->waw = o->boyer_waw;
  return b;
}

static void block_free(blockstate *s) {
  if (!s) return;
  free(s->c);
  free(s->touched);
  free(s->h);
  free(s->wh);
  free(s->gen);
  free(s->lanes);
  free(s);
}

static void boyer_free_launch(boyer *b) {
  if (b->blk) for (uint32_t k = 0; k < b->nblocks; k++) block_free(b->blk[k]);
  free(b->blk);
  b->blk = NULL;
  b->nblocks = 0;
  pc_table_free(&b->pcs);
}

void boyer_destroy(void *self) {
  boyer *b = self;
  boyer_free_launch(b);
  free(b);
}

/* The first slot of key in a table of cap slots (a power of two): the top
 * bits of a Fibonacci product, which depend on every bit of the key (the
 * low bits of a product depend on the key's low bits alone: (thread, byte)
 * keys crowded into a few runs). */
static size_t home(uint64_t key, size_t cap) {
  return (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - __builtin_ctzll(cap)));
}

/* The entry of (agent, byte) in table h of epoch ep (hn live entries),
 * made where it has none. */
static own *count_get(own **h, size_t *hcap, size_t *hn, uint32_t ep, uint32_t agent, uint32_t byte) {
  if (2 * (*hn + 1) > *hcap) {
    size_t nc = *hcap ? 2 * *hcap : 256;
    own *nh = xcalloc(nc, sizeof *nh);
    for (size_t k = 0; k < *hcap; k++) {
      if (!(*h)[k].key || (*h)[k].ep != ep) continue;
      size_t i = home((*h)[k].key, nc);
      while (nh[i].key) i = (i + 1) & (nc - 1);
      nh[i] = (*h)[k];
    }
    free(*h);
    *h = nh;
    *hcap = nc;
  }
  uint64_t key = (uint64_t)agent << 32 | ((uint64_t)byte + 1);
  size_t i = home(key, *hcap);
  own *t = *h;
  while (t[i].key && t[i].ep == ep && t[i].key != key) i = (i + 1) & (*hcap - 1);
  if (!t[i].key || t[i].ep != ep) {
    t[i] = (own){key, 0, 0, 0, 0, 0, 0, 0, ep};
    ++*hn;
  }
  return &t[i];
}

/* The counts since the warp's last __syncwarp start again at a new generation. */
static void count_at_gen(own *o, uint32_t gen) {
  if (o->gen != gen) { o->gen = gen; o->gr = o->gw = o->ga = 0; }
}

/* __syncthreads: every count of the block back to zero. */
static void block_reset(blockstate *s) {
  for (size_t k = 0; k < s->ntouched; k++) memset(&s->c[s->touched[k]], 0, sizeof(cell));
  s->ntouched = 0;
  if (++s->epoch == 0) {   /* (wrapped: entries of epoch 0 would live again) */
    if (s->hcap) memset(s->h, 0, s->hcap * sizeof *s->h);
    if (s->whcap) memset(s->wh, 0, s->whcap * sizeof *s->wh);
  }
  s->hn = 0;
  s->whn = 0;
  if (s->nwarps) memset(s->lanes, 0, s->nwarps * sizeof *s->lanes);
}

/* __syncwarp(mask) orders the accesses of the lanes it names before it
 * with theirs after it, as __syncthreads orders the block's.  Only a
 * __syncwarp that names every lane of the warp that has touched shared
 * memory since the barrier starts a new generation; one that leaves such
 * a lane out orders nothing here (a possible false alarm, never a miss). */
static void block_syncwarp(blockstate *s, uint32_t warp, uint32_t mask) {
  if (warp >= s->nwarps || (s->lanes[warp] & ~mask)) return;
  s->gen[warp]++;
}

static void block_warps(blockstate *s, uint32_t warp) {
  if (warp < s->nwarps) return;
  uint32_t n = warp + 1;
  s->gen = xrealloc(s->gen, n * sizeof *s->gen);
  s->lanes = xrealloc(s->lanes, n * sizeof *s->lanes);
  for (uint32_t k = s->nwarps; k < n; k++) s->gen[k] = s->lanes[k] = 0;
  s->nwarps = n;
}

static cell *cell_at(blockstate *s, uint32_t byte) {
  if (byte >= s->cap) {
    uint32_t nc = s->cap ? s->cap : 1024;
    while (nc <= byte) nc *= 2;
    s->c = xrealloc(s->c, (size_t)nc * sizeof *s->c);
    memset(s->c + s->cap, 0, (size_t)(nc - s->cap) * sizeof *s->c);
    s->cap = nc;
  }
  cell *c = &s->c[byte];
  if (!c->r && !c->w) {
    if (s->ntouched == s->captouched) {
      s->captouched = s->captouched ? 2 * s->captouched : 256;
      s->touched = xrealloc(s->touched, s->captouched * sizeof *s->touched);
    }
    s->touched[s->ntouched++] = byte;
  }
  return c;
}

static void site_push(site *two, site s) {
  if (two[0].thread1 != s.thread1) two[1] = two[0];
  two[0] = s;
}

/* The last access in `two` by another thread than `thread`, or NULL. */
static const site *other_than(const site *two, uint32_t thread) {
  for (int k = 0; k < 2; k++) if (two[k].thread1 && two[k].thread1 != thread + 1) return &two[k];
  return NULL;
}

typedef struct { const char *cls; uint32_t pc, thread1; } seen;

static void report(boyer *b, const gr_event *ev, int lane, uint32_t thread, uint32_t byte, const char *base,
                   const site *partner, seen *done, int *ndone) {
  char cls[64];
  int same_warp = partner && (partner->thread1 - 1) / 32 == thread / 32;
  snprintf(cls, sizeof cls, "%s%s", base, same_warp ? " within a warp" : "");
  /* one report per (hazard, partner) for all the bytes of one lane's access */
  uint32_t ppc = partner ? partner->pc : 0, pth = partner ? partner->thread1 : 0;
  for (int d = 0; d < *ndone; d++)
    if (done[d].cls == base && done[d].pc == ppc && done[d].thread1 == pth) return;
  if (*ndone < 8) done[(*ndone)++] = (seen){base, ppc, pth};
  gr_race r;
  memset(&r, 0, sizeof r);
  r.detector = b->name;
  r.cls = cls;
  r.space = GR_SPACE_SHARED;
  r.offset = byte;
  if (partner) {
    pc_table_fill(&b->pcs, partner->pc, &r.first);
    r.first.block = ev->block_idx;
    r.first.warp = (partner->thread1 - 1) / 32;
    r.first.lane = (int)((partner->thread1 - 1) % 32);
    r.first.kind = (gr_access_kind)partner->kind;
    r.first.atomic_op = partner->atomic_op;
    r.first.scope = (gr_scope)partner->scope;
    r.first.strong = partner->kind == GR_ATOMIC;
  }
  race_access_from_event(&r.second, ev, lane);
  race_log_add(b->log, &r);
}

static void boyer_access(boyer *b, const gr_event *ev) {
  if (ev->space != GR_SPACE_SHARED || ev->block >= b->nblocks) return;
  blockstate *s = b->blk[ev->block];
  if (!s) s = b->blk[ev->block] = xcalloc(1, sizeof *s);
  pc_table_note(&b->pcs, ev);
  int atom = ev->access == GR_ATOMIC, reads = ev->access == GR_LOAD, writes = ev->access == GR_STORE;
  uint32_t warp = ev->warp_in_block;
  block_warps(s, warp);
  s->lanes[warp] |= ev->mask;
  uint32_t gen = s->gen[warp];
  for (uint32_t mm = ev->mask; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    uint32_t thread = ev->warp_in_block * 32 + (uint32_t)l;
    uint32_t off = (uint32_t)ev->addr[l];
    site me = {thread + 1, (uint32_t)ev->pc, (uint8_t)ev->access, (uint8_t)ev->atomic_op,
               (uint8_t)(atom ? ev->scope : GR_SCOPE_BLOCK)};
    seen done[8];
    int ndone = 0;
    for (int i = 0; i < ev->size; i++) {
      uint32_t byte = off + (uint32_t)i;
      cell *c = cell_at(s, byte);
      own *o = count_get(&s->h, &s->hcap, &s->hn, s->epoch, thread, byte);
      own *wc = count_get(&s->wh, &s->whcap, &s->whn, s->epoch, warp, byte);
      count_at_gen(o, gen);
      count_at_gen(wc, gen);
      if (reads) { c->r++; o->r++; o->gr++; wc->r++; wc->gr++; site_push(c->rd, me); }
      if (writes) { c->w++; o->w++; o->gw++; wc->w++; wc->gw++; site_push(c->wr, me); }
      if (atom) { c->a++; o->a++; o->ga++; wc->a++; wc->ga++; site_push(c->at, me); }
      /* The paper's condition, that the byte was read and written since
       * the barrier, by this thread and another, is a pair: this thread's
       * read and another's write, or its write and another's read.  The
       * warp's other lanes count only since its last __syncwarp, against
       * this thread's accesses since then (what a __syncwarp orders);
       * other warps' accesses count since the barrier. */
      uint32_t xr = c->r - wc->r, xw = c->w - wc->w, xa = c->a - wc->a;          /* other warps' */
      uint32_t yr = wc->gr - o->gr, yw = wc->gw - o->gw, ya = wc->ga - o->ga;    /* this warp's other lanes' */
      uint32_t oth_r = xr + yr, oth_w = xw + yw, oth_a = xa + ya;
      /* an atomic against other threads' plain accesses, a plain access
       * against other threads' atomics (the paper has no atomics: each is
       * a read and a write that no other atomic can interleave with) */
      const site *oa = other_than(c->at, thread);
      if (atom) {
        if (oth_w) report(b, ev, l, thread, byte, "RAW hazard", other_than(c->wr, thread), done, &ndone);
        if (oth_r) report(b, ev, l, thread, byte, "WAR hazard", other_than(c->rd, thread), done, &ndone);
        continue;
      }
      if (oth_a && oa) report(b, ev, l, thread, byte, reads ? "RAW hazard" : "WAR hazard", oa, done, &ndone);
      if ((o->r && xw) || (o->w && xr) || (o->gr && yw) || (o->gw && yr)) {
        /* which hazard: this access against another thread's access of the
         * other kind, else this thread's earlier access against one */
        const site *ow = other_than(c->wr, thread), *orr = other_than(c->rd, thread);
        if (!writes && ow) report(b, ev, l, thread, byte, "RAW hazard", ow, done, &ndone);
        else if (writes && orr) report(b, ev, l, thread, byte, "WAR hazard", orr, done, &ndone);
        else if (orr) report(b, ev, l, thread, byte, "WAR hazard", orr, done, &ndone);
        else report(b, ev, l, thread, byte, "RAW hazard", ow, done, &ndone);
      }
      if (b->waw && writes && oth_w) report(b, ev, l, thread, byte, "WAW hazard", other_than(c->wr, thread), done, &ndone);
    }
  }
}

void boyer_on_event(void *self, const gr_event *ev) {
  boyer *b = self;
  switch (ev->kind) {
  case GR_EV_LAUNCH_BEGIN:
    boyer_free_launch(b);
    b->grid = ev->grid;
    b->nblocks = ev->grid.x * ev->grid.y * ev->grid.z;
    b->blk = xcalloc(b->nblocks, sizeof *b->blk);
    break;
  case GR_EV_ACCESS: if (b->blk) boyer_access(b, ev); break;
  case GR_EV_BARRIER: if (b->blk && ev->block < b->nblocks && b->blk[ev->block]) block_reset(b->blk[ev->block]); break;
  case GR_EV_SYNCWARP:
    if (b->blk && ev->block < b->nblocks && b->blk[ev->block]) block_syncwarp(b->blk[ev->block], ev->warp_in_block, ev->mask);
    break;
  case GR_EV_BLOCK_END:
    if (b->blk && ev->block < b->nblocks) { block_free(b->blk[ev->block]); b->blk[ev->block] = NULL; }
    break;
  case GR_EV_LAUNCH_END: boyer_free_launch(b); break;
  default: break;
  }
}

/* ---------------------------------------------------------------- bank conflicts */

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int boyer_bank_degree(const uint64_t *addr, uint32_t mask, int size, int banks) {
  uint64_t words[32 * 4];
  int n = 0;
  for (uint32_t mm = mask; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    uint64_t off = (uint32_t)addr[l];
    for (uint64_t w = off / 4; w <= (off + (uint64_t)(size > 0 ? size : 1) - 1) / 4 && n < 32 * 4; w++) words[n++] = w;
  }
  if (!n) return 0;
  if (n > 1) qsort(words, (size_t)n, sizeof *words, cmp_u64);
  int per[64] = {0}, best = 0;
  for (int k = 0; k < n; k++) {
    if (k && words[k] == words[k - 1]) continue;   /* one word to many threads: a broadcast, no conflict */
    int bank = (int)(words[k] % (uint64_t)banks);
    if (++per[bank] > best) best = per[bank];
  }
  return best;
}

#define MAXDEG 128

typedef struct {
  char *file;
  int line;
  uint64_t h16[MAXDEG + 1], h32[MAXDEG + 1];   /* requests by degree */
} line_hist;

typedef struct {
  line_hist *l;
  size_t n, cap;
} banks;

void *boyer_banks_create(gr_context *ctx, const det_options *o, race_log *log, const char *name) {
  (void)ctx; (void)o; (void)log; (void)name;
  return xcalloc(1, sizeof(banks));
}

void boyer_banks_destroy(void *self) {
  banks *k = self;
  for (size_t i = 0; i < k->n; i++) free(k->l[i].file);
  free(k->l);
  free(k);
}

static line_hist *hist_of(banks *k, const char *file, int line) {
  for (size_t i = k->n; i-- > 0;)
    if (k->l[i].line == line && !strcmp(k->l[i].file, file ? file : "?")) return &k->l[i];
  if (k->n == k->cap) { k->cap = k->cap ? 2 * k->cap : 16; k->l = xrealloc(k->l, k->cap * sizeof *k->l); }
  line_hist *h = &k->l[k->n++];
  memset(h, 0, sizeof *h);
  size_t len = strlen(file ? file : "?") + 1;
  h->file = xcalloc(len, 1);
  memcpy(h->file, file ? file : "?", len);
  h->line = line;
  return h;
}

void boyer_banks_on_event(void *self, const gr_event *ev) {
  if (ev->kind != GR_EV_ACCESS || ev->space != GR_SPACE_SHARED) return;
  line_hist *h = hist_of(self, ev->file, ev->line);
  for (int half = 0; half < 2; half++) {   /* compute 1.x: one request per half-warp */
    int d = boyer_bank_degree(ev->addr, ev->mask & (half ? 0xffff0000u : 0xffffu), ev->size, 16);
    if (d) h->h16[d > MAXDEG ? MAXDEG : d]++;
  }
  int d = boyer_bank_degree(ev->addr, ev->mask, ev->size, 32);
  if (d) h->h32[d > MAXDEG ? MAXDEG : d]++;
}

static int cmp_hist(const void *a, const void *b) {
  const line_hist *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  return c ? c : (x->line > y->line) - (x->line < y->line);
}

static void print_config(FILE *out, const banks *k, int wide) {
  fprintf(out, "  %s\n", wide ? "32 banks, one request per warp (current hardware):" : "16 banks, one request per half-warp (the paper's hardware):");
  for (size_t i = 0; i < k->n; i++) {
    const uint64_t *h = wide ? k->l[i].h32 : k->l[i].h16;
    uint64_t total = 0;
    for (int d = 1; d <= MAXDEG; d++) total += h[d];
    if (!total) continue;
    fprintf(out, "    %s:%d: %llu requests:", k->l[i].file, k->l[i].line, (unsigned long long)total);
    for (int d = 1; d <= MAXDEG; d++)
      if (h[d]) fprintf(out, " %llu x %d-way", (unsigned long long)h[d], d);
    fputc('\n', out);
  }
}

void boyer_banks_summary(void *self, FILE *out) {
  banks *k = self;
  if (k->n > 1) qsort(k->l, k->n, sizeof *k->l, cmp_hist);
  fprintf(out, "bank conflicts [boyer-banks] per source line (1-way: no conflict):\n");
  if (!k->n) { fprintf(out, "  no shared-memory accesses\n"); return; }
  print_config(out, k, 0);
  print_config(out, k, 1);
}
