#include "kir.h"

#include <stdlib.h>
#include <string.h>

const char *const kir_sk_name[SK_COUNT] = {"bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64", "ptr"};
const int kir_sk_size[SK_COUNT] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 8};
const char *const kir_scope_name[3] = {"block", "device", "system"};
const char *const kir_order_name[4] = {"relaxed", "acquire", "release", "acq_rel"};
const char *const kir_atom_name[AT_COUNT] = {"add", "sub", "exch", "min", "max", "inc", "dec", "cas", "and", "or", "xor"};
const char *const kir_math_name[MATH_COUNT] = {
#define M(n) #n,
  KIR_MATHFNS(M)
#undef M
};

static const char *const vt_name[VT_COUNT] = {"i32", "u32", "i64", "u64", "f32", "f64"};
static const char *const sreg_name[SR_COUNT] = {"tid.x", "tid.y", "tid.z", "ctaid.x", "ctaid.y", "ctaid.z",
  "ntid.x", "ntid.y", "ntid.z", "nctaid.x", "nctaid.y", "nctaid.z", "laneid", "warpsize", "clock", "gridws.lo", "gridws.hi"};
static const char *const vote_name[] = {"all", "any", "ballot", "activemask"};
static const char *const shfl_name[] = {"idx", "up", "down", "xor"};

static const char *op_base_name(int op) {
  static const char *bin[] = {
#define N(n) #n,
    KIR_BINOPS(N) KIR_UNOPS(N)
#undef N
  };
  if (op < OP_CONST) return bin[op / VT_COUNT];
  static const char *rest[] = {"const", "mov", "cvt", "sreg", "param", "gaddr", "ld", "st", "atom", "fence",
    "bar", "syncwarp", "vote", "shfl", "math", "jmp", "brt", "brf", "exit", "trap", "nop", "padd", "pdiff", "sel", "malloc", "free", "cp.async", "cp.commit", "cp.wait"};
  return rest[op - OP_CONST];
}

static void lower(char *dst, const char *s) { while (*s) { char c = *s++; *dst++ = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c); } *dst = 0; }

static int is_idch(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* A C++ name as one spelling (malloc'd): spaces only between two words,
 * integer literals without their suffixes (the demangler writes 256u and
 * -2l where the source has 256 and -2), and `unsigned` alone as `unsigned
 * int`, as the demangler writes it. */
static char *name_canon(const char *s) {
  char *out = xmalloc(strlen(s) * 2 + 8), *o = out;
  while (*s) {
    if (*s == ' ' || *s == '\t') { s++; continue; }
    if (!is_idch(*s)) { *o++ = *s++; continue; }
    const char *w = s;
    while (is_idch(*s)) s++;
    size_t n = (size_t)(s - w);
    if (o > out && is_idch(o[-1])) *o++ = ' ';
    if (*w >= '0' && *w <= '9') {   /* a number: its suffix letters go */
      size_t k = n;
      while (k > 1 && strchr("uUlL", w[k - 1])) k--;
      memcpy(o, w, k), o += k;
      continue;
    }
    memcpy(o, w, n), o += n;
    if (n == 8 && !memcmp(w, "unsigned", 8)) {
      const char *t = s;
      while (*t == ' ') t++;
      int typed = 0;
      static const char *const ints[] = {"char", "short", "int", "long"};
      for (int k = 0; k < 4; k++) {
        size_t L = strlen(ints[k]);
        if (!strncmp(t, ints[k], L) && !is_idch(t[L])) typed = 1;
      }
      if (!typed) memcpy(o, " int", 4), o += 4;
    }
  }
  *o = 0;
  return out;
}

/* a and b one name, however spelled */
static int same_name(const char *a, const char *b) {
  char *ca = name_canon(a), *cb = name_canon(b);
  int same = !strcmp(ca, cb);
  free(ca);
  free(cb);
  return same;
}

const kir_func *kir_find(const kir_module *m, const char *name) {
  for (int k = 0; k < m->nfuncs; k++) if (!strcmp(m->funcs[k]->name, name)) return m->funcs[k];
  for (int k = 0; k < m->nfuncs; k++) if (m->funcs[k]->sym && !strcmp(m->funcs[k]->sym, name)) return m->funcs[k];
  for (int k = 0; k < m->nfuncs; k++) if (same_name(m->funcs[k]->name, name)) return m->funcs[k];
  if (strchr(name, '<')) return NULL;
  const kir_func *found = NULL;
  size_t n = strlen(name);
  for (int k = 0; k < m->nfuncs; k++) {
    const char *fn = m->funcs[k]->name;
    if (!strncmp(fn, name, n) && fn[n] == '<') {
      if (found) return NULL;   /* several instances: the directive must say which */
      found = m->funcs[k];
    }
  }
  return found;
}

/* ".volatile" (relaxed at system scope), ".relaxed.block", ".acquire.device",
 * or nothing for a plain access. */
static const char *access_sem(char *buf, unsigned flags) {
  int scope = KIR_MF_SCOPE(flags), order = KIR_MF_ORDER(flags);
  if (!(flags & MF_VOLATILE)) return "";
  if (scope == SCOPE_SYSTEM && order == MO_RELAXED) return ".volatile";
  snprintf(buf, 40, ".%s.%s", kir_order_name[order], kir_scope_name[scope]);
  return buf;
}

void kir_print_func(FILE *out, const kir_func *f) {
  fprintf(out, ".kernel %s  ; %d registers, %u bytes local per thread\n", f->name, f->nregs, f->frame);
  for (int k = 0; k < f->nparams; k++)
    if (f->params[k].sk == SK_COUNT) fprintf(out, "  .param %d struct(%u bytes) %s\n", k, f->params[k].size, f->params[k].name);
    else fprintf(out, "  .param %d %s %s\n", k, kir_sk_name[f->params[k].sk], f->params[k].name);
  for (int i = 0; i < f->ncode; i++) {
    const kir_ins *in = &f->code[i];
    char name[32];
    lower(name, op_base_name(in->op));
    fprintf(out, "%5d  ", i);
    char buf[160], sem[40];
    switch (in->op) {
    case OP_CONST: snprintf(buf, sizeof buf, "const  r%d, 0x%llx", in->dst, (unsigned long long)in->imm); break;
    case OP_MOV: snprintf(buf, sizeof buf, "mov    r%d, r%d", in->dst, in->a); break;
    case OP_CVT: snprintf(buf, sizeof buf, "cvt.%s.%s r%d, r%d", kir_sk_name[(in->imm >> 8) & 0xff], kir_sk_name[in->imm & 0xff], in->dst, in->a); break;
    case OP_SREG: snprintf(buf, sizeof buf, "sreg   r%d, %%%s", in->dst, sreg_name[in->imm]); break;
    case OP_PARAM:
      if (in->dst < 0) snprintf(buf, sizeof buf, "param  [r%d], %lld  ; a struct, copied", in->a, (long long)in->imm);
      else snprintf(buf, sizeof buf, "param  r%d, %lld", in->dst, (long long)in->imm);
      break;
    case OP_GADDR: snprintf(buf, sizeof buf, "gaddr  r%d, @%lld", in->dst, (long long)in->imm); break;
    case OP_LD: snprintf(buf, sizeof buf, "ld%s.%s r%d, [r%d%+lld]", access_sem(sem, in->flags), kir_sk_name[in->flags & 0x7f], in->dst, in->a, (long long)in->imm); break;
    case OP_ST: snprintf(buf, sizeof buf, "st%s.%s [r%d%+lld], r%d", access_sem(sem, in->flags), kir_sk_name[in->flags & 0x7f], in->a, (long long)in->imm, in->b); break;
    case OP_ATOM: {
      /* without a destination (the sink _, as PTX writes it; red for the
       * operations red has) nothing waits for it */
      char dst[16] = "_, ";
      if (in->dst >= 0) snprintf(dst, sizeof dst, "r%d, ", in->dst);
      snprintf(buf, sizeof buf, "atom.%s%s%s.%s.%s %s[r%d], r%d%s", kir_atom_name[(in->flags >> 8) & 0xf],
               KIR_MF_ORDER(in->flags) ? "." : "", KIR_MF_ORDER(in->flags) ? kir_order_name[KIR_MF_ORDER(in->flags)] : "",
               kir_scope_name[KIR_MF_SCOPE(in->flags)],
               kir_sk_name[in->flags & 0x7f], dst, in->a, in->b, in->c >= 0 ? ", r?" : "");
      if (in->c >= 0) { char *q = strstr(buf, "r?"); snprintf(q, sizeof buf - (size_t)(q - buf), "r%d", in->c); }
      break;
    }
    case OP_FENCE: snprintf(buf, sizeof buf, "fence%s.%s", in->flags == FENCE_ACQ_REL ? ".acq_rel" : "", kir_scope_name[in->imm]); break;
    case OP_BAR:
      if (in->imm == BAR_SYNC) snprintf(buf, sizeof buf, "bar.sync");
      else snprintf(buf, sizeof buf, "bar.red.%s r%d, r%d", in->imm == BAR_COUNT ? "popc" : in->imm == BAR_AND ? "and" : "or", in->dst, in->a);
      break;
    case OP_PADD:
      if (in->imm) snprintf(buf, sizeof buf, "padd   r%d, r%d, r%d * %lld", in->dst, in->a, in->b, (long long)in->imm);
      else snprintf(buf, sizeof buf, "padd   r%d, r%d, r%d", in->dst, in->a, in->b);
      break;
    case OP_PDIFF: snprintf(buf, sizeof buf, "pdiff  r%d, r%d, r%d", in->dst, in->a, in->b); break;
    case OP_SEL: snprintf(buf, sizeof buf, "sel    r%d, r%d, r%d, r%d", in->dst, in->a, in->b, in->c); break;
    case OP_MALLOC: snprintf(buf, sizeof buf, "malloc r%d, r%d", in->dst, in->a); break;
    case OP_FREE: snprintf(buf, sizeof buf, "free   r%d", in->a); break;
    case OP_CPASYNC:
      if (in->c >= 0) snprintf(buf, sizeof buf, "cp.async [r%d], [r%d], %lld, r%d", in->a, in->b, (long long)in->imm, in->c);
      else snprintf(buf, sizeof buf, "cp.async [r%d], [r%d], %lld", in->a, in->b, (long long)in->imm);
      break;
    case OP_CPCOMMIT: snprintf(buf, sizeof buf, "cp.commit"); break;
    case OP_CPWAIT: snprintf(buf, sizeof buf, "cp.wait %lld", (long long)in->imm); break;
    case OP_SYNCWARP: snprintf(buf, sizeof buf, "syncwarp r%d", in->a); break;
    case OP_VOTE: snprintf(buf, sizeof buf, "vote.%s r%d, r%d, mask r%d", vote_name[in->imm], in->dst, in->a, in->b); break;
    case OP_SHFL:
      if (in->imm >> 8) snprintf(buf, sizeof buf, "shfl.%s r%d, r%d, r%d, width r%d, mask r%lld", shfl_name[in->imm & 0xff], in->dst, in->a, in->b, in->c, (long long)(in->imm >> 8) - 1);
      else snprintf(buf, sizeof buf, "shfl.%s r%d, r%d, r%d, width r%d", shfl_name[in->imm & 0xff], in->dst, in->a, in->b, in->c);
      break;
    case OP_MATH: {
      char mn[32];
      lower(mn, kir_math_name[in->imm]);
      snprintf(buf, sizeof buf, "math.%s r%d, r%d, r%d, r%d", mn, in->dst, in->a, in->b, in->c);
      break;
    }
    case OP_JMP: snprintf(buf, sizeof buf, "jmp    %d", in->a); break;
    case OP_BRT: case OP_BRF:
      snprintf(buf, sizeof buf, "%s    r%d, %d  ; reconverge at %d", in->op == OP_BRT ? "brt" : "brf", in->b, in->a, in->c); break;
    case OP_EXIT: snprintf(buf, sizeof buf, "exit"); break;
    case OP_TRAP: snprintf(buf, sizeof buf, in->a >= 0 ? "trap   r%d, r%d, r%d" : "trap", in->a, in->b, in->c); break;
    case OP_PRINTF: snprintf(buf, sizeof buf, "printf r%d, r%d, r%d", in->dst, in->a, in->b); break;
    case OP_NOP: snprintf(buf, sizeof buf, "nop"); break;
    default:
      if (in->op < OP_NEG_I32) snprintf(buf, sizeof buf, "%s.%s r%d, r%d, r%d", name, vt_name[KIR_VT_OF(in->op)], in->dst, in->a, in->b);
      else snprintf(buf, sizeof buf, "%s.%s r%d, r%d", name, vt_name[KIR_VT_OF(in->op)], in->dst, in->a);
    }
    fprintf(out, "%-48s ; %d:%d\n", buf, f->pos[i].line, f->pos[i].col);
  }
}

int kir_ins_writes(const kir_ins *in) {
  switch (in->op) {
  case OP_ST: case OP_FENCE: case OP_SYNCWARP: case OP_JMP: case OP_BRT: case OP_BRF: case OP_EXIT: case OP_TRAP: case OP_NOP:
  case OP_FREE: case OP_CPASYNC: case OP_CPCOMMIT: case OP_CPWAIT:
    return -1;
  default: return in->dst >= 0 ? in->dst : -1;
  }
}

int kir_is_alu(int op) {
  switch (op) {
#define ALUCASE(OPC) case OPC:
#define ALUV(n) ALUCASE(OP_##n##_I32) ALUCASE(OP_##n##_U32) ALUCASE(OP_##n##_I64) ALUCASE(OP_##n##_U64) ALUCASE(OP_##n##_F32) ALUCASE(OP_##n##_F64)
    KIR_BINOPS(ALUV)
    KIR_UNOPS(ALUV)
#undef ALUV
#undef ALUCASE
  case OP_CONST: case OP_MOV: case OP_CVT: case OP_SREG: case OP_PARAM: case OP_GADDR:
  case OP_MATH: case OP_PADD: case OP_PDIFF: case OP_SEL: case OP_NOP:
    return 1;
  default:
    return 0;
  }
}

void kir_live_after(const kir_ins *code, int i, int n, const uint64_t *live, size_t W, uint64_t *out) {
  int s0, s1;
  kir_successors(&code[i], i, &s0, &s1);
  memset(out, 0, W * sizeof(uint64_t));
  if (s0 >= 0 && s0 <= n) for (size_t w = 0; w < W; w++) out[w] |= live[(size_t)s0 * W + w];
  if (s1 >= 0 && s1 <= n) for (size_t w = 0; w < W; w++) out[w] |= live[(size_t)s1 * W + w];
}

uint64_t *kir_liveness(const kir_ins *code, int n, size_t W) {
  uint64_t *live = xcalloc((size_t)(n + 1) * W, sizeof(uint64_t));
  uint64_t *out = xcalloc(W, sizeof(uint64_t));
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = n - 1; i >= 0; i--) {
      const kir_ins *in = &code[i];
      kir_live_after(code, i, n, live, W, out);
      int d = kir_ins_writes(in);
      if (d >= 0) out[(size_t)d / 64] &= ~((uint64_t)1 << (d % 64));
      int u[4], nu = kir_ins_reads(in, u);
      for (int k = 0; k < nu; k++) out[(size_t)u[k] / 64] |= (uint64_t)1 << (u[k] % 64);
      uint64_t *li = &live[(size_t)i * W];
      if (memcmp(li, out, W * sizeof(uint64_t))) { memcpy(li, out, W * sizeof(uint64_t)); changed = 1; }
    }
  }
  free(out);
  return live;
}

int *kir_regs_read_first(const kir_func *f, int *n) {
  int nr = f->nregs;
  size_t W = (size_t)(nr > 0 ? (nr + 63) / 64 : 1);
  uint64_t *live = kir_liveness(f->code, f->ncode, W);   /* live[0..W): at the entry */
  for (int i = 0; i < f->ncode; i++) {
    if (f->code[i].op != OP_SHFL) continue;
    int u[4], nu = kir_ins_reads(&f->code[i], u);
    for (int j = 0; j < nu; j++) live[u[j] / 64] |= (uint64_t)1 << (u[j] % 64);
  }
  int *regs = xcalloc((size_t)(nr > 0 ? nr : 1), sizeof(int));
  *n = 0;
  for (int r = 0; r < nr; r++)
    if (live[r / 64] >> (r % 64) & 1) regs[(*n)++] = r;
  free(live);
  return regs;
}

void kir_print_module(FILE *out, const kir_module *m) {
  for (int k = 0; k < m->nglobals; k++)
    fprintf(out, ".global @%d %s %u bytes\n", k, m->globals[k].name, m->globals[k].size);
  if (m->shared_static || m->uses_dyn_shared)
    fprintf(out, ".shared %u bytes static%s\n", m->shared_static, m->uses_dyn_shared ? " + dynamic" : "");
  for (int k = 0; k < m->nfuncs; k++) { if (k || m->nglobals) fputc('\n', out); kir_print_func(out, m->funcs[k]); }
}

void kir_module_free(kir_module *m) {
  if (!m) return;
  free(m->ptx);
  arena_free(&m->ar);
  free(m);
}

void kir_successors(const kir_ins *in, int i, int *s0, int *s1) {
  *s0 = *s1 = -1;
  switch (in->op) {
  case OP_JMP: *s0 = in->a; break;
  case OP_BRT: case OP_BRF: *s0 = in->a; *s1 = i + 1; break;
  case OP_EXIT: case OP_TRAP: break;
  default: *s0 = i + 1;
  }
}

int kir_ins_reads(const kir_ins *in, int *u) {
  int n = 0;
  switch (in->op) {
  case OP_CONST: case OP_SREG: case OP_GADDR: case OP_FENCE: case OP_JMP: case OP_EXIT: case OP_NOP:
  case OP_CPCOMMIT: case OP_CPWAIT: break;
  case OP_BRT: case OP_BRF: u[n++] = in->b; break;
  default:
    if (in->a >= 0) u[n++] = in->a;
    if (in->b >= 0) u[n++] = in->b;
    if (in->c >= 0) u[n++] = in->c;
    if (in->op == OP_SHFL && in->imm >> 8) u[n++] = (int)(in->imm >> 8) - 1;
  }
  return n;
}

/* ------------------------------------------------------------- reconvergence */

/* Immediate post-dominators on the instruction-level CFG (Cooper, Harvey and
 * Kennedy's iterative algorithm on the reversed graph, from the end), so
 * that a branch reconverges where every path from it meets again: break,
 * continue and return in divergent code reconverge where they must.  At
 * the granularity of instructions: kernels are small, and there is no
 * block bookkeeping to get wrong. */
void kir_set_reconvergence(kir_ins *code, int n) {
  int exitn = n;
  int *nsucc = xcalloc((size_t)n + 1, sizeof(int));
  int (*succ)[2] = xcalloc((size_t)n + 1, sizeof *succ);
  for (int i = 0; i < n; i++) {
    int s0, s1;
    kir_successors(&code[i], i, &s0, &s1);
    if (s0 < 0) s0 = exitn;   /* exit, trap: the end */
    succ[i][nsucc[i]++] = s0 > n ? exitn : s0;
    if (s1 >= 0) succ[i][nsucc[i]++] = s1 > n ? exitn : s1;
  }
  /* predecessors in the original graph = successors in the reversed one */
  int *npred = xcalloc((size_t)n + 1, sizeof(int)), *pstart = xcalloc((size_t)n + 2, sizeof(int));
  for (int i = 0; i < n; i++) for (int k = 0; k < nsucc[i]; k++) npred[succ[i][k]]++;
  for (int i = 0; i <= n; i++) pstart[i + 1] = pstart[i] + npred[i];
  int *preds = xcalloc((size_t)pstart[n + 1] + 1, sizeof(int)), *fill = xcalloc((size_t)n + 1, sizeof(int));
  for (int i = 0; i < n; i++) for (int k = 0; k < nsucc[i]; k++) { int s = succ[i][k]; preds[pstart[s] + fill[s]++] = i; }
  /* postorder of the reversed graph from the end, iteratively */
  int *po = xcalloc((size_t)n + 1, sizeof(int)), *order = xcalloc((size_t)n + 1, sizeof(int));
  int *stk = xcalloc((size_t)n + 1, sizeof(int)), *it = xcalloc((size_t)n + 1, sizeof(int));
  char *seen = xcalloc((size_t)n + 1, 1);
  int np = 0, sp = 0;
  for (int i = 0; i <= n; i++) po[i] = -1;
  stk[sp++] = exitn;
  seen[exitn] = 1;
  while (sp) {
    int x = stk[sp - 1];
    if (it[x] < npred[x]) {
      int y = preds[pstart[x] + it[x]++];
      if (!seen[y]) { seen[y] = 1; stk[sp++] = y; }
    } else {
      po[x] = np;
      order[np++] = x;
      sp--;
    }
  }
  int *idom = xcalloc((size_t)n + 1, sizeof(int));
  for (int i = 0; i <= n; i++) idom[i] = -1;
  idom[exitn] = exitn;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int k = np - 1; k >= 0; k--) {   /* reverse postorder */
      int b = order[k];
      if (b == exitn) continue;
      int nd = -1;
      for (int j = 0; j < nsucc[b]; j++) {
        int s = succ[b][j];
        if (idom[s] < 0) continue;
        if (nd < 0) { nd = s; continue; }
        int x = s, y = nd;
        while (x != y) {
          while (po[x] < po[y]) x = idom[x];
          while (po[y] < po[x]) y = idom[y];
        }
        nd = x;
      }
      if (nd >= 0 && idom[b] != nd) { idom[b] = nd; changed = 1; }
    }
  }
  for (int i = 0; i < n; i++)
    if (code[i].op == OP_BRT || code[i].op == OP_BRF) code[i].c = idom[i];
  free(nsucc); free(succ); free(npred); free(pstart); free(preds); free(fill);
  free(po); free(order); free(stk); free(it); free(seen); free(idom);
}
