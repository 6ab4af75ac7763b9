/* The axiomatic PTX memory model: the second, independent formalisation
 * that the operational weak model (wmem.c) is checked against.
 *
 * The axioms are those of Lustig, Sahasrabuddhe and Giroux (ASPLOS'19),
 * the formal reading of the PTX ISA's memory consistency model:
 *   No-Thin-Air      acyclic(rf | dep)
 *   SC-per-Location  acyclic(strong(com) | po_loc)
 *   Atomicity        no rmw pair (R, W) with R strong-fr W' strong-co W
 *   Coherence        writes to one location ordered by causality are ordered by co
 *   Causality        irreflexive((fr | rf)? ; cause)
 * with morally strong pairs (each access in the other's scope; a plain
 * access has the scope of its own thread), observation (strong rf,
 * continued through read-modify-writes), release patterns (prefix),
 * acquire patterns (suffix), synchronisation, fence-SC order and barrier
 * synchronisation, base causality order and causality order as there.
 *
 * Events come from the emulator itself, run in trace mode: each global
 * load and atomic takes a value the checker supplies, so one run gives
 * every thread's trace for one choice of the values it reads.  A thread's
 * traces are enumerated by a depth-first search over those values, drawn
 * from the values some trace writes to the location (plus its initial
 * value), to a fixpoint: a value no trace can write is never read (No-
 * Thin-Air then rules out the self-justifying cycles among the others).
 * Dependencies are semantic: an event depends on an earlier read when
 * another value of that read changes the event's kind, location or value,
 * or removes it.
 *
 * A candidate execution is a trace per thread, a reads-from choice for
 * every read (a write of its value to its location, or the initial
 * value), a coherence order per location (a strict partial order that
 * orders every morally strong pair, as PTX requires, and has a last
 * write where the host observes the location: the kernel's end orders
 * everything before the host reads), and a fence-SC order over the
 * morally strong pairs of fence.sc.  The allowed set is the set of
 * outcomes of the candidates that satisfy every axiom. */
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "host.h"
#include "litmus.h"
#include "util.h"

#define MAX_EV 64          /* events of one candidate execution (bitset rows) */
#define MAX_TEV 48         /* events of one thread's trace */
#define MAX_VALUES 16      /* values one location may hold */
#define MAX_CO_WRITES 5    /* writes to one location */
#define MAX_ROUNDS 16      /* rounds of the value-domain fixpoint */

enum { EV_R, EV_W, EV_F, EV_BA, EV_BW };
enum { SC_THREAD, SC_CTA, SC_GPU, SC_SYS };
enum { SEM_RLX, SEM_ACQ, SEM_REL, SEM_ACQREL, SEM_SC };

typedef struct {
  uint8_t kind, scope, sem, size;
  int8_t rmw;                /* a read: the index of its read-modify-write's write in the trace, or -1 */
  uint64_t addr, val;
  uint32_t bar;              /* barriers: the instance (block << 20 | count) */
  int line, col;
} ax_ev;

typedef struct {
  ax_ev e[MAX_TEV];
  uint64_t dep[MAX_TEV];     /* dep[i]: the trace's reads event i depends on (bits: event indices) */
  int n;
} ax_trace;

typedef struct {
  /* the run in progress */
  ax_trace cur;
  int nreads, overflow;
  uint64_t rmw_val;
  int rmw_stored, rmw_pending;
  /* enumeration: value indices chosen, and the domain sizes met */
  int path[MAX_TEV], size[MAX_TEV], plen, done;
  /* probing: values to force, the read (by read count) that takes `alt` */
  uint64_t want[MAX_TEV];
  int nwant, probe_read, probing;
  uint64_t alt;
  ax_trace *traces;
  int ntraces;
} ax_thread;

typedef struct {
  uint64_t addr;
  int size;
  uint64_t init;
  int n;
  uint64_t v[MAX_VALUES];
  int grew;
} ax_loc;

typedef struct {
  gr_context *ctx;
  gr_script *s;
  const char *path;
  ax_thread *th;
  uint32_t nth, per_block;
  ax_loc *locs;
  int nlocs;
  uint32_t *barcount;        /* per block: barriers completed */
  uint32_t *arrived;         /* per thread: the instance it arrived at, + 1 */
  uint32_t nsyncwarp;        /* __syncwarp instances so far in the run */
  char err[512];
  int failed;
  /* observed locations */
  gr_ptr *oaddr;
  int *osize;
  size_t nobs;
  /* results */
  gr_litmus_result *r;
  uint64_t candidates, consistent;
  double t0, max_seconds;
} ax;

static uint64_t size_mask(int size) { return size >= 8 ? ~0ull : (1ull << (8 * size)) - 1; }

static void ax_fail(ax *a, const char *fmt, const char *what, int line, int col) {
  if (a->failed) return;
  a->failed = 1;
  if (line > 0) snprintf(a->err, sizeof a->err, "%s:%d:%d: %s: %s", a->path, line, col, what, fmt);
  else snprintf(a->err, sizeof a->err, "%s: %s: %s", a->path, what, fmt);
}

/* ------------------------------------------------------------- locations and their values */

static ax_loc *loc_of(ax *a, uint64_t addr, int size, int line, int col) {
  for (int k = 0; k < a->nlocs; k++) {
    ax_loc *L = &a->locs[k];
    if (L->addr == addr && L->size == size) return L;
    if (addr < L->addr + (uint64_t)L->size && L->addr < addr + (uint64_t)size) {
      ax_fail(a, "accesses of different sizes to overlapping bytes are outside the model the checker implements", "axiomatic", line, col);
      return NULL;
    }
  }
  if (a->nlocs == 64) {
    ax_fail(a, "a test touches more than 64 locations: litmus tests are small", "axiomatic bound", line, col);
    return NULL;
  }
  a->locs = xrealloc(a->locs, (size_t)(a->nlocs + 1) * sizeof *a->locs);
  ax_loc *L = &a->locs[a->nlocs++];
  memset(L, 0, sizeof *L);
  L->addr = addr;
  L->size = size;
  uint8_t *p = emu_global_span(host_emu(a->ctx), addr, (uint64_t)size);
  uint64_t v = 0;
  if (p) for (int k = size - 1; k >= 0; k--) v = v << 8 | p[k];
  L->init = v;
  L->v[L->n++] = v;
  return L;
}

static void loc_add_value(ax *a, ax_loc *L, uint64_t v) {
  for (int k = 0; k < L->n; k++) if (L->v[k] == v) return;
  if (L->n == MAX_VALUES) {
    ax_fail(a, "a location would hold more than 16 distinct values: the value search is bounded there", "axiomatic bound", 0, 0);
    return;
  }
  L->v[L->n++] = v;
  L->grew = 1;
}

/* ------------------------------------------------------------- trace runs */

static ax_thread *thread_of(ax *a, uint32_t block, uint32_t tib) {
  uint64_t k = (uint64_t)block * a->per_block + tib;
  return k < a->nth ? &a->th[k] : NULL;
}

static uint64_t supply(void *user, uint32_t block, uint32_t tib, uint64_t addr, int size) {
  ax *a = user;
  ax_thread *t = thread_of(a, block, tib);
  ax_loc *L = t ? loc_of(a, addr, size, 0, 0) : NULL;
  if (!L) return 0;
  int k = t->nreads++;
  if (k >= MAX_TEV) { t->overflow = 1; return L->v[0]; }
  if (t->probing) {
    uint64_t want = k == t->probe_read ? t->alt : k < t->nwant ? t->want[k] : L->v[0];
    for (int j = 0; j < L->n; j++) if (L->v[j] == want) return want;
    return L->v[0];
  }
  if (k >= t->plen) { t->path[k] = 0; t->plen = k + 1; }
  t->size[k] = L->n;
  int i = t->path[k] < L->n ? t->path[k] : 0;
  return L->v[i];
}

static void rmw_result(void *user, uint32_t block, uint32_t tib, uint64_t value, int stored) {
  ax_thread *t = thread_of(user, block, tib);
  if (!t) return;
  t->rmw_val = value;
  t->rmw_stored = stored;
  t->rmw_pending = 1;
}

static ax_ev *push(ax *a, ax_thread *t, int kind, const gr_event *ev) {
  if (t->cur.n == MAX_TEV) {
    t->overflow = 1;
    ax_fail(a, "a thread has more than 48 memory events: litmus tests are small", "axiomatic bound", ev->line, ev->col);
    return NULL;
  }
  ax_ev *e = &t->cur.e[t->cur.n];
  t->cur.dep[t->cur.n] = 0;
  t->cur.n++;
  memset(e, 0, sizeof *e);
  e->kind = (uint8_t)kind;
  e->rmw = -1;
  e->line = ev->line;
  e->col = ev->col;
  return e;
}

static uint8_t scope_of(gr_scope s) { return s == GR_SCOPE_BLOCK ? SC_CTA : s == GR_SCOPE_DEVICE ? SC_GPU : SC_SYS; }

/* The semantics of a read or a write with the access's order: an
 * atom.acq_rel is an acquire read and a release write. */
static uint8_t sem_of(gr_order o, int is_write) {
  int acq = o == GR_ORDER_ACQUIRE || o == GR_ORDER_ACQ_REL, rel = o == GR_ORDER_RELEASE || o == GR_ORDER_ACQ_REL;
  return is_write ? (rel ? SEM_REL : SEM_RLX) : (acq ? SEM_ACQ : SEM_RLX);
}

static void on_event(void *user, const gr_event *ev) {
  ax *a = user;
  if (a->failed) return;
  switch (ev->kind) {
  case GR_EV_LAUNCH_BEGIN: {
    /* the one launch of a litmus test, which set the checker up */
    uint64_t nb = (uint64_t)ev->grid.x * ev->grid.y * ev->grid.z;
    for (uint32_t k = 0; k < a->nth; k++) {
      ax_thread *t = &a->th[k];
      t->cur.n = 0;
      t->nreads = 0;
      t->rmw_pending = 0;
      a->arrived[k] = 0;
    }
    a->nsyncwarp = 0;
    memset(a->barcount, 0, nb * sizeof *a->barcount);
    return;
  }
  case GR_EV_ACCESS:
    if (ev->space == GR_SPACE_LOCAL) return;
    if (ev->space == GR_SPACE_SHARED) {
      ax_fail(a, "a shared-memory access: the checker models global memory only", "axiomatic", ev->line, ev->col);
      return;
    }
    for (uint32_t m = ev->mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      ax_thread *t = thread_of(a, ev->block, ev->warp_in_block * 32 + (uint32_t)l);
      if (!t) continue;
      if (!loc_of(a, ev->addr[l], ev->size, ev->line, ev->col)) return;
      uint64_t mask = size_mask(ev->size);
      ax_ev *e = push(a, t, ev->access == GR_STORE ? EV_W : EV_R, ev);
      if (!e) return;
      e->addr = ev->addr[l];
      e->size = (uint8_t)ev->size;
      e->val = ev->value[l] & mask;
      e->sem = sem_of(ev->order, ev->access == GR_STORE);
      if (ev->access == GR_ATOMIC) {
        e->scope = scope_of(ev->scope);
        if (!t->rmw_pending) { ax_fail(a, "an atomic without its result (engine bug)", "axiomatic", ev->line, ev->col); return; }
        t->rmw_pending = 0;
        if (t->rmw_stored) {
          int ri = t->cur.n - 1;
          ax_ev *w = push(a, t, EV_W, ev);
          if (!w) return;
          e = &t->cur.e[ri];
          w->addr = e->addr;
          w->size = e->size;
          w->scope = e->scope;
          w->sem = sem_of(ev->order, 1);
          w->val = t->rmw_val & mask;
          e->rmw = (int8_t)(t->cur.n - 1);
        }
      } else {
        e->scope = ev->is_volatile ? scope_of(ev->scope) : SC_THREAD;   /* volatile: relaxed at system scope */
      }
    }
    return;
  case GR_EV_FENCE:
    for (uint32_t m = ev->mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      ax_thread *t = thread_of(a, ev->block, ev->warp_in_block * 32 + (uint32_t)l);
      if (!t) continue;
      ax_ev *e = push(a, t, EV_F, ev);
      if (!e) return;
      e->scope = scope_of(ev->scope);
      e->sem = ev->order == GR_ORDER_ACQ_REL ? SEM_ACQREL : SEM_SC;   /* __threadfence*: membar, which is fence.sc */
    }
    return;
  case GR_EV_ARRIVE:
  case GR_EV_SYNCWARP:
    for (uint32_t m = ev->mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      uint32_t tib = ev->warp_in_block * 32 + (uint32_t)l;
      ax_thread *t = thread_of(a, ev->block, tib);
      if (!t) continue;
      ax_ev *e = push(a, t, EV_BA, ev);
      if (!e) return;
      e->scope = SC_CTA;
      /* a __syncwarp is an instance of its own, shared by the lanes it names */
      e->bar = ev->kind == GR_EV_ARRIVE ? ev->block << 20 | a->barcount[ev->block] : 1u << 31 | a->nsyncwarp;
      if (ev->kind == GR_EV_SYNCWARP) {
        ax_ev *w = push(a, t, EV_BW, ev);
        if (!w) return;
        w->scope = SC_CTA;
        w->bar = 1u << 31 | a->nsyncwarp;
      } else {
        a->arrived[ev->block * a->per_block + tib] = a->barcount[ev->block] + 1;
      }
    }
    if (ev->kind == GR_EV_SYNCWARP) a->nsyncwarp++;
    return;
  case GR_EV_BARRIER: {
    uint32_t b = ev->block, inst = a->barcount[b];
    for (uint32_t tib = 0; tib < a->per_block; tib++) {
      uint64_t k = (uint64_t)b * a->per_block + tib;
      if (k >= a->nth || a->arrived[k] != inst + 1) continue;
      ax_thread *t = &a->th[k];
      ax_ev *e = push(a, t, EV_BW, ev);
      if (!e) return;
      e->scope = SC_CTA;
      e->bar = b << 20 | inst;
    }
    a->barcount[b]++;
    return;
  }
  default:
    return;
  }
}

static int traces_equal(const ax_trace *x, const ax_trace *y) {
  if (x->n != y->n) return 0;
  for (int k = 0; k < x->n; k++) {
    const ax_ev *p = &x->e[k], *q = &y->e[k];
    if (p->kind != q->kind || p->scope != q->scope || p->sem != q->sem || p->size != q->size || p->rmw != q->rmw ||
        p->addr != q->addr || p->val != q->val || p->bar != q->bar)
      return 0;
  }
  return 1;
}

/* One run of the launch in trace mode. */
static int trace_run(ax *a) {
  int rc = gr_script_reset(a->s);
  if (rc == GR_OK) rc = gr_script_run(a->s);
  if (rc != GR_OK && !a->failed) {
    a->failed = 1;
    snprintf(a->err, sizeof a->err, "a trace run failed (a litmus test for the checker must end whatever values its loads read): %s",
             gr_error(a->ctx));
  }
  for (uint32_t k = 0; k < a->nth && !a->failed; k++)
    if (a->th[k].overflow) ax_fail(a, "a thread reads more than 48 times: litmus tests are small", "axiomatic bound", 0, 0);
  if (!a->failed && a->max_seconds > 0 && gr_now() - a->t0 > a->max_seconds) {
    a->failed = 1;
    snprintf(a->err, sizeof a->err, "time bound of %.0f s reached while enumerating traces (raise --max-seconds)", a->max_seconds);
  }
  return a->failed ? -1 : 0;
}

/* Every thread's traces, for the current value domains. */
static int enumerate_traces(ax *a) {
  for (uint32_t k = 0; k < a->nth; k++) {
    ax_thread *t = &a->th[k];
    free(t->traces);
    t->traces = NULL;
    t->ntraces = 0;
    t->plen = 0;
    t->done = 0;
    t->probing = 0;
  }
  for (;;) {
    if (trace_run(a)) return -1;
    int all_done = 1;
    for (uint32_t k = 0; k < a->nth; k++) {
      ax_thread *t = &a->th[k];
      if (t->done) continue;
      int dup = 0;
      for (int j = 0; j < t->ntraces && !dup; j++) dup = traces_equal(&t->traces[j], &t->cur);
      if (!dup) {
        t->traces = xrealloc(t->traces, (size_t)(t->ntraces + 1) * sizeof *t->traces);
        t->traces[t->ntraces++] = t->cur;
      }
      /* the next path: the deepest choice with an alternative left */
      t->plen = t->nreads;
      int j = t->plen - 1;
      while (j >= 0 && t->path[j] + 1 >= t->size[j]) j--;
      if (j < 0) { t->done = 1; continue; }
      t->path[j]++;
      t->plen = j + 1;
      all_done = 0;
    }
    if (all_done) return 0;
  }
}

/* Semantic dependencies: re-run each trace with one read given another
 * value; the events after it that change or vanish depend on it. */
static int probe_dependencies(ax *a) {
  typedef struct { int trace, read, ev; uint64_t alt; } probe;
  probe **pr = xcalloc(a->nth, sizeof *pr);
  int *npr = xcalloc(a->nth, sizeof *npr), most = 0;
  for (uint32_t k = 0; k < a->nth; k++) {
    ax_thread *t = &a->th[k];
    for (int j = 0; j < t->ntraces; j++) {
      ax_trace *tr = &t->traces[j];
      int nr = 0;
      for (int i = 0; i < tr->n; i++) {
        ax_ev *e = &tr->e[i];
        if (e->rmw >= 0) tr->dep[e->rmw] |= 1ull << i;   /* rmw is in dep */
        if (e->kind != EV_R) continue;
        ax_loc *L = loc_of(a, e->addr, e->size, e->line, e->col);
        for (int v = 0; L && v < L->n; v++) {
          if (L->v[v] == e->val) continue;
          pr[k] = xrealloc(pr[k], (size_t)(npr[k] + 1) * sizeof **pr);
          pr[k][npr[k]++] = (probe){j, nr, i, L->v[v]};
        }
        nr++;
      }
    }
    if (npr[k] > most) most = npr[k];
  }
  int rc = 0;
  for (int p = 0; p < most && !rc; p++) {
    for (uint32_t k = 0; k < a->nth; k++) {
      ax_thread *t = &a->th[k];
      t->probing = p < npr[k];
      if (!t->probing) continue;
      const probe *q = &pr[k][p];
      const ax_trace *tr = &t->traces[q->trace];
      t->nwant = 0;
      for (int i = 0; i < tr->n; i++) if (tr->e[i].kind == EV_R) t->want[t->nwant++] = tr->e[i].val;
      t->probe_read = q->read;
      t->alt = q->alt;
    }
    rc = trace_run(a);
    for (uint32_t k = 0; k < a->nth && !rc; k++) {
      ax_thread *t = &a->th[k];
      if (!t->probing) continue;
      const probe *q = &pr[k][p];
      ax_trace *tr = &t->traces[q->trace];
      for (int i = q->ev + 1; i < tr->n; i++) {
        const ax_ev *x = &tr->e[i], *y = i < t->cur.n ? &t->cur.e[i] : NULL;
        int same = y && x->kind == y->kind && x->addr == y->addr && x->size == y->size && x->scope == y->scope &&
                   x->sem == y->sem && (x->kind == EV_R || x->val == y->val);
        if (!same) tr->dep[i] |= 1ull << q->ev;
      }
    }
  }
  for (uint32_t k = 0; k < a->nth; k++) { free(pr[k]); a->th[k].probing = 0; }
  free(pr);
  free(npr);
  return rc;
}

/* ------------------------------------------------------------- relations */

typedef uint64_t rel[MAX_EV];

static void r_clear(rel r, int n) { memset(r, 0, (size_t)n * sizeof r[0]); }
static void r_copy(rel d, const rel s, int n) { memcpy(d, s, (size_t)n * sizeof d[0]); }
static void r_or(rel d, const rel s, int n) { for (int i = 0; i < n; i++) d[i] |= s[i]; }
static void r_closure(rel r, int n) {
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      if (r[i] >> k & 1) r[i] |= r[k];
}
static void r_seq(rel d, const rel x, const rel y, int n) {
  rel t;
  for (int i = 0; i < n; i++) {
    uint64_t acc = 0;
    for (uint64_t m = x[i]; m; m &= m - 1) acc |= y[__builtin_ctzll(m)];
    t[i] = acc;
  }
  r_copy(d, t, n);
}
static int r_acyclic(const rel r, int n) {
  rel c;
  r_copy(c, r, n);
  r_closure(c, n);
  for (int i = 0; i < n; i++) if (c[i] >> i & 1) return 0;
  return 1;
}

/* One combination of traces, as one execution's events. */
typedef struct {
  int n;
  ax_ev e[MAX_EV];
  int thread[MAX_EV];
  uint32_t block[MAX_EV];
  int loc[MAX_EV];           /* index into ax.locs */
  rel po, po_imm, po_loc, strong, dep, rmw, sync_bar;
  uint64_t releasers, acquirers, fence_rels, fence_acqs, reads, writes, scfences;
  /* per location: its writes */
  int nw[64];
  int w[64][MAX_CO_WRITES];
} exec;

static int contains(const exec *x, int e, int thr, uint32_t blk) {
  switch (x->e[e].scope) {
  case SC_THREAD: return x->thread[e] == thr;
  case SC_CTA: return x->block[e] == blk;
  default: return 1;
  }
}

static int is_fence_rel(const ax_ev *e) { return (e->kind == EV_F && e->sem != SEM_ACQ) || e->kind == EV_BW; }
static int is_fence_acq(const ax_ev *e) { return (e->kind == EV_F && e->sem != SEM_REL) || e->kind == EV_BW; }

/* ------------------------------------------------------------- the search over candidates */

typedef struct {
  ax *a;
  exec *x;
  int rf[MAX_EV];            /* per read: its write, or -1 for the initial value */
  rel co;                    /* transitive */
  rel sc;
  /* choices */
  int nreads, readix[MAX_EV];
  int ncand[MAX_EV];
  int cand[MAX_EV][MAX_CO_WRITES + 1];
  /* per location: the candidate orders (each a rel over the location's writes, as index bitmasks) */
  int nlocs;
  int nco[64];
  uint32_t (*co_orders[64])[MAX_CO_WRITES];
  int nsc, scpair[MAX_EV * 2][2];
} search;

static int consistent(search *S) {
  exec *x = S->x;
  int n = x->n;
  rel rf, fr, com, t, obs;
  r_clear(rf, n);
  r_clear(fr, n);
  for (int k = 0; k < S->nreads; k++) {
    int r = S->readix[k], w = S->rf[r];
    if (w >= 0) {
      rf[w] |= 1ull << r;
      fr[r] = S->co[w];
    } else {
      for (int j = 0; j < x->nw[x->loc[r]]; j++) fr[r] |= 1ull << x->w[x->loc[r]][j];
    }
  }
  /* No-Thin-Air */
  r_copy(t, rf, n);
  r_or(t, x->dep, n);
  if (!r_acyclic(t, n)) return 0;
  /* SC-per-Location */
  r_copy(com, rf, n);
  r_or(com, S->co, n);
  r_or(com, fr, n);
  for (int i = 0; i < n; i++) t[i] = (com[i] & x->strong[i]) | x->po_loc[i];
  if (!r_acyclic(t, n)) return 0;
  /* Atomicity */
  for (int r = 0; r < n; r++) {
    if (!x->rmw[r]) continue;
    int w = __builtin_ctzll(x->rmw[r]);
    for (uint64_t m = fr[r] & x->strong[r]; m; m &= m - 1) {
      int w2 = __builtin_ctzll(m);
      if ((S->co[w2] >> w & 1) && (x->strong[w2] >> w & 1)) return 0;
    }
  }
  /* observation: strong rf, continued through read-modify-writes */
  for (int i = 0; i < n; i++) obs[i] = rf[i] & x->strong[i];
  for (;;) {
    rel o2;
    r_seq(o2, obs, x->rmw, n);
    r_seq(o2, o2, obs, n);
    int grew = 0;
    for (int i = 0; i < n; i++) if (o2[i] & ~obs[i]) { obs[i] |= o2[i]; grew = 1; }
    if (!grew) break;
  }
  rel obs_plus, prefix, suffix, sync, base, cause;
  r_copy(obs_plus, obs, n);
  r_closure(obs_plus, n);
  r_clear(prefix, n);
  r_clear(suffix, n);
  for (int i = 0; i < n; i++) {
    const ax_ev *e = &x->e[i];
    if (e->kind == EV_W && (e->sem == SEM_REL || e->sem == SEM_ACQREL || e->sem == SEM_SC))
      prefix[i] |= (1ull << i) | (x->po_loc[i] & x->writes);
    if (x->fence_rels >> i & 1) prefix[i] |= x->po[i] & x->writes;
    if (e->kind == EV_R) {
      uint64_t acq = x->acquirers & x->reads;
      suffix[i] |= ((1ull << i) | x->po_loc[i]) & acq;
      suffix[i] |= x->po[i] & x->fence_acqs;
    }
  }
  r_seq(sync, prefix, obs_plus, n);
  r_seq(sync, sync, suffix, n);
  for (int i = 0; i < n; i++) sync[i] = (x->releasers >> i & 1) ? sync[i] & x->strong[i] & x->acquirers : 0;
  /* base causality order: po? ; (barrier synchronisation | fence-SC | sync) ; po? */
  rel po_refl = {0}, mid = {0};
  for (int i = 0; i < n; i++) { po_refl[i] = x->po[i] | 1ull << i; mid[i] = x->sync_bar[i] | S->sc[i] | sync[i]; }
  r_seq(base, po_refl, mid, n);
  r_seq(base, base, po_refl, n);
  r_closure(base, n);
  for (int i = 0; i < n; i++) t[i] = x->po_loc[i] | base[i];
  r_seq(cause, obs, t, n);
  r_or(cause, base, n);
  /* Coherence */
  for (int i = 0; i < n; i++) {
    if (!(x->writes >> i & 1)) continue;
    for (uint64_t m = cause[i] & x->writes; m; m &= m - 1) {
      int j = __builtin_ctzll(m);
      if (x->loc[j] == x->loc[i] && !(S->co[i] >> j & 1)) return 0;
    }
  }
  /* Causality: irreflexive((fr | rf)? ; cause) */
  rel fc;
  for (int i = 0; i < n; i++) { t[i] = fr[i] | rf[i]; if (cause[i] >> i & 1) return 0; }
  r_seq(fc, t, cause, n);
  for (int i = 0; i < n; i++) if (fc[i] >> i & 1) return 0;
  return 1;
}

/* The outcome of a consistent candidate, as the script formats it. */
static int record_outcome(search *S) {
  ax *a = S->a;
  exec *x = S->x;
  int rc = gr_script_reset(a->s);
  for (size_t k = 0; k < a->nobs && rc == GR_OK; k++) {
    int l = -1;
    for (int j = 0; j < a->nlocs; j++)
      if (a->locs[j].addr < a->oaddr[k] + (uint64_t)a->osize[k] && a->oaddr[k] < a->locs[j].addr + (uint64_t)a->locs[j].size) l = j;
    if (l < 0 || !x->nw[l]) continue;   /* never written: the initial value, which reset put back */
    if (a->locs[l].addr != a->oaddr[k] || a->locs[l].size != a->osize[k]) {
      ax_fail(a, "an observed element is written with another size than its type's", "axiomatic", 0, 0);
      return -1;
    }
    int last = -1;
    for (int j = 0; j < x->nw[l]; j++) {
      int w = x->w[l][j], top = 1;
      for (int i = 0; i < x->nw[l]; i++) if (S->co[w] >> x->w[l][i] & 1) top = 0;
      if (top) { if (last >= 0) return 0; last = w; }   /* no last write: the host's read is not defined */
    }
    uint8_t b[8];
    uint64_t v = x->e[last].val;
    for (int i = 0; i < a->osize[k]; i++) { b[i] = (uint8_t)v; v >>= 8; }
    rc = gr_memcpy_htod(a->ctx, a->oaddr[k], b, (size_t)a->osize[k]);
  }
  char text[1024];
  int weak = 0;
  if (rc == GR_OK) rc = script_outcome(a->s, text, sizeof text, &weak);
  if (rc != GR_OK) {
    a->failed = 1;
    snprintf(a->err, sizeof a->err, "%s", gr_error(a->ctx));
    return -1;
  }
  litmus_record(a->r, text, weak, 0);
  return 0;
}

static int search_sc(search *S, int p);

/* Coherence orders, location by location. */
static int search_co(search *S, int l) {
  exec *x = S->x;
  if (l == S->nlocs) return search_sc(S, 0);
  int nw = x->nw[l];
  if (!nw) return search_co(S, l + 1);
  for (int o = 0; o < S->nco[l]; o++) {
    for (int i = 0; i < nw; i++) {
      uint64_t row = 0;
      for (int j = 0; j < nw; j++) if (S->co_orders[l][o][i] >> j & 1) row |= 1ull << x->w[l][j];
      S->co[x->w[l][i]] = row;
    }
    if (search_co(S, l + 1)) return -1;
  }
  return 0;
}

static int search_sc(search *S, int p) {
  exec *x = S->x;
  if (p == S->nsc) {
    if (!r_acyclic(S->sc, x->n)) return 0;
    S->a->candidates++;
    if ((S->a->candidates & 1023) == 0 && S->a->max_seconds > 0 && gr_now() - S->a->t0 > S->a->max_seconds) {
      S->a->failed = 1;
      snprintf(S->a->err, sizeof S->a->err, "time bound of %.0f s reached after %llu candidate executions (raise --max-seconds)",
               S->a->max_seconds, (unsigned long long)S->a->candidates);
      return -1;
    }
    if (!consistent(S)) return 0;
    S->a->consistent++;
    return record_outcome(S);
  }
  int f = S->scpair[p][0], g = S->scpair[p][1];
  for (int d = 0; d < 2; d++) {
    /* same-thread pairs follow program order (the other way makes causality order cyclic) */
    if (x->thread[f] == x->thread[g] && d == 1) continue;
    if (d == 0) S->sc[f] |= 1ull << g; else S->sc[g] |= 1ull << f;
    int rc = search_sc(S, p + 1);
    S->sc[f] &= ~(1ull << g);
    S->sc[g] &= ~(1ull << f);
    if (rc) return rc;
  }
  return 0;
}

static int search_rf(search *S, int k) {
  if (k == S->nreads) return search_co(S, 0);
  int r = S->readix[k];
  for (int c = 0; c < S->ncand[r]; c++) {
    S->rf[r] = S->cand[r][c];
    if (search_rf(S, k + 1)) return -1;
  }
  return 0;
}

/* Every strict partial order over nw writes that orders each pair in
 * `must` (bit i*8+j: i and j must be comparable; same-thread pairs in
 * `fixed`: i before j), as rows of index bitmasks. */
static int co_orders(int nw, const uint8_t must[][MAX_CO_WRITES], const uint8_t fixed[][MAX_CO_WRITES], uint32_t (**out)[MAX_CO_WRITES]) {
  int np = nw * (nw - 1) / 2, pi[16], pj[16], c = 0, cap = 16;
  for (int i = 0; i < nw; i++) for (int j = i + 1; j < nw; j++) { pi[c] = i; pj[c] = j; c++; }
  *out = xmalloc((size_t)cap * sizeof **out);
  int n = 0;
  long total = 1;
  for (int k = 0; k < np; k++) total *= 3;
  for (long code = 0; code < total; code++) {
    uint32_t row[MAX_CO_WRITES] = {0};
    long z = code;
    int ok = 1;
    for (int k = 0; k < np && ok; k++, z /= 3) {
      int d = (int)(z % 3), i = pi[k], j = pj[k];
      if (d == 0 && must[i][j]) ok = 0;
      if (fixed[i][j] && d != 1) ok = 0;
      if (fixed[j][i] && d != 2) ok = 0;
      if (d == 1) row[i] |= 1u << j;
      if (d == 2) row[j] |= 1u << i;
    }
    if (!ok) continue;
    /* transitive (and so, being antisymmetric by construction, acyclic) */
    for (int i = 0; i < nw && ok; i++)
      for (int j = 0; j < nw && ok; j++)
        if (row[i] >> j & 1) ok = (row[j] & ~row[i]) == 0;
    if (!ok) continue;
    if (n == cap) { cap *= 2; *out = xrealloc(*out, (size_t)cap * sizeof **out); }
    memcpy((*out)[n++], row, sizeof row);
  }
  return n;
}

static int check_combination(ax *a, exec *x) {
  int n = x->n;
  search *S = xcalloc(1, sizeof *S);
  S->a = a;
  S->x = x;
  S->nlocs = a->nlocs;
  int feasible = 1;
  for (int r = 0; r < n && feasible; r++) {
    if (x->e[r].kind != EV_R) continue;
    S->readix[S->nreads++] = r;
    int l = x->loc[r], c = 0;
    if (a->locs[l].init == x->e[r].val) S->cand[r][c++] = -1;
    for (int j = 0; j < x->nw[l]; j++)
      if (x->e[x->w[l][j]].val == x->e[r].val) S->cand[r][c++] = x->w[l][j];
    S->ncand[r] = c;
    feasible = c > 0;   /* no write gives this value: no execution has this trace combination */
  }
  for (int l = 0; l < S->nlocs && feasible; l++) {
    int nw = x->nw[l];
    if (!nw) continue;
    uint8_t must[MAX_CO_WRITES][MAX_CO_WRITES] = {{0}}, fixed[MAX_CO_WRITES][MAX_CO_WRITES] = {{0}};
    for (int i = 0; i < nw; i++)
      for (int j = 0; j < nw; j++) {
        int wi = x->w[l][i], wj = x->w[l][j];
        if (i == j) continue;
        must[i][j] = (uint8_t)(x->strong[wi] >> wj & 1);
        fixed[i][j] = (uint8_t)(x->po[wi] >> wj & 1);
      }
    S->nco[l] = co_orders(nw, must, fixed, &S->co_orders[l]);
  }
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if ((x->scfences >> i & 1) && (x->scfences >> j & 1) && (x->strong[i] >> j & 1)) {
        S->scpair[S->nsc][0] = i;
        S->scpair[S->nsc][1] = j;
        S->nsc++;
      }
  int rc = feasible ? search_rf(S, 0) : 0;
  for (int l = 0; l < S->nlocs; l++) free(S->co_orders[l]);
  free(S);
  return rc;
}

/* The relations that depend on the events alone. */
static int build_exec(ax *a, exec *x, const int *choice) {
  memset(x, 0, sizeof *x);
  for (uint32_t k = 0; k < a->nth; k++) {
    ax_thread *t = &a->th[k];
    if (!t->ntraces) continue;
    const ax_trace *tr = &t->traces[choice[k]];
    int base = x->n;
    if (x->n + tr->n > MAX_EV) {
      ax_fail(a, "an execution has more than 64 memory events: litmus tests are small", "axiomatic bound", 0, 0);
      return -1;
    }
    for (int i = 0; i < tr->n; i++) {
      int g = x->n++;
      x->e[g] = tr->e[i];
      if (x->e[g].rmw >= 0) x->e[g].rmw = (int8_t)(x->e[g].rmw + base);
      x->thread[g] = (int)k;
      x->block[g] = k / a->per_block;
      for (uint64_t m = tr->dep[i]; m; m &= m - 1) x->dep[base + __builtin_ctzll(m)] |= 1ull << g;
    }
  }
  int n = x->n;
  for (int i = 0; i < n; i++) {
    const ax_ev *e = &x->e[i];
    x->loc[i] = -1;
    if (e->kind == EV_R || e->kind == EV_W) {
      for (int l = 0; l < a->nlocs; l++) if (a->locs[l].addr == e->addr && a->locs[l].size == e->size) x->loc[i] = l;
      if (e->kind == EV_W) {
        int l = x->loc[i];
        if (x->nw[l] == MAX_CO_WRITES) {
          ax_fail(a, "a location is written more than 5 times in one execution: the coherence search is bounded there", "axiomatic bound",
                  e->line, e->col);
          return -1;
        }
        x->w[l][x->nw[l]++] = i;
        x->writes |= 1ull << i;
      } else x->reads |= 1ull << i;
    }
    if (e->rmw >= 0) x->rmw[i] |= 1ull << e->rmw;
    if (e->rmw >= 0) x->dep[i] |= 1ull << e->rmw;
    if (e->kind == EV_F && e->sem == SEM_SC) x->scfences |= 1ull << i;
    if (is_fence_rel(e)) x->fence_rels |= 1ull << i;
    if (is_fence_acq(e)) x->fence_acqs |= 1ull << i;
    if ((e->kind == EV_W && e->sem != SEM_RLX && e->sem != SEM_ACQ) || is_fence_rel(e)) x->releasers |= 1ull << i;
    if ((e->kind == EV_R && e->sem != SEM_RLX && e->sem != SEM_REL) || is_fence_acq(e)) x->acquirers |= 1ull << i;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (x->thread[i] == x->thread[j] && i < j) {
        x->po[i] |= 1ull << j;
        if (j == i + 1) x->po_imm[i] |= 1ull << j;
        if (x->loc[i] >= 0 && x->loc[i] == x->loc[j]) x->po_loc[i] |= 1ull << j;
      }
      if (contains(x, i, x->thread[j], x->block[j]) && contains(x, j, x->thread[i], x->block[i])) x->strong[i] |= 1ull << j;
      /* bar.sync: every arrive of an instance synchronises with every wait of it */
      if (x->e[i].kind == EV_BA && x->e[j].kind == EV_BW && x->e[i].bar == x->e[j].bar) x->sync_bar[i] |= 1ull << j;
    }
  /* the write of a read-modify-write right after a release fence is a releaser too */
  for (int i = 0; i < n; i++)
    if (x->fence_rels >> i & 1)
      for (uint64_t m = x->po_imm[i]; m; m &= m - 1) {
        int r = __builtin_ctzll(m);
        if (x->rmw[r]) x->releasers |= x->rmw[r];
      }
  return 0;
}

int gr_litmus_axiomatic(const char *path, const gr_litmus_opts *o, gr_litmus_result *r) {
  memset(r, 0, sizeof *r);
  r->axiomatic = 1;
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = GR_MEMORY_WEAK;
  cfg.sms = o->sms;
  cfg.warps = o->warps;
  cfg.seed = o->seed;
  gr_context *ctx = gr_context_create(&cfg);
  gr_script *s = NULL;
  ax a;
  memset(&a, 0, sizeof a);
  a.ctx = ctx;
  a.path = path;
  a.r = r;
  a.t0 = gr_now();
  a.max_seconds = o->max_seconds;
  int rc = litmus_open(ctx, path, &s, r);
  if (rc == GR_OK) rc = script_prepare(s);
  if (rc == GR_OK) {
    gr_dim3 grid, block;
    script_launch(s, &grid, &block);
    a.per_block = (block.x * block.y * block.z + 31) / 32 * 32;
    uint64_t nth = (uint64_t)a.per_block * grid.x * grid.y * grid.z;
    if (nth > 1u << 16) rc = host_fail(ctx, GR_EINPUT, "%s: error: the axiomatic checker takes launches of up to 65536 threads", path);
    else {
      a.nth = (uint32_t)nth;
      a.th = xcalloc(a.nth, sizeof *a.th);
      a.arrived = xcalloc(a.nth, sizeof *a.arrived);
      a.barcount = xcalloc(grid.x * grid.y * grid.z, sizeof *a.barcount);
    }
  }
  a.s = s;
  if (rc == GR_OK) {
    a.nobs = script_nobserves(s);
    a.oaddr = xcalloc(a.nobs + 1, sizeof *a.oaddr);
    a.osize = xcalloc(a.nobs + 1, sizeof *a.osize);
    for (size_t k = 0; k < a.nobs && rc == GR_OK; k++) rc = script_observed(s, k, &a.oaddr[k], &a.osize[k]);
  }
  int h = -1;
  if (rc == GR_OK) {
    gr_observer ob = {on_event, &a, 0};
    h = gr_observe(ctx, &ob);
    emu_supply(host_emu(ctx), supply, rmw_result, &a);
    /* the value domains grow to a fixpoint */
    int round = 0;
    for (;; round++) {
      for (int l = 0; l < a.nlocs; l++) a.locs[l].grew = 0;
      if (enumerate_traces(&a)) break;
      for (uint32_t k = 0; k < a.nth && !a.failed; k++)
        for (int j = 0; j < a.th[k].ntraces; j++)
          for (int i = 0; i < a.th[k].traces[j].n; i++) {
            const ax_ev *e = &a.th[k].traces[j].e[i];
            if (e->kind != EV_W) continue;
            ax_loc *L = loc_of(&a, e->addr, e->size, e->line, e->col);
            if (L) loc_add_value(&a, L, e->val);
          }
      int grew = 0;
      for (int l = 0; l < a.nlocs; l++) grew |= a.locs[l].grew;
      /* a value read in a consistent execution comes through a chain of
       * writes, each justified by the one before (rf | dep is acyclic), so
       * no longer than the execution's writes: later rounds add values no
       * consistent execution can read (a counter's), and can stop */
      int writes = 0;
      for (uint32_t k = 0; k < a.nth; k++) {
        int most = 0;
        for (int j = 0; j < a.th[k].ntraces; j++) {
          int w = 0;
          for (int i = 0; i < a.th[k].traces[j].n; i++) w += a.th[k].traces[j].e[i].kind == EV_W;
          if (w > most) most = w;
        }
        writes += most;
      }
      if (a.failed || !grew || round >= writes) break;
      if (round + 1 == MAX_ROUNDS) {
        ax_fail(&a, "the values the threads write did not settle in 16 rounds", "axiomatic bound", 0, 0);
        break;
      }
    }
    if (!a.failed) probe_dependencies(&a);
    emu_supply(host_emu(ctx), NULL, NULL, NULL);
    gr_unobserve(ctx, h);
    /* every combination of one trace per thread */
    int *choice = xcalloc(a.nth, sizeof *choice);
    exec *x = xmalloc(sizeof *x);
    while (!a.failed) {
      r->runs++;
      if (build_exec(&a, x, choice) == 0) check_combination(&a, x);
      uint32_t k = 0;
      while (k < a.nth && (a.th[k].ntraces == 0 || ++choice[k] == a.th[k].ntraces)) { choice[k] = 0; k++; }
      if (k == a.nth) break;
    }
    free(x);
    free(choice);
    if (a.failed) rc = host_fail(ctx, GR_EINPUT, "%s", a.err);
  }
  r->candidates = a.candidates;
  r->consistent = a.consistent;
  if (rc != GR_OK) {
    snprintf(r->reason, sizeof r->reason, "%s", gr_error(ctx));
  } else {
    litmus_sort(r);
    int allowed = r->weak_count > 0;
    r->pass = r->verdict == GR_FORBIDDEN ? !allowed : allowed;
    snprintf(r->reason, sizeof r->reason, "the PTX model %s the weak outcome; the file says %s", allowed ? "allows" : "forbids",
             gr_verdict_name(r->verdict));
  }
  for (uint32_t k = 0; k < a.nth; k++) free(a.th[k].traces);
  free(a.th);
  free(a.arrived);
  free(a.barcount);
  free(a.locs);
  free(a.oaddr);
  free(a.osize);
  gr_script_free(s);
  gr_context_destroy(ctx);
  return rc;
}
