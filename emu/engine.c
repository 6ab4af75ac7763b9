/* The SIMT engine: grids of blocks of warps, executed one warp instruction
 * at a time in pre-Volta lockstep.  Each warp has a reconvergence stack of
 * (pc, reconvergence pc, mask) entries; a divergent branch parks the warp's
 * mask at the branch's immediate post-dominator and runs each side in turn.
 * Registers are stored lane-major (32 lanes of one register together), so
 * one dispatch does the work of the whole warp.
 *
 * Memory is sequentially consistent (every access goes straight to its
 * backing store, in issue order) or weak: global accesses then go through
 * the memory system of wmem.c, whose loads may perform after later
 * instructions of their thread.  Such a load marks its register pending
 * for the lane, and an instruction that reads or overwrites a pending
 * register first performs the loads into it (a scoreboard). */
#include "engine.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "kir_sem.h"
#include "simt.h"
#include "wmem.h"


/* ------------------------------------------------------------- observers */

int gr_observe(gr_context *ctx, const gr_observer *obs) {
  if (ON_GPU(ctx)) return ctx_fail(ctx, -1, "error: observers (race detectors) need the emulator backend");
  for (int k = 0; k < GR_MAX_OBSERVERS; k++) {
    if (!ctx->obs_live[k]) {
      ctx->obs[k] = *obs;
      ctx->obs_live[k] = 1;
      if (k >= ctx->nobs) ctx->nobs = k + 1;
      return k;
    }
  }
  return ctx_fail(ctx, -1, "error: too many observers");
}

void gr_unobserve(gr_context *ctx, int h) {
  if (h < 0 || h >= GR_MAX_OBSERVERS) return;
  ctx->obs_live[h] = 0;
  while (ctx->nobs && !ctx->obs_live[ctx->nobs - 1]) ctx->nobs--;
}

void deliver(launch *L, gr_event *ev) {
  gr_context *ctx = L->ctx;
  for (int k = 0; k < ctx->nobs; k++) if (ctx->obs_live[k]) ctx->obs[k].on_event(ctx->obs[k].user, ev);
}

void ev_init(launch *L, gr_event *ev, gr_event_kind kind, warp *w, int pc) {
  memset(ev, 0, sizeof *ev);
  ev->kind = kind;
  ev->kernel = L->f->name;
  ev->grid = L->grid;
  ev->blockdim = L->bdim;
  ev->shared_bytes = L->shared_size;
  ev->pc = pc;
  if (w) {
    ev->block = w->b->lin;
    ev->block_idx.x = w->b->idx[0]; ev->block_idx.y = w->b->idx[1]; ev->block_idx.z = w->b->idx[2];
    ev->warp = w->gid;
    ev->warp_in_block = w->wib;
  }
  if (pc >= 0 && pc < L->f->ncode) {
    ev->file = L->f->pos[pc].file;
    ev->line = L->f->pos[pc].line;
    ev->col = L->f->pos[pc].col;
  } else {
    /* no instruction (launch and block begin and end): the kernel's declaration */
    ev->file = L->f->decl.file;
    ev->line = L->f->decl.line;
    ev->col = L->f->decl.col;
  }
}

/* ------------------------------------------------------------- faults */

static void lane_coords(const warp *w, int lane, char *buf, size_t n) {
  snprintf(buf, n, "thread (%u,%u,%u) of block (%u,%u,%u) [warp %u lane %d]",
           w->tid[0][lane], w->tid[1][lane], w->tid[2][lane], w->b->idx[0], w->b->idx[1], w->b->idx[2], w->wib, lane);
}

/* "file:line:col: error: body" for the instruction at pc (pc -1: no position). */
static int fault_line(launch *L, int pc, const char *body, char *out, size_t n) {
  if (pc >= 0 && pc < L->f->ncode) {
    srcpos p = L->f->pos[pc];
    return snprintf(out, n, "%s:%d:%d: error: %s", p.file, p.line, p.col, body);
  }
  return snprintf(out, n, "error: %s", body);
}

static void fault(launch *L, int pc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fault(launch *L, int pc, const char *fmt, ...) {
  if (L->failed) return;
  char body[700], line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  fault_line(L, pc, body, line, sizeof line);
  ctx_fail(L->ctx, GR_EEMU, "%s", line);
  L->failed = GR_EEMU;
}

/* A memory error: under --keep-going it is logged and the access dropped
 * (the caller sees NULL with the launch not failed); else it ends the run. */
#define MAX_LOGGED_ERRORS 1000
static void mem_fault(launch *L, int pc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void mem_fault(launch *L, int pc, const char *fmt, ...) {
  if (L->failed) return;
  char body[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  if (!L->ctx->cfg.keep_going) { fault(L, pc, "%s", body); return; }
  gr_context *ctx = L->ctx;
  if (L->kept_errors++ >= MAX_LOGGED_ERRORS) return;
  char line[1024];
  int n = fault_line(L, pc, body, line, sizeof line - 1);
  if (n < 0) return;
  if ((size_t)n >= sizeof line - 1) n = (int)sizeof line - 2;
  line[n++] = '\n';
  line[n] = 0;
  if (ctx->log_len + (size_t)n + 1 > ctx->log_cap) {
    ctx->log_cap = (ctx->log_len + (size_t)n + 1) * 2;
    ctx->log = xrealloc(ctx->log, ctx->log_cap);
  }
  memcpy(ctx->log + ctx->log_len, line, (size_t)n + 1);
  ctx->log_len += (size_t)n;
}

/* ------------------------------------------------------------- address translation */

static const char *space_name(unsigned s) {
  return s == SPACE_GLOBAL ? "global" : s == SPACE_SHARED ? "shared" : s == SPACE_LOCAL ? "local" : "generic";
}

/* Host pointer of a lane's access of `size` bytes at `addr`, or NULL after
 * reporting the fault as compute-sanitizer's memcheck would.  *l2 says
 * whether it is global memory proper (not shared, local or a view), which
 * the weak memory system stands in front of. */

static uint8_t *xlate(launch *L, warp *w, int lane, uint64_t addr, int size, int pc, const char *what, int *l2, xspan *span) {
  *l2 = 0;
  if (span) span->base = NULL;
  if (w->nviews) {
    for (int k = 0; k < w->nviews; k++) {
      mview *v = &w->views[k];
      if (addr >= v->base && addr - v->base + (uint64_t)size <= v->len) {
        if (addr & (uint64_t)(size - 1)) break;
        return v->copy + (addr - v->base);
      }
    }
  }
  unsigned sp = KIR_SPACE_OF(addr);
  uint64_t off = addr & KIR_OFFSET_MASK(sp);
  uint8_t *base = NULL;
  uint64_t limit = 0;
  const char *obj = NULL;
  char where[160];
  if (kir_is_object_ptr(addr) && KIR_STATE_OF(addr) != KIR_INSIDE) {
    /* pointer arithmetic left its object: name the object, never its neighbour */
    const char *oname = sp == SPACE_SHARED ? "__shared__ memory of the block" : "local memory of the thread";
    char gname[300];
    uint64_t osize = sp == SPACE_SHARED ? L->shared_size : L->f->frame;
    if (sp == SPACE_GLOBAL) {
      galloc *a = ctx_alloc_of(L->ctx, (addr & ~KIR_STATE_MASK) | (uint64_t)KIR_INSIDE << KIR_SPACE_SHIFT);
      snprintf(gname, sizeof gname, "'%s'", a ? a->name : "a freed allocation");
      oname = gname;
      osize = a ? a->size : 0;
    }
    lane_coords(w, lane, where, sizeof where);
    mem_fault(L, pc, "out-of-bounds %s %s of %d bytes at offset %lld of %s (%llu bytes): the address was computed by arithmetic that left it, by %s",
              space_name(sp), what, size, (long long)kir_ptr_offset(addr), oname, (unsigned long long)osize, where);
    return NULL;
  }
  if (sp == SPACE_GLOBAL) {
    galloc *a = ctx_alloc_of(L->ctx, addr);
    off = (uint32_t)addr;
    if (a) { base = a->data; limit = a->size; obj = a->name; }
  } else if (sp == SPACE_SHARED) {
    base = w->b->shared; limit = L->shared_size; obj = "__shared__ memory of the block";
  } else if (sp == SPACE_LOCAL) {
    base = w->local + (size_t)lane * L->f->frame; limit = L->f->frame; obj = "local memory of the thread";
  }
  if (addr & (uint64_t)(size - 1)) {
    lane_coords(w, lane, where, sizeof where);
    mem_fault(L, pc, "misaligned %s %s of %d bytes at 0x%llx by %s", space_name(sp), what, size, (unsigned long long)addr, where);
    return NULL;
  }
  if (!base || off + (uint64_t)size > limit) {
    lane_coords(w, lane, where, sizeof where);
    if (addr == 0 || (sp == SPACE_NONE && addr < 4096))
      mem_fault(L, pc, "invalid %s of %d bytes at address 0x%llx (null pointer) by %s", what, size, (unsigned long long)addr, where);
    else if (obj)
      mem_fault(L, pc, "out-of-bounds %s %s of %d bytes at 0x%llx (offset %llu of %s, %llu bytes) by %s", space_name(sp), what,
                size, (unsigned long long)addr, (unsigned long long)off, obj, (unsigned long long)limit, where);
    else
      mem_fault(L, pc, "invalid %s %s of %d bytes at 0x%llx (no live allocation there) by %s", space_name(sp), what, size,
                (unsigned long long)addr, where);
    return NULL;
  }
  *l2 = sp == SPACE_GLOBAL;
  if (span && !w->nviews && (sp == SPACE_GLOBAL || sp == SPACE_SHARED)) {
    span->mask = sp == SPACE_GLOBAL ? (uint64_t)0xffffffffu : KIR_OFFSET_MASK(sp);
    span->tag = addr & ~span->mask;
    span->limit = limit;
    span->base = base;
  }
  return base + off;
}

/* The lane's host pointer: from the span of an earlier lane of the same
 * instruction where the address falls in it, aligned, else translated. */
static inline uint8_t *xlate_lane(launch *L, warp *w, int lane, uint64_t addr, int size, int pc, const char *what, int *l2,
                                  xspan *span) {
  if (span->base && (addr & ~span->mask) == span->tag && (addr & span->mask) + (uint64_t)size <= span->limit &&
      !(addr & (uint64_t)(size - 1))) {
    *l2 = KIR_SPACE_OF(addr) == SPACE_GLOBAL;
    return span->base + (addr & span->mask);
  }
  /* the lane's own local memory, in bounds and aligned: what xlate finds
   * there, without its checks for every other case (each lane's frame is
   * its own, so no span covers a warp's local access) */
  if (KIR_SPACE_OF(addr) == SPACE_LOCAL && KIR_STATE_OF(addr) == KIR_INSIDE && !w->nviews && !(addr & (uint64_t)(size - 1))) {
    uint64_t off = addr & KIR_OFFSET_MASK(SPACE_LOCAL), frame = (uint64_t)L->f->frame;
    if (off + (uint64_t)size <= frame) {
      *l2 = 0;
      return w->local + (size_t)lane * frame + off;
    }
  }
  return xlate(L, w, lane, addr, size, pc, what, l2, span);
}

/* ------------------------------------------------------------- memory system seam */

/* Fixed sizes, so that the compiler moves them inline (a libc call per
 * lane was most of a memory-bound kernel's time); the host is little-endian
 * as the device is. */
static inline uint64_t mem_read(launch *L, uint8_t *p, int size) {
  (void)L;
  switch (size) {
  case 1: return *p;
  case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
  case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
  default: { uint64_t v; memcpy(&v, p, 8); return v; }
  }
}

/* A store that changes memory moves the write epoch (the spin detector's
 * proof of progress); one that rewrites the same bytes does not. */
static inline void mem_write(launch *L, uint8_t *p, int size, uint64_t v) {
  switch (size) {
  case 1: if (*p != (uint8_t)v) { *p = (uint8_t)v; L->write_epoch++; } return;
  case 2: { uint16_t o, n = (uint16_t)v; memcpy(&o, p, 2); if (o != n) { memcpy(p, &n, 2); L->write_epoch++; } return; }
  case 4: { uint32_t o, n = (uint32_t)v; memcpy(&o, p, 4); if (o != n) { memcpy(p, &n, 4); L->write_epoch++; } return; }
  default: { uint64_t o; memcpy(&o, p, 8); if (o != v) { memcpy(p, &v, 8); L->write_epoch++; } return; }
  }
}

/* The warp's span that addr's object falls in, or NULL. */
static inline const xspan *span_find(const warp *w, uint64_t addr) {
  for (int k = 0; k < WARP_SPANS; k++) {
    const xspan *s = &w->spans[k];
    if (s->base && (addr & ~s->mask) == s->tag) return s;
  }
  return NULL;
}

/* The span an access went through: kept among the warp's, replacing the
 * oldest where it is new. */
static inline void span_keep(warp *w, const xspan *span) {
  for (int k = 0; k < WARP_SPANS; k++) {
    xspan *s = &w->spans[k];
    if (s->base == span->base && s->tag == span->tag) { *s = *span; return; }
  }
  w->spans[w->span_next] = *span;
  w->span_next = (uint8_t)((w->span_next + 1) % WARP_SPANS);
}

/* The span to start a lane-by-lane access with: the one of its first lane's address, else none. */
static inline xspan span_start(const warp *w, uint32_t m, const uint64_t *A, int64_t imm) {
  const xspan *s = w->nviews || !m ? NULL : span_find(w, A[__builtin_ctz(m)] + (uint64_t)imm);
  return s ? *s : (xspan){0, 0, 0, NULL};
}

/* A full warp's accesses of one span, lane by lane (SIMT_CLONES: AVX2
 * where the machine has it).  lanes_inside: every address is in the span
 * with size bytes under its limit, and aligned: addr - tag <= last (=
 * limit - size), unsigned, as limit <= mask + 1 and tag's offset bits are
 * 0; one subtraction and one comparison a lane. */
SIMT_CLONES static int lanes_inside(const uint64_t *addr, uint64_t tag, uint64_t last, uint64_t align) {
  uint64_t far = 0, bits = 0;
  for (int l = 0; l < 32; l++) far |= (uint64_t)(addr[l] - tag > last), bits |= addr[l];
  return !(far | (bits & align));
}

/* Loads of 4 bytes (sign-extended or not) and 8, in the kind's canonical
 * form (a load into the address's own register is safe: each lane reads
 * its address first). */
SIMT_CLONES static void lanes_load4(uint64_t *d, const uint8_t *base, const uint64_t *addr, uint64_t mask, int sign) {
  if (sign)
    for (int l = 0; l < 32; l++) { int32_t v; memcpy(&v, base + (addr[l] & mask), 4); d[l] = (uint64_t)(int64_t)v; }
  else
    for (int l = 0; l < 32; l++) { uint32_t v; memcpy(&v, base + (addr[l] & mask), 4); d[l] = v; }
}

SIMT_CLONES static void lanes_load8(uint64_t *d, const uint8_t *base, const uint64_t *addr, uint64_t mask) {
  for (int l = 0; l < 32; l++) memcpy(&d[l], base + (addr[l] & mask), 8);
}

/* Stores of 4 bytes in lane order (a later lane's store to the same word
 * wins); returns how many changed memory (mem_write's write epoch). */
SIMT_CLONES static uint64_t lanes_store4(uint8_t *base, const uint64_t *addr, uint64_t mask, const uint64_t *B) {
  uint64_t changed = 0;
  for (int l = 0; l < 32; l++) {
    uint32_t o, n = (uint32_t)B[l];
    memcpy(&o, base + (addr[l] & mask), 4);
    changed += o != n;
    memcpy(base + (addr[l] & mask), &n, 4);
  }
  return changed;
}

static inline void count_mem(launch *L, uint64_t first_addr, int k, uint32_t m, int size) {
  unsigned sp = KIR_SPACE_OF(first_addr);
  if (sp != SPACE_GLOBAL && sp != SPACE_SHARED) return;
  uint64_t n = m == FULL ? 32u : (uint64_t)__builtin_popcount(m);
  L->ctx->stats.mem_ops[sp - SPACE_GLOBAL][k] += n;
  L->ctx->stats.mem_bytes[sp - SPACE_GLOBAL][k] += n * (uint64_t)size;
}

/* A full warp's load or store with no observer whose 32 addresses all
 * fall in one of the warp's spans, under sequentially consistent memory,
 * or in shared memory (which weak memory leaves sequentially consistent:
 * only global accesses go through its buffers): done here, in one pass,
 * and counted (1); else nothing is done (0), and the lane-by-lane path
 * does it, faults and all. */
static int ldst_one_span(launch *L, warp *w, const kir_ins *in, int size, int sk, int is_ld, uint64_t *d, const uint64_t *A,
                         const uint64_t *B) {
  uint64_t moved[32];
  const uint64_t *addr = A;
  if (in->imm) {
    for (int l = 0; l < 32; l++) moved[l] = kir_ptr_add(A[l], (uint64_t)in->imm);
    addr = moved;
  }
  const xspan *sp = span_find(w, addr[0]);
  if (!sp || (L->mem && KIR_SPACE_OF(sp->tag) != SPACE_SHARED) || sp->limit < (uint64_t)size ||
      !lanes_inside(addr, sp->tag, sp->limit - (uint64_t)size, (uint64_t)(size - 1)))
    return 0;
  uint8_t *base = sp->base;
  uint64_t mask = sp->mask, first = addr[0];   /* before a load into the address's register */
  /* the kind's canonical form chosen once, not per lane */
  if (is_ld && size == 4 && (sk == SK_U32 || sk == SK_F32 || sk == SK_I32)) lanes_load4(d, base, addr, mask, sk == SK_I32);
  else if (is_ld && size == 8 && sem_canon(sk, UINT64_MAX) == UINT64_MAX) lanes_load8(d, base, addr, mask);
  else if (is_ld) for (int l = 0; l < 32; l++) d[l] = sem_canon(sk, mem_read(L, base + (addr[l] & mask), size));
  else if (size == 4) L->write_epoch += lanes_store4(base, addr, mask, B);
  else for (int l = 0; l < 32; l++) mem_write(L, base + (addr[l] & mask), size, B[l]);
  count_mem(L, first, is_ld ? GR_LOAD : GR_STORE, FULL, size);
  return 1;
}

/* A full warp's relaxed load of global memory under weak memory, none of
 * its lanes with anything in flight and all 32 addresses in one of its
 * spans: whether it is left pending is drawn here, as the lane-by-lane
 * path draws it at its first lane.  Performed at once: in one pass that
 * touches none of the lanes (their pending loads, and wm_warp_order, have
 * nothing to do), and counted.  Left pending, a plain load: queued lane
 * after lane (wm_warp_order has nothing to do before each: the other
 * lanes' entries are plain loads).  Done: 0; left pending, a strong load
 * (whose wm_warp_order performs the other lanes' loads of its word): 1,
 * for the lane-by-lane path; not this case: -1, nothing drawn. */
static int ld_weak_warp(launch *L, warp *w, const kir_ins *in, int size, int sk, int strong, uint64_t *d, const uint64_t *A) {
  uint64_t moved[32], v[32];
  const uint64_t *addr = A;
  if (in->imm) {
    for (int l = 0; l < 32; l++) moved[l] = kir_ptr_add(A[l], (uint64_t)in->imm);
    addr = moved;
  }
  const xspan *sp = span_find(w, addr[0]);
  if (!sp || KIR_SPACE_OF(sp->tag) != SPACE_GLOBAL || sp->limit < (uint64_t)size ||
      !lanes_inside(addr, sp->tag, sp->limit - (uint64_t)size, (uint64_t)(size - 1)))
    return -1;
  if (L->ctx->explore || rng_below(&L->rng, 1024) < L->defer_odds) {
    if (strong) return 1;
    wm_load_defer_warp(L->mem, w->wm, addr, sp->base, sp->mask, size, sk, in->dst, (int)(in - L->f->code));
    w->pend[in->dst] = FULL;   /* free: no lane had anything in flight */
    w->npend += 32;
    return 0;
  }
  uint64_t first = addr[0];   /* before a load into the address's register */
  wm_load_now_warp(L->mem, w->wm, addr, sp->base, sp->mask, size, strong, v);
  for (int l = 0; l < 32; l++) d[l] = sem_canon(sk, v[l]);
  count_mem(L, first, GR_LOAD, FULL, size);
  return 0;
}

/* ------------------------------------------------------------- warps and blocks */

void ready_add(launch *L, warp *w) {
  if (w->rpos >= 0) return;
  w->rpos = L->nready;
  L->ready[L->nready++] = w;
}
void ready_remove(launch *L, warp *w) {
  if (w->rpos < 0) return;
  warp *last = L->ready[--L->nready];
  L->ready[w->rpos] = last;
  last->rpos = w->rpos;
  w->rpos = -1;
}

void rebuild_run(launch *L) {
  L->nrun = 0;
  for (int s = 0; s < L->nslots; s++) {
    blk *b = L->slots[s];
    if (!b) continue;
    for (int k = 0; k < b->nwarps; k++) L->run[L->nrun++] = &b->warps[k];
  }
  if (L->rr >= L->nrun) L->rr = 0;
}

/* A new block `lin` for `slot`: its coordinates and SM. */
blk *block_new(launch *L, int slot, uint64_t lin) {
  blk *b = xcalloc(1, sizeof *b);
  b->lin = (uint32_t)lin;
  b->idx[0] = (uint32_t)(lin % L->grid.x);
  b->idx[1] = (uint32_t)(lin / L->grid.x % L->grid.y);
  b->idx[2] = (uint32_t)(lin / ((uint64_t)L->grid.x * L->grid.y));
  b->sm = slot % L->ctx->cfg.sms;
  b->bar_and = 1;
  return b;
}

/* A retired block's memory made as a fresh block's (zeroed, as calloc
 * leaves it), for the next block of its slot: the same launch sizes it the
 * same, and the allocator is the larger part of a short block's cost. */
static blk *block_recycle(launch *L, blk *old, int slot, uint64_t lin) {
  const kir_func *f = L->f;
  size_t nr = (size_t)(f->nregs ? f->nregs : 1);
  warp *warps = old->warps;
  uint8_t *shared = old->shared;
  if (!L->first_read) L->first_read = kir_regs_read_first(f, &L->nfirst_read);
  for (uint32_t k = 0; k < L->wpb; k++) {
    warp *w = &warps[k];
    uint64_t *r = w->r;
    uint8_t *local = w->local;
    wm_warp *wm = w->wm;
    uint32_t *pend = w->pend;
    free(w->views);
    /* registers start at 0; a register every path writes before reading
     * keeps the last block's values (a search's state keys read them all) */
    if (L->ctx->explore || L->nfirst_read == f->nregs) memset(r, 0, nr * 32 * sizeof(uint64_t));
    else
      for (int j = 0; j < L->nfirst_read; j++) memset(r + (size_t)L->first_read[j] * 32, 0, 32 * sizeof(uint64_t));
    memset(local, 0, (size_t)(f->frame ? f->frame : 1) * 32);
    if (pend) memset(pend, 0, nr * sizeof(uint32_t));
    /* the slot's shared memory and the launch's allocations stay where
     * they are: the warp's spans hold for its next block too */
    xspan spans[WARP_SPANS];
    memcpy(spans, w->spans, sizeof spans);
    memset(w, 0, offsetof(warp, stk));   /* entries past stk[0] are never read before written */
    w->r = r, w->local = local, w->wm = wm, w->pend = pend;
    memcpy(w->spans, spans, sizeof spans);
  }
  memset(shared, 0, L->shared_size ? L->shared_size : 1);
  memset(old, 0, sizeof *old);
  blk *b = old;
  b->lin = (uint32_t)lin;
  b->idx[0] = (uint32_t)(lin % L->grid.x);
  b->idx[1] = (uint32_t)(lin / L->grid.x % L->grid.y);
  b->idx[2] = (uint32_t)(lin / ((uint64_t)L->grid.x * L->grid.y));
  b->sm = slot % L->ctx->cfg.sms;
  b->bar_and = 1;
  b->warps = warps;
  b->shared = shared;
  return b;
}

void launch_tids(launch *L) {
  if (L->tids) return;
  L->tids = xcalloc(L->wpb, sizeof *L->tids);
  for (uint32_t j = 0; j < L->wpb; j++)
    for (int l = 0; l < 32; l++) {
      uint32_t t = j * 32 + (uint32_t)l;
      if (t >= L->nthreads) continue;
      L->tids[j].alive |= 1u << l;
      L->tids[j].tid[0][l] = t % L->bdim.x;
      L->tids[j].tid[1][l] = t / L->bdim.x % L->bdim.y;
      L->tids[j].tid[2][l] = t / (L->bdim.x * L->bdim.y);
    }
}

/* Starts block lin in slot, in the memory of a retired block where there
 * is one (reuse), else in new memory. */
static void block_start_in(launch *L, int slot, uint64_t lin, blk *reuse) {
  blk *b = reuse ? block_recycle(L, reuse, slot, lin) : block_new(L, slot, lin);
  b->nwarps = (int)L->wpb;
  b->live = b->nwarps;
  if (!reuse) {
    b->warps = xcalloc(L->wpb, sizeof(warp));
    b->shared = xcalloc(L->shared_size ? L->shared_size : 1, 1);
  }
  const kir_func *f = L->f;
  launch_tids(L);
  for (uint32_t k = 0; k < L->wpb; k++) {
    warp *w = &b->warps[k];
    w->b = b;
    w->wib = k;
    w->gid = b->lin * L->wpb + k;
    if (!reuse) {
      /* on a line: a vector of lanes never straddles two (hash 15%, by where the heap put it) */
      w->r = xcalloc_lines((size_t)(f->nregs ? f->nregs : 1) * 32, sizeof(uint64_t));
      w->local = xcalloc((size_t)(f->frame ? f->frame : 1) * 32, 1);
    }
    w->rpos = -1;
    w->bar_pc = -1;
    if (L->mem) {
      /* a recycled warp's lanes all retired (warp_finish): wm_warp_init's precondition */
      if (!w->wm) w->wm = wm_warp_new();
      wm_warp_init(w->wm, b->sm, (int)b->lin, w);
      if (!w->pend) w->pend = xcalloc((size_t)(f->nregs ? f->nregs : 1), sizeof(uint32_t));
      w->speed = 1u << rng_below(&L->rng, 4);
    }
    w->alive = L->tids[k].alive;
    w->tid = L->tids[k].tid;
    w->stk[0].pc = 0;
    w->stk[0].rpc = -1;
    w->stk[0].mask = w->alive;
    w->sp = 1;
    w->state = W_READY;
    ready_add(L, w);
  }
  L->slots[slot] = b;
  if (L->ctx->nobs) {
    gr_event ev;
    ev_init(L, &ev, GR_EV_BLOCK_BEGIN, &b->warps[0], -1);
    ev.mask = b->warps[0].alive;
    deliver(L, &ev);
  }
}

void block_start(launch *L, int slot, uint64_t lin) { block_start_in(L, slot, lin, NULL); }

void block_free(blk *b) {
  for (int k = 0; k < b->nwarps; k++) {
    warp *w = &b->warps[k];
    free(w->r); free(w->local); free(w->views); free(w->wm); free(w->pend);
  }
  free(b->warps);
  free(b->shared);
  free(b);
}

static void barrier_maybe_release(launch *L, blk *b, int pc) {
  if (b->at_bar == 0 || b->at_bar < b->live) return;
  b->at_bar = 0;
  b->quiet = 0;   /* its warps go on to where they may write */
  for (int k = 0; k < b->nwarps; k++) {
    warp *w = &b->warps[k];
    if (w->state != W_BAR) continue;
    const kir_ins *in = w->bar_pc >= 0 ? &L->f->code[w->bar_pc] : NULL;
    if (in && in->imm != BAR_SYNC && in->dst >= 0) {   /* __syncthreads_count/_and/_or: the block's result */
      uint64_t v = in->imm == BAR_COUNT ? b->bar_count : in->imm == BAR_AND ? b->bar_and : b->bar_or;
      uint64_t *d = w->r + (size_t)in->dst * 32;
      for (int l = 0; l < 32; l++) if (w->alive >> l & 1) d[l] = v;
    }
    w->state = W_READY; w->bar_pc = -1; ready_add(L, w);
  }
  b->bar_count = 0; b->bar_and = 1; b->bar_or = 0;
  L->ctx->stats.barriers++;
  if (L->ctx->nobs) {
    gr_event ev;
    ev_init(L, &ev, GR_EV_BARRIER, &b->warps[0], pc);
    deliver(L, &ev);
  }
}


static void warp_finish(launch *L, warp *w) {
  L->finished = w;
  /* its stores drain to the SM, whose queue outlives the warp */
  if (L->mem) wm_warp_retire(L->mem, w->wm);
  w->state = W_DONE;
  ready_remove(L, w);
  blk *b = w->b;
  b->live--;
  if (b->live > 0) { barrier_maybe_release(L, b, -1); return; }
  if (L->ctx->nobs) {
    gr_event ev;
    ev_init(L, &ev, GR_EV_BLOCK_END, w, -1);
    deliver(L, &ev);
    /* an observer that wants the block to run again keeps it resident */
    const gr_snapshot *p = L->pending_restore;
    if (p && snapshot_is_block(p, b->lin)) return;
  }
  for (int s = 0; s < L->nslots; s++) {
    if (L->slots[s] != b) continue;
    L->slots[s] = NULL;
    /* the next block in the same memory and slot: the run list stays as it is */
    if (L->next_block < L->nblocks) { block_start_in(L, s, L->next_block++, b); return; }
    block_free(b);
    break;
  }
  rebuild_run(L);
}

/* ------------------------------------------------------------- livelock detection */

static uint64_t hash_warp(launch *L, warp *w) {
  uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
  MIX(w->sp);
  for (int k = 0; k < w->sp; k++) { MIX(w->stk[k].pc); MIX(w->stk[k].rpc); MIX(w->stk[k].mask); }
  size_t n = (size_t)L->f->nregs * 32;
  for (size_t k = 0; k < n; k++) MIX(w->r[k]);
  if (L->ctx->cfg.warps == GR_WARPS_ITS) {
    MIX(w->alive);
    for (int l = 0; l < 32; l++) { MIX(w->lpc[l]); MIX(w->lwait[l]); MIX(w->lsync[l]); }
  }
#undef MIX
  return h;
}

/* On a backward jump: a warp that comes back to the same complete state
 * while no byte of memory has changed anywhere is spinning, and will spin
 * until another warp writes.  States are compared at exponentially spaced
 * back edges, so ordinary loops pay O(log n) hashes. */
#define SPIN_PATIENCE 1024

static void note_backedge(launch *L, warp *w) {
  if (w->spin_epoch != L->write_epoch) {
    w->spin_epoch = L->write_epoch;
    w->backedges = 0;
    w->stuck = 0;
  }
  /* a warp that has gone around its loops SPIN_PATIENCE times without any
   * memory changing is hashed, then again at every power of two: a warp
   * making progress costs a counter, never a hash of its registers */
  uint64_t n = ++w->backedges;
  if (n < SPIN_PATIENCE || (n & (n - 1))) return;
  uint64_t h = hash_warp(L, w);
  /* under ITS the state repeating proves a spin only if every lane that
   * could run ran in between: else the scheduler merely left some out */
  int whole = 1;
  if (L->ctx->cfg.warps == GR_WARPS_ITS) {
    for (uint32_t al = w->alive; al; al &= al - 1)
      if (w->lwait[__builtin_ctz(al)] == LW_RUN && !(w->its_ran >> __builtin_ctz(al) & 1)) whole = 0;
    w->its_ran = 0;
  }
  if (n > SPIN_PATIENCE && h == w->spin_hash && !w->stuck && whole) { w->stuck = 1; L->deadlock_check = 1; }
  w->spin_hash = h;
}

static int fmt_mask_lanes(char *buf, size_t n, uint32_t m) {
  int len = 0, first = 1;
  for (int l = 0; l < 32 && (size_t)len < n - 16;) {
    if (!(m >> l & 1)) { l++; continue; }
    int e = l;
    while (e + 1 < 32 && (m >> (e + 1) & 1)) e++;
    len += snprintf(buf + len, n - (size_t)len, e > l ? "%s%d-%d" : "%s%d", first ? "" : ",", l, e);
    first = 0;
    l = e + 1;
  }
  if (first) len += snprintf(buf, n, "none");
  return len;
}

/* All resident warps spin or wait: nothing can ever change again. */
static void check_deadlock(launch *L) {
  L->deadlock_check = 0;
  for (int k = 0; k < L->nrun; k++) {
    warp *w = L->run[k];
    if (w->state == W_READY && !(w->stuck && w->spin_epoch == L->write_epoch)) return;
  }
  /* a spinner may wait for a write still in a buffer, or read a stale L1
   * line: memory makes progress eventually, so let it, and look again */
  if (L->mem && wm_quiesce(L->mem)) { L->write_epoch++; return; }
  char msg[900];
  int len = snprintf(msg, sizeof msg, "deadlock: no warp can make progress");
  for (int k = 0; k < L->nrun && len < (int)sizeof msg - 160; k++) {
    warp *w = L->run[k];
    if (w->state == W_DONE) continue;
    int pc = w->state == W_BAR ? w->bar_pc : w->stk[w->sp - 1].pc;
    srcpos p = pc >= 0 && pc < L->f->ncode ? L->f->pos[pc] : L->f->decl;
    char lanes[96];
    fmt_mask_lanes(lanes, sizeof lanes, w->state == W_BAR ? w->alive : w->stk[w->sp - 1].mask);
    len += snprintf(msg + len, sizeof msg - (size_t)len, "\n  block (%u,%u,%u) warp %u lanes %s: %s at %s:%d:%d", w->b->idx[0],
                    w->b->idx[1], w->b->idx[2], w->wib, lanes, w->state == W_BAR ? "waits at __syncthreads" : "spins",
                    p.file, p.line, p.col);
    if (w->state == W_READY && w->sp > 1) {
      uint32_t parked = w->alive & ~w->stk[w->sp - 1].mask;
      if (parked) {
        fmt_mask_lanes(lanes, sizeof lanes, parked);
        len += snprintf(msg + len, sizeof msg - (size_t)len, " (lanes %s wait for them to reconverge)", lanes);
      }
    }
  }
  if (L->next_block < L->nblocks)
    snprintf(msg + len, sizeof msg - (size_t)len, "\n  %llu blocks not yet started wait for these to finish",
             (unsigned long long)(L->nblocks - L->next_block));
  ctx_fail(L->ctx, GR_EEMU, "error: %s", msg);
  L->failed = GR_EEMU;
}

/* ------------------------------------------------------------- the interpreter */

/* The value an atomic leaves in memory; old and the result are canonical for sk. */
static uint64_t atom_apply(int kind, int sk, uint64_t old, uint64_t b, uint64_t c) {
  uint64_t n = old;
  int sgn = sem_sk_is_signed(sk);
  switch (kind) {
  case AT_ADD:
    if (sk == SK_F32) n = sem_bits32(sem_f32(old) + sem_f32(b));
    else if (sk == SK_F64) n = sem_bits64(sem_f64(old) + sem_f64(b));
    else n = sem_canon(sk, old + b);
    break;
  case AT_SUB: n = sem_canon(sk, old - b); break;
  case AT_EXCH: n = b; break;
  case AT_MIN: n = sgn ? ((int64_t)b < (int64_t)old ? b : old) : (b < old ? b : old); break;
  case AT_MAX: n = sgn ? ((int64_t)b > (int64_t)old ? b : old) : (b > old ? b : old); break;
  case AT_INC: n = (uint32_t)old >= (uint32_t)b ? 0 : (uint32_t)old + 1; break;
  case AT_DEC: n = ((uint32_t)old == 0 || (uint32_t)old > (uint32_t)b) ? (uint32_t)b : (uint32_t)old - 1; break;
  case AT_CAS: n = old == b ? c : old; break;
  case AT_AND: n = old & b; break;
  case AT_OR: n = old | b; break;
  case AT_XOR: n = old ^ b; break;
  }
  return n;
}

typedef struct { int kind, sk; uint64_t b, c; } atom_args;
static uint64_t atom_cb(void *u, uint64_t old, int *store) {
  atom_args *a = u;
  old = sem_canon(a->sk, old);
  if (a->kind == AT_CAS && old != a->b) *store = 0;   /* a failed CAS writes nothing */
  return atom_apply(a->kind, a->sk, old, a->b, a->c);
}

/* A deferred atomic performs (wm_atomic_defer). */
static uint64_t rmw_apply(void *user, const wm_load *ld, uint64_t old, int *store) {
  (void)user;
  atom_args a = {ld->rmw - 1, ld->sk, ld->arg[0], ld->arg[1]};
  return atom_cb(&a, old, store);
}

/* ------------------------------------------------------------- pending loads (weak memory) */

/* The registers an instruction reads or writes, for the scoreboard. */
static int ins_regs(const kir_ins *in, int *r) {
  int n = 0;
  if (in->dst >= 0) r[n++] = in->dst;
  switch (in->op) {
  case OP_CONST: case OP_SREG: case OP_GADDR: case OP_FENCE: case OP_JMP:
  case OP_EXIT: case OP_TRAP: case OP_NOP:
    break;
  case OP_PARAM: if (in->a >= 0) r[n++] = in->a; break;
  case OP_BAR: if (in->a >= 0) r[n++] = in->a; break;
  case OP_BRT: case OP_BRF: r[n++] = in->b; break;
  case OP_SHFL:
    r[n++] = in->a; r[n++] = in->b; r[n++] = in->c;
    if (in->imm >> 8) r[n++] = (int)(in->imm >> 8) - 1;   /* the member mask */
    break;
  default:
    if (in->a >= 0) r[n++] = in->a;
    if (in->b >= 0) r[n++] = in->b;
    if (in->c >= 0) r[n++] = in->c;
  }
  return n;
}

/* Lanes of m that must perform loads before the instruction can issue. */
int needs_pending(const warp *w, const kir_ins *in, uint32_t m) {
  int r[5], n = ins_regs(in, r);
  for (int k = 0; k < n; k++) if (w->pend[r[k]] & m) return 1;
  return 0;
}

static void resolve_pending(launch *L, warp *w, const kir_ins *in, uint32_t m) {
  int r[5], n = ins_regs(in, r);
  for (int k = 0; k < n; k++) {
    uint32_t lanes = w->pend[r[k]] & m;
    while (lanes) {
      int l = __builtin_ctz(lanes);
      lanes &= lanes - 1;
      wm_perform_reg(L->mem, &w->wm->lane[l], r[k]);
    }
  }
}

/* gr_stats' memory operations: lanes m of a warp's access of kind k, in
 * the space of the address of its first lane (as observers see it). */

/* Whether the block holds still (simt.h's quiet): every warp that is not
 * waiting at the barrier, nor done, is at quiet pcs only: all its stack's
 * entries under lockstep, each live lane's pc under ITS.  Kept until the
 * barrier releases; the warp that was not there is asked first next time. */
static int block_quiet(launch *L, blk *b) {
  if (b->quiet) return 1;
  const uint8_t *q = L->ahead->quiet;
  int its = L->ctx->cfg.warps == GR_WARPS_ITS;
  for (int j = 0; j < b->nwarps; j++) {
    int k = (b->loud + j) % b->nwarps;
    const warp *x = &b->warps[k];
    if (x->state != W_READY) continue;
    int still = 1;
    if (its) LANES(x->alive, still &= q[x->lpc[l]]);
    else
      for (int e = 0; e < x->sp; e++) still &= !x->stk[e].mask || q[x->stk[e].pc];
    if (!still) {
      b->loud = k;
      return 0;
    }
  }
  return b->quiet = 1;
}

int engine_ahead_load(launch *L, warp *w, const kir_ins *in) {
  if (L->ctx->supply || w->nviews || (w->npend && needs_pending(w, in, FULL))) return 0;
  const uint64_t *A = w->r + (size_t)in->a * 32;
  uint64_t first = in->imm ? kir_ptr_add(A[0], (uint64_t)in->imm) : A[0];
  if (KIR_SPACE_OF(first) != SPACE_SHARED || !block_quiet(L, w->b)) return 0;
  int sk = in->flags & 0x7f, size = kir_sk_size[sk];
  return ldst_one_span(L, w, in, size, sk, 1, w->r + (size_t)in->dst * 32, A, NULL);
}

/* wmem performed a load: its register gets the value, observers the access. */
static void load_done(void *user, wm_lane *t, const wm_load *ld, uint64_t value) {
  launch *L = user;
  warp *w = t->owner;
  int l = t->lane;
  uint64_t v = sem_canon(ld->sk, value);
  if (ld->reg < 0) return;   /* an atomic without a destination (red); deferred ones are unobserved */
  w->r[(size_t)ld->reg * 32 + (size_t)l] = v;
  /* a lane has at most one load pending per register: a load into a
   * pending register first performs the older one (resolve_pending) */
  w->pend[ld->reg] &= ~(1u << l);
  w->npend--;
  if (!ld->rmw) count_mem(L, ld->addr, GR_LOAD, 1u << l, ld->size);
  if (L->ctx->nobs) {
    uint64_t addr[32], val[32];
    addr[l] = ld->addr;
    val[l] = v;
    gr_event ev;
    ev_init(L, &ev, GR_EV_ACCESS, w, ld->pc);
    ev.access = GR_LOAD;
    ev.space = GR_SPACE_GLOBAL;
    ev.size = ld->size;
    ev.is_volatile = ld->strong != 0;
    ev.scope = ld->strong ? (gr_scope)(ld->strong - 1) : GR_SCOPE_BLOCK;
    ev.mask = 1u << l;
    ev.addr = addr;
    ev.value = val;
    deliver(L, &ev);
  }
}

/* Trace mode: the axiomatic checker decides what a load reads. */
static uint64_t supply_value(void *user, wm_lane *t, uint64_t addr, int size) {
  launch *L = user;
  warp *w = t->owner;
  return L->ctx->supply(L->ctx->supply_user, w->b->lin, w->wib * 32 + (uint32_t)t->lane, addr, size);
}

static void rmw_result(void *user, wm_lane *t, uint64_t value, int stored) {
  launch *L = user;
  warp *w = t->owner;
  L->ctx->rmw_result(L->ctx->supply_user, w->b->lin, w->wib * 32 + (uint32_t)t->lane, value, stored);
}

/* The member mask of a *_sync warp intrinsic or __syncwarp, per lane: it
 * names the calling lane, and every lane it names executes this very
 * instruction with it (under lockstep, the lanes converged here).  Anything
 * else is undefined in CUDA, and an error here, as in synccheck. */
static int warp_mask_ok(launch *L, warp *w, int pc, const uint64_t *M, uint32_t m, const char *what) {
  uint32_t mm = m;
  while (mm) {
    int l = __builtin_ctz(mm);
    mm &= mm - 1;
    uint32_t mask = (uint32_t)M[l];
    const char *why = NULL;
    char lanes[96];
    if (!mask) why = "the mask is 0";
    else if (!(mask >> l & 1)) why = "the mask does not name the calling lane";
    else if (mask & w->alive & ~m) {   /* exited lanes may be named (CUDA: "all non-exited threads named") */
      fmt_mask_lanes(lanes, sizeof lanes, mask & w->alive & ~m);
      why = "the mask names live lanes that are not executing it with this lane";
    }
    if (why) {
      char where[160];
      uint32_t away = mask & w->alive & ~m;
      lane_coords(w, l, where, sizeof where);
      fault(L, pc, "%s(0x%08x) by %s: %s%s%s%s", what, mask, where, why, away ? " (lanes " : "", away ? lanes : "", away ? ")" : "");
      return 0;
    }
  }
  return 1;
}

/* Executes the warp's next instruction. */
static void warp_step(launch *L, warp *w) {
  const kir_func *f = L->f;
  simt_entry *top = &w->stk[w->sp - 1];
  int pc = top->pc;
  uint32_t m = top->mask;
  const kir_ins *in = &f->code[pc];
  uint64_t *R = w->r;
  uint64_t *d = in->dst >= 0 ? R + (size_t)in->dst * 32 : NULL;
  const uint64_t *A = in->a >= 0 ? R + (size_t)in->a * 32 : NULL;
  const uint64_t *B = in->b >= 0 ? R + (size_t)in->b * 32 : NULL;
  const uint64_t *C = in->c >= 0 ? R + (size_t)in->c * 32 : NULL;
  int next = pc + 1;
  /* a warp is one agent of the memory model under lockstep, each lane is under ITS */
  int lockstep = L->ctx->cfg.warps != GR_WARPS_ITS;
  if (w->npend && needs_pending(w, in, m)) resolve_pending(L, w, in, m);
  L->steps++;
  /* a full warp needs no popcount (a libgcc call where the target lacks the instruction) */
  L->ctx->stats.thread_instructions += m == FULL ? 32u : (uint64_t)__builtin_popcount(m);

  switch (in->op) {
  case OP_LD: case OP_ST: {
    int sk = in->flags & 0x7f, size = kir_sk_size[sk], is_ld = in->op == OP_LD;
    int scope = KIR_MF_SCOPE(in->flags), order = KIR_MF_ORDER(in->flags);
    /* strong: 0 for a plain access, else 1 + its scope */
    int strong = in->flags & MF_VOLATILE ? 1 + scope : 0;
    /* weak memory: an exhaustive run always defers a load of global
     * memory (performing it is then a choice of its own); a sampled run
     * defers some of them, drawn at the instruction's first lane in global
     * memory (a shared or local load draws nothing, and so may run ahead:
     * engine_ahead_load).  An acquire load performs at once: nothing after
     * it may pass it. */
    int defer = -1;
    if (m == FULL && !L->ctx->nobs && !w->nviews && !L->lane_by_lane) {
      if (ldst_one_span(L, w, in, size, sk, is_ld, d, A, B)) break;
      if (is_ld && L->mem && order == MO_RELAXED && !w->wm->entries && !L->ctx->supply &&
          (defer = ld_weak_warp(L, w, in, size, sk, strong, d, A)) == 0)
        break;
    }
    uint32_t mm = m, now = 0;
    xspan span = span_start(w, m, A, in->imm);
    while (mm) {
      int l = __builtin_ctz(mm), g2;
      mm &= mm - 1;
      uint64_t addr = in->imm ? kir_ptr_add(A[l], (uint64_t)in->imm) : A[l];
      uint8_t *p = xlate_lane(L, w, l, addr, size, pc, is_ld ? "load" : "store", &g2, &span);
      if (!p) {
        if (L->failed) return;
        if (is_ld) d[l] = 0;   /* --keep-going: the access is dropped, a load yields 0 */
        continue;
      }
      if (g2 && L->mem && lockstep && w->wm->entries) wm_warp_order(L->mem, w->wm, l, addr, size, !is_ld, strong);
      if (is_ld) {
        uint64_t v;
        if (g2 && L->mem) {
          if (defer < 0)
            defer = !L->ctx->supply && order == MO_RELAXED && (L->ctx->explore || rng_below(&L->rng, 1024) < L->defer_odds);
          if (defer) {
            wm_load_defer(L->mem, &w->wm->lane[l], addr, p, size, strong, sk, in->dst, pc);
            w->pend[in->dst] |= 1u << l;   /* free: the scoreboard performed any older load into it */
            w->npend++;
            continue;
          }
          if (order == MO_ACQUIRE) wm_acquire(L->mem, &w->wm->lane[l], scope);
          v = wm_load_now(L->mem, &w->wm->lane[l], addr, p, size, strong);
        } else v = mem_read(L, p, size);
        L->ev_val[l] = d[l] = sem_canon(sk, v);
      } else {
        L->ev_val[l] = B[l];
        if (g2 && L->mem) {
          if (order == MO_RELEASE) {
            if (lockstep) wm_warp_release(L->mem, w->wm, l, scope);
            wm_release(L->mem, &w->wm->lane[l], scope);
          }
          wm_store(L->mem, &w->wm->lane[l], addr, p, size, B[l], strong);
        }
        else mem_write(L, p, size, B[l]);
      }
      L->ev_addr[l] = addr;
      now |= 1u << l;
    }
    if (span.base && !w->nviews) span_keep(w, &span);   /* the next access of the warp likely falls in it too */
    if (now) count_mem(L, L->ev_addr[__builtin_ctz(now)], is_ld ? GR_LOAD : GR_STORE, now, size);
    if (L->ctx->nobs && now) {
      gr_event ev;
      ev_init(L, &ev, GR_EV_ACCESS, w, pc);
      ev.access = is_ld ? GR_LOAD : GR_STORE;
      ev.space = (gr_space)KIR_SPACE_OF(L->ev_addr[__builtin_ctz(now)]);
      ev.size = size;
      ev.is_volatile = strong != 0;
      ev.scope = strong ? (gr_scope)scope : GR_SCOPE_BLOCK;
      ev.order = (gr_order)order;
      ev.mask = now;
      ev.addr = L->ev_addr;
      ev.value = L->ev_val;
      deliver(L, &ev);
    }
    break;
  }
  case OP_ATOM: {
    int sk = in->flags & 0x7f, size = kir_sk_size[sk], kind = in->flags >> 8 & 0xf;
    int scope = KIR_MF_SCOPE(in->flags), order = KIR_MF_ORDER(in->flags);
    /* weak memory: a relaxed atomic may be left pending like a load
     * (wm_atomic_defer); not while observers watch, which see each access
     * when its instruction issues */
    int defer = L->mem && !L->ctx->supply && !L->ctx->nobs && order == MO_RELAXED &&
                (L->ctx->explore || rng_below(&L->rng, 1024) < L->defer_odds);
    uint32_t mm = m, done = 0, later = 0;
    uint64_t first_addr = 0;
    xspan span = span_start(w, m, A, 0);
    while (mm) {  /* lanes of one warp instruction serialise in lane order */
      int l = __builtin_ctz(mm), g2;
      mm &= mm - 1;
      if (KIR_SPACE_OF(A[l]) == SPACE_LOCAL) {
        char where[160];
        lane_coords(w, l, where, sizeof where);
        fault(L, pc, "atomic %s on local memory (address 0x%llx) by %s: CUDA's atomics act on global and shared memory only",
              kir_atom_name[kind], (unsigned long long)A[l], where);
        return;
      }
      uint8_t *p = xlate_lane(L, w, l, A[l], size, pc, "atomic", &g2, &span);
      if (!p) {
        if (L->failed) return;
        if (d) d[l] = 0;
        continue;
      }
      if (g2 && L->mem && lockstep) {
        wm_warp_order(L->mem, w->wm, l, A[l], size, 1, 1);
        if (order == MO_RELEASE || order == MO_ACQ_REL) wm_warp_release(L->mem, w->wm, l, scope);
      }
      if (!(done | later)) first_addr = A[l];
      if (g2 && defer) {
        later |= 1u << l;
        wm_atomic_defer(L->mem, &w->wm->lane[l], A[l], p, size, scope, sk, kind, B[l], C ? C[l] : 0, in->dst, pc);
        if (d) {
          w->pend[in->dst] |= 1u << l;
          w->npend++;
        }
        continue;
      }
      done |= 1u << l;
      uint64_t old;
      if (g2 && L->mem) {
        atom_args u = {kind, sk, B[l], C ? C[l] : 0};
        old = sem_canon(sk, wm_atomic(L->mem, &w->wm->lane[l], A[l], p, size, scope, order, atom_cb, &u));
      } else {
        old = sem_canon(sk, mem_read(L, p, size));
        mem_write(L, p, size, atom_apply(kind, sk, old, B[l], C ? C[l] : 0));
      }
      L->ev_addr[l] = A[l];
      L->ev_val[l] = old;
      L->ev_op[l] = B[l];
      L->ev_op2[l] = C ? C[l] : 0;
      if (d) d[l] = old;
    }
    if (span.base && !w->nviews) span_keep(w, &span);
    if (done | later) count_mem(L, first_addr, GR_ATOMIC, done | later, size);
    if (L->ctx->nobs && done) {
      m = done;
      gr_event ev;
      ev_init(L, &ev, GR_EV_ACCESS, w, pc);
      ev.access = GR_ATOMIC;
      ev.space = (gr_space)KIR_SPACE_OF(L->ev_addr[__builtin_ctz(m)]);
      ev.size = size;
      ev.is_volatile = 1;
      ev.atomic_op = kind;
      ev.scope = (gr_scope)scope;
      ev.order = (gr_order)order;
      ev.mask = m;
      ev.addr = L->ev_addr;
      ev.value = L->ev_val;
      ev.operand = L->ev_op;
      ev.operand2 = L->ev_op2;
      deliver(L, &ev);
    }
    break;
  }
  case OP_FENCE:
    /* lockstep: the warp is one agent, and its fence is also that of its
     * inactive lanes with accesses in flight */
    if (L->mem) {
      uint32_t fm = m;
      if (lockstep) for (int k = 0; k < 32; k++) if (w->wm->lane[k].apos >= 0) fm |= 1u << k;
      LANES(fm, wm_fence(L->mem, &w->wm->lane[l], (int)in->imm, in->flags));
    }
    if (L->ctx->nobs) {
      gr_event ev;
      ev_init(L, &ev, GR_EV_FENCE, w, pc);
      ev.scope = (gr_scope)in->imm;
      ev.order = in->flags == FENCE_ACQ_REL ? GR_ORDER_ACQ_REL : GR_ORDER_SC;
      ev.mask = m;
      deliver(L, &ev);
    }
    break;
  case OP_BAR: {
    if (m != w->alive) {
      char act[96], rest[96];
      fmt_mask_lanes(act, sizeof act, m);
      fmt_mask_lanes(rest, sizeof rest, w->alive & ~m);
      fault(L, pc, "barrier divergence: __syncthreads reached by lanes %s of warp %u in block (%u,%u,%u) while lanes %s of the same warp are elsewhere",
            act, w->wib, w->b->idx[0], w->b->idx[1], w->b->idx[2], rest);
      return;
    }
    /* a barrier orders memory for the block as a block-scope fence does
     * (nothing to do where none of the warp's lanes has an entry in flight) */
    if (L->mem && w->wm->entries) LANES(m, wm_barrier(L->mem, &w->wm->lane[l]));
    if (in->imm != BAR_SYNC) {
      uint32_t t = 0;
      LANES(m, if (A[l]) t |= 1u << l);
      w->b->bar_count += (uint32_t)__builtin_popcount(t);
      if (t != m) w->b->bar_and = 0;
      if (t) w->b->bar_or = 1;
    }
    if (L->ctx->nobs) {
      gr_event ev;
      ev_init(L, &ev, GR_EV_ARRIVE, w, pc);
      ev.mask = m;
      deliver(L, &ev);
    }
    top->pc = next;
    w->state = W_BAR;
    w->bar_pc = pc;
    ready_remove(L, w);
    w->b->at_bar++;
    barrier_maybe_release(L, w->b, pc);
    return;
  }
  case OP_SYNCWARP:
    if (!warp_mask_ok(L, w, pc, A, m, "__syncwarp")) return;
    if (L->mem && w->wm->entries) LANES(m, wm_barrier(L->mem, &w->wm->lane[l]));
    if (L->ctx->nobs) {
      gr_event ev;
      ev_init(L, &ev, GR_EV_SYNCWARP, w, pc);
      ev.mask = m;
      deliver(L, &ev);
    }
    break;
  case OP_VOTE: {
    if (B && !warp_mask_ok(L, w, pc, B, m, in->imm == VOTE_ALL ? "__all_sync" : in->imm == VOTE_ANY ? "__any_sync" : "__ballot_sync")) return;
    uint32_t ballot = 0;
    LANES(m, if (A && A[l]) ballot |= 1u << l);
    uint64_t v;
    switch (in->imm) {
    case VOTE_ALL: v = ballot == m; break;
    case VOTE_ANY: v = ballot != 0; break;
    case VOTE_BALLOT: v = ballot; break;
    default: v = m;
    }
    LANES(m, d[l] = v);
    break;
  }
  case OP_SHFL: {
    int kind = (int)(in->imm & 0xff);
    if (in->imm >> 8 && !warp_mask_ok(L, w, pc, R + (size_t)((in->imm >> 8) - 1) * 32, m, "__shfl_sync")) return;
    uint32_t bad = 0;
    LANES(m, { int wd = (int)(int32_t)C[l]; if (wd < 1 || wd > 32 || (wd & (wd - 1))) bad |= 1u << l; });
    if (bad) {
      int l = __builtin_ctz(bad);
      char where[160];
      lane_coords(w, l, where, sizeof where);
      fault(L, pc, "shuffle width %d by %s: the width must be a power of two from 1 to 32", (int)(int32_t)C[l], where);
      return;
    }
    uint64_t src[32];
    memcpy(src, A, sizeof src);
    LANES(m, {
      int width = (int)(int32_t)C[l];
      int seg = l & ~(width - 1), x = (int)(int32_t)B[l], s = l;
      switch (kind) {
      case SHFL_IDX: s = seg + (x & (width - 1)); break;
      case SHFL_UP: s = (l - seg) - x >= 0 ? l - x : l; break;
      case SHFL_DOWN: s = (l - seg) + x < width ? l + x : l; break;
      case SHFL_XOR: s = l ^ x; if (s < seg || s >= seg + width || s > 31) s = l; break;
      }
      if (s < 0 || s > 31 || !(m >> s & 1)) s = l;  /* an inactive source yields the lane's own value */
      d[l] = src[s];
    });
    break;
  }
  case OP_JMP: case OP_BRT: case OP_BRF:
    if (in->a <= pc) note_backedge(L, w);
    if (simt_branch(L, w, in, pc, m)) {
      fault(L, pc, "reconvergence stack overflow (more than %d nested divergent paths)", STACK_MAX);
      return;
    }
    goto reconverge;
  case OP_EXIT: {
    if (L->mem && w->wm->entries) LANES(m, wm_perform_all(L->mem, &w->wm->lane[l]));
    w->alive &= ~m;
    for (int k = 0; k < w->sp; k++) w->stk[k].mask &= ~m;
    goto reconverge;
  }
  case OP_TRAP: {
    char where[160];
    lane_coords(w, __builtin_ctz(m), where, sizeof where);
    if (in->imm == TRAP_ASSERT) fault(L, pc, "assertion failed in %s", where);
    else if (in->imm == TRAP_BARRIER_ID) fault(L, pc, "barrier with an id other than 0 in %s: named barriers are not supported", where);
    else fault(L, pc, "__trap() executed by %s", where);
    return;
  }
  default:
    if (!kir_is_alu(in->op)) {
      fault(L, pc, "internal error: unknown opcode %d", in->op);
      return;
    }
    simt_alu(L, w, in, m);
  }
  top->pc = next;
reconverge:
  simt_reconverge(L, w);
  /* under ITS the stack holds only the lanes that just ran */
  if (w->alive == 0 || (w->sp == 0 && L->ctx->cfg.warps == GR_WARPS_LOCKSTEP)) warp_finish(L, w);
}

/* ------------------------------------------------------------- independent thread scheduling */

/* Lane l of w now waits at what (LW_*), the masks of waiting lanes with it. */
static inline void its_wait(warp *w, int l, int what) {
  uint32_t bit = 1u << l;
  w->lwait[l] = (uint8_t)what;
  w->wait_sync = what == LW_SYNCWARP ? w->wait_sync | bit : w->wait_sync & ~bit;
  w->wait_bar = what == LW_BAR ? w->wait_bar | bit : w->wait_bar & ~bit;
}

/* The lanes that must run an instruction together: the member mask of a
 * *_sync warp intrinsic (as the group's first lane holds it), or 0. */
static uint32_t its_members(const launch *L, const warp *w, const kir_ins *in, uint32_t group) {
  int l = __builtin_ctz(group);
  if (in->op == OP_VOTE && in->b >= 0) return (uint32_t)w->r[(size_t)in->b * 32 + (size_t)l];
  if (in->op == OP_SHFL && in->imm >> 8) return (uint32_t)w->r[(size_t)((in->imm >> 8) - 1) * 32 + (size_t)l];
  (void)L;
  return 0;
}

/* The one stack entry other code looks at: the lanes that can run now,
 * at the program counter of the first of them. */
static void its_stack(warp *w) {
  uint32_t run = w->alive & ~(w->wait_sync | w->wait_bar);
  uint32_t any = run ? run : w->alive;
  w->sp = 1;
  w->stk[0].pc = any ? w->lpc[__builtin_ctz(any)] : 0;
  w->stk[0].rpc = -1;
  w->stk[0].mask = run;
  int conv = run && run == w->alive;
  for (uint32_t al = run; al && conv; al &= al - 1) conv = w->lpc[__builtin_ctz(al)] == w->stk[0].pc;
  w->its_conv = conv;
}

static int its_release(launch *L, warp *w);

/* The whole warp, its live lanes all at the __syncthreads at pc, arrives
 * at the block barrier as under lockstep (its lanes waiting there, as an
 * observer's snapshot during the arrival sees them); its lanes go on
 * together after it. */
static void its_bar_whole(launch *L, warp *w, int pc) {
  uint32_t S = w->alive;
  LANES(S, w->lwait[l] = LW_BAR);
  w->wait_bar |= S;
  w->sp = 1;
  w->stk[0] = (simt_entry){pc, -1, S};
  warp_step(L, w);
  int npc = w->stk[0].pc;
  LANES(S, (w->lwait[l] = LW_RUN, w->lpc[l] = npc));
  w->wait_bar &= ~S;
}

/* After lanes S of w ran an instruction: each goes where its path went,
 * the topmost stack entry that holds it. */
static void its_lanes_follow(warp *w, uint32_t S) {
  uint32_t todo = S & w->alive;
  for (int k = w->sp - 1; k >= 0 && todo; k--) {
    for (uint32_t mm = w->stk[k].mask & todo; mm; mm &= mm - 1) w->lpc[__builtin_ctz(mm)] = w->stk[k].pc;
    todo &= ~w->stk[k].mask;
  }
}

/* The end of a step: waiting lanes released while any can be, and the
 * stack entry other code reads. */
static void its_settle(launch *L, warp *w) {
  while (!L->failed && w->state == W_READY && its_release(L, w)) {
  }
  if (w->state != W_DONE) its_stack(w);
}

/* Round-robin over lane groups when the one group is S: its_next after
 * it runs, as its_step's choice among groups leaves it. */
static void its_rr_advance(warp *w, uint32_t S) {
  uint32_t at = w->its_next < 32 ? S & ~((1u << w->its_next) - 1) : 0;
  int first = at ? __builtin_ctz(at) : 32 + __builtin_ctz(S);
  w->its_next = first % 32 + 1;
}

/* After n steps of a converged warp run ahead (warp_run): what n calls of
 * its_step_converged leave, the lanes where the warp's entry is. */
static void its_ran_ahead(warp *w, int n) {
  uint32_t S = w->alive;
  for (int k = 0; k < n; k++) its_rr_advance(w, S);
  w->its_ran |= S;
  int pc = w->stk[0].pc;
  LANES(S, w->lpc[l] = pc);
}

/* its_step for a converged warp under round-robin, not exploring: the one
 * group is every live lane, and it runs whole, as the general path would
 * choose it (the same lanes, the same its_next); the per-lane bookkeeping
 * is skipped while the warp stays converged.  Returns 0, having done
 * nothing, where the general path must run (a __syncwarp). */
static int its_step_converged(launch *L, warp *w) {
  int pc = w->stk[0].pc;
  const kir_ins *in = &L->f->code[pc];
  if (in->op == OP_SYNCWARP) return 0;
  uint32_t S = w->alive;
  its_rr_advance(w, S);
  w->its_ran |= S;
  if (in->op == OP_BAR) {
    /* every lane arrives (a step, as its_step counts it), then the warp
     * does, as its_release has it when all its lanes wait there: the lanes
     * are back at LW_RUN, converged after the barrier, so their waits are
     * not written down in between */
    L->steps++;
    L->ctx->stats.thread_instructions += (uint64_t)__builtin_popcount(S);
    its_bar_whole(L, w, pc);
    return 1;
  }
  w->stk[0] = (simt_entry){pc, -1, S};
  L->finished = NULL;
  warp_step(L, w);
  if (L->failed || L->finished == w) return 1;   /* retired: w may be freed with its block */
  if (w->sp == 1 && w->stk[0].mask == w->alive && w->alive) {
    /* still converged: every live lane is at the entry's pc, none waits */
    int npc = w->stk[0].pc;
    LANES(w->alive, w->lpc[l] = npc);
    w->stk[0].rpc = -1;
    return 1;
  }
  /* diverged (or lanes exited): as its_step goes on */
  its_lanes_follow(w, S);
  its_settle(L, w);
  return 1;
}

/* Lanes waiting at __syncwarp go on once every live lane their mask names
 * waits there too; a warp whose live lanes all wait at __syncthreads
 * arrives at the block barrier.  Returns whether anything was released. */
static int its_release(launch *L, warp *w) {
  int any = 0;
  for (uint32_t al = w->alive & w->wait_sync; al; al &= al - 1) {
    int l = __builtin_ctz(al);
    if (w->lwait[l] != LW_SYNCWARP) continue;   /* released by an earlier lane's __syncwarp */
    uint32_t named = w->lsync[l] & w->alive, ready = 1;
    /* a __syncwarp matches those of the same mask (CUDA: "with the same
     * mask"), wherever they are in the code */
    for (uint32_t nm = named; nm && ready; nm &= nm - 1)
      ready = w->lwait[__builtin_ctz(nm)] == LW_SYNCWARP && w->lsync[__builtin_ctz(nm)] == w->lsync[l];
    if (!ready) continue;
    for (uint32_t nm = named; nm; nm &= nm - 1) {
      int k = __builtin_ctz(nm);
      its_wait(w, k, LW_RUN);
      w->lpc[k]++;
      if (L->mem) wm_barrier(L->mem, &w->wm->lane[k]);
    }
    if (L->ctx->nobs) {
      gr_event ev;
      ev_init(L, &ev, GR_EV_SYNCWARP, w, w->lpc[l] - 1);
      ev.mask = named;
      deliver(L, &ev);
    }
    any = 1;
  }
  if (w->alive && w->state == W_READY && (w->wait_bar & w->alive) == w->alive) {
    int pc = -1, all = 1;
    for (uint32_t al = w->alive; al && all; al &= al - 1) {
      int l = __builtin_ctz(al);
      if (w->lwait[l] != LW_BAR) all = 0;
      else if (pc < 0) pc = w->lpc[l];
      else if (w->lpc[l] != pc) {
        fault(L, w->lpc[l], "barrier divergence under independent thread scheduling: lanes of warp %u of block (%u,%u,%u) wait at different __syncthreads",
              w->wib, w->b->idx[0], w->b->idx[1], w->b->idx[2]);
        return 0;
      }
    }
    if (all && pc >= 0) {
      its_bar_whole(L, w, pc);
      any = 1;
    }
  }
  return any;
}

/* Whether lanes `group` of w, at instruction in, do something another
 * lane or warp can observe or that depends on them: a memory access, a
 * fence, a barrier, a warp intrinsic, or the use of a pending load. */
static int its_visible(const launch *L, const warp *w, const kir_ins *in, uint32_t group) {
  switch (in->op) {
  case OP_LD: case OP_ST: case OP_ATOM: case OP_FENCE: case OP_BAR: case OP_SYNCWARP: case OP_VOTE: case OP_SHFL: return 1;
  default: return its_members(L, w, in, group) || (w->npend && needs_pending(w, in, group));
  }
}

/* A *_sync at pc run by lanes S with lanes `away` that reached the same
 * intrinsic (same operation, qualifiers and mask) at other call sites:
 * each away lane's operands are staged into pc's registers, the
 * instruction runs for all of them at once, and its result goes to the
 * away lane's own destination, its registers as they were otherwise. */
static void its_sync_across(launch *L, warp *w, int pc, uint32_t S, uint32_t away) {
  const kir_ins *in = &L->f->code[pc];
  int regs[5] = {in->a, in->b, in->c, in->dst, in->op == OP_SHFL && in->imm >> 8 ? (int)(in->imm >> 8) - 1 : -1};
  uint64_t saved[32][5], stage[32][5];
  for (uint32_t o = away; o; o &= o - 1) {
    int l = __builtin_ctz(o);
    const kir_ins *oi = &L->f->code[w->lpc[l]];
    int oregs[5] = {oi->a, oi->b, oi->c, oi->dst, oi->op == OP_SHFL && oi->imm >> 8 ? (int)(oi->imm >> 8) - 1 : -1};
    for (int r = 0; r < 5; r++) {
      saved[l][r] = regs[r] >= 0 ? w->r[(size_t)regs[r] * 32 + (size_t)l] : 0;
      stage[l][r] = oregs[r] >= 0 ? w->r[(size_t)oregs[r] * 32 + (size_t)l] : 0;
    }
    for (int r = 0; r < 5; r++) if (regs[r] >= 0 && r != 3) w->r[(size_t)regs[r] * 32 + (size_t)l] = stage[l][r];
  }
  w->sp = 1;
  w->stk[0] = (simt_entry){pc, -1, S | away};
  warp_step(L, w);
  if (L->failed) return;
  for (uint32_t o = away; o; o &= o - 1) {
    int l = __builtin_ctz(o);
    const kir_ins *oi = &L->f->code[w->lpc[l]];
    uint64_t v = in->dst >= 0 ? w->r[(size_t)in->dst * 32 + (size_t)l] : 0;
    for (int r = 0; r < 5; r++) if (regs[r] >= 0) w->r[(size_t)regs[r] * 32 + (size_t)l] = saved[l][r];
    if (oi->dst >= 0) w->r[(size_t)oi->dst * 32 + (size_t)l] = v;
    w->lpc[l]++;
  }
  for (uint32_t m = S; m; m &= m - 1) w->lpc[__builtin_ctz(m)] = pc + 1;
}

/* One step of a warp under ITS: a group of its lanes at one instruction,
 * or some of them, runs it.  The choices (which group, which lanes) are
 * the scheduler's: drawn from the seed, or made by the explorer. */
static void its_step(launch *L, warp *w) {
  if (w->its_conv && !L->ctx->explore && L->ctx->cfg.sched != GR_SCHED_RANDOM && !L->ctx->cfg.one_per_turn &&
      its_step_converged(L, w))
    return;
  const kir_func *f = L->f;
  int gpc[32], ng = 0;
  uint32_t gmask[32];
  for (uint32_t al = w->alive; al; al &= al - 1) {
    int l = __builtin_ctz(al), g = 0;
    if (w->lwait[l] != LW_RUN) continue;
    while (g < ng && gpc[g] != w->lpc[l]) g++;
    if (g == ng) { gpc[ng] = w->lpc[l]; gmask[ng++] = 0; }
    gmask[g] |= 1u << l;
  }
  /* a *_sync intrinsic runs once every live lane it names is there, and
   * then with all of them; another group may also run some of its lanes */
  int en[32], ne = 0, split[32];
  uint32_t with[32];   /* lanes at other call sites that join the group's *_sync */
  for (int g = 0; g < ng; g++) {
    const kir_ins *gi = &f->code[gpc[g]];
    uint32_t need = its_members(L, w, gi, gmask[g]), away = need & w->alive & ~gmask[g];
    int mk = gi->op == OP_SHFL ? (int)(gi->imm >> 8) - 1 : -1;   /* a shuffle's mask register */
    /* PTX: lanes meet at a *_sync "with the same qualifiers and same
     * membermask value", wherever each executes it */
    for (uint32_t o = away; o; o &= o - 1) {
      int l = __builtin_ctz(o);
      const kir_ins *oi = &f->code[w->lpc[l]];
      if (w->lwait[l] == LW_RUN && oi->op == gi->op && oi->imm == gi->imm && its_members(L, w, oi, 1u << l) == need &&
          (gi->a == gi->b) == (oi->a == oi->b) && (gi->a == gi->c) == (oi->a == oi->c) && (gi->b == gi->c) == (oi->b == oi->c) &&
          (gi->op != OP_SHFL || (gi->a == mk) == (oi->a == mk) || !(gi->imm >> 8)) &&
          (gi->op != OP_SHFL || (gi->b == mk) == (oi->b == mk) || !(gi->imm >> 8)) &&
          (gi->op != OP_SHFL || (gi->c == mk) == (oi->c == mk) || !(gi->imm >> 8)))
        away &= ~(1u << l);   /* operands staged into gi's registers must not collide (its_sync_across) */
    }
    if (away) continue;
    with[ne] = need & w->alive & ~gmask[g];
    split[ne] = !need && __builtin_popcount(gmask[g]) > 1;
    en[ne++] = g;
  }
  if (ne == 0) {
    char lanes[96];
    fmt_mask_lanes(lanes, sizeof lanes, w->alive);
    fault(L, w->stk[0].pc, "deadlock within warp %u of block (%u,%u,%u): lanes %s wait at __syncwarp or a *_sync intrinsic for lanes that cannot arrive",
          w->wib, w->b->idx[0], w->b->idx[1], w->b->idx[2], lanes);
    return;
  }
  int g;
  uint32_t S;
  int eager = -1;
  if (L->ctx->explore)
    for (int k = 0; k < ne && eager < 0; k++)
      if (!its_visible(L, w, &f->code[gpc[en[k]]], gmask[en[k]])) eager = en[k];
  if (eager >= 0) {
    /* an instruction no other lane or warp can observe: running its lanes
     * together or apart, now or later, reaches the same states */
    g = eager;
    S = gmask[g];
  } else if (L->ctx->explore) {
    /* a group whole, or one lane of it alone: lanes running one at a time
     * give every interleaving of a group's lanes */
    int n = 0, k = 0;
    for (int j = 0; j < ne; j++) n += 1 + (split[j] ? __builtin_popcount(gmask[en[j]]) : 0);
    int c = choose(&L->ch, n);
    while (c >= 1 + (split[k] ? __builtin_popcount(gmask[en[k]]) : 0)) c -= 1 + (split[k] ? __builtin_popcount(gmask[en[k]]) : 0), k++;
    g = en[k];
    S = gmask[g];   /* choice 0: the whole group; choice c: its c-th lane alone */
    if (c) {
      for (int j = 1; j < c; j++) S &= S - 1;
      S &= -S;
    }
  } else if (L->ctx->cfg.sched == GR_SCHED_RANDOM) {
    int k = (int)rng_below(&L->rng, (uint32_t)ne), lead = L->its_lead;
    /* stress: in some launches one lane of each warp runs ahead alone */
    int ahead = 0;
    if (lead >= 0 && (w->alive >> lead & 1) && w->lwait[lead] == LW_RUN && rng_below(&L->rng, 16))
      for (int j = 0; j < ne && !ahead; j++) if (gmask[en[j]] >> lead & 1) { k = j; ahead = 1; }
    g = en[k];
    S = gmask[g];
    if (L->its_mode == ITS_SEQUENTIAL && rng_below(&L->rng, 1024)) {
      /* the lowest runnable lane, alone (or its whole group where it cannot
       * split); one step in 1024 goes elsewhere, so that a spinning lane
       * cannot starve the lane it waits for */
      int low = 32;
      for (int j = 0; j < ne; j++)
        if (__builtin_ctz(gmask[en[j]]) < low) { low = __builtin_ctz(gmask[en[j]]); k = j; }
      g = en[k];
      S = split[k] ? 1u << low : gmask[g];
    } else if (ahead && split[k]) S = 1u << lead;
    /* else half the time some of the group's lanes only: converged lanes drift apart */
    else if (!ahead && L->its_mode == ITS_SPLIT && split[k] && rng_below(&L->rng, 2))
      do S = gmask[g] & (uint32_t)rng_next(&L->rng); while (!S);
  } else {
    /* round-robin over the groups, whole, by lane: fair to divergent paths */
    g = en[0];
    int best = 64;
    for (int k = 0; k < ne; k++) {
      uint32_t at = w->its_next < 32 ? gmask[en[k]] & ~((1u << w->its_next) - 1) : 0;
      int first = at ? __builtin_ctz(at) : 32 + __builtin_ctz(gmask[en[k]]);
      if (first < best) { best = first; g = en[k]; }
    }
    S = gmask[g];
    w->its_next = best % 32 + 1;
  }
  int pc = gpc[g];
  const kir_ins *in = &f->code[pc];
  uint32_t sel_with = 0;
  for (int k = 0; k < ne; k++) if (en[k] == g) sel_with = with[k];
  w->its_ran |= S | sel_with;
  if (in->op == OP_SYNCWARP || in->op == OP_BAR) {
    L->steps++;
    L->ctx->stats.thread_instructions += (uint64_t)__builtin_popcount(S);
    for (uint32_t mm = S; mm; mm &= mm - 1) {
      int l = __builtin_ctz(mm);
      if (in->op == OP_BAR) { its_wait(w, l, LW_BAR); continue; }
      uint32_t mask = in->a >= 0 ? (uint32_t)w->r[(size_t)in->a * 32 + (size_t)l] : FULL;
      if (!mask || !(mask >> l & 1)) {
        char where[160];
        lane_coords(w, l, where, sizeof where);
        fault(L, pc, "__syncwarp(0x%08x) by %s: %s", mask, where, mask ? "the mask does not name the calling lane" : "the mask is 0");
        return;
      }
      its_wait(w, l, LW_SYNCWARP);
      w->lsync[l] = mask;
    }
  } else if (sel_with) {
    its_sync_across(L, w, pc, S, sel_with);
  } else {
    w->sp = 1;
    w->stk[0] = (simt_entry){pc, -1, S};
    L->finished = NULL;
    warp_step(L, w);
    if (L->failed || L->finished == w) return;   /* retired: w may be freed with its block */
    its_lanes_follow(w, S);
  }
  its_settle(L, w);
}

/* One step of a warp in the launch's warp model.  Under lockstep warps,
 * sampled, with no observer, a warp at a
 * run of its own instructions runs them all at once (simt.h) and spends
 * its next turns on them; at most this many at a time: */
#define RUN_AHEAD_MAX 4096

/* A stretch of n instructions just ran ahead of their turns, the first in
 * this one; each backward branch among them (its index j in edge_at) meets
 * the livelock detector at its own turn, as warp_step would have it: now
 * for j = 0, else at the turn where ahead is n - j.  The stretch ran them
 * only while the detector's count stays below SPIN_PATIENCE through their
 * turns, so the detector does not hash the warp's (later) state there: its
 * count and epoch are all it keeps. */
static void ran_ahead(launch *L, warp *w, int n, const int *edge_at, int nedge) {
  L->steps++;
  w->ahead = (uint32_t)n - 1;
  w->nedge = w->edge_next = 0;
  for (int k = 0; k < nedge; k++)
    if (edge_at[k] == 0) note_backedge(L, w);
    else w->edge_due[w->nedge++] = (uint32_t)(n - edge_at[k]);
  w->next_due = w->nedge ? w->edge_due[0] : 0;
}

/* ran_ahead for a stretch run at the end of a turn that executed an
 * access: all n of its instructions have turns to come (the j-th at the
 * turn where ahead is n - j). */
static void ran_ahead_after(warp *w, int n, const int *edge_at, int nedge) {
  w->ahead = (uint32_t)n;
  w->nedge = w->edge_next = 0;
  for (int k = 0; k < nedge; k++) w->edge_due[w->nedge++] = (uint32_t)(n - edge_at[k]);
  w->next_due = w->nedge ? w->edge_due[0] : 0;
}

/* The backward branch due at this turn meets the livelock detector. */
static void edge_met(launch *L, warp *w) {
  note_backedge(L, w);
  w->next_due = ++w->edge_next < w->nedge ? w->edge_due[w->edge_next] : 0;
}

/* The backward branches a stretch may run: the detector's count stays
 * below SPIN_PATIENCE at each one's turn, whatever the writes before it. */
static int edges_allowed(const warp *w) {
  uint64_t room = w->backedges + 1 < SPIN_PATIENCE ? SPIN_PATIENCE - 1 - w->backedges : 0;
  return room < WARP_EDGES ? (int)room : WARP_EDGES;
}

static void warp_run(launch *L, warp *w) {
  if (w->ahead) {   /* its instruction already ran (simt.h): the turn only counts */
    if (w->ahead == w->next_due) edge_met(L, w);
    w->ahead--;
    L->steps++;
    return;
  }
  int edge_at[WARP_EDGES], nedge;
  if (L->ctx->cfg.warps == GR_WARPS_ITS) {
    /* ITS, round-robin: a converged warp's stretch runs ahead as under
     * lockstep while its lanes agree at every branch, each of those steps
     * the one its_step_converged would take */
    if (L->ahead && w->its_conv && w->sp > 0 && L->ahead->marks[w->stk[w->sp - 1].pc] && !w->stuck && !L->ctx->nobs) {
      int n = simt_run_ahead(L, w, RUN_AHEAD_MAX, 1, edges_allowed(w), edge_at, &nedge);
      if (n) {
        its_ran_ahead(w, n);
        ran_ahead(L, w, n, edge_at, nedge);
        return;
      }
    }
    its_step(L, w);
    return;
  }
  /* a spinning warp stays exact where it is: a deadlock report shows where
   * it spins.  A turn at a memory access or barrier (most turns that are
   * not counted) goes straight to warp_step. */
  int can = L->ahead && w->sp > 0 && !w->stuck && !L->ctx->nobs;
  if (can && L->ahead->marks[w->stk[w->sp - 1].pc]) {
    int n = simt_run_ahead(L, w, RUN_AHEAD_MAX, 0, edges_allowed(w), edge_at, &nedge);
    if (n) {
      ran_ahead(L, w, n, edge_at, nedge);
      return;
    }
  }
  int op = can ? L->f->code[w->stk[w->sp - 1].pc].op : OP_NOP;
  warp_step(L, w);
  /* after an access, the stretch that follows runs now, while the warp is
   * in the cache, its turns all to come: the next turn only counts, and
   * rounds of such turns are skipped at once (skip_rounds) */
  if (can && (op == OP_LD || op == OP_ST || op == OP_ATOM) && !L->failed && w->state == W_READY && w->sp > 0 &&
      L->ahead->marks[w->stk[w->sp - 1].pc]) {
    int n = simt_run_ahead(L, w, RUN_AHEAD_MAX, 0, edges_allowed(w), edge_at, &nedge);
    if (n) ran_ahead_after(w, n, edge_at, nedge);
  }
}

/* ------------------------------------------------------------- scheduling */

/* Round-robin, at the start of a round: where every ready warp has run
 * ahead, the rounds in which each only counts a turn are counted at once
 * (a round gives each ready warp one turn, so they leave the scheduler
 * where it was). */
static void skip_rounds(launch *L) {
  uint64_t k = UINT64_MAX;
  for (int j = 0; j < L->nrun && k; j++)
    if (L->run[j]->state == W_READY && L->run[j]->ahead < k) k = L->run[j]->ahead;
  if (!k || k == UINT64_MAX) return;
  /* the step limit stays where it would be met */
  uint64_t room = L->steps < L->ctx->cfg.max_steps ? (L->ctx->cfg.max_steps - L->steps - 1) / (uint64_t)L->nready : 0;
  if (k > room) k = room;
  for (int j = 0; j < L->nrun; j++) {
    warp *w = L->run[j];
    if (w->state != W_READY) continue;
    /* a backward branch due in these turns: nothing writes memory in them,
     * so the detector sees the epoch it would see at its turn */
    while (w->next_due && w->next_due + (uint32_t)k > w->ahead) edge_met(L, w);
    w->ahead -= (uint32_t)k;
  }
  L->steps += k * (uint64_t)L->nready;
}

static warp *pick(launch *L) {
  if (L->nready == 0) return NULL;
  if (L->ctx->cfg.sched == GR_SCHED_RANDOM) {
    if (!L->mem) return L->ready[rng_below(&L->rng, (uint32_t)L->nready)];
    /* weak memory: warps issue at different rates, so that one thread's
     * writes can drain, and another's run ahead, while a third waits */
    for (;;) {
      warp *w = L->ready[rng_below(&L->rng, (uint32_t)L->nready)];
      if (rng_below(&L->rng, 8) < w->speed) return w;
    }
  }
  /* weak memory: every iteration of the launch's loop may draw a
   * background action instead of a turn, but not while nothing is in
   * flight (it asks wm_busy first), and counted turns put nothing in
   * flight: rounds of them are skipped then too */
  if (L->rr == 0 && L->ahead && (!L->mem || !wm_busy(L->mem))) skip_rounds(L);
  for (int k = 0; k < L->nrun; k++) {
    warp *w = L->run[L->rr];
    L->rr = L->rr + 1 == L->nrun ? 0 : L->rr + 1;
    if (w->state == W_READY) {
      /* the next warp's lines, while this one runs: the round-robin
       * visits hundreds of warps between two turns of one */
      const warp *nx = L->run[L->rr];
      __builtin_prefetch(&nx->state);
      __builtin_prefetch(&nx->ahead);
      __builtin_prefetch(&nx->stk[0]);
      return w;
    }
  }
  return NULL;
}


/* ------------------------------------------------------------- exhaustive runs */

/* Instructions that another warp can observe, or that depend on memory:
 * the only points where interleaving matters. */
static int at_visible(const launch *L, const warp *w) {
  if (L->ctx->cfg.warps == GR_WARPS_ITS) {
    /* which lanes run is itself a choice, except at an instruction that
     * none can observe: its_step runs that one first, whole */
    for (uint32_t al = w->alive; al; al &= al - 1) {
      int l = __builtin_ctz(al);
      if (w->lwait[l] != LW_RUN) continue;
      uint32_t group = 0;
      for (uint32_t o = w->alive; o; o &= o - 1) {
        int k = __builtin_ctz(o);
        if (w->lwait[k] == LW_RUN && w->lpc[k] == w->lpc[l]) group |= 1u << k;
      }
      if (!its_visible(L, w, &L->f->code[w->lpc[l]], group)) return 0;
    }
    return 1;
  }
  const simt_entry *top = &w->stk[w->sp - 1];
  const kir_ins *in = &L->f->code[top->pc];
  switch (in->op) {
  case OP_LD: case OP_ST: case OP_ATOM: case OP_FENCE: case OP_BAR: case OP_SYNCWARP: return 1;
  default: return w->npend && needs_pending(w, in, top->mask);
  }
}

static void put_u64(bytes *k, uint64_t v) { bytes_put(k, &v, sizeof v); }

/* The whole machine state, in a canonical byte form: two runs that reach
 * equal keys have the same futures. */
static void state_key(launch *L) {
  bytes *k = &L->key;
  k->len = 0;
  put_u64(k, explore_launches(L->ctx->explore));
  put_u64(k, L->next_block);
  const kir_func *f = L->f;
  for (int s = 0; s < L->nslots; s++) {
    blk *b = L->slots[s];
    put_u64(k, b ? b->lin : UINT64_MAX);
    if (!b) continue;
    put_u64(k, (uint64_t)b->at_bar << 32 | (uint32_t)b->live);
    put_u64(k, (uint64_t)b->bar_count << 2 | b->bar_and << 1 | b->bar_or);
    bytes_put(k, b->shared, L->shared_size);
    for (int j = 0; j < b->nwarps; j++) {
      warp *w = &b->warps[j];
      put_u64(k, (uint64_t)w->state << 32 | (uint32_t)w->sp);
      put_u64(k, w->alive);
      bytes_put(k, w->stk, sizeof(simt_entry) * (size_t)w->sp);
      if (L->ctx->cfg.warps == GR_WARPS_ITS)
        for (uint32_t al = w->alive; al; al &= al - 1) {
          int l = __builtin_ctz(al);
          put_u64(k, (uint64_t)(uint32_t)w->lpc[l] << 32 | w->lwait[l]);
          put_u64(k, w->lsync[l]);
        }
      for (uint32_t al = w->alive; al;) {
        int l = __builtin_ctz(al);
        al &= al - 1;
        for (int r = 0; r < f->nregs; r++) put_u64(k, w->r[(size_t)r * 32 + (size_t)l]);
        bytes_put(k, w->local + (size_t)l * f->frame, f->frame);
      }
      if (w->wm) for (int l = 0; l < 32; l++) wm_serialize_lane(&w->wm->lane[l], k);
    }
  }
  gr_context *ctx = L->ctx;
  for (size_t a = 1; a < ctx->allocs.len; a++) {
    galloc *g = vec_at(&ctx->allocs, a);
    if (g->live) bytes_put(k, g->data, g->size);
  }
  if (L->mem) wm_serialize(L->mem, k);
}

/* Runs every warp up to its next visible instruction, then makes the one
 * choice of this point: a warp to issue (returned), or a memory action
 * (performed here; returns NULL).  NULL with nothing ready ends the run. */
static warp *explore_pick(launch *L) {
  for (int k = 0; k < L->nready && !L->failed;) {
    warp *w = L->ready[k];
    if (at_visible(L, w)) { k++; continue; }
    warp_run(L, w);   /* may retire the warp and reorder the list: rescan */
    k = 0;
    if (L->steps >= L->ctx->cfg.max_steps) return NULL;   /* the caller reports it */
  }
  if (L->failed || L->nready == 0) return NULL;
  int nm = L->mem ? wm_count_actions(L->mem) : 0;
  /* a replayed prefix's states were keyed when it was first run */
  if (!explore_replaying(L->ctx->explore) && (state_key(L), explore_visit(L->ctx->explore, L->key.p, L->key.len))) {
    explore_mark_pruned(L->ctx->explore);
    L->pruned = 1;
    return NULL;
  }
  int c = choose(&L->ch, L->nready + nm);
  if (c < L->nready) return L->ready[c];
  wm_do_action(L->mem, c - L->nready);
  L->ctx->stats.memory_actions++;
  return NULL;
}

void gr_context_explore(gr_context *ctx, gr_explore *x) { ctx->explore = x; }

/* Checks and converts argument k to its parameter's type, as the emulator
 * passes it: bits in the low bytes of *out. */
int gr_launch(gr_module *mod, const char *kernel, gr_dim3 grid, gr_dim3 bdim, size_t dyn_shared, const gr_arg *args, int nargs) {
  gr_context *ctx = mod->ctx;
  const gr_config *cfg = &ctx->cfg;
  memset(&ctx->stats, 0, sizeof ctx->stats);
  if (ctx->L) return ctx_fail(ctx, GR_EINPUT, "error: gr_launch called during a launch");
  const kir_func *f = kir_find(mod->km, kernel);
  if (!f) return ctx_fail(ctx, GR_EINPUT, "%s: error: no __global__ function named '%s'", mod->path, kernel);
  if (!grid.x || !grid.y || !grid.z || !bdim.x || !bdim.y || !bdim.z)
    return ctx_fail(ctx, GR_EINPUT, "error: launch of '%s' with a zero grid or block dimension", kernel);
  uint64_t nthreads = (uint64_t)bdim.x * bdim.y * bdim.z;
  if (nthreads > 1024 || bdim.z > 64)
    return ctx_fail(ctx, GR_EINPUT, "error: block (%u,%u,%u) of '%s' exceeds 1024 threads (or z > 64)", bdim.x, bdim.y, bdim.z, kernel);
  if (grid.y > 65535 || grid.z > 65535) return ctx_fail(ctx, GR_EINPUT, "error: grid y and z dimensions are limited to 65535");
  if (nargs != f->nparams)
    return ctx_fail(ctx, GR_EINPUT, "%s:%d:%d: error: kernel '%s' takes %d argument%s, %d given", f->decl.file, f->decl.line,
                    f->decl.col, kernel, f->nparams, f->nparams == 1 ? "" : "s", nargs);
  /* CUDA passes up to 32,764 bytes of parameters; each takes at most 8 */
  if (nargs > 4095) return ctx_fail(ctx, GR_EINPUT, "%s:%d:%d: error: kernel '%s' has %d parameters, more than a launch can pass (4095)",
                                    f->decl.file, f->decl.line, f->decl.col, kernel, nargs);
  if (ON_GPU(ctx)) return host_launch_on_gpu(mod, f, grid, bdim, dyn_shared, args, nargs);
  if (dyn_shared && !mod->km->uses_dyn_shared)
    return ctx_fail(ctx, GR_EINPUT, "error: dynamic shared memory requested but '%s' declares no extern __shared__ array", mod->path);
  uint64_t shared = ((uint64_t)mod->km->shared_static + 15) / 16 * 16 + dyn_shared;
  if (shared > cfg->shared_per_sm)
    return ctx_fail(ctx, GR_EINPUT, "error: block needs %llu bytes of shared memory, an SM has %u", (unsigned long long)shared, cfg->shared_per_sm);
  launch *L = xcalloc(1, sizeof *L);
  L->ctx = ctx; L->mod = mod; L->f = f; L->grid = grid; L->bdim = bdim;
  L->nthreads = (uint32_t)nthreads;
  L->wpb = (L->nthreads + 31) / 32;
  L->nblocks = (uint64_t)grid.x * grid.y * grid.z;
  L->shared_size = (uint32_t)shared;
  rng_seed(&L->rng, cfg->seed);
  L->ch.r = &L->rng;
  L->ch.x = ctx->explore;
  ctx->log_len = 0;
  ctx->log_shown = 0;
  L->args = xcalloc((size_t)nargs + 1, sizeof *L->args);
  L->argdata = xcalloc((size_t)nargs + 1, sizeof *L->argdata);
  for (int k = 0; k < nargs; k++) {
    int rc = host_convert_arg(ctx, f, k, &args[k], &L->args[k]);
    if (rc == GR_OK && f->params[k].sk == SK_COUNT) {
      L->argdata[k] = xmalloc(f->params[k].size + 1u);
      memcpy(L->argdata[k], args[k].data, f->params[k].size);
    }
    if (rc) {
      for (int j = 0; j < k; j++) free(L->argdata[j]);
      return free(L->argdata), free(L->args), free(L), rc;
    }
  }
  /* residency: blocks per SM by threads, shared memory and the block limit */
  int per_sm = cfg->max_blocks_per_sm;
  int by_threads = cfg->max_threads_per_sm / (int)(L->wpb * 32);
  if (by_threads < per_sm) per_sm = by_threads;
  if (shared && (int)(cfg->shared_per_sm / shared) < per_sm) per_sm = (int)(cfg->shared_per_sm / shared);
  if (per_sm < 1) per_sm = 1;
  uint64_t nslots = (uint64_t)per_sm * (uint64_t)cfg->sms;
  if (nslots > L->nblocks) nslots = L->nblocks;
  L->nslots = (int)nslots;
  L->slots = xcalloc(nslots, sizeof(blk *));
  L->run = xcalloc(nslots * L->wpb, sizeof(warp *));
  L->ready = xcalloc(nslots * L->wpb, sizeof(warp *));
  if (cfg->memory == GR_MEMORY_WEAK) {
    wm_hooks h = {load_done, L, &L->write_epoch, ctx->nobs > 0, ctx->supply ? supply_value : NULL, rmw_result, rmw_apply};
    L->mem = wm_renew(ctx->wm_spare, cfg->sms, &h, &L->ch);
    ctx->wm_spare = NULL;
    /* each sampled run stresses the memory system differently: how often
     * it acts in the background, and how many loads are left pending */
    static const uint32_t odds[] = {128, 256, 512, 768, 896};
    L->mem_odds = odds[rng_below(&L->rng, 5)];
    L->defer_odds = odds[rng_below(&L->rng, 5)];
    L->load_odds = 1024u >> (2 * rng_below(&L->rng, 4));   /* 1024, 256, 64 or 16 */
    /* in half the runs one SM's writes linger; in half, newer writes go first */
    L->hold_sm = (int)rng_below(&L->rng, 2u * (uint32_t)cfg->sms);
    L->newest = (int)rng_below(&L->rng, 2);
  }
  /* ITS, sampled: each launch draws one way for lanes to drift, so that
   * what GPUs make of racy warp-synchronous code is within reach: groups
   * split at random; one lane of each warp runs ahead of the others (a
   * compiler keeping values in registers); groups run whole, as converged
   * hardware runs them; or the lowest runnable lane runs alone, lane after
   * lane (a compiler hoisting every load above the stores: the H100's 70) */
  L->its_lead = -1;
  L->its_mode = ITS_SPLIT;
  if (cfg->warps == GR_WARPS_ITS && cfg->sched == GR_SCHED_RANDOM && !ctx->explore) {
    L->its_mode = (int)rng_below(&L->rng, 4);
    if (L->its_mode == ITS_LEAD) L->its_lead = (int)rng_below(&L->rng, 32);
  }
  ctx->L = L;
  if (ctx->explore) explore_launch_begun(ctx->explore);
  /* ITS draws the lanes of each step from the seed under the random scheduler: no run-ahead there */
  if ((cfg->warps != GR_WARPS_ITS || cfg->sched != GR_SCHED_RANDOM) && !ctx->explore && !cfg->one_per_turn)
    L->ahead = simt_plan_new(f, L->args);
  L->lane_by_lane = cfg->one_per_turn;
  if (ctx->nobs) {
    gr_event ev;
    ev_init(L, &ev, GR_EV_LAUNCH_BEGIN, NULL, -1);
    deliver(L, &ev);
  }
  /* block b goes to SM b mod sms, so that neighbouring blocks land on different SMs */
  for (int s = 0; s < L->nslots; s++) block_start(L, s, L->next_block++);
  rebuild_run(L);
  uint64_t max_steps = cfg->max_steps;
  while (!L->failed && !L->pruned) {
    warp *w;
    if (ctx->explore) {
      w = explore_pick(L);
      if (!w && (L->failed || L->pruned || L->nready == 0)) break;
    } else {
      /* weak memory: a background action (a drain, a deferred load) comes
       * with this launch's odds */
      if (L->mem && wm_busy(L->mem) && rng_below(&L->rng, 1024) < L->mem_odds) {
        wm_random_action(L->mem, &L->rng, L->load_odds, L->hold_sm, L->newest);
        ctx->stats.memory_actions++;
        continue;
      }
      w = pick(L);
      if (!w) break;
    }
    if (w) warp_run(L, w);
    if (L->pending_restore) apply_restore(L);
    if (L->deadlock_check) check_deadlock(L);
    if (L->steps >= max_steps && !L->failed) {
      ctx_fail(ctx, GR_EEMU, "error: step limit reached: '%s' ran %llu warp instructions without finishing (raise it with --max-steps)",
               kernel, (unsigned long long)max_steps);
      L->failed = GR_EEMU;
    }
  }
  if (!L->failed && !L->pruned) {
    /* everything left is waiting: cannot happen with exited warps ignored, but be exact */
    for (int s = 0; s < L->nslots; s++) if (L->slots[s]) { check_deadlock(L); if (!L->failed) fault(L, -1, "internal error: blocks left unfinished"); break; }
  }
  /* the end of a kernel orders everything: the host reads L2 (a run cut
   * short by the explorer has no outcome, and must make no more choices) */
  if (L->mem && !L->pruned) wm_quiesce(L->mem);
  ctx->stats.warp_steps = L->steps;
  if (ctx->nobs) {
    gr_event ev;
    ev_init(L, &ev, GR_EV_LAUNCH_END, NULL, -1);
    deliver(L, &ev);
  }
  if (L->kept_errors && !L->failed) {
    /* --keep-going: the run went to its end; it still failed, with every error */
    unsigned long long n = L->kept_errors, shown = n < MAX_LOGGED_ERRORS ? n : MAX_LOGGED_ERRORS;
    char sum[256];
    snprintf(sum, sizeof sum, "error: %llu memory error%s in '%s' (accesses dropped, loads read 0)%s", n, n == 1 ? "" : "s",
             L->f->name, n > shown ? "; the first 1000 are shown" : "");
    ctx_fail(ctx, GR_EEMU, "%s", sum);
    size_t sl = strlen(sum);
    if (ctx->log_len + sl + 1 > ctx->log_cap) { ctx->log_cap = ctx->log_len + sl + 1; ctx->log = xrealloc(ctx->log, ctx->log_cap); }
    memcpy(ctx->log + ctx->log_len, sum, sl + 1);
    ctx->log_len += sl;
    ctx->log_shown = 1;
    L->failed = GR_EEMU;
  }
  int rc = L->failed;
  for (int s = 0; s < L->nslots; s++) if (L->slots[s]) block_free(L->slots[s]);
  free(L->slots); free(L->run); free(L->ready);
  simt_plan_free(L->ahead);
  free(L->tids);
  free(L->first_read);
  if (L->mem && !wm_busy(L->mem)) ctx->wm_spare = L->mem;
  else wm_free(L->mem);
  free(L->key.p);
  for (int k = 0; k < f->nparams; k++) free(L->argdata[k]);
  free(L->argdata);
  free(L->args);
  free(L);
  ctx->L = NULL;
  return rc;
}

