/* access: a warp's memory accesses (engine-internal): address translation
 * and its faults, the warp's spans, loads, stores and atomics lane by lane
 * and a full warp's in one pass, in sequentially consistent memory and
 * through the weak memory system (wmem.h), whose loads left pending make
 * the scoreboard below; and the shared loads the run-ahead performs. */
#include "access.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kir_sem.h"
#include "prov.h"
#include "simt.h"
#include "wmem.h"

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
      galloc *a = emu_alloc_of(L->ctx, (addr & ~KIR_STATE_MASK) | (uint64_t)KIR_INSIDE << KIR_SPACE_SHIFT);
      snprintf(gname, sizeof gname, "'%s'", a ? a->name : "a freed allocation");
      oname = gname;
      osize = a ? a->size : 0;
    }
    engine_lane_coords(w, lane, where, sizeof where);
    engine_mem_fault(L, pc, "out-of-bounds %s %s of %d bytes at offset %lld of %s (%llu bytes): the address was computed by arithmetic that left it, by %s",
              space_name(sp), what, size, (long long)kir_ptr_offset(addr), oname, (unsigned long long)osize, where);
    return NULL;
  }
  if (sp == SPACE_GLOBAL) {
    galloc *a = emu_alloc_of(L->ctx, addr);
    off = (uint32_t)addr;
    if (a) { base = a->data; limit = a->size; obj = a->name; }
  } else if (sp == SPACE_SHARED) {
    base = w->b->shared; limit = L->shared_size; obj = "__shared__ memory of the block";
  } else if (sp == SPACE_LOCAL) {
    base = w->local + (size_t)lane * L->f->frame; limit = L->f->frame; obj = "local memory of the thread";
  }
  if (addr & (uint64_t)(size - 1)) {
    engine_lane_coords(w, lane, where, sizeof where);
    engine_mem_fault(L, pc, "misaligned %s %s of %d bytes at 0x%llx by %s", space_name(sp), what, size, (unsigned long long)addr, where);
    return NULL;
  }
  if (!base || off + (uint64_t)size > limit) {
    engine_lane_coords(w, lane, where, sizeof where);
    galloc *next = sp == SPACE_GLOBAL && off >= 0x80000000u ? emu_alloc_of(L->ctx, (addr | 0xffffffffu) + 1) : NULL;
    if (addr == 0 || (sp == SPACE_NONE && addr < 4096))
      engine_mem_fault(L, pc, "invalid %s of %d bytes at address 0x%llx (null pointer) by %s", what, size, (unsigned long long)addr, where);
    else if (next)   /* a flat address below an allocation: named by it, not by the one before */
      engine_mem_fault(L, pc, "out-of-bounds %s %s of %d bytes at 0x%llx (%llu bytes below '%s', %llu bytes) by %s", space_name(sp), what,
                size, (unsigned long long)addr, (unsigned long long)(0x100000000ull - off), next->name, (unsigned long long)next->size, where);
    else if (obj)
      engine_mem_fault(L, pc, "out-of-bounds %s %s of %d bytes at 0x%llx (offset %llu of %s, %llu bytes) by %s", space_name(sp), what,
                size, (unsigned long long)addr, (unsigned long long)off, obj, (unsigned long long)limit, where);
    else
      engine_mem_fault(L, pc, "invalid %s %s of %d bytes at 0x%llx (no live allocation there) by %s", space_name(sp), what, size,
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

/* The warp's span of global address addr: one it keeps, else the span of
 * the allocation addr falls in (as xlate makes it), kept now; NULL where
 * addr falls in none.  So that a warp's first access of an allocation, as
 * every access of a warp that makes one of each (a triad's), can run
 * ahead of its turn. */
static inline const xspan *global_span(launch *L, warp *w, uint64_t addr) {
  const xspan *s = span_find(w, addr);
  if (s || w->nviews) return s;
  galloc *a = emu_alloc_of(L->ctx, addr);
  if (!a) return NULL;
  xspan n = {addr & ~(uint64_t)0xffffffffu, 0xffffffffu, a->size, a->data};
  span_keep(w, &n);
  return span_find(w, addr);
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
 * 0; one subtraction and one comparison a lane.  2 where, besides, each
 * half-warp's lanes read one element (a broadcast) or consecutive ones (a
 * run), from its first lane's address on (size 1 << shift): a coalesced
 * access, or the half-warps of a 16-wide tile's row (a matrix multiply's),
 * which the lane loops then make without a gather. */
SIMT_CLONES static int lanes_inside(const uint64_t *addr, uint64_t tag, uint64_t last, uint64_t align, int shift) {
  /* a half's second lane says which (a lane l elements apart otherwise shows) */
  uint64_t far = 0, bits = 0, apart = 0, a0 = addr[0], a1 = addr[16];
  uint64_t m0 = addr[1] != a0 ? ~(uint64_t)0 : 0, m1 = addr[17] != a1 ? ~(uint64_t)0 : 0;
  for (int l = 0; l < 32; l++) far |= (uint64_t)(addr[l] - tag > last), bits |= addr[l];
  for (int l = 0; l < 16; l++) apart |= addr[l] - a0 - (((uint64_t)l << shift) & m0);
  for (int l = 0; l < 16; l++) apart |= addr[16 + l] - a1 - (((uint64_t)l << shift) & m1);
  return far | (bits & align) ? 0 : apart ? 1 : 2;
}

/* 4-byte loads of lanes_inside's 2: each half-warp's 16 words from p0 and
 * p1 on, or the word there in each of its lanes (run0, run1 0) */
static inline void load4_half(uint64_t *d, const uint8_t *p, int run, int sign) {
  if (!run) {
    uint32_t u;
    memcpy(&u, p, 4);
    uint64_t v = sign ? (uint64_t)(int64_t)(int32_t)u : u;
    for (int l = 0; l < 16; l++) d[l] = v;
  } else if (sign)
    for (int l = 0; l < 16; l++) { int32_t v; memcpy(&v, p + 4 * l, 4); d[l] = (uint64_t)(int64_t)v; }
  else
    for (int l = 0; l < 16; l++) { uint32_t v; memcpy(&v, p + 4 * l, 4); d[l] = v; }
}

SIMT_CLONES static void lanes_load4_halves(uint64_t *d, const uint8_t *p0, const uint8_t *p1, int run0, int run1, int sign) {
  load4_half(d, p0, run0, sign);
  load4_half(d + 16, p1, run1, sign);
}

/* A coalesced access's 4-byte stores: 32 words from p on */
SIMT_CLONES static uint64_t lanes_store4_run(uint8_t *p, const uint64_t *B) {
  uint64_t changed = 0;
  for (int l = 0; l < 32; l++) {
    uint32_t o, n = (uint32_t)B[l];
    memcpy(&o, p + 4 * l, 4);
    changed += o != n;
    memcpy(p + 4 * l, &n, 4);
  }
  return changed;
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

/* A full warp's addresses: its address register's, or those moved by the
 * instruction's offset (into moved). */
static inline const uint64_t *warp_addrs(const kir_ins *in, const uint64_t *A, uint64_t *moved) {
  if (!in->imm) return A;
  for (int l = 0; l < 32; l++) moved[l] = kir_access_addr(A[l], in->imm);
  return moved;
}

/* The span that all 32 addresses fall in, size bytes under its limit and
 * aligned: sp where given, else the warp's span of the first address; or
 * NULL (the lane-by-lane path then does the access, faults and all).
 * *run: whether the access is coalesced (lanes_inside's 2). */
static inline const xspan *warp_span(const warp *w, const xspan *sp, const uint64_t *addr, int size, int *run) {
  if (!sp) sp = span_find(w, addr[0]);
  int in = sp && sp->limit >= (uint64_t)size
               ? lanes_inside(addr, sp->tag, sp->limit - (uint64_t)size, (uint64_t)(size - 1), __builtin_ctz((unsigned)size))
               : 0;
  *run = in == 2;
  return in ? sp : NULL;
}

/* warp_span for lanes m of a warp: the span of the first lane's address,
 * where every lane's falls in it, size bytes under its limit and aligned;
 * or NULL. */
static inline const xspan *lanes_span(const warp *w, uint32_t m, const uint64_t *addr, int size) {
  const xspan *sp = span_find(w, addr[__builtin_ctz(m)]);
  if (!sp || sp->limit < (uint64_t)size) return NULL;
  uint64_t last = sp->limit - (uint64_t)size, bad = 0;
  LANES(m, bad |= (uint64_t)(addr[l] - sp->tag > last) | (addr[l] & (uint64_t)(size - 1)));
  return bad ? NULL : sp;
}

/* A full warp's load or store with no observer, all of whose addresses
 * fall in the span sp (warp_span), under sequentially consistent memory
 * or in shared memory (which weak memory leaves sequentially consistent:
 * only global accesses go through its buffers): in one pass, and counted. */
static inline void ldst_span(launch *L, const xspan *sp, int run, const uint64_t *addr, int size, int sk, int is_ld,
                             uint64_t *d, const uint64_t *B) {
  uint8_t *base = sp->base;
  uint64_t mask = sp->mask, first = addr[0];   /* before a load into the address's register */
  int word = size == 4 && (sk == SK_U32 || sk == SK_F32 || sk == SK_I32);
  /* the half-warps' runs and broadcasts (warp_span's run); a store, only a
   * run of the whole warp: a broadcast's lanes would store in turn */
  uint64_t half = addr[16];
  int run0 = addr[1] != first, run1 = addr[17] != half;
  /* the kind's canonical form chosen once, not per lane */
  if (run && is_ld && word) lanes_load4_halves(d, base + (first & mask), base + (half & mask), run0, run1, sk == SK_I32);
  else if (run && !is_ld && size == 4 && run0 && run1 && half == first + 64)
    L->write_epoch += lanes_store4_run(base + (first & mask), B);
  else if (is_ld && word) lanes_load4(d, base, addr, mask, sk == SK_I32);
  else if (is_ld && size == 8 && sem_canon(sk, UINT64_MAX) == UINT64_MAX) lanes_load8(d, base, addr, mask);
  else if (is_ld) for (int l = 0; l < 32; l++) d[l] = sem_canon(sk, mem_read(L, base + (addr[l] & mask), size));
  else if (size == 4) L->write_epoch += lanes_store4(base, addr, mask, B);
  else for (int l = 0; l < 32; l++) mem_write(L, base + (addr[l] & mask), size, B[l]);
  count_mem(L, first, is_ld ? GR_LOAD : GR_STORE, FULL, size);
}

/* A full warp's relaxed load of global memory under weak memory, none of
 * its lanes with anything in flight and all 32 addresses in the span sp:
 * whether it is left pending is drawn here, as the lane-by-lane path draws
 * it at its first lane.  Performed at once: in one pass that touches none
 * of the lanes (their pending loads, and wm_warp_order, have nothing to
 * do), and counted.  Left pending, a plain load: queued lane after lane
 * (wm_warp_order has nothing to do before each: the other lanes' entries
 * are plain loads).  Done: 0; left pending, a strong load (whose
 * wm_warp_order performs the other lanes' loads of its word): 1, for the
 * lane-by-lane path. */
static int ld_weak_warp(launch *L, warp *w, const kir_ins *in, const xspan *sp, const uint64_t *addr, int size, int sk,
                        int strong, uint64_t *d) {
  if (L->ctx->explore || rng_below(&L->rng, 1024) < L->defer_odds) {
    if (strong) return 1;
    wm_load_defer_warp(L->mem, w->wm, addr, sp->base, sp->mask, size, sk, in->dst, (int)(in - L->f->code));
    w->pend[in->dst] = FULL;   /* free: no lane had anything in flight */
    w->npend += 32;
    return 0;
  }
  uint64_t v[32], first = addr[0];   /* before a load into the address's register */
  wm_load_now_warp(L->mem, w->wm, addr, sp->base, sp->mask, size, strong, v);
  for (int l = 0; l < 32; l++) d[l] = sem_canon(sk, v[l]);
  count_mem(L, first, GR_LOAD, FULL, size);
  return 0;
}

/* ------------------------------------------------------------- atomics */

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
  case OP_EXIT: case OP_NOP:
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
int access_needs_pending(const warp *w, const kir_ins *in, uint32_t m) {
  int r[5], n = ins_regs(in, r);
  for (int k = 0; k < n; k++) if (w->pend[r[k]] & m) return 1;
  return 0;
}

void access_resolve_pending(launch *L, warp *w, const kir_ins *in, uint32_t m) {
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

/* ------------------------------------------------------------- shared loads run ahead */

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

/* An access left without an event (L->race_free_unseen): a load (red 0)
 * or a reduction (1) of the allocation of address a. */
static void access_unseen(launch *L, uint64_t a, int red) {
  uint32_t id = (uint32_t)(a >> 32) & 0xffffff;
  int k = 0, n = L->n_unseen_ids[red];
  while (k < n && L->unseen_ids[red][k] != id) k++;
  if (k < n) return;
  if (n < 8) L->unseen_ids[red][L->n_unseen_ids[red]++] = id;
  else L->unseen_many = 1;
}

/* Whether a load of shared memory (its flags) at a quiet pc needs no event,
 * where the block holds still (block_quiet): none where no observer
 * watches; else (L->race_free_unseen) a plain load while no thread of the
 * block has written shared memory since its last barrier released: no
 * thread writes it either before the next barrier releases, which every
 * KIR barrier is the whole block's, so the load meets no write that is not
 * ordered before or after it by a barrier, and races with none, in either
 * model (GR_OBSERVE_SKIP_RACE_FREE).  An asynchronous copy counts as a
 * write from its issue until it performs, which no barrier orders.  A
 * strong load is an event: hb-ptx's strong reads observe releases. */
static int shared_unseen(const launch *L, const warp *w, int flags) {
  if (!L->ctx->nobs) return 1;
  return L->race_free_unseen && !w->b->sh_written && !(flags & MF_VOLATILE) && KIR_MF_ORDER(flags) == MO_RELAXED;
}

int access_ahead_load(launch *L, warp *w, const kir_ins *in) {
  if (L->ctx->supply || w->nviews || (w->npend && access_needs_pending(w, in, FULL))) return 0;
  uint64_t moved[32];
  const uint64_t *addr = warp_addrs(in, w->r + (size_t)in->a * 32, moved);
  int sk = in->flags & 0x7f, size = kir_sk_size[sk], pc = (int)(in - L->f->code);
  if (KIR_SPACE_OF(addr[0]) == SPACE_GLOBAL) {
    /* an allocation nothing writes during the launch (prov.h), in one of the warp's spans */
    prov *pv = L->prov;
    const xspan *sp;
    int run;
    if (!pv || pv->off || pv->cls[pc] != PROV_RO || !(sp = global_span(L, w, addr[0])) || !(sp = warp_span(w, sp, addr, size, &run)) ||
        !prov_check(pv, pc, addr[0]))
      return 0;
    if (L->ctx->nobs) {
      /* an observer's (L->race_free_unseen): a plain load, which no observer's model makes strong */
      if (in->flags & MF_VOLATILE) return 0;
      access_unseen(L, addr[0], 0);
    }
    if (L->mem) L->ctx->stats.memory_at_once += 32;
    ldst_span(L, sp, run, addr, size, sk, 1, w->r + (size_t)in->dst * 32, NULL);
    return 1;
  }
  if (KIR_SPACE_OF(addr[0]) != SPACE_SHARED || !shared_unseen(L, w, in->flags) || !block_quiet(L, w->b)) return 0;
  /* the block's shared memory is the span: no search for it */
  xspan shared = {KIR_ADDR(SPACE_SHARED, 0), KIR_OFFSET_MASK(SPACE_SHARED), L->shared_size, w->b->shared};
  int run;
  const xspan *sp = warp_span(w, &shared, addr, size, &run);
  if (!sp) return 0;
  ldst_span(L, sp, run, addr, size, sk, 1, w->r + (size_t)in->dst * 32, NULL);
  return 1;
}

int access_ahead_store(launch *L, warp *w, const kir_ins *in) {
  int pc = (int)(in - L->f->code);
  /* the plan marks only the launch's PROV_WO stores, plain and relaxed
   * (prov.c), and a launch has classes only without supplied values, and
   * runs them ahead only without observers (simt.c stops at them) */
  prov *pv = L->prov;
  emu_assert(pv && pv->cls[pc] == PROV_WO);
  if (L->mem || w->nviews || pv->off) return -1;
  uint64_t moved[32];
  const uint64_t *addr = warp_addrs(in, w->r + (size_t)in->a * 32, moved);
  int sk = in->flags & 0x7f, size = kir_sk_size[sk], run;
  const xspan *sp = global_span(L, w, addr[0]);
  if (sp) sp = warp_span(w, sp, addr, size, &run);
  /* outside its roots, the analysis no longer holds: the store's turn says so (access_ldst's guard) */
  if (!sp || KIR_SPACE_OF(sp->tag) != SPACE_GLOBAL || !prov_inside(pv, pc, addr[0])) return -1;
  /* the change ldst_span counts is seen at the store's turn (ran_ahead), not now */
  uint64_t epoch = L->write_epoch;
  ldst_span(L, sp, run, addr, size, sk, 0, NULL, w->r + (size_t)in->b * 32);
  int changed = L->write_epoch != epoch;
  L->write_epoch = epoch;
  return changed;
}

int access_ahead_quiet(launch *L, warp *w) {
  return !L->ctx->supply && !w->nviews && shared_unseen(L, w, 0) && block_quiet(L, w->b);
}

/* ------------------------------------------------------------- the weak memory system's hooks */

/* wmem performed a load: its register gets the value, observers the access. */
static void load_done(void *user, wm_lane *t, const wm_load *ld, uint64_t value) {
  launch *L = user;
  warp *w = t->owner;
  int l = t->lane;
  uint64_t v = sem_canon(ld->sk, value);
  if (ld->reg < 0) return;   /* an atomic without a destination (red); deferred ones are unobserved */
  w->r[(size_t)ld->reg * 32 + (size_t)l] = v;
  /* a lane has at most one load pending per register: a load into a
   * pending register first performs the older one (access_resolve_pending) */
  w->pend[ld->reg] &= ~(1u << l);
  w->npend--;
  if (!ld->rmw) count_mem(L, ld->addr, GR_LOAD, 1u << l, ld->size);
  if (L->ctx->nobs) {
    uint64_t addr[32], val[32];
    addr[l] = ld->addr;
    val[l] = v;
    gr_event ev;
    engine_ev_init(L, &ev, GR_EV_ACCESS, w, ld->pc);
    ev.access = GR_LOAD;
    ev.space = GR_SPACE_GLOBAL;
    ev.size = ld->size;
    ev.is_volatile = ld->strong != 0;
    ev.scope = ld->strong ? (gr_scope)(ld->strong - 1) : GR_SCOPE_BLOCK;
    ev.mask = 1u << l;
    ev.addr = addr;
    ev.value = val;
    engine_deliver(L, &ev);
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

wm_hooks access_hooks(launch *L) {
  wm_hooks h = {load_done, L, &L->write_epoch, L->ctx->nobs > 0, L->ctx->supply ? supply_value : NULL, rmw_result, rmw_apply};
  return h;
}

/* ------------------------------------------------------------- loads, stores and atomics */

/* The launch's classes of weak-memory accesses performed at L2 at once
 * (prov.h), while none has fallen outside its roots; else NULL. */
static inline prov *prov_on(const launch *L) { return L->mem && L->prov && !L->prov->off ? L->prov : NULL; }

/* Whether the access at pc of class cls (not PROV_NONE) by lanes m, at
 * addresses ad (per lane), is performed at L2 at once: every lane in
 * global memory, in an allocation of the access's roots (prov_check);
 * for a store or an atomic, nothing of the warp's lanes in flight and no
 * release of theirs pending (the access then orders nothing of theirs);
 * for a store, addresses that rise lane after lane (the lanes' stores to
 * one address are left to the model, which orders them in any way) and
 * no write of the SM's queue over any of them (which would have to reach
 * L2 first). */
static int prov_direct(launch *L, warp *w, prov *pv, int cls, int pc, uint32_t m, const uint64_t *ad, int size) {
  if (cls != PROV_RO && (w->wm->entries || w->wm->rel_lanes)) return 0;
  uint64_t next = 0;
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    if (KIR_SPACE_OF(ad[l]) != SPACE_GLOBAL || !prov_check(pv, pc, ad[l])) return 0;
    if (cls == PROV_WO) {
      if (ad[l] < next) return 0;
      next = ad[l] + (uint64_t)size;
    }
  }
  return cls != PROV_WO || !wm_sm_may_hold(L->mem, w->wm->sm, ad, m, size);
}

/* prov_direct for a full warp whose addresses all fall in the global span
 * sp, so in one allocation: the same answer, with one check of the roots. */
static int prov_direct_span(launch *L, warp *w, prov *pv, int cls, int pc, const uint64_t *addr, int size) {
  if (cls != PROV_RO && (w->wm->entries || w->wm->rel_lanes)) return 0;
  if (!prov_check(pv, pc, addr[0])) return 0;
  if (cls != PROV_WO) return 1;
  int rise = 1;
  for (int l = 1; l < 32; l++) rise &= addr[l] >= addr[l - 1] + (uint64_t)size;
  return rise && !wm_sm_may_hold(L->mem, w->wm->sm, addr, FULL, size);
}

/* The lanes' addresses of an access (with its offset), for prov_direct. */
static void lane_addrs(const kir_ins *in, const uint64_t *A, uint32_t m, uint64_t *ad) {
  LANES(m, ad[l] = in->imm ? kir_access_addr(A[l], in->imm) : A[l]);
}

/* An access event of warp w to the observers.  A write to shared memory
 * marks the block until its barrier releases (access_ahead_load). */
static void access_deliver(launch *L, warp *w, gr_event *ev) {
  if (ev->access != GR_LOAD && ev->space == GR_SPACE_SHARED) w->b->sh_written = 1;
  engine_deliver(L, ev);
}

/* The event of a load or store by lanes now, at L->ev_addr, each lane's
 * value in val (strong: 0 for a plain access, else 1 + its scope). */
static void access_event(launch *L, warp *w, int pc, int is_ld, int size, int strong, int scope, int order, uint32_t now,
                         const uint64_t *val) {
  gr_event ev;
  engine_ev_init(L, &ev, GR_EV_ACCESS, w, pc);
  ev.access = is_ld ? GR_LOAD : GR_STORE;
  ev.space = (gr_space)KIR_SPACE_OF(L->ev_addr[__builtin_ctz(now)]);
  ev.size = size;
  ev.is_volatile = strong != 0;
  ev.scope = strong ? (gr_scope)scope : GR_SCOPE_BLOCK;
  ev.order = (gr_order)order;
  ev.mask = now;
  ev.addr = L->ev_addr;
  ev.value = val;
  access_deliver(L, w, &ev);
}

int access_ldst(launch *L, warp *w, const kir_ins *in, uint32_t m, int pc, int lockstep) {
  uint64_t *R = w->r;
  uint64_t *d = in->dst >= 0 ? R + (size_t)in->dst * 32 : NULL;
  const uint64_t *A = R + (size_t)in->a * 32;
  const uint64_t *B = in->b >= 0 ? R + (size_t)in->b * 32 : NULL;
  int sk = in->flags & 0x7f, size = kir_sk_size[sk], is_ld = in->op == OP_LD;
  int scope = KIR_MF_SCOPE(in->flags), order = KIR_MF_ORDER(in->flags);
  /* strong: 0 for a plain access, else 1 + its scope */
  int strong = in->flags & MF_VOLATILE ? 1 + scope : 0;
  /* weak memory: an exhaustive run always defers a load of global
   * memory (performing it is then a choice of its own); a sampled run
   * defers some of them, drawn at the instruction's first lane in global
   * memory (a shared or local load draws nothing, and so may run ahead:
   * access_ahead_load).  An acquire load performs at once: nothing after
   * it may pass it. */
  int defer = -1;
  /* weak memory: performed at L2 at once, as sc memory performs it (prov.h); -1: not decided yet */
  prov *pv = prov_on(L);
  int cls = pv ? pv->cls[pc] : PROV_NONE, direct = cls ? -1 : 0;
  /* that each access falls in its address's roots (prov.h): every global
   * access under weak memory, and stores under sc, whose run-ahead loads
   * trust that nothing writes their allocations; loads too where
   * observers are not shown reductions, which trust that nothing reads
   * their allocations (L->race_free_unseen) */
  prov *guard = L->prov && !L->prov->off && (L->mem || !is_ld || L->race_free_unseen) ? L->prov : NULL;
  if (m == FULL && !w->nviews && !L->ctx->cfg.one_per_turn) {
    uint64_t moved[32];
    const uint64_t *addr = warp_addrs(in, A, moved);
    int run;
    const xspan *sp = warp_span(w, NULL, addr, size, &run);
    int global = sp && KIR_SPACE_OF(sp->tag) == SPACE_GLOBAL;
    if (global && direct < 0) direct = prov_direct_span(L, w, pv, cls, pc, addr, size);
    if (sp && (!L->mem || !global || direct)) {
      if (L->mem && global) L->ctx->stats.memory_at_once += 32;
      else if (global && guard) prov_check(guard, pc, addr[0]);
      /* observers see the lane-by-lane path's event: the addresses (taken
       * before a load into the address's register), each lane's value */
      if (L->ctx->nobs) memcpy(L->ev_addr, addr, sizeof L->ev_addr);
      ldst_span(L, sp, run, addr, size, sk, is_ld, d, B);
      if (L->ctx->nobs) access_event(L, w, pc, is_ld, size, strong, scope, order, FULL, is_ld ? d : B);
      return 0;
    }
    if (global && guard && !prov_check(guard, pc, addr[0])) guard = NULL;
    if (sp && is_ld && order == MO_RELAXED && !w->wm->entries && !L->ctx->supply && !L->ctx->nobs &&
        (defer = ld_weak_warp(L, w, in, sp, addr, size, sk, strong, d)) == 0)
      return 0;
  }
  if (direct < 0) {
    uint64_t ad[32];
    lane_addrs(in, A, m, ad);
    direct = prov_direct(L, w, pv, cls, pc, m, ad, size);
  }
  if (direct) guard = NULL;   /* its lanes were checked */
  uint32_t mm = m, now = 0;
  xspan span = span_start(w, m, A, in->imm);
  while (mm) {
    int l = __builtin_ctz(mm), g2;
    mm &= mm - 1;
    uint64_t addr = in->imm ? kir_access_addr(A[l], in->imm) : A[l];
    uint8_t *p = xlate_lane(L, w, l, addr, size, pc, is_ld ? "load" : "store", &g2, &span);
    if (!p) {
      if (L->failed) return 1;
      if (is_ld) d[l] = 0;   /* --keep-going: the access is dropped, a load yields 0 */
      continue;
    }
    if (g2 && guard) prov_check(guard, pc, addr);
    g2 &= !direct;
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
  if (direct) L->ctx->stats.memory_at_once += (uint64_t)__builtin_popcount(now);
  if (now) count_mem(L, L->ev_addr[__builtin_ctz(now)], is_ld ? GR_LOAD : GR_STORE, now, size);
  if (L->ctx->nobs && now) access_event(L, w, pc, is_ld, size, strong, scope, order, now, L->ev_val);
  return 0;
}

int access_atom(launch *L, warp *w, const kir_ins *in, uint32_t m, int pc, int lockstep) {
  uint64_t *R = w->r;
  uint64_t *d = in->dst >= 0 ? R + (size_t)in->dst * 32 : NULL;
  const uint64_t *A = R + (size_t)in->a * 32;
  const uint64_t *B = in->b >= 0 ? R + (size_t)in->b * 32 : NULL;
  const uint64_t *C = in->c >= 0 ? R + (size_t)in->c * 32 : NULL;
  int sk = in->flags & 0x7f, size = kir_sk_size[sk], kind = in->flags >> 8 & 0xf;
  int scope = KIR_MF_SCOPE(in->flags), order = KIR_MF_ORDER(in->flags);
  /* weak memory: a relaxed atomic may be left pending like a load
   * (wm_atomic_defer); not while observers watch, which see each access
   * when its instruction issues */
  prov *pv = prov_on(L), *guard = L->prov && !L->prov->off ? L->prov : NULL;   /* as in access_ldst */
  int direct = 0;
  if (pv && pv->cls[pc] == PROV_RED && (direct = prov_direct(L, w, pv, PROV_RED, pc, m, A, size))) guard = NULL;   /* its lanes were checked */
  int defer = L->mem && !direct && !L->ctx->supply && !L->ctx->nobs && order == MO_RELAXED &&
              (L->ctx->explore || rng_below(&L->rng, 1024) < L->defer_odds);
  uint32_t mm = m, done = 0, later = 0;
  uint64_t first_addr = 0;
  xspan span = {0, 0, 0, NULL};
  int unseen = 0;   /* a reduction the observers need no event of (GR_OBSERVE_SKIP_RACE_FREE: it races with nothing,
                     * and in a kernel without fences orders nothing: L->red_unseen) */
  /* lanes whose addresses all fall in one of the warp's spans (warp_span,
   * lanes_span: a full warp, or the group of lanes ITS runs), where the
   * loop below would read and write memory at once for every lane (sc
   * memory, shared memory, or an atomic performed at L2 at once): the same
   * lanes in the same order, each translated by the span's one check
   * (`bench/bench peer histogram N compiled`, best of N: 15.7 ms to 12.6 ms; with the
   * counter's add apart, 7.7 ms) */
  if (m && !w->nviews && !L->ctx->cfg.one_per_turn) {
    int run;   /* (a full warp's check is lanes_inside's vector loop: the histogram 8.2 ms by lanes_span, 7.4 ms) */
    const xspan *sp;
    if (m != FULL) sp = lanes_span(w, m, A, size);
    else if (KIR_SPACE_OF(A[0]) != SPACE_GLOBAL) sp = warp_span(w, NULL, A, size, &run);
    else sp = (sp = global_span(L, w, A[0])) ? warp_span(w, sp, A, size, &run) : NULL;
    int global = sp && KIR_SPACE_OF(sp->tag) == SPACE_GLOBAL;
    if (sp && (!L->mem || !global || direct)) {
      first_addr = A[__builtin_ctz(m)];
      if (global && guard) prov_check(guard, pc, first_addr);
      unseen = L->red_unseen && global && guard && !guard->off && guard->cls[pc] == PROV_RED;
      int nobs = L->ctx->nobs != 0 && !unseen;
      if (kind == AT_ADD && (sk == SK_U32 || sk == SK_I32) && !nobs) {
        /* a counter's add (histograms), atom_apply's sum in its 32 bits */
        LANES(m, {
          uint32_t o, n, b = (uint32_t)B[l];
          uint8_t *p = sp->base + (A[l] & sp->mask);
          memcpy(&o, p, 4);
          n = o + b;
          if (n != o) { memcpy(p, &n, 4); L->write_epoch++; }
          if (d) d[l] = sem_canon(sk, o);
        });
      } else {
        LANES(m, {   /* each lane reads its operands before it writes d */
          uint64_t a = A[l], b = B[l], c = C ? C[l] : 0;
          uint8_t *p = sp->base + (a & sp->mask);
          uint64_t old = sem_canon(sk, mem_read(L, p, size));
          mem_write(L, p, size, atom_apply(kind, sk, old, b, c));
          if (nobs) L->ev_addr[l] = a, L->ev_val[l] = old, L->ev_op[l] = b, L->ev_op2[l] = c;
          if (d) d[l] = old;
        });
      }
      done = m;
      mm = 0;
    }
  }
  if (mm) span = span_start(w, m, A, 0);
  while (mm) {  /* lanes of one warp instruction serialise in lane order */
    int l = __builtin_ctz(mm), g2;
    mm &= mm - 1;
    if (KIR_SPACE_OF(A[l]) == SPACE_LOCAL) {
      char where[160];
      engine_lane_coords(w, l, where, sizeof where);
      engine_fault(L, pc, "atomic %s on local memory (address 0x%llx) by %s: CUDA's atomics act on global and shared memory only",
            kir_atom_name[kind], (unsigned long long)A[l], where);
      return 1;
    }
    uint8_t *p = xlate_lane(L, w, l, A[l], size, pc, "atomic", &g2, &span);
    if (!p) {
      if (L->failed) return 1;
      if (d) d[l] = 0;
      continue;
    }
    if (g2 && guard) prov_check(guard, pc, A[l]);
    g2 &= !direct;
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
  if (direct) L->ctx->stats.memory_at_once += (uint64_t)__builtin_popcount(done);
  if (done | later) count_mem(L, first_addr, GR_ATOMIC, done | later, size);
  if (unseen) access_unseen(L, first_addr, 1);
  else if (L->ctx->nobs && done) {
    m = done;
    gr_event ev;
    engine_ev_init(L, &ev, GR_EV_ACCESS, w, pc);
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
    access_deliver(L, w, &ev);
  }
  return 0;
}

/* ------------------------------------------------------------- asynchronous copies (cp.async) */

/* The lanes' copies join their queue, open until the lanes' next commit.
 * A copy is a global load and a shared store that perform later, at the
 * wait that waits for it or at the thread's exit: the latest a GPU may
 * perform them, so a read of the destination that no wait orders after
 * the copy reads what was there before, and the detectors see the copy
 * where it may land. */
/* Lanes m issued copies (ISSUE: the copies learn what their threads know)
 * or waited for them (WAIT: the threads learn what the copies did). */
static void cp_sync_event(launch *L, warp *w, gr_event_kind kind, uint32_t m, int pc) {
  gr_event ev;
  engine_ev_init(L, &ev, kind, w, pc);
  ev.mask = m;
  engine_deliver(L, &ev);
}

int access_cp_issue(launch *L, warp *w, const kir_ins *in, uint32_t m, int pc) {
  const uint64_t *R = w->r, *A = R + (size_t)in->a * 32, *B = R + (size_t)in->b * 32;
  const uint64_t *C = in->c >= 0 ? R + (size_t)in->c * 32 : NULL;
  int size = (int)in->imm;
  char where[160];
  if (L->ctx->explore) {
    engine_fault(L, pc, "cp.async: asynchronous copies are not supported by the exhaustive search");
    return 1;
  }
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    uint64_t src = B[l], dst = A[l], n = C ? C[l] & 0xffffffffu : (uint64_t)size;
    const char *bad = KIR_SPACE_OF(dst) != SPACE_SHARED ? "its destination is not shared memory"
                      : KIR_SPACE_OF(src) != SPACE_GLOBAL ? "its source is not global memory"
                      : n > (uint64_t)size ? "its source size is larger than the copy"
                      : (src | dst) & (uint64_t)(size - 1) ? "its addresses are not aligned to its size" : NULL;
    if (bad) {
      engine_lane_coords(w, l, where, sizeof where);
      engine_fault(L, pc, "cp.async of %d bytes from 0x%llx to 0x%llx by %s: %s", size, (unsigned long long)src,
                   (unsigned long long)dst, where, bad);
      return 1;
    }
  }
  /* a source outside its roots: the analysis of where pointers come from
   * (prov.h) holds no more, as at a load's turn (access_ldst's guard) */
  if (L->prov && !L->prov->off) LANES(m, prov_check(L->prov, pc, B[l]));
  if (!w->cp) w->cp = xcalloc(1, sizeof *w->cp);
  cp_state *s = w->cp;
  /* the copies write shared memory when they perform, ordered by no
   * barrier before their threads wait (access_ahead_load's shared_unseen) */
  w->b->copies += (uint32_t)__builtin_popcount(m);
  w->b->sh_written = 1;
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    if (s->n == s->cap) { s->cap = s->cap ? 2 * s->cap : 16; s->q = xrealloc(s->q, s->cap * sizeof *s->q); }
    s->q[s->n++] = (cp_copy){A[l], B[l], CP_OPEN, pc, (uint8_t)l, (uint8_t)size, (uint8_t)(C ? C[l] : (uint64_t)size)};
  }
  if (L->ctx->nobs) cp_sync_event(L, w, GR_EV_ASYNC_ISSUE, m, pc);
  return 0;
}

void access_cp_commit(warp *w, uint32_t m) {
  if (!w->cp) w->cp = xcalloc(1, sizeof *w->cp);
  cp_state *s = w->cp;
  for (uint32_t k = 0; k < s->n; k++)
    if (s->q[k].group == CP_OPEN && (m >> s->q[k].lane & 1)) s->q[k].group = s->groups[s->q[k].lane];
  LANES(m, s->groups[l]++);   /* an empty group counts too */
}

/* The access event of a lane's copy: its load of the source or its store
 * to the destination (the first 8 bytes of what it moved as the value). */
static void cp_event(launch *L, warp *w, const cp_copy *c, gr_access_kind kind, int size, const uint8_t *buf) {
  uint64_t addr[32], val[32] = {0};
  int l = c->lane;
  gr_event ev;
  engine_ev_init(L, &ev, GR_EV_ACCESS, w, c->pc);
  ev.access = kind;
  ev.space = kind == GR_LOAD ? GR_SPACE_GLOBAL : GR_SPACE_SHARED;
  ev.size = size;
  ev.scope = GR_SCOPE_BLOCK;
  ev.async_copy = 1;
  ev.mask = 1u << l;
  addr[l] = kind == GR_LOAD ? c->src : c->dst;
  memcpy(&val[l], buf, 8);
  ev.addr = addr;
  ev.value = val;
  access_deliver(L, w, &ev);
}

/* One copy: its source read (the first srcsize bytes; the rest are
 * zeroes), then its destination written, each an access event of the
 * lane's copy. */
static int cp_perform(launch *L, warp *w, const cp_copy *c) {
  int l = c->lane, g2, size = c->size, n = c->srcsize;
  uint8_t buf[16] = {0};
  emu_assert(w->b->copies > 0);
  w->b->copies--;
  if (n) {
    int chunk = n == size ? (size > 8 ? 8 : size) : 1;
    for (int k = 0; k < n; k += chunk) {
      uint8_t *p = xlate(L, w, l, c->src + (uint64_t)k, chunk, c->pc, "load", &g2, NULL);
      if (!p) return L->failed;
      uint64_t v = g2 && L->mem ? wm_load_now(L->mem, &w->wm->lane[l], c->src + (uint64_t)k, p, chunk, 0) : mem_read(L, p, chunk);
      memcpy(buf + k, &v, (size_t)chunk);
    }
    if (L->ctx->nobs) {
      cp_event(L, w, c, GR_LOAD, n, buf);
      if (L->failed) return L->failed;
    }
  }
  uint8_t *p = xlate(L, w, l, c->dst, size, c->pc, "store", &g2, NULL);
  if (!p) return L->failed;
  for (int k = 0; k < size; k += size > 8 ? 8 : size) {
    uint64_t v;
    memcpy(&v, buf + k, 8);
    mem_write(L, p + k, size > 8 ? 8 : size, v);
  }
  if (L->ctx->nobs) cp_event(L, w, c, GR_STORE, size, buf);
  return L->failed;
}

/* Performs, in issue order, the copies of lanes m that are due: those of
 * groups older than the keep most recent (keep < 0: every copy, committed
 * or not, at the threads' exit). */
static int cp_drain(launch *L, warp *w, uint32_t m, int64_t keep) {
  cp_state *s = w->cp;
  if (!s) return 0;
  uint32_t out = 0;
  for (uint32_t k = 0; k < s->n; k++) {
    cp_copy c = s->q[k];
    int due = (m >> c.lane & 1) && (keep < 0 || (c.group != CP_OPEN && (int64_t)c.group + keep < (int64_t)s->groups[c.lane]));
    if (!due) { s->q[out++] = c; continue; }
    if (cp_perform(L, w, &c)) return 1;
  }
  s->n = out;
  return 0;
}

int access_cp_wait(launch *L, warp *w, uint32_t m, uint32_t keep, int pc) {
  if (cp_drain(L, w, m, keep)) return 1;
  if (L->ctx->nobs) cp_sync_event(L, w, GR_EV_ASYNC_WAIT, m, pc);
  return 0;
}

int access_cp_exit(launch *L, warp *w, uint32_t m) { return cp_drain(L, w, m, -1); }

int access_peek(launch *L, warp *w, int lane, uint64_t addr, void *out, int size, int pc) {
  int l2;
  uint8_t *p = xlate(L, w, lane, addr, size, pc, "load", &l2, NULL);
  if (!p) return -1;
  memcpy(out, p, (size_t)size);
  return 0;
}
