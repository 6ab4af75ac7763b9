/* A CUDA kernel of a BabyCUDA program, so that the emulator (and its
 * happens-before oracle) runs what the calculus describes.  Every array is
 * a global buffer of long long; a shared array gets one copy per block,
 * at the block's offset, so that blocks do not meet on it.  Names are
 * prefixed (v_ for variables, a_ for arrays) so that no BabyCUDA name
 * collides with C. */
#include "babycuda.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char *p; size_t len, cap; } sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (b->p && b->len + (size_t)n < b->cap) { b->len += (size_t)n; return; }
    b->cap = (b->cap + (size_t)n + 1) * 2;
    b->p = xrealloc(b->p, b->cap);
  }
}

/* A program's name as a C name: prefix (v_ a variable or parameter, a_ an
 * array), '_' as "__" and '.' as "_d", so that no two names meet (tid.y
 * and tid_y, f.x_y and f_x.y); the kernel's own names begin with g_. */
static void c_name(sbuf *b, const char *prefix, const char *v) {
  put(b, "%s", prefix);
  for (; *v; v++) put(b, "%s", *v == '.' ? "_d" : *v == '_' ? "__" : (char[2]){*v, 0});
}

static void var_name(sbuf *b, const char *v) { c_name(b, "v_", v); }

static void expr(sbuf *b, const bc_expr *e) {
  static const char *const op[] = {[BX_ADD] = "+", [BX_SUB] = "-", [BX_MUL] = "*", [BX_DIV] = "/", [BX_REM] = "%",
                                   [BX_EQ] = "==", [BX_NE] = "!=", [BX_LT] = "<", [BX_LE] = "<=", [BX_GT] = ">",
                                   [BX_GE] = ">=", [BX_AND] = "&&", [BX_OR] = "||"};
  switch (e->k) {
  case BX_NUM: put(b, "(%" PRId64 "LL)", e->num); return;
  case BX_VAR: {
    int t = bc_thread_var(e->var);
    var_name(b, t >= 0 ? bc_thread_var_name[t] : e->var);
    return;
  }
  case BX_TRUE: put(b, "true"); return;
  case BX_FALSE: put(b, "false"); return;
  case BX_NEG: put(b, "(-"); expr(b, e->a); put(b, ")"); return;
  case BX_NOT: put(b, "(!"); expr(b, e->a); put(b, ")"); return;
  default:
    put(b, "(");
    expr(b, e->a);
    put(b, " %s ", op[e->k]);
    expr(b, e->b);
    put(b, ")");
  }
}

static void indent(sbuf *b, int n) { put(b, "%*s", 2 * n, ""); }

static void access(sbuf *b, const bc_program *p, int a, const bc_expr *idx) {
  c_name(b, "a_", p->arrays[a].name);
  put(b, "[");
  if (p->arrays[a].space == BC_SHARED && bc_blocks(p) > 1) put(b, "g_blk * %" PRId64 "LL + ", p->arrays[a].size);
  expr(b, idx);
  put(b, "]");
}

static void stmt(sbuf *b, const bc_program *p, const bc_stmt *s, int ind) {
  switch (s->k) {
  case BS_SKIP: return;
  case BS_SEQ:
    for (int k = 0; k < s->n; k++) stmt(b, p, s->items[k], ind);
    return;
  case BS_SYNC: indent(b, ind); put(b, "__syncthreads();\n"); return;
  case BS_WRITE:
    indent(b, ind);
    if (s->atomic) {
      put(b, "atomicExch((unsigned long long *)&");
      access(b, p, s->array, s->idx);
      put(b, ", (unsigned long long)(");
      expr(b, s->val);
      put(b, "))");
    } else {
      access(b, p, s->array, s->idx);
      put(b, " = ");
      expr(b, s->val);
    }
    put(b, ";   // %d:%d\n", s->pos.line, s->pos.col);
    return;
  case BS_READ:
    indent(b, ind);
    put(b, "{ long long ");
    var_name(b, s->var);
    put(b, " = ");
    access(b, p, s->array, s->idx);
    put(b, ";   // %d:%d\n", s->pos.line, s->pos.col);
    stmt(b, p, s->body, ind + 1);
    indent(b, ind);
    put(b, "}\n");
    return;
  case BS_IF:
    indent(b, ind);
    put(b, "if ");
    expr(b, s->cond);
    put(b, " {\n");
    stmt(b, p, s->body, ind + 1);
    indent(b, ind);
    put(b, "} else {\n");
    stmt(b, p, s->els, ind + 1);
    indent(b, ind);
    put(b, "}\n");
    return;
  case BS_FOR:
    indent(b, ind);
    put(b, "for (long long ");
    var_name(b, s->var);
    put(b, " = ");
    expr(b, s->lo);
    put(b, "; ");
    var_name(b, s->var);
    put(b, " < ");
    expr(b, s->hi);
    put(b, "; ");
    var_name(b, s->var);
    put(b, "++) {\n");
    stmt(b, p, s->body, ind + 1);
    indent(b, ind);
    put(b, "}\n");
    return;
  }
}

int bc_cuda_array(const bc_program *p, const char *buffer) {
  for (int a = 0; a < p->narrays; a++) {
    sbuf b = {0};
    c_name(&b, "a_", p->arrays[a].name);
    int same = !strcmp(b.p, buffer);
    free(b.p);
    if (same) return a;
  }
  return -1;
}

char *bc_to_cuda(const bc_program *p, const bc_thread *pair) {
  sbuf b = {0};
  put(&b, "// BabyCUDA program of %s as CUDA (gpurace)\n", p->file);
  int cross = pair && memcmp(pair[0].bid, pair[1].bid, sizeof pair[0].bid);
  if (pair)
    put(&b, "//@ launch bc grid(%d) block(%d)\n", cross ? 2 : 1, cross ? 1 : 2);
  else
    put(&b, "//@ launch bc grid(%" PRId64 ",%" PRId64 ",%" PRId64 ") block(%" PRId64 ",%" PRId64 ",%" PRId64 ")\n",
        p->grid[0], p->grid[1], p->grid[2], p->block[0], p->block[1], p->block[2]);
  for (int a = 0; a < p->narrays; a++) {
    const bc_array *A = &p->arrays[a];
    int64_t copies = A->space == BC_SHARED ? bc_blocks(p) : 1;
    put(&b, "//@ buffer ");
    c_name(&b, "a_", A->name);
    put(&b, " i64[%" PRId64 "]", A->size * copies);
    if (A->init) {
      put(&b, " = {");
      for (int64_t c = 0; c < copies; c++)
        for (int64_t j = 0; j < A->size; j++) put(&b, "%s%" PRId64, c || j ? ", " : "", A->init[j]);
      put(&b, "}");
    }
    put(&b, "\n");
  }
  for (int k = 0; k < p->nparams; k++) {
    put(&b, "//@ arg ");
    var_name(&b, p->params[k].name);
    put(&b, " = %" PRId64 "\n", p->params[k].value);
  }
  put(&b, "__global__ void bc(");
  for (int a = 0; a < p->narrays; a++) {
    put(&b, "%slong long *", a ? ", " : "");
    c_name(&b, "a_", p->arrays[a].name);
  }
  for (int k = 0; k < p->nparams; k++) {
    put(&b, "%slong long ", p->narrays || k ? ", " : "");
    var_name(&b, p->params[k].name);
  }
  put(&b, ") {\n");
  if (pair) {
    const char *sel = cross ? "blockIdx.x" : "threadIdx.x";
    for (int t = 0; t < 6; t++) {
      int64_t v0 = t < 3 ? pair[0].tid[t] : pair[0].bid[t - 3], v1 = t < 3 ? pair[1].tid[t] : pair[1].bid[t - 3];
      put(&b, "  long long ");
      var_name(&b, bc_thread_var_name[t]);
      put(&b, " = %s == 0 ? %" PRId64 "LL : %" PRId64 "LL;\n", sel, v0, v1);
    }
  } else {
    static const char *const src[6] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y", "blockIdx.z"};
    for (int t = 0; t < 6; t++) {
      put(&b, "  long long ");
      var_name(&b, bc_thread_var_name[t]);
      put(&b, " = %s;\n", src[t]);
    }
  }
  put(&b, "  long long g_blk = v_bid + v_bid_dy * %" PRId64 "LL + v_bid_dz * %" PRId64 "LL;\n", p->grid[0],
      p->grid[0] * p->grid[1]);
  put(&b, "  (void)v_tid; (void)v_tid_dy; (void)v_tid_dz; (void)g_blk;\n");
  stmt(&b, p, p->body, 1);
  put(&b, "}\n");
  return b.p;
}
