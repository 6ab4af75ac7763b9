/* BabyCUDA's behavioural typing (Figure 6) and the MAP it infers.
 *
 * V holds the variables allowed in indices and control flow: the thread's
 * coordinates, the parameters and loop variables (t-for adds x); a `let`
 * does not add its binder (t-read), so a value read from memory can flow
 * only into payloads.  t-sync types `sync` as the protocol's `sync`.
 * The MAP is built for one array: accesses to other arrays leave no trace
 * in it, but their reads bind data like any read, and every condition and
 * loop bound is checked.  The first rule that fails is the typing error;
 * the MAP of an ill-typed program is built all the same (Faial's
 * abstraction: a value read from memory is any number). */
#include "babycuda.h"

#include <string.h>

typedef struct { const char *name; srcpos pos; int array; } letvar;

typedef struct {
  bc_program *p;
  int array;
  bc_typing *t;
  vec V;       /* const char * */
  vec lets;    /* letvar: binders in scope, innermost last */
} ty;

static int in_V(ty *T, const char *v) {
  if (bc_thread_var(v) >= 0) return 1;
  for (size_t k = T->V.len; k-- > 0;)
    if (!strcmp(*(const char **)vec_at(&T->V, k), v)) return 1;
  return 0;
}

typedef struct { ty *T; const char *bad; } fv_ck;
static void fv_var(const char *v, void *ctx) {
  fv_ck *c = ctx;
  if (!c->bad && !in_V(c->T, v)) c->bad = v;
}

static void type_error(ty *T, srcpos at, const char *what, const char *v) {
  if (!T->t->well_typed) return;
  T->t->well_typed = 0;
  T->t->at = at;
  const letvar *lv = NULL;
  for (size_t k = T->lets.len; k-- > 0 && !lv;) {
    const letvar *l = vec_at(&T->lets, k);
    if (!strcmp(l->name, v)) lv = l;
  }
  if (lv)
    snprintf(T->t->why, sizeof T->t->why, "%s at %d:%d uses '%s', read from %s at %d:%d (data-dependent %s)", what,
             at.line, at.col, v, T->p->arrays[lv->array].name, lv->pos.line, lv->pos.col,
             strstr(what, "index") ? "indexing" : "control flow");
  else
    snprintf(T->t->why, sizeof T->t->why, "%s at %d:%d uses '%s', which V does not hold", what, at.line, at.col, v);
}

/* t-n and t-b: fv(e) ⊆ V */
static void check_expr(ty *T, const bc_expr *e, srcpos at, const char *what) {
  fv_ck c = {T, NULL};
  bc_expr_vars(e, fv_var, &c);
  if (c.bad) type_error(T, at, what, c.bad);
}

static bc_map *node(ty *T, bc_map_kind k, srcpos pos) {
  bc_map *m = arena_alloc(&T->p->ar, sizeof *m);
  m->k = k;
  m->pos = pos;
  return m;
}

static bc_map *seq2(ty *T, bc_map *a, bc_map *b, srcpos pos) {
  if (a->k == BM_SKIP) return b;
  if (b->k == BM_SKIP) return a;
  int na = a->k == BM_SEQ ? a->n : 1, nb = b->k == BM_SEQ ? b->n : 1;
  bc_map *m = node(T, BM_SEQ, pos);
  m->items = arena_alloc(&T->p->ar, (size_t)(na + nb) * sizeof *m->items);
  if (a->k == BM_SEQ) memcpy(m->items, a->items, (size_t)na * sizeof *m->items);
  else m->items[0] = a;
  if (b->k == BM_SEQ) memcpy(m->items + na, b->items, (size_t)nb * sizeof *m->items);
  else m->items[na] = b;
  m->n = na + nb;
  return m;
}

static void binder(ty *T, const char *x, srcpos at, const char *rule) {
  if (in_V(T, x) && T->t->well_typed) {
    T->t->well_typed = 0;
    T->t->at = at;
    snprintf(T->t->why, sizeof T->t->why, "the binder '%s' at %d:%d is already in V (%s needs %s not in V)", x, at.line,
             at.col, rule, x);
  }
}

static bc_map *type_stmt(ty *T, const bc_stmt *s) {
  bc_map *m;
  switch (s->k) {
  case BS_SKIP: return node(T, BM_SKIP, s->pos);                       /* t-skip */
  case BS_SYNC: return node(T, BM_SYNC, s->pos);                       /* t-sync */
  case BS_SEQ:                                                         /* t-seq */
    m = node(T, BM_SKIP, s->pos);
    for (int k = 0; k < s->n; k++) m = seq2(T, m, type_stmt(T, s->items[k]), s->pos);
    return m;
  case BS_WRITE:                                                       /* t-write */
    if (s->array != T->array) return node(T, BM_SKIP, s->pos);
    check_expr(T, s->idx, s->pos, "the index of the write");
    m = node(T, BM_WR, s->pos);
    m->idx = s->idx;
    m->atomic = s->atomic;
    return m;
  case BS_READ: {                                                      /* t-read */
    bc_map *r = node(T, BM_SKIP, s->pos);
    if (s->array == T->array) {
      check_expr(T, s->idx, s->pos, "the index of the read");
      r = node(T, BM_RD, s->pos);
      r->idx = s->idx;
    }
    binder(T, s->var, s->pos, "t-read");
    letvar *l = vec_push(&T->lets);
    l->name = s->var;
    l->pos = s->pos;
    l->array = s->array;
    bc_map *u = type_stmt(T, s->body);
    T->lets.len--;
    return seq2(T, r, u, s->pos);
  }
  case BS_IF:                                                          /* t-if */
    check_expr(T, s->cond, s->pos, "the condition");
    m = node(T, BM_IF, s->pos);
    m->cond = s->cond;
    m->body = type_stmt(T, s->body);
    m->els = type_stmt(T, s->els);
    return m;
  case BS_FOR:                                                         /* t-for */
    check_expr(T, s->lo, s->pos, "the loop's lower bound");
    check_expr(T, s->hi, s->pos, "the loop's upper bound");
    binder(T, s->var, s->pos, "t-for");
    m = node(T, BM_FOR, s->pos);
    m->var = s->var;
    m->lo = s->lo;
    m->hi = s->hi;
    *(const char **)vec_push(&T->V) = s->var;
    m->body = type_stmt(T, s->body);
    T->V.len--;
    return m;
  }
  return node(T, BM_SKIP, s->pos);
}

bc_map *bc_type(bc_program *p, int array, bc_typing *t) {
  memset(t, 0, sizeof *t);
  t->well_typed = 1;
  ty T;
  T.p = p;
  T.array = array;
  T.t = t;
  vec_init(&T.V, sizeof(const char *));
  vec_init(&T.lets, sizeof(letvar));
  for (int k = 0; k < p->nparams; k++) *(const char **)vec_push(&T.V) = p->params[k].name;
  bc_map *m = type_stmt(&T, p->body);
  vec_free(&T.V);
  vec_free(&T.lets);
  return m;
}

static void ind(FILE *out, int n) { for (int k = 0; k < n; k++) fputs("  ", out); }

void bc_print_map(FILE *out, const bc_map *m, int indent) {
  switch (m->k) {
  case BM_SEQ:
    for (int k = 0; k < m->n; k++) {
      bc_print_map(out, m->items[k], indent);
      if (k + 1 < m->n) fputs(";\n", out);
    }
    return;
  case BM_SKIP: ind(out, indent); fputs("skip", out); return;
  case BM_SYNC: ind(out, indent); fputs("sync", out); return;
  case BM_RD: case BM_WR:
    ind(out, indent);
    fputs(m->k == BM_RD ? "rd[" : m->atomic ? "atomic wr[" : "wr[", out);
    bc_print_expr(out, m->idx);
    fputc(']', out);
    return;
  case BM_IF:
    ind(out, indent);
    fputs("if ", out);
    bc_print_expr(out, m->cond);
    fputs(" {\n", out);
    bc_print_map(out, m->body, indent + 1);
    fputc('\n', out);
    ind(out, indent);
    fputs("} else {\n", out);
    bc_print_map(out, m->els, indent + 1);
    fputc('\n', out);
    ind(out, indent);
    fputc('}', out);
    return;
  case BM_FOR:
    ind(out, indent);
    fprintf(out, "for %s in ", m->var);
    bc_print_expr(out, m->lo);
    fputs("..", out);
    bc_print_expr(out, m->hi);
    fputs(" {\n", out);
    bc_print_map(out, m->body, indent + 1);
    fputc('\n', out);
    ind(out, indent);
    fputc('}', out);
    return;
  }
}
