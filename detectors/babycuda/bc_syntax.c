/* BabyCUDA's syntax: builders, the .bc reader and the printer.
 *
 *   program := decl* 'kernel' '{' seq '}'
 *   decl    := ('shared'|'global')? 'array' NAME '[' INT ']' ('=' '{' INT,* '}')? ';'
 *            | 'param' NAME ('=' INT)? ';'  |  'assume' bexp ';'
 *            | 'threads' INT (',' INT (',' INT)?)? ';'  |  'blocks' INT ... ';'
 *   seq     := stmt (';' stmt)* ';'?         (a `let` takes the rest of its sequence)
 *   stmt    := 'skip' | 'sync' | NAME '[' exp ']' ':=' exp
 *            | 'let' NAME '=' NAME '[' exp ']' 'in' seq
 *            | 'if' bexp '{' seq '}' 'else' '{' seq '}'
 *            | 'for' NAME 'in' exp '..' exp '{' seq '}'
 *
 * Comparison is `=` as in the paper (`==` is accepted too). */
#include "babycuda.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const bc_thread_var_name[6] = {"tid", "tid.y", "tid.z", "bid", "bid.y", "bid.z"};

int bc_thread_var(const char *name) {
  for (int k = 0; k < 6; k++)
    if (!strcmp(name, bc_thread_var_name[k])) return k;
  if (!strcmp(name, "tid.x")) return 0;
  if (!strcmp(name, "bid.x")) return 3;
  return -1;
}

/* ---------------------------------------------------------------- builders */

bc_program *bc_program_new(const char *file) {
  bc_program *p = xcalloc(1, sizeof *p);
  p->file = arena_strndup(&p->ar, file ? file : "<bc>", strlen(file ? file : "<bc>"));
  for (int k = 0; k < 3; k++) p->block[k] = p->grid[k] = 1;
  return p;
}

void bc_program_free(bc_program *p) {
  if (!p) return;
  free(p->arrays);
  free(p->params);
  free(p->assume);
  free(p->assume_pos);
  arena_free(&p->ar);
  free(p);
}

bc_expr *bc_num(bc_program *p, int64_t v) {
  bc_expr *e = arena_alloc(&p->ar, sizeof *e);
  e->k = BX_NUM;
  e->num = v;
  return e;
}

bc_expr *bc_var(bc_program *p, const char *name) {
  bc_expr *e = arena_alloc(&p->ar, sizeof *e);
  e->k = BX_VAR;
  e->var = arena_strndup(&p->ar, name, strlen(name));
  return e;
}

bc_expr *bc_bin(bc_program *p, bc_expr_kind k, bc_expr *a, bc_expr *b) {
  bc_expr *e = arena_alloc(&p->ar, sizeof *e);
  e->k = k;
  e->a = a;
  e->b = b;
  return e;
}

bc_stmt *bc_stmt_new(bc_program *p, bc_stmt_kind k, srcpos pos) {
  bc_stmt *s = arena_alloc(&p->ar, sizeof *s);
  s->k = k;
  s->pos = pos;
  s->array = -1;
  return s;
}

/* A let takes the rest of its sequence: statements after one are moved
 * into its continuation, so that a READ is always the last item. */
bc_stmt *bc_seq(bc_program *p, bc_stmt **items, int n, srcpos pos) {
  for (int k = 0; k + 1 < n; k++)
    if (items[k]->k == BS_READ) {
      bc_stmt *r = items[k];
      int m = n - k - 1 + (r->body && r->body->k != BS_SKIP);
      bc_stmt **rest = arena_alloc(&p->ar, (size_t)m * sizeof *rest);
      int j = 0;
      if (r->body && r->body->k != BS_SKIP) rest[j++] = r->body;
      for (int i = k + 1; i < n; i++) rest[j++] = items[i];
      r->body = bc_seq(p, rest, m, items[k + 1]->pos);
      n = k + 1;
      break;
    }
  if (n == 1) return items[0];
  bc_stmt *s = bc_stmt_new(p, n ? BS_SEQ : BS_SKIP, pos);
  if (!n) return s;
  s->items = arena_alloc(&p->ar, (size_t)n * sizeof *s->items);
  memcpy(s->items, items, (size_t)n * sizeof *items);
  s->n = n;
  return s;
}

bc_expr *bc_expr_copy(bc_program *to, const bc_expr *e) {
  if (!e) return NULL;
  bc_expr *c = arena_alloc(&to->ar, sizeof *c);
  *c = *e;
  if (e->var) c->var = arena_strndup(&to->ar, e->var, strlen(e->var));
  c->a = bc_expr_copy(to, e->a);
  c->b = bc_expr_copy(to, e->b);
  return c;
}

int bc_find_array(const bc_program *p, const char *name) {
  for (int k = 0; k < p->narrays; k++)
    if (!strcmp(p->arrays[k].name, name)) return k;
  return -1;
}

int bc_add_array(bc_program *p, const char *name, bc_space space, int64_t size, srcpos decl) {
  p->arrays = xrealloc(p->arrays, (size_t)(p->narrays + 1) * sizeof *p->arrays);
  bc_array *a = &p->arrays[p->narrays];
  memset(a, 0, sizeof *a);
  a->name = arena_strndup(&p->ar, name, strlen(name));
  a->space = space;
  a->size = size;
  a->sk = SK_I64;
  a->decl = decl;
  return p->narrays++;
}

int bc_add_param(bc_program *p, const char *name) {
  p->params = xrealloc(p->params, (size_t)(p->nparams + 1) * sizeof *p->params);
  bc_param *q = &p->params[p->nparams];
  memset(q, 0, sizeof *q);
  q->name = arena_strndup(&p->ar, name, strlen(name));
  return p->nparams++;
}

void bc_expr_vars(const bc_expr *e, void (*f)(const char *var, void *ctx), void *ctx) {
  if (!e) return;
  if (e->k == BX_VAR) f(e->var, ctx);
  bc_expr_vars(e->a, f, ctx);
  bc_expr_vars(e->b, f, ctx);
}

int bc_expr_mentions(const bc_expr *e, const char *var) {
  if (!e) return 0;
  if (e->k == BX_VAR) return !strcmp(e->var, var);
  return bc_expr_mentions(e->a, var) || bc_expr_mentions(e->b, var);
}

int64_t bc_threads_per_block(const bc_program *p) { return p->block[0] * p->block[1] * p->block[2]; }
int64_t bc_blocks(const bc_program *p) { return p->grid[0] * p->grid[1] * p->grid[2]; }

/* ---------------------------------------------------------------- printer */

static int prec(bc_expr_kind k) {
  switch (k) {
  case BX_OR: return 1;
  case BX_AND: return 2;
  case BX_EQ: case BX_NE: case BX_LT: case BX_LE: case BX_GT: case BX_GE: return 3;
  case BX_ADD: case BX_SUB: return 4;
  case BX_MUL: case BX_DIV: case BX_REM: return 5;
  case BX_NEG: case BX_NOT: return 6;
  default: return 7;
  }
}

static const char *op_text(bc_expr_kind k) {
  switch (k) {
  case BX_ADD: return "+"; case BX_SUB: return "-"; case BX_MUL: return "*"; case BX_DIV: return "/";
  case BX_REM: return "%"; case BX_EQ: return "="; case BX_NE: return "!="; case BX_LT: return "<";
  case BX_LE: return "<="; case BX_GT: return ">"; case BX_GE: return ">="; case BX_AND: return "&&";
  case BX_OR: return "||"; default: return "?";
  }
}

static void print_expr_prec(FILE *out, const bc_expr *e, int ctx) {
  int p = prec(e->k);
  int paren = p < ctx;
  if (paren) fputc('(', out);
  switch (e->k) {
  case BX_NUM: fprintf(out, "%" PRId64, e->num); break;
  case BX_VAR: fputs(e->var, out); break;
  case BX_TRUE: fputs("true", out); break;
  case BX_FALSE: fputs("false", out); break;
  case BX_NEG: fputc('-', out); print_expr_prec(out, e->a, 7); break;
  case BX_NOT: fputc('!', out); print_expr_prec(out, e->a, 7); break;
  default:
    /* left-associative: the right operand needs parentheses at equal precedence */
    print_expr_prec(out, e->a, p);
    fprintf(out, " %s ", op_text(e->k));
    print_expr_prec(out, e->b, p + 1);
  }
  if (paren) fputc(')', out);
}

void bc_print_expr(FILE *out, const bc_expr *e) { print_expr_prec(out, e, 0); }

static void indent_to(FILE *out, int n) { for (int k = 0; k < n; k++) fputs("  ", out); }

/* Prints s as a sequence: its items one per line, `;` between them. */
static void print_seq(FILE *out, const bc_program *p, const bc_stmt *s, int ind);

static void print_one(FILE *out, const bc_program *p, const bc_stmt *s, int ind) {
  if (s->k == BS_SEQ) { print_seq(out, p, s, ind); return; }
  indent_to(out, ind);
  switch (s->k) {
  case BS_SKIP: fputs("skip", out); break;
  case BS_SYNC: fputs("sync", out); break;
  case BS_WRITE:
    fprintf(out, "%s%s[", s->atomic ? "atomic " : "", p->arrays[s->array].name);
    bc_print_expr(out, s->idx);
    fputs("] := ", out);
    bc_print_expr(out, s->val);
    break;
  case BS_READ:
    fprintf(out, "let %s = %s[", s->var, p->arrays[s->array].name);
    bc_print_expr(out, s->idx);
    fputs("] in\n", out);
    print_seq(out, p, s->body, ind);
    return;
  case BS_IF:
    fputs("if ", out);
    bc_print_expr(out, s->cond);
    fputs(" {\n", out);
    print_seq(out, p, s->body, ind + 1);
    fputc('\n', out);
    indent_to(out, ind);
    fputs("} else {\n", out);
    print_seq(out, p, s->els, ind + 1);
    fputc('\n', out);
    indent_to(out, ind);
    fputc('}', out);
    break;
  case BS_FOR:
    fprintf(out, "for %s in ", s->var);
    bc_print_expr(out, s->lo);
    fputs("..", out);
    print_expr_prec(out, s->hi, 4);
    fputs(" {\n", out);
    print_seq(out, p, s->body, ind + 1);
    fputc('\n', out);
    indent_to(out, ind);
    fputc('}', out);
    break;
  case BS_SEQ:
    break;
  }
}

static void print_seq(FILE *out, const bc_program *p, const bc_stmt *s, int ind) {
  if (s->k != BS_SEQ) { print_one(out, p, s, ind); return; }
  /* skips in a sequence say nothing (the shrinker leaves them) */
  int last = -1, first = 1;
  for (int k = 0; k < s->n; k++)
    if (s->items[k]->k != BS_SKIP) last = k;
  if (last < 0) { print_one(out, p, s->items[0], ind); return; }
  for (int k = 0; k <= last; k++) {
    if (s->items[k]->k == BS_SKIP) continue;
    if (!first) fputs(";\n", out);
    print_one(out, p, s->items[k], ind);
    first = 0;
  }
}

void bc_print_stmt(FILE *out, const bc_program *p, const bc_stmt *s, int indent) { print_seq(out, p, s, indent); }

void bc_print(FILE *out, const bc_program *p) {
  if (p->kernel) fprintf(out, "// extracted from kernel %s of %s\n", p->kernel, p->file);
  for (int k = 0; k < p->narrays; k++) {
    const bc_array *a = &p->arrays[k];
    fprintf(out, "%s array %s[%" PRId64 "]", a->space == BC_SHARED ? "shared" : "global", a->name, a->size);
    if (a->init) {
      fputs(" = {", out);
      for (int64_t j = 0; j < a->size; j++) fprintf(out, "%s%" PRId64, j ? ", " : "", a->init[j]);
      fputc('}', out);
    }
    fputs(";\n", out);
  }
  for (int k = 0; k < p->nparams; k++) {
    fprintf(out, "param %s", p->params[k].name);
    if (p->params[k].has_value) fprintf(out, " = %" PRId64, p->params[k].value);
    fputs(";\n", out);
  }
  for (int k = 0; k < p->nassume; k++) {
    fputs("assume ", out);
    bc_print_expr(out, p->assume[k]);
    fputs(";\n", out);
  }
  fprintf(out, "threads %" PRId64 ", %" PRId64 ", %" PRId64 ";\n", p->block[0], p->block[1], p->block[2]);
  fprintf(out, "blocks %" PRId64 ", %" PRId64 ", %" PRId64 ";\n", p->grid[0], p->grid[1], p->grid[2]);
  fputs("kernel {\n", out);
  print_seq(out, p, p->body, 1);
  fputs("\n}\n", out);
}

/* ---------------------------------------------------------------- reader */

typedef struct {
  bc_program *p;
  const char *text, *end, *cur;
  int line;
  const char *line_start;
  diag d;                  /* the first error, "file:line:col: error: ..." */
  jmp_buf bail;
  int depth;
  /* the current token */
  enum { T_EOF, T_NAME, T_INT, T_PUNCT } tk;
  char tok[64];
  int64_t ival;
  srcpos tpos;
} rd;

#define BC_MAX_DEPTH 200

static void next(rd *r) {
  for (;;) {
    while (r->cur < r->end && (*r->cur == ' ' || *r->cur == '\t' || *r->cur == '\r' || *r->cur == '\n')) {
      if (*r->cur == '\n') { r->line++; r->line_start = r->cur + 1; }
      r->cur++;
    }
    if (r->cur + 1 < r->end && r->cur[0] == '/' && r->cur[1] == '/') {
      while (r->cur < r->end && *r->cur != '\n') r->cur++;
      continue;
    }
    break;
  }
  r->tpos.file = r->p->file;
  r->tpos.line = r->line;
  r->tpos.col = (int)(r->cur - r->line_start) + 1;
  if (r->cur >= r->end) { r->tk = T_EOF; strcpy(r->tok, "end of file"); return; }
  unsigned char c = (unsigned char)*r->cur;
  if (!c) diag_fail(&r->d, r->tpos, "a NUL byte in the file");
  if (isalpha(c) || c == '_') {
    const char *s = r->cur;
    /* tid.y and bid.z are one name, as are a struct parameter's fields (f.in.y, f.a.2) */
    while (r->cur < r->end && (isalnum((unsigned char)*r->cur) || *r->cur == '_' ||
                               (*r->cur == '.' && r->cur + 1 < r->end && (isalnum((unsigned char)r->cur[1]) || r->cur[1] == '_'))))
      r->cur++;
    size_t n = (size_t)(r->cur - s);
    if (n >= sizeof r->tok) diag_fail(&r->d, r->tpos, "a name longer than %zu characters", sizeof r->tok - 1);
    memcpy(r->tok, s, n);
    r->tok[n] = 0;
    r->tk = T_NAME;
    return;
  }
  if (isdigit(c)) {
    const char *s = r->cur;
    uint64_t v = 0;
    while (r->cur < r->end && isdigit((unsigned char)*r->cur)) {
      unsigned d = (unsigned)(*r->cur - '0');
      if (v > (uint64_t)(INT64_MAX - d) / 10) diag_fail(&r->d, r->tpos, "the number does not fit in 64 bits");
      v = v * 10 + d;
      r->cur++;
    }
    if (r->cur < r->end && (isalpha((unsigned char)*r->cur) || *r->cur == '_'))
      diag_fail(&r->d, r->tpos, "a number followed by '%c'", *r->cur);
    snprintf(r->tok, sizeof r->tok, "%.*s", (int)(r->cur - s), s);
    r->ival = (int64_t)v;
    r->tk = T_INT;
    return;
  }
  static const char *const two[] = {":=", "..", "==", "!=", "<=", ">=", "&&", "||"};
  for (size_t k = 0; k < sizeof two / sizeof *two; k++)
    if (r->cur + 1 < r->end && r->cur[0] == two[k][0] && r->cur[1] == two[k][1]) {
      memcpy(r->tok, two[k], 3);
      r->cur += 2;
      r->tk = T_PUNCT;
      return;
    }
  if (strchr("{}[]();,=<>+-*/%!", (int)c)) {
    r->tok[0] = (char)c;
    r->tok[1] = 0;
    r->cur++;
    r->tk = T_PUNCT;
    return;
  }
  if (c >= 0x80) diag_fail(&r->d, r->tpos, "unexpected byte 0x%02x (write `in` for ∈, ASCII only)", c);
  diag_fail(&r->d, r->tpos, "unexpected character '%c'", c);
}

static int is(rd *r, const char *s) { return (r->tk == T_PUNCT || r->tk == T_NAME) && !strcmp(r->tok, s); }
static int accept(rd *r, const char *s) {
  if (!is(r, s)) return 0;
  next(r);
  return 1;
}
static void expect(rd *r, const char *s) {
  if (!accept(r, s)) diag_fail(&r->d, r->tpos, "expected '%s', found '%s'", s, r->tok);
}

static const char *const keywords[] = {"let", "in", "if", "else", "for", "skip", "sync", "kernel", "array", "param",
                                       "assume", "threads", "blocks", "shared", "global", "true", "false"};
static int is_keyword(const char *s) {
  for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++)
    if (!strcmp(s, keywords[k])) return 1;
  return 0;
}

static const char *name(rd *r, const char *what) {
  if (r->tk != T_NAME || is_keyword(r->tok)) diag_fail(&r->d, r->tpos, "expected %s, found '%s'", what, r->tok);
  const char *s = arena_strndup(&r->p->ar, r->tok, strlen(r->tok));
  next(r);
  return s;
}

static int64_t integer(rd *r, const char *what) {
  int neg = accept(r, "-");
  if (r->tk != T_INT) diag_fail(&r->d, r->tpos, "expected %s, found '%s'", what, r->tok);
  int64_t v = neg ? -r->ival : r->ival;
  next(r);
  return v;
}

static void enter(rd *r) {
  if (++r->depth > BC_MAX_DEPTH) diag_fail(&r->d, r->tpos, "nesting deeper than %d levels", BC_MAX_DEPTH);
}

static bc_expr *expr(rd *r, int min);

static bc_expr *primary(rd *r) {
  enter(r);
  bc_expr *e;
  srcpos at = r->tpos;
  if (accept(r, "(")) {
    e = expr(r, 0);
    expect(r, ")");
  } else if (accept(r, "-")) {
    e = bc_bin(r->p, BX_NEG, primary(r), NULL);
  } else if (accept(r, "!")) {
    e = bc_bin(r->p, BX_NOT, primary(r), NULL);
  } else if (r->tk == T_INT) {
    e = bc_num(r->p, r->ival);
    next(r);
  } else if (accept(r, "true")) {
    e = bc_bin(r->p, BX_TRUE, NULL, NULL);
  } else if (accept(r, "false")) {
    e = bc_bin(r->p, BX_FALSE, NULL, NULL);
  } else if (r->tk == T_NAME && !is_keyword(r->tok)) {
    if (bc_find_array(r->p, r->tok) >= 0)
      diag_fail(&r->d, at, "array '%s' read inside an expression: reads are `let x = %s[n] in ...` (hoist it)", r->tok, r->tok);
    e = bc_var(r->p, r->tok);
    next(r);
  } else {
    diag_fail(&r->d, at, "expected an expression, found '%s'", r->tok);
  }
  r->depth--;
  return e;
}

static int binop(rd *r, bc_expr_kind *k) {
  static const struct { const char *s; bc_expr_kind k; } ops[] = {
    {"||", BX_OR}, {"&&", BX_AND}, {"=", BX_EQ}, {"==", BX_EQ}, {"!=", BX_NE}, {"<", BX_LT}, {"<=", BX_LE},
    {">", BX_GT}, {">=", BX_GE}, {"+", BX_ADD}, {"-", BX_SUB}, {"*", BX_MUL}, {"/", BX_DIV}, {"%", BX_REM}};
  if (r->tk != T_PUNCT) return 0;
  for (size_t j = 0; j < sizeof ops / sizeof *ops; j++)
    if (!strcmp(r->tok, ops[j].s)) { *k = ops[j].k; return 1; }
  return 0;
}

static int is_num_kind(bc_expr_kind k) { return !BC_IS_BOOL(k); }

/* Precedence climbing; sorts are checked as the tree is built. */
static bc_expr *expr(rd *r, int min) {
  enter(r);
  srcpos at = r->tpos;
  bc_expr *a = primary(r);
  bc_expr_kind k;
  while (binop(r, &k) && prec(k) > min) {
    srcpos opat = r->tpos;
    next(r);
    bc_expr *b = expr(r, prec(k));
    int want_bool = k == BX_AND || k == BX_OR;
    if (want_bool ? (is_num_kind(a->k) || is_num_kind(b->k)) : (BC_IS_BOOL(a->k) || BC_IS_BOOL(b->k)))
      diag_fail(&r->d, opat, "'%s' takes %s operands", op_text(k), want_bool ? "boolean" : "numeric");
    if (prec(k) == 3 && prec(a->k) == 3) diag_fail(&r->d, opat, "comparisons do not chain: add parentheses");
    a = bc_bin(r->p, k, a, b);
  }
  if (a->k == BX_NEG && BC_IS_BOOL(a->a->k)) diag_fail(&r->d, at, "'-' takes a numeric operand");
  if (a->k == BX_NOT && !BC_IS_BOOL(a->a->k)) diag_fail(&r->d, at, "'!' takes a boolean operand");
  r->depth--;
  return a;
}

static bc_expr *num_expr(rd *r) {
  srcpos at = r->tpos;
  bc_expr *e = expr(r, 0);
  if (BC_IS_BOOL(e->k)) diag_fail(&r->d, at, "expected a numeric expression, found a boolean one");
  return e;
}

static bc_expr *bool_expr(rd *r) {
  srcpos at = r->tpos;
  bc_expr *e = expr(r, 0);
  if (!BC_IS_BOOL(e->k)) diag_fail(&r->d, at, "expected a condition, found a numeric expression");
  return e;
}

static int array_ref(rd *r, srcpos *at) {
  *at = r->tpos;
  if (r->tk != T_NAME) diag_fail(&r->d, r->tpos, "expected an array, found '%s'", r->tok);
  int a = bc_find_array(r->p, r->tok);
  if (a < 0) diag_fail(&r->d, r->tpos, "'%s' is not a declared array", r->tok);
  next(r);
  return a;
}

static bc_stmt *seq(rd *r);

static bc_stmt *block(rd *r) {
  expect(r, "{");
  bc_stmt *s = is(r, "}") ? bc_stmt_new(r->p, BS_SKIP, r->tpos) : seq(r);
  expect(r, "}");
  return s;
}

static bc_stmt *stmt(rd *r) {
  enter(r);
  srcpos at = r->tpos;
  bc_stmt *s;
  if (accept(r, "skip")) {
    s = bc_stmt_new(r->p, BS_SKIP, at);
  } else if (accept(r, "sync")) {
    s = bc_stmt_new(r->p, BS_SYNC, at);
  } else if (accept(r, "let")) {
    s = bc_stmt_new(r->p, BS_READ, at);
    s->var = name(r, "a variable");
    if (bc_find_array(r->p, s->var) >= 0) diag_fail(&r->d, at, "'%s' is an array", s->var);
    expect(r, "=");
    srcpos aat;
    s->array = array_ref(r, &aat);
    expect(r, "[");
    s->idx = num_expr(r);
    expect(r, "]");
    expect(r, "in");
    s->body = (is(r, "}") || r->tk == T_EOF) ? bc_stmt_new(r->p, BS_SKIP, r->tpos) : seq(r);
  } else if (accept(r, "if")) {
    s = bc_stmt_new(r->p, BS_IF, at);
    s->cond = bool_expr(r);
    s->body = block(r);
    if (!accept(r, "else")) diag_fail(&r->d, r->tpos, "BabyCUDA's if needs its else branch (write `else { skip }`)");
    s->els = block(r);
  } else if (accept(r, "for")) {
    s = bc_stmt_new(r->p, BS_FOR, at);
    s->var = name(r, "a loop variable");
    expect(r, "in");
    s->lo = num_expr(r);
    expect(r, "..");
    s->hi = num_expr(r);
    s->body = block(r);
  } else if (r->tk == T_NAME && (bc_find_array(r->p, r->tok) >= 0 || !strcmp(r->tok, "atomic"))) {
    /* `atomic` is no keyword: an array may bear the name */
    s = bc_stmt_new(r->p, BS_WRITE, at);
    s->atomic = bc_find_array(r->p, r->tok) < 0 && accept(r, "atomic");
    srcpos aat;
    s->array = array_ref(r, &aat);
    expect(r, "[");
    s->idx = num_expr(r);
    expect(r, "]");
    expect(r, ":=");
    s->val = num_expr(r);
  } else {
    diag_fail(&r->d, at, "expected a statement (skip, sync, let, if, for, ARRAY[n] := m or atomic ARRAY[n] := m), found '%s'", r->tok);
  }
  r->depth--;
  return s;
}

static bc_stmt *seq(rd *r) {
  enter(r);
  srcpos at = r->tpos;
  vec items;
  vec_init_arena(&items, sizeof(bc_stmt *), &r->p->ar);
  for (;;) {
    bc_stmt *s = stmt(r);
    *(bc_stmt **)vec_push(&items) = s;
    if (s->k == BS_READ) break;   /* its continuation took the rest */
    if (!accept(r, ";")) break;
    if (is(r, "}") || r->tk == T_EOF) break;
  }
  r->depth--;
  return bc_seq(r->p, (bc_stmt **)items.data, (int)items.len, at);
}

/* As CUDA bounds them: 1024 threads a block, 2^31-1 x 65535 x 65535 blocks
 * (here 65535 each). */
static void dims(rd *r, int64_t out[3], int threads) {
  srcpos at = r->tpos;
  for (int k = 0; k < 3; k++) out[k] = 1;
  for (int k = 0; k < 3; k++) {
    srcpos nat = r->tpos;
    out[k] = integer(r, "a count");
    if (out[k] < 1 || out[k] > (threads ? 1024 : 65535))
      diag_fail(&r->d, nat, "%s must be in 1..%d", threads ? "a block's size" : "the grid's size", threads ? 1024 : 65535);
    if (!accept(r, ",")) break;
  }
  if (threads && out[0] * out[1] * out[2] > 1024) diag_fail(&r->d, at, "a block has at most 1024 threads");
}

/* Every variable is bound: a thread coordinate, a parameter, a loop
 * variable or a let; assumptions speak of parameters only. */
typedef struct { rd *r; srcpos at; vec *bound; int params_only; } scope_ck;
static void bound_var(const char *v, void *ctx) {
  scope_ck *c = ctx;
  if (!c->params_only && bc_thread_var(v) >= 0) return;
  for (size_t k = c->bound->len; k-- > 0;)
    if (!strcmp(*(const char **)vec_at(c->bound, k), v)) return;
  diag_fail(&c->r->d, c->at, "'%s' is not bound here%s", v, c->params_only ? " (an assumption speaks of parameters)" : "");
}
static void check_bound(rd *r, srcpos at, const bc_expr *e, vec *bound, int params_only) {
  scope_ck c = {r, at, bound, params_only};
  bc_expr_vars(e, bound_var, &c);
}
static void check_scopes(rd *r, const bc_stmt *s, vec *bound) {
  size_t mark = bound->len;
  switch (s->k) {
  case BS_SEQ:
    for (int k = 0; k < s->n; k++) check_scopes(r, s->items[k], bound);
    break;
  case BS_READ:
    check_bound(r, s->pos, s->idx, bound, 0);
    if (bc_thread_var(s->var) >= 0) diag_fail(&r->d, s->pos, "'%s' names a thread coordinate", s->var);
    *(const char **)vec_push(bound) = s->var;
    check_scopes(r, s->body, bound);
    break;
  case BS_WRITE:
    check_bound(r, s->pos, s->idx, bound, 0);
    check_bound(r, s->pos, s->val, bound, 0);
    break;
  case BS_IF:
    check_bound(r, s->pos, s->cond, bound, 0);
    check_scopes(r, s->body, bound);
    check_scopes(r, s->els, bound);
    break;
  case BS_FOR:
    check_bound(r, s->pos, s->lo, bound, 0);
    check_bound(r, s->pos, s->hi, bound, 0);
    if (bc_thread_var(s->var) >= 0) diag_fail(&r->d, s->pos, "'%s' names a thread coordinate", s->var);
    *(const char **)vec_push(bound) = s->var;
    check_scopes(r, s->body, bound);
    break;
  default: break;
  }
  bound->len = mark;
}

bc_program *bc_parse(const char *file, const char *text, size_t len, char *err, size_t errlen) {
  rd r;
  memset(&r, 0, sizeof r);
  r.p = bc_program_new(file);
  r.text = r.cur = r.line_start = text;
  r.end = text + len;
  r.line = 1;
  r.d.bail = &r.bail;
  if (setjmp(r.bail)) {
    snprintf(err, errlen, "%s", r.d.msg);
    bc_program_free(r.p);
    return NULL;
  }
  next(&r);
  for (;;) {
    srcpos at = r.tpos;
    if (accept(&r, "kernel")) break;
    if (is(&r, "array") || is(&r, "shared") || is(&r, "global")) {
      bc_space sp = accept(&r, "global") ? BC_GLOBAL : (accept(&r, "shared"), BC_SHARED);
      expect(&r, "array");
      srcpos nat = r.tpos;
      const char *n = name(&r, "an array name");
      if (bc_find_array(r.p, n) >= 0) diag_fail(&r.d, nat, "array '%s' declared twice", n);
      if (bc_thread_var(n) >= 0) diag_fail(&r.d, nat, "'%s' names a thread coordinate", n);
      for (int k = 0; k < r.p->nparams; k++)
        if (!strcmp(r.p->params[k].name, n)) diag_fail(&r.d, nat, "'%s' is a parameter", n);
      expect(&r, "[");
      srcpos sat = r.tpos;
      int64_t size = integer(&r, "the array's size");
      if (size < 1 || size > (1 << 24)) diag_fail(&r.d, sat, "an array's size must be in 1..%d", 1 << 24);
      expect(&r, "]");
      int a = bc_add_array(r.p, n, sp, size, nat);
      if (accept(&r, "=")) {
        expect(&r, "{");
        int64_t *init = arena_alloc(&r.p->ar, (size_t)size * sizeof *init);
        int64_t k = 0;
        while (!is(&r, "}")) {
          srcpos vat = r.tpos;
          if (k == size) diag_fail(&r.d, vat, "more initial values than the %" PRId64 " elements of '%s'", size, n);
          init[k++] = integer(&r, "an initial value");
          if (!accept(&r, ",")) break;
        }
        if (k != size) diag_fail(&r.d, r.tpos, "'%s' has %" PRId64 " elements and %" PRId64 " initial values", n, size, k);
        expect(&r, "}");
        r.p->arrays[a].init = init;
      }
      expect(&r, ";");
    } else if (accept(&r, "param")) {
      srcpos nat = r.tpos;
      const char *n = name(&r, "a parameter name");
      if (bc_thread_var(n) >= 0) diag_fail(&r.d, nat, "'%s' names a thread coordinate", n);
      if (bc_find_array(r.p, n) >= 0) diag_fail(&r.d, nat, "'%s' is an array", n);
      for (int k = 0; k < r.p->nparams; k++)
        if (!strcmp(r.p->params[k].name, n)) diag_fail(&r.d, nat, "parameter '%s' declared twice", n);
      int q = bc_add_param(r.p, n);
      if (accept(&r, "=")) {
        r.p->params[q].value = integer(&r, "the parameter's value");
        r.p->params[q].has_value = 1;
      }
      expect(&r, ";");
    } else if (accept(&r, "assume")) {
      r.p->assume = xrealloc(r.p->assume, (size_t)(r.p->nassume + 1) * sizeof *r.p->assume);
      r.p->assume_pos = xrealloc(r.p->assume_pos, (size_t)(r.p->nassume + 1) * sizeof *r.p->assume_pos);
      r.p->assume_pos[r.p->nassume] = r.tpos;
      r.p->assume[r.p->nassume++] = bool_expr(&r);
      expect(&r, ";");
    } else if (accept(&r, "threads")) {
      dims(&r, r.p->block, 1);
      expect(&r, ";");
    } else if (accept(&r, "blocks")) {
      dims(&r, r.p->grid, 0);
      expect(&r, ";");
    } else {
      diag_fail(&r.d, at, "expected a declaration (array, param, assume, threads, blocks) or 'kernel', found '%s'", r.tok);
    }
  }
  r.p->body = block(&r);
  if (r.tk != T_EOF) diag_fail(&r.d, r.tpos, "text after the kernel: '%s'", r.tok);
  vec bound;
  vec_init_arena(&bound, sizeof(const char *), &r.p->ar);
  for (int k = 0; k < r.p->nparams; k++) *(const char **)vec_push(&bound) = r.p->params[k].name;
  for (int k = 0; k < r.p->nassume; k++) check_bound(&r, r.p->assume_pos[k], r.p->assume[k], &bound, 1);
  check_scopes(&r, r.p->body, &bound);
  return r.p;
}
