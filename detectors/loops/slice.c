/* The inspector slice of two-pass (Section III-B): the part of a loop
 * kernel that computes where it accesses its shared arrays, as a
 * transformation of KIR.
 *
 * 1. Pointer provenance, forward over the CFG: which kernel parameters and
 *    __device__ variables a register may point into (param, gaddr, padd,
 *    mov and cvt carry it).  A load, store or atomic through a pointer into
 *    a loop array is a shared access.
 * 2. The backward data flow of the paper ("when a variable in V is written,
 *    add the variables on the right side"), on registers: a register is
 *    needed where a later kept instruction reads it; an instruction is kept
 *    when it writes a needed register, when it is control flow (branches,
 *    jumps, exits and barriers keep the loop's shape and guards, and their
 *    conditions are needed), or when it is a shared access (its address is
 *    needed, its stored value is not: the inspector records, it does not
 *    store).  Memory carries values too: a kept load from another buffer
 *    keeps every store to that buffer (Listing 2's index array computed by
 *    the kernel itself), with what it stores.  To a fixed point.
 * 3. Forward elimination: everything else goes, and the code is compacted
 *    with branch targets and reconvergence points renumbered. */
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "loops.h"
#include "util.h"

typedef struct {
  const kir_module *m;
  const kir_func *f;
  int n, R;
  int nsrc;                /* pointer sources: the params, then the globals */
  uint64_t loop_mask;      /* sources that are loop arrays */
  uint64_t *prov;          /* in-state per pc: R words (a source bitmask per register) */
} slicer;

/* Sources: a kernel's pointer parameters by index, then the module's globals. */
static int src_of_param(int k) { return k; }
static int src_of_global(const slicer *s, int k) { return s->f->nparams + k; }

static uint64_t bit(int src) { return src < 64 ? (uint64_t)1 << src : 0; }

/* The provenance after instruction pc, from its in-state. */
static void transfer(const slicer *s, int pc, const uint64_t *in, uint64_t *out) {
  const kir_ins *i = &s->f->code[pc];
  memcpy(out, in, (size_t)s->R * sizeof *out);
  if (i->dst < 0) return;
  uint64_t v = 0;
  switch (i->op) {
  case OP_PARAM: if (s->f->params[i->imm].sk == SK_PTR) v = bit(src_of_param((int)i->imm)); break;
  case OP_GADDR: v = bit(src_of_global(s, (int)i->imm)); break;
  case OP_PADD: v = in[i->a] | in[i->b]; break;
  case OP_MOV: case OP_CVT: v = in[i->a]; break;
  case OP_SEL: v = in[i->a] | in[i->b]; break;
  default: break;
  }
  out[i->dst] = v;
}

static void provenance(slicer *s) {
  size_t R = (size_t)s->R;
  s->prov = xcalloc((size_t)(s->n + 1) * R, sizeof *s->prov);
  uint64_t *out = xcalloc(R, sizeof *out);
  for (int changed = 1; changed;) {
    changed = 0;
    for (int pc = 0; pc < s->n; pc++) {
      transfer(s, pc, &s->prov[(size_t)pc * R], out);
      int succ[2];
      kir_successors(&s->f->code[pc], pc, &succ[0], &succ[1]);
      for (int k = 0; k < 2; k++) {
        if (succ[k] < 0 || succ[k] > s->n) continue;
        uint64_t *in = &s->prov[(size_t)succ[k] * R];
        for (size_t r = 0; r < R; r++)
          if ((in[r] | out[r]) != in[r]) { in[r] |= out[r]; changed = 1; }
      }
    }
  }
  free(out);
}

static int is_mem(int op) { return op == OP_LD || op == OP_ST || op == OP_ATOM; }

/* The sources an access at pc may touch. */
static uint64_t touches(const slicer *s, int pc) {
  const kir_ins *i = &s->f->code[pc];
  return is_mem(i->op) ? s->prov[(size_t)pc * (size_t)s->R + (size_t)i->a] : 0;
}

static int is_control(int op) { return op == OP_BRT || op == OP_BRF || op == OP_JMP || op == OP_EXIT || op == OP_BAR || op == OP_TRAP; }

/* keep[pc]: the slice.  Returns the number kept. */
static int backward(slicer *s, uint8_t *keep) {
  int n = s->n, R = s->R;
  size_t W = ((size_t)R + 63) / 64;
  uint64_t *need = xcalloc((size_t)(n + 1) * W, sizeof *need);   /* needed on entry to pc */
  uint64_t *out = xcalloc(W, sizeof *out);
  uint64_t read_srcs = 0;   /* buffers a kept load reads: their stores are kept */
  for (int changed = 1; changed;) {
    changed = 0;
    for (int pc = n - 1; pc >= 0; pc--) {
      const kir_ins *i = &s->f->code[pc];
      int succ[2];
      kir_successors(i, pc, &succ[0], &succ[1]);
      memset(out, 0, W * sizeof *out);
      for (int k = 0; k < 2; k++)
        if (succ[k] >= 0 && succ[k] <= n)
          for (size_t w = 0; w < W; w++) out[w] |= need[(size_t)succ[k] * W + w];
      uint64_t t = touches(s, pc);
      int shared = (t & s->loop_mask) != 0;
      int k = keep[pc] || is_control(i->op) || shared ||
              (i->dst >= 0 && (out[i->dst / 64] >> (i->dst % 64) & 1)) ||
              (i->op == OP_ST && (t & read_srcs & ~s->loop_mask));
      if (k && !keep[pc]) { keep[pc] = 1; changed = 1; }
      if (k) {
        if (i->dst >= 0) out[i->dst / 64] &= ~((uint64_t)1 << (i->dst % 64));
        int u[4], nu = kir_ins_reads(i, u);
        for (int j = 0; j < nu; j++) {
          /* a shared access needs its address only: the inspector does not store its value */
          if (shared && u[j] != i->a) continue;
          out[u[j] / 64] |= (uint64_t)1 << (u[j] % 64);
        }
        if (i->op == OP_LD && !shared && (t & ~read_srcs)) { read_srcs |= t; changed = 1; }
      }
      uint64_t *ni = &need[(size_t)pc * W];
      if (memcmp(ni, out, W * sizeof *out)) { memcpy(ni, out, W * sizeof *out); changed = 1; }
    }
  }
  free(need);
  free(out);
  int kept = 0;
  for (int pc = 0; pc < n; pc++) kept += keep[pc];
  return kept;
}

/* Prints the slice of f as KIR: the kept instructions, renumbered. */
static void print_slice(FILE *out, const slicer *s, const uint8_t *keep, int kept) {
  const kir_func *f = s->f;
  int *newpc = xmalloc((size_t)(f->ncode + 1) * sizeof *newpc);
  int k = 0;
  for (int pc = 0; pc < f->ncode; pc++) {
    newpc[pc] = k;
    k += keep[pc];
  }
  newpc[f->ncode] = k;
  kir_func g = *f;
  g.code = xmalloc((size_t)(kept ? kept : 1) * sizeof *g.code);
  g.pos = xmalloc((size_t)(kept ? kept : 1) * sizeof *g.pos);
  g.ncode = kept;
  k = 0;
  for (int pc = 0; pc < f->ncode; pc++) {
    if (!keep[pc]) continue;
    kir_ins i = f->code[pc];
    /* a target that was eliminated: the next kept instruction after it */
    if (i.op == OP_JMP || i.op == OP_BRT || i.op == OP_BRF) i.a = newpc[i.a];
    if ((i.op == OP_BRT || i.op == OP_BRF) && i.c >= 0) i.c = newpc[i.c <= f->ncode ? i.c : f->ncode];
    g.code[k] = i;
    g.pos[k] = f->pos[pc];
    k++;
  }
  fprintf(out, "; inspector slice of %s: %d of %d instructions kept\n", f->name, kept, f->ncode);
  kir_print_func(out, &g);
  free(g.code);
  free(g.pos);
  free(newpc);
}

int loop_print_slice(FILE *out, gr_module *mod, const char *arrays, char *err, size_t errlen) {
  const kir_module *m = host_module_kir(mod);
  char *copy = xstrdup(arrays);
  int rc = 0;
  for (int fi = 0; fi < m->nfuncs && !rc; fi++) {
    slicer s;
    memset(&s, 0, sizeof s);
    s.m = m;
    s.f = m->funcs[fi];
    s.n = s.f->ncode;
    s.R = s.f->nregs > 0 ? s.f->nregs : 1;
    s.nsrc = s.f->nparams + m->nglobals;
    /* the loop arrays among the pointer parameters and globals */
    strcpy(copy, arrays);
    for (char *sv, *t = strtok_r(copy, ", ", &sv); t; t = strtok_r(NULL, ", ", &sv)) {
      int found = 0;
      for (int k = 0; k < s.f->nparams; k++)
        if (s.f->params[k].sk == SK_PTR && !strcmp(s.f->params[k].name, t)) { s.loop_mask |= bit(src_of_param(k)); found = 1; }
      for (int k = 0; k < m->nglobals; k++)
        if (!strcmp(m->globals[k].name, t)) { s.loop_mask |= bit(src_of_global(&s, k)); found = 1; }
      if (!found && m->nfuncs == 1) {
        snprintf(err, errlen, "--slice: kernel %s has no pointer parameter or __device__ variable '%s'", s.f->name, t);
        rc = GR_EINPUT;
      }
    }
    if (rc) break;
    if (s.nsrc > 64) {
      snprintf(err, errlen, "--slice: kernel %s has more than 64 pointer sources", s.f->name);
      rc = GR_EINPUT;
      break;
    }
    if (!s.n) continue;
    provenance(&s);
    uint8_t *keep = xcalloc((size_t)s.n, 1);
    int kept = backward(&s, keep);
    print_slice(out, &s, keep, kept);
    free(keep);
    free(s.prov);
  }
  free(copy);
  return rc;
}
