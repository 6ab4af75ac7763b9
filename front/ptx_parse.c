/* ptx_parse: PTX text, as nvcc and NVRTC emit it, into ptx_module.
 *
 * A hand-written scanner and recursive-descent parser in the manner of
 * Lua's lparser.c: one token of lookahead, names resolved as they are read
 * (registers and function-scope symbols through a scope stack, since call
 * sequences declare their .param and .reg in nested blocks), and every
 * error is "file.ptx:line:col: error: ...".  Debug sections (-G) are
 * skipped whole.  Meaning is the lowering's business (ptx_lower.c): here
 * an opcode is its name and its modifiers. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_int.h"

const char *const ptx_type_name[PT_COUNT] = {"", "pred", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
  "s8", "s16", "s32", "s64", "f16", "f16x2", "bf16", "f32", "f64", "b128", "bf16x2"};
const char *const ptx_space_name[PS_COUNT] = {"", "reg", "global", "shared", "local", "const", "param"};

int ptx_type_size(ptx_type t) {
  static const int sz[PT_COUNT] = {0, 1, 1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 2, 4, 8, 16, 4};
  return sz[t];
}

typedef enum { T_EOF, T_ID, T_DOT, T_INT, T_FLOAT, T_STR, T_PUNCT } tkind;

typedef struct {
  tkind k;
  const char *s;      /* T_ID, T_DOT (without the dot), T_STR: interned */
  int64_t i;
  double f;
  int fbits;          /* T_FLOAT: 32, 64, or 0 for decimal */
  char c;             /* T_PUNCT */
  int line, col;
} token;

/* A declared name in a scope: a register range (%r<19>), one register, or
 * a function-scope variable. */
typedef struct { const char *name; size_t nlen; int count; int base; ptx_var *var; } decl;

typedef struct {
  arena *ar;
  diag *d;
  const char *path;
  const char *src, *end, *p;
  int line;
  const char *line_start;
  token t, ahead;
  int has_ahead;
  ptx_module *m;
  vec funcs, vars, files;
  /* the function being read */
  ptx_func *f;
  vec regs, code, fvars, scope;
  int loc_file, loc_line, loc_col;
  int loc_in_file, loc_in_line, loc_in_col;   /* inlined_at, or file -1 */
} P;

static srcpos here(P *p) { srcpos s = {p->path, p->t.line, p->t.col}; return s; }

#define FAIL(p, ...) diag_fail((p)->d, here(p), __VA_ARGS__)

static const char *tok_desc(P *p, char *buf, size_t n) {
  switch (p->t.k) {
  case T_EOF: return "end of file";
  case T_ID: snprintf(buf, n, "'%s'", p->t.s); return buf;
  case T_DOT: snprintf(buf, n, "'.%s'", p->t.s); return buf;
  case T_INT: case T_FLOAT: return "a number";
  case T_STR: return "a string";
  default: snprintf(buf, n, "'%c'", p->t.c); return buf;
  }
}

/* ------------------------------------------------------------- scanner */

static int id_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%'; }
static int id_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

static void scan(P *p, token *t) {
  for (;;) {
    while (p->p < p->end && (*p->p == ' ' || *p->p == '\t' || *p->p == '\r' || *p->p == '\n')) {
      if (*p->p == '\n') { p->line++; p->line_start = p->p + 1; }
      p->p++;
    }
    if (p->p + 1 < p->end && p->p[0] == '/' && p->p[1] == '/') {
      while (p->p < p->end && *p->p != '\n') p->p++;
      continue;
    }
    if (p->p + 1 < p->end && p->p[0] == '/' && p->p[1] == '*') {
      p->p += 2;
      while (p->p + 1 < p->end && !(p->p[0] == '*' && p->p[1] == '/')) {
        if (*p->p == '\n') { p->line++; p->line_start = p->p + 1; }
        p->p++;
      }
      if (p->p + 1 >= p->end) { srcpos s = {p->path, p->line, (int)(p->p - p->line_start) + 1}; diag_fail(p->d, s, "unterminated comment"); }
      p->p += 2;
      continue;
    }
    break;
  }
  t->line = p->line;
  t->col = (int)(p->p - p->line_start) + 1;
  if (p->p >= p->end) { t->k = T_EOF; return; }
  const char *s = p->p;
  int c = (unsigned char)*s;
  if (c == 0) { srcpos sp = {p->path, t->line, t->col}; diag_fail(p->d, sp, "NUL byte in PTX text"); }
  if (id_start(c) && !(c == '%' && !(s + 1 < p->end && id_start((unsigned char)s[1])))) {
    const char *e = s + 1;
    while (e < p->end && id_char((unsigned char)*e)) e++;
    t->k = T_ID;
    t->s = arena_strndup(p->ar, s, (size_t)(e - s));
    p->p = e;
    return;
  }
  if (c == '.' && s + 1 < p->end && (isalpha((unsigned char)s[1]) || s[1] == '_')) {
    const char *e = s + 1;
    while (e < p->end && id_char((unsigned char)*e)) e++;
    t->k = T_DOT;
    t->s = arena_strndup(p->ar, s + 1, (size_t)(e - s - 1));
    p->p = e;
    return;
  }
  if (isdigit(c)) {
    const char *e = s;
    if (s[0] == '0' && s + 1 < p->end && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
      int n = (s[1] == 'f' || s[1] == 'F') ? 8 : 16;
      e = s + 2;
      uint64_t v = 0;
      int k = 0;
      while (e < p->end && isxdigit((unsigned char)*e) && k < n) { v = v << 4 | (uint64_t)(isdigit((unsigned char)*e) ? *e - '0' : (tolower((unsigned char)*e) - 'a' + 10)); e++; k++; }
      if (k != n || (e < p->end && id_char((unsigned char)*e))) {
        srcpos sp = {p->path, t->line, t->col};
        diag_fail(p->d, sp, "malformed floating-point literal (0f takes 8 hex digits, 0d takes 16)");
      }
      t->k = T_FLOAT;
      t->fbits = n == 8 ? 32 : 64;
      t->i = (int64_t)v;
      p->p = e;
      return;
    }
    /* a decimal float: digits with a point or an exponent */
    const char *q = s;
    while (q < p->end && isdigit((unsigned char)*q)) q++;
    if (q < p->end && (*q == '.' || *q == 'e' || *q == 'E') && !(s[0] == '0' && q == s + 1 && q < p->end && (*q == 'x'))) {
      char buf[128];
      size_t n = 0;
      const char *r = s;
      while (r < p->end && n + 1 < sizeof buf && (isdigit((unsigned char)*r) || *r == '.' || *r == 'e' || *r == 'E' ||
             ((*r == '+' || *r == '-') && (r[-1] == 'e' || r[-1] == 'E'))))
        buf[n++] = *r++;
      buf[n] = 0;
      char *endp;
      t->f = strtod(buf, &endp);
      if (*endp) { srcpos sp = {p->path, t->line, t->col}; diag_fail(p->d, sp, "malformed number '%s'", buf); }
      t->k = T_FLOAT;
      t->fbits = 0;
      p->p = r;
      return;
    }
    int base = 10;
    e = s;
    if (s[0] == '0' && s + 1 < p->end && (s[1] == 'x' || s[1] == 'X')) { base = 16; e = s + 2; }
    else if (s[0] == '0' && s + 1 < p->end && (s[1] == 'b' || s[1] == 'B')) { base = 2; e = s + 2; }
    else if (s[0] == '0' && s + 1 < p->end && isdigit((unsigned char)s[1])) { base = 8; e = s + 1; }
    uint64_t v = 0;
    int nd = 0, over = 0;
    for (; e < p->end; e++) {
      int dv = isdigit((unsigned char)*e) ? *e - '0' : isxdigit((unsigned char)*e) ? tolower((unsigned char)*e) - 'a' + 10 : 99;
      if (dv >= base) break;
      if (v > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base) over = 1;
      v = v * (uint64_t)base + (uint64_t)dv;
      nd++;
    }
    if (e < p->end && (*e == 'U' || *e == 'u')) e++;
    if (base != 10 && base != 8 && nd == 0) { srcpos sp = {p->path, t->line, t->col}; diag_fail(p->d, sp, "malformed number"); }
    if (over || (e < p->end && id_char((unsigned char)*e))) { srcpos sp = {p->path, t->line, t->col}; diag_fail(p->d, sp, "malformed or out-of-range integer"); }
    t->k = T_INT;
    t->i = (int64_t)v;
    p->p = e;
    return;
  }
  if (c == '"') {
    const char *e = s + 1;
    while (e < p->end && *e != '"' && *e != '\n') e++;
    if (e >= p->end || *e != '"') { srcpos sp = {p->path, t->line, t->col}; diag_fail(p->d, sp, "unterminated string"); }
    t->k = T_STR;
    t->s = arena_strndup(p->ar, s + 1, (size_t)(e - s - 1));
    p->p = e + 1;
    return;
  }
  if (strchr(",;:{}[]()+-!@|<>=", c)) { t->k = T_PUNCT; t->c = (char)c; p->p++; return; }
  srcpos sp = {p->path, t->line, t->col};
  if (isprint(c)) diag_fail(p->d, sp, "unexpected character '%c'", c);
  diag_fail(p->d, sp, "unexpected byte 0x%02x", c);
}

static void next(P *p) {
  if (p->has_ahead) { p->t = p->ahead; p->has_ahead = 0; }
  else scan(p, &p->t);
}
static token *peek(P *p) {
  if (!p->has_ahead) { scan(p, &p->ahead); p->has_ahead = 1; }
  return &p->ahead;
}
static int is_punct(P *p, char c) { return p->t.k == T_PUNCT && p->t.c == c; }
static int is_dot(P *p, const char *s) { return p->t.k == T_DOT && !strcmp(p->t.s, s); }
static int accept(P *p, char c) { if (is_punct(p, c)) { next(p); return 1; } return 0; }
static void expect(P *p, char c) {
  char b[64];
  if (!accept(p, c)) FAIL(p, "expected '%c', found %s", c, tok_desc(p, b, sizeof b));
}
static const char *expect_id(P *p, const char *what) {
  char b[64];
  if (p->t.k != T_ID) FAIL(p, "expected %s, found %s", what, tok_desc(p, b, sizeof b));
  const char *s = p->t.s;
  next(p);
  return s;
}
static int64_t expect_int(P *p, const char *what) {
  char b[64];
  int neg = accept(p, '-');
  if (p->t.k != T_INT) FAIL(p, "expected %s, found %s", what, tok_desc(p, b, sizeof b));
  int64_t v = p->t.i;
  next(p);
  return neg ? -v : v;
}

static ptx_type type_of(const char *s) {
  for (int k = 1; k < PT_COUNT; k++) if (!strcmp(s, ptx_type_name[k])) return (ptx_type)k;
  return PT_NONE;
}

/* Skips a balanced { ... } (a debug section). */
static void skip_braces(P *p) {
  int depth = 0;
  do {
    if (p->t.k == T_EOF) FAIL(p, "unterminated section");
    if (is_punct(p, '{')) depth++;
    else if (is_punct(p, '}')) depth--;
    next(p);
  } while (depth > 0);
}
static void skip_to_semi(P *p) {
  while (!is_punct(p, ';')) {
    if (p->t.k == T_EOF) FAIL(p, "expected ';'");
    next(p);
  }
  next(p);
}

/* ------------------------------------------------------------- names */

static ptx_var *module_var(P *p, const char *name) {
  for (size_t k = 0; k < p->vars.len; k++) {
    ptx_var *v = *(ptx_var **)vec_at(&p->vars, k);
    if (!strcmp(v->name, name)) return v;
  }
  return NULL;
}

/* The register or function-scope variable `name` names, innermost first. */
static decl *lookup(P *p, const char *name) {
  size_t n = strlen(name);
  for (size_t k = p->scope.len; k-- > 0;) {
    decl *d = vec_at(&p->scope, k);
    if (!d->name) continue;   /* a scope mark */
    if (d->count < 0) { if (!strcmp(d->name, name)) return d; continue; }
    if (n > d->nlen && !strncmp(d->name, name, d->nlen)) {
      const char *q = name + d->nlen;
      if (!isdigit((unsigned char)*q) || (*q == '0' && q[1])) continue;
      char *e;
      long idx = strtol(q, &e, 10);
      if (*e || idx >= d->count) continue;
      return d;
    }
  }
  return NULL;
}

static int reg_index(decl *d, const char *name) {
  if (d->count < 0) return d->base;
  return d->base + (int)strtol(name + d->nlen, NULL, 10);
}

static void scope_open(P *p) { decl *d = vec_push(&p->scope); d->name = NULL; }
static void scope_close(P *p) {
  while (p->scope.len > 0) {
    decl *d = vec_at(&p->scope, p->scope.len - 1);
    p->scope.len--;
    if (!d->name) return;
  }
}

static int new_reg(P *p, ptx_type t) {
  *(ptx_type *)vec_push(&p->regs) = t;
  return (int)p->regs.len - 1;
}

/* .reg .type %r<N>;  or  .reg .type a, b; */
static void reg_decl(P *p) {
  next(p);   /* .reg */
  while (p->t.k == T_DOT && (is_dot(p, "v2") || is_dot(p, "v4"))) FAIL(p, "vector registers (.reg .v2/.v4) are not supported");
  char b[64];
  if (p->t.k != T_DOT || !type_of(p->t.s)) FAIL(p, "expected a register type after .reg, found %s", tok_desc(p, b, sizeof b));
  ptx_type t = type_of(p->t.s);
  next(p);
  do {
    srcpos at = here(p);
    const char *name = expect_id(p, "a register name");
    decl d = {name, strlen(name), -1, 0, NULL};
    if (accept(p, '<')) {
      int64_t n = expect_int(p, "a register count");
      if (n < 0 || n > (1 << 22)) diag_fail(p->d, at, "register count %lld out of range", (long long)n);
      expect(p, '>');
      d.count = (int)n;
      d.base = (int)p->regs.len;
      for (int64_t k = 0; k < n; k++) new_reg(p, t);
    } else {
      d.base = new_reg(p, t);
    }
    *(decl *)vec_push(&p->scope) = d;
  } while (accept(p, ','));
  expect(p, ';');
}

/* [.align N] [.ptr .space .align N] .type NAME [ '[' N ']' ... ] -- after the space. */
static ptx_var *var_decl(P *p, ptx_space sp, int is_extern) {
  ptx_var *v = arena_alloc(p->ar, sizeof *v);
  v->space = sp;
  v->is_extern = is_extern;
  v->owner = -1;
  v->line = p->t.line;
  int vecn = 1;
  char b[64];
  for (;;) {
    if (is_dot(p, "align")) { next(p); int64_t a = expect_int(p, "an alignment"); if (a <= 0 || a > 4096 || (a & (a - 1))) FAIL(p, "bad alignment %lld", (long long)a); v->align = (uint32_t)a; continue; }
    if (is_dot(p, "v2")) { next(p); vecn = 2; continue; }
    if (is_dot(p, "v4")) { next(p); vecn = 4; continue; }
    if (is_dot(p, "ptr")) {   /* .ptr .global .align 4: a parameter's pointee, for the compiler's information */
      next(p);
      while (p->t.k == T_DOT && (is_dot(p, "global") || is_dot(p, "shared") || is_dot(p, "const") || is_dot(p, "local"))) next(p);
      if (is_dot(p, "align")) { next(p); expect_int(p, "an alignment"); }
      continue;
    }
    if (is_dot(p, "attribute")) {   /* .attribute(.managed): a __managed__ variable, which the device sees as a global */
      next(p);
      if (!accept(p, '(') || !is_dot(p, "managed")) FAIL(p, "expected .attribute(.managed), the one attribute of a variable");
      next(p);
      if (!accept(p, ')')) FAIL(p, "expected ')' after .attribute(.managed");
      continue;
    }
    break;
  }
  if (p->t.k != T_DOT || !type_of(p->t.s)) FAIL(p, "expected a type, found %s", tok_desc(p, b, sizeof b));
  v->type = type_of(p->t.s);
  next(p);
  if (p->t.k != T_ID) FAIL(p, "expected a name, found %s", tok_desc(p, b, sizeof b));
  v->name = p->t.s;
  next(p);
  uint64_t n = (uint64_t)vecn;
  while (accept(p, '[')) {
    v->is_array = 1;
    if (is_punct(p, ']')) { next(p); v->nelem = -1; n = 0; continue; }   /* extern .shared x[] */
    int64_t k = expect_int(p, "an array size");
    if (k < 0 || (uint64_t)k > ((uint64_t)1 << 32) / (n ? n : 1)) FAIL(p, "array size %lld out of range", (long long)k);
    n *= (uint64_t)k;
    expect(p, ']');
  }
  uint64_t size = n * (uint64_t)ptx_type_size(v->type);
  if (size > ((uint64_t)1 << 32) - 1) FAIL(p, "variable '%s' is too large", v->name);
  v->size = (uint32_t)size;
  v->nelem = (int)n;
  if (!v->align) v->align = (uint32_t)ptx_type_size(v->type) * (uint32_t)vecn;
  if (!v->align) v->align = 1;
  return v;
}

static void var_init(P *p, ptx_var *v) {
  if (!accept(p, '=')) return;
  if (v->space != PS_GLOBAL && v->space != PS_CONST) FAIL(p, "only .global and .const variables take initialisers");
  v->init = arena_alloc(p->ar, v->size ? v->size : 1);
  int es = ptx_type_size(v->type);
  uint64_t k = 0;
  int braces = accept(p, '{');
  do {
    if (is_punct(p, '{')) FAIL(p, "nested initialisers are not supported");
    int neg = accept(p, '-');
    uint64_t bits;
    if (p->t.k == T_INT) {
      bits = neg ? 0 - (uint64_t)p->t.i : (uint64_t)p->t.i;   /* -9223372036854775808 (CUB's constants) negates in unsigned */
      if (v->type == PT_F32) { float f = (float)(neg ? -(double)p->t.i : (double)p->t.i); uint32_t u; memcpy(&u, &f, 4); bits = u; }
      else if (v->type == PT_F64) { double f = neg ? -(double)p->t.i : (double)p->t.i; memcpy(&bits, &f, 8); }
    } else if (p->t.k == T_FLOAT) {
      double f = p->t.fbits == 32 ? 0 : p->t.fbits == 64 ? 0 : p->t.f;
      if (p->t.fbits == 32) { uint32_t u = (uint32_t)p->t.i; float x; memcpy(&x, &u, 4); f = x; }
      else if (p->t.fbits == 64) { uint64_t u = (uint64_t)p->t.i; memcpy(&f, &u, 8); }
      if (neg) f = -f;
      if (v->type == PT_F32) { float x = (float)f; uint32_t u; memcpy(&u, &x, 4); bits = u; }
      else if (v->type == PT_F64) memcpy(&bits, &f, 8);
      else FAIL(p, "a floating-point initialiser for a .%s variable", ptx_type_name[v->type]);
    } else if (p->t.k == T_ID) {
      FAIL(p, "initialisers holding addresses ('%s') are not supported", p->t.s);
    } else FAIL(p, "expected an initialiser value");
    next(p);
    if (k * (uint64_t)es + (uint64_t)es > v->size) FAIL(p, "too many initialisers for '%s'", v->name);
    memcpy(v->init + k * (uint64_t)es, &bits, (size_t)es);   /* little-endian, as every host gpurace runs on */
    k++;
  } while (braces && accept(p, ','));
  if (braces) expect(p, '}');
}

/* ------------------------------------------------------------- operands */

static const struct { const char *n; ptx_sreg s; int has_dim; } sregs[] = {
  {"%tid", PSR_TID_X, 1}, {"%ntid", PSR_NTID_X, 1}, {"%ctaid", PSR_CTAID_X, 1}, {"%nctaid", PSR_NCTAID_X, 1},
  {"%laneid", PSR_LANEID, 0}, {"%clock", PSR_CLOCK, 0}, {"%clock64", PSR_CLOCK64, 0},
  {"%lanemask_eq", PSR_LANEMASK_EQ, 0}, {"%lanemask_le", PSR_LANEMASK_LE, 0}, {"%lanemask_lt", PSR_LANEMASK_LT, 0},
  {"%lanemask_ge", PSR_LANEMASK_GE, 0}, {"%lanemask_gt", PSR_LANEMASK_GT, 0},
  /* the driver's: the grid workspace's address, high and low halves (cooperative_groups' driver_abi.h) */
  {"%envreg1", PSR_ENVREG1, 0}, {"%envreg2", PSR_ENVREG2, 0},
  /* sm_80's reserved shared memory (cooperative groups' scratch at -G) */
  {"%reserved_smem_offset_begin", PSR_RSMEM_BEGIN, 0}, {"%reserved_smem_offset_end", PSR_RSMEM_END, 0},
  {"%reserved_smem_offset_cap", PSR_RSMEM_CAP, 0}, {"%reserved_smem_offset_1", PSR_RSMEM_1, 0},
  /* the nanosecond timer: the emulator's clock (the launch's warp instructions), as %clock64 */
  {"%globaltimer", PSR_GLOBALTIMER, 0}, {"%globaltimer_lo", PSR_GLOBALTIMER_LO, 0}, {"%globaltimer_hi", PSR_GLOBALTIMER_HI, 0}};

static void name_operand(P *p, ptx_opnd *o, const char *name, srcpos at) {
  decl *d = lookup(p, name);
  if (d && !d->var) { o->kind = PO_REG; o->reg = reg_index(d, name); return; }
  if (d && d->var) { o->kind = PO_SYM; o->var = d->var; return; }
  for (size_t k = 0; k < sizeof sregs / sizeof sregs[0]; k++) {
    if (strcmp(name, sregs[k].n)) continue;
    o->kind = PO_SREG;
    o->sreg = (int)sregs[k].s;
    if (sregs[k].has_dim) {
      if (p->t.k != T_DOT || strlen(p->t.s) != 1 || !strchr("xyz", p->t.s[0])) diag_fail(p->d, at, "'%s' needs .x, .y or .z", name);
      o->sreg += p->t.s[0] - 'x';
      next(p);
    }
    return;
  }
  if (!strncmp(name, "%envreg", 7))
    diag_fail(p->d, at, "'%s' is a driver-defined register gpurace does not model (only %%envreg1 and %%envreg2, the grid workspace of cooperative_groups::this_grid())", name);
  if (name[0] == '%') diag_fail(p->d, at, "unknown register or unsupported special register '%s'", name);
  /* PTX's one predefined constant: warpSize in CUDA */
  if (!strcmp(name, "WARP_SZ")) { o->kind = PO_IMM; o->imm = 32; return; }
  ptx_var *v = module_var(p, name);
  if (v) { o->kind = PO_SYM; o->var = v; return; }
  /* a label or a function: resolved by the lowering, which knows the labels */
  o->kind = PO_LABEL;
  o->name = name;
}

static void operand(P *p, ptx_opnd *o);

static void address(P *p, ptx_opnd *o) {
  srcpos at = here(p);
  next(p);   /* [ */
  o->kind = PO_ADDR;
  o->reg = -1;
  if (p->t.k == T_ID) {
    const char *name = p->t.s;
    next(p);
    ptx_opnd b;
    memset(&b, 0, sizeof b);
    name_operand(p, &b, name, at);
    if (b.kind == PO_REG) o->reg = b.reg;
    else if (b.kind == PO_SYM) o->var = b.var;
    else diag_fail(p->d, at, "'%s' cannot be an address", name);
    if (accept(p, '+')) o->imm = expect_int(p, "an offset");
    else if (accept(p, '-')) o->imm = (int64_t)(0 - (uint64_t)expect_int(p, "an offset"));
  } else {
    o->imm = expect_int(p, "an address");
  }
  expect(p, ']');
}

static void operand(P *p, ptx_opnd *o) {
  memset(o, 0, sizeof *o);
  o->reg = o->reg2 = -1;
  srcpos at = here(p);
  char b[64];
  if (is_punct(p, '[')) { address(p, o); return; }
  if (accept(p, '{')) {
    vec v;
    vec_init_arena(&v, sizeof(ptx_opnd), p->ar);
    do operand(p, vec_push(&v)); while (accept(p, ','));
    expect(p, '}');
    o->kind = PO_VEC;
    o->vec = v.data;
    o->nvec = (int)v.len;
    return;
  }
  if (accept(p, '!')) {
    operand(p, o);
    if (o->kind != PO_REG) diag_fail(p->d, at, "'!' applies to a predicate register only");
    o->neg = 1;
    return;
  }
  int neg = 0;
  if (accept(p, '-')) neg = 1;
  if (p->t.k == T_INT) { o->kind = PO_IMM; o->imm = neg ? (int64_t)(0 - (uint64_t)p->t.i) : p->t.i; next(p); return; }
  if (p->t.k == T_FLOAT) {
    o->kind = PO_FIMM;
    o->fbits = (uint8_t)p->t.fbits;
    o->imm = p->t.i;
    o->f = p->t.f;
    if (neg) {
      if (o->fbits == 32) o->imm ^= (int64_t)0x80000000;
      else if (o->fbits == 64) o->imm = (int64_t)((uint64_t)o->imm ^ 0x8000000000000000ull);
      else o->f = -o->f;
    }
    next(p);
    return;
  }
  if (neg) diag_fail(p->d, at, "'-' applies to a number only");
  if (p->t.k != T_ID) FAIL(p, "expected an operand, found %s", tok_desc(p, b, sizeof b));
  const char *name = p->t.s;
  next(p);
  if (!strcmp(name, "_")) { o->kind = PO_SINK; return; }
  name_operand(p, o, name, at);
  if (o->kind == PO_SYM && (is_punct(p, '+'))) {   /* sym+off in mov */
    next(p);
    o->imm = expect_int(p, "an offset");
  }
  if (o->kind == PO_REG && accept(p, '|')) {       /* d|p: shfl's and setp's second destination */
    ptx_opnd q;
    operand(p, &q);
    if (q.kind != PO_REG && q.kind != PO_SINK) diag_fail(p->d, at, "expected a register after '|'");
    o->reg2 = q.kind == PO_REG ? q.reg : -1;
  }
}

static void operand_list(P *p, ptx_opnd **out, int *n) {
  vec v;
  vec_init_arena(&v, sizeof(ptx_opnd), p->ar);
  if (!is_punct(p, ')')) do operand(p, vec_push(&v)); while (accept(p, ','));
  *out = v.data;
  *n = (int)v.len;
}

/* ------------------------------------------------------------- statements */

static void instruction(P *p) {
  ptx_ins in;
  memset(&in, 0, sizeof in);
  in.guard = -1;
  in.line = p->t.line;
  in.col = p->t.col;
  if (p->loc_line > 0) {
    in.pos.line = p->loc_line;
    in.pos.col = p->loc_col;
    in.locfile = p->loc_file;
    in.in_file = p->loc_in_file;
    in.in_line = p->loc_in_line;
    in.in_col = p->loc_in_col;
  }
  else { in.pos.file = p->path; in.pos.line = p->t.line; in.pos.col = p->t.col; }
  if (accept(p, '@')) {
    int neg = accept(p, '!');
    srcpos at = here(p);
    const char *g = expect_id(p, "a predicate register");
    decl *d = lookup(p, g);
    if (!d || d->var) diag_fail(p->d, at, "unknown predicate register '%s'", g);
    in.guard = reg_index(d, g);
    in.guard_neg = neg;
  }
  in.op = expect_id(p, "an instruction");
  while (p->t.k == T_DOT) {
    if (in.nmods == PTX_MAX_MODS) FAIL(p, "too many modifiers on '%s'", in.op);
    in.mods[in.nmods++] = p->t.s;
    next(p);
  }
  if (!strcmp(in.op, "call")) {
    /* call[.uni] [(rets),] func, [(args)] [, prototype]; */
    if (accept(p, '(')) {
      operand_list(p, &in.rets, &in.nrets);
      expect(p, ')');
      expect(p, ',');
    }
    ptx_opnd fn;
    srcpos at = here(p);
    operand(p, &fn);
    if (fn.kind != PO_LABEL) diag_fail(p->d, at, "indirect calls (through a register) are not supported");
    fn.kind = PO_FUNC;
    in.ops = arena_alloc(p->ar, sizeof(ptx_opnd));
    in.ops[0] = fn;
    in.nops = 1;
    if (accept(p, ',')) {
      expect(p, '(');
      operand_list(p, &in.args, &in.nargs);
      expect(p, ')');
      if (accept(p, ',')) diag_fail(p->d, at, "calls through a prototype are not supported");
    }
  } else if (!is_punct(p, ';')) {
    vec v;
    vec_init_arena(&v, sizeof(ptx_opnd), p->ar);
    do operand(p, vec_push(&v)); while (accept(p, ','));
    in.ops = v.data;
    in.nops = (int)v.len;
  }
  expect(p, ';');
  *(ptx_ins *)vec_push(&p->code) = in;
}

static void loc_directive(P *p) {
  next(p);   /* .loc */
  int64_t f = expect_int(p, "a file number"), l = expect_int(p, "a line"), c = expect_int(p, "a column");
  int64_t inf = -1, inl = 0, inc = 0;
  /* ", function_name $L__info_stringN, inlined_at F L C": code inlined from a function */
  while (accept(p, ',')) {
    const char *w = expect_id(p, "function_name or inlined_at");
    if (!strcmp(w, "function_name")) { expect_id(p, "a function's debug name"); if (accept(p, '+')) expect_int(p, "an offset"); }
    else if (!strcmp(w, "inlined_at")) { inf = expect_int(p, "a file number"); inl = expect_int(p, "a line"); inc = expect_int(p, "a column"); }
    else FAIL(p, "unknown .loc attribute '%s'", w);
  }
  if (f < 0 || f > 100000 || l < 0 || c < 0 || l > 100000000 || c > 100000000 || inf > 100000 || inl < 0 || inc < 0 ||
      inl > 100000000 || inc > 100000000)
    FAIL(p, "bad .loc");
  p->loc_file = (int)f;
  p->loc_line = (int)l;
  p->loc_col = (int)(c ? c : 1);
  p->loc_in_file = (int)inf;
  p->loc_in_line = (int)inl;
  p->loc_in_col = (int)(inc ? inc : 1);
}

static ptx_var *scoped_var(P *p, ptx_space sp) {
  ptx_var *v = var_decl(p, sp, 0);
  v->owner = (int)p->funcs.len - 1;
  decl d = {v->name, strlen(v->name), -1, 0, v};
  *(decl *)vec_push(&p->scope) = d;
  return v;
}

static void body(P *p) {
  expect(p, '{');
  scope_open(p);
  int depth = 1;
  for (;;) {
    if (p->t.k == T_EOF) FAIL(p, "unterminated function body");
    if (accept(p, '}')) { scope_close(p); if (--depth == 0) break; continue; }
    if (accept(p, '{')) { scope_open(p); depth++; continue; }   /* a nested block (call sequences) */
    if (p->t.k == T_DOT) {
      if (is_dot(p, "reg")) { reg_decl(p); continue; }
      if (is_dot(p, "loc")) { loc_directive(p); continue; }
      if (is_dot(p, "pragma")) { skip_to_semi(p); continue; }
      if (is_dot(p, "local") || is_dot(p, "shared") || is_dot(p, "param")) {
        ptx_space sp = is_dot(p, "local") ? PS_LOCAL : is_dot(p, "shared") ? PS_SHARED : PS_PARAM;
        next(p);
        ptx_var *v = scoped_var(p, sp);
        var_init(p, v);
        expect(p, ';');
        *(ptx_var **)vec_push(&p->fvars) = v;
        continue;
      }
      FAIL(p, "unsupported directive '.%s' in a function body", p->t.s);
    }
    if (p->t.k == T_ID && peek(p)->k == T_PUNCT && peek(p)->c == ':') {
      ptx_ins in;
      memset(&in, 0, sizeof in);
      in.label = p->t.s;
      in.line = p->t.line;
      in.col = p->t.col;
      in.guard = -1;
      next(p);
      next(p);
      if (is_dot(p, "callprototype")) FAIL(p, "call prototypes (indirect calls) are not supported");
      *(ptx_ins *)vec_push(&p->code) = in;
      continue;
    }
    instruction(p);
  }
}

static void param_list(P *p, ptx_func *f, int rets) {
  vec v;
  vec_init_arena(&v, sizeof(ptx_var *), p->ar);
  expect(p, '(');
  if (!is_punct(p, ')')) {
    do {
      char b[64];
      if (!is_dot(p, "param") && !is_dot(p, "reg")) FAIL(p, "expected .param, found %s", tok_desc(p, b, sizeof b));
      if (is_dot(p, "reg")) FAIL(p, "register parameters (.reg in a parameter list) are not supported");
      next(p);
      ptx_var *pv = var_decl(p, PS_PARAM, 0);
      pv->owner = (int)p->funcs.len - 1;
      pv->index = (int)v.len;
      pv->is_fparam = 1;
      *(ptx_var **)vec_push(&v) = pv;
    } while (accept(p, ','));
  }
  expect(p, ')');
  if (rets) { f->rets = v.data; f->nrets = (int)v.len; }
  else { f->params = v.data; f->nparams = (int)v.len; }
}

static void function(P *p, int is_entry, int is_extern) {
  srcpos at = here(p);
  next(p);   /* .entry / .func */
  ptx_func *f = arena_alloc(p->ar, sizeof *f);
  f->is_entry = is_entry;
  f->line = at.line;
  f->decl = at;
  /* a declaration may come first: the definition completes it */
  *(ptx_func **)vec_push(&p->funcs) = f;
  if (!is_entry && is_punct(p, '(')) param_list(p, f, 1);
  f->name = expect_id(p, "a function name");
  ptx_func *prev = NULL;
  for (size_t k = 0; k + 1 < p->funcs.len; k++) {
    ptx_func *g = *(ptx_func **)vec_at(&p->funcs, k);
    if (!strcmp(g->name, f->name)) prev = g;
  }
  if (is_punct(p, '(')) param_list(p, f, 0);
  /* performance directives */
  while (p->t.k == T_DOT && !is_dot(p, "entry") && !is_dot(p, "func")) {
    if (is_dot(p, "noreturn")) { next(p); continue; }
    if (is_dot(p, "maxntid") || is_dot(p, "reqntid") || is_dot(p, "minnctapersm") || is_dot(p, "maxnreg") ||
        is_dot(p, "maxnctapersm") || is_dot(p, "explicitcluster") || is_dot(p, "reqnctapercluster") ||
        is_dot(p, "maxclusterrank") || is_dot(p, "pragma")) {
      next(p);
      if (p->t.k == T_STR) next(p);
      while (p->t.k == T_INT) { next(p); if (!accept(p, ',')) break; }
      accept(p, ';');
      continue;
    }
    break;
  }
  if (accept(p, ';')) {   /* a declaration */
    if (prev) p->funcs.len--;
    return;
  }
  if (is_extern) FAIL(p, "an .extern function cannot have a body");
  if (prev) {
    if (prev->defined) diag_fail(p->d, at, "function '%s' defined twice", f->name);
    /* the definition replaces the declaration, keeping its slot */
    for (size_t k = 0; k + 1 < p->funcs.len; k++)
      if (*(ptx_func **)vec_at(&p->funcs, k) == prev) { *(ptx_func **)vec_at(&p->funcs, k) = f; break; }
    p->funcs.len--;
  }
  f->defined = 1;
  p->f = f;
  vec_init_arena(&p->regs, sizeof(ptx_type), p->ar);
  vec_init_arena(&p->code, sizeof(ptx_ins), p->ar);
  vec_init_arena(&p->fvars, sizeof(ptx_var *), p->ar);
  vec_init_arena(&p->scope, sizeof(decl), p->ar);
  scope_open(p);
  int fidx = -1;
  for (size_t k = 0; k < p->funcs.len; k++) if (*(ptx_func **)vec_at(&p->funcs, k) == f) fidx = (int)k;
  for (int k = 0; k < f->nparams; k++) {
    f->params[k]->owner = fidx;
    decl d = {f->params[k]->name, strlen(f->params[k]->name), -1, 0, f->params[k]};
    *(decl *)vec_push(&p->scope) = d;
  }
  for (int k = 0; k < f->nrets; k++) {
    f->rets[k]->owner = fidx;
    decl d = {f->rets[k]->name, strlen(f->rets[k]->name), -1, 0, f->rets[k]};
    *(decl *)vec_push(&p->scope) = d;
  }
  p->loc_line = 0;
  body(p);
  f->regs = p->regs.data;
  f->nregs = (int)p->regs.len;
  f->code = p->code.data;
  f->ncode = (int)p->code.len;
  f->vars = p->fvars.data;
  f->nvars = (int)p->fvars.len;
  p->f = NULL;
}

static void module_var_decl(P *p, ptx_space sp, int is_extern) {
  next(p);
  ptx_var *v = var_decl(p, sp, is_extern);
  if (module_var(p, v->name)) FAIL(p, "variable '%s' declared twice", v->name);
  var_init(p, v);
  expect(p, ';');
  v->index = (int)p->vars.len;
  *(ptx_var **)vec_push(&p->vars) = v;
}

/* A header of the CUDA toolkit (or NVRTC's built-in ones), not the user's code. */
int ptx_cuda_header(const char *f) {
  size_t n = strlen(f);
  int hdr = (n > 2 && !strcmp(f + n - 2, ".h")) || (n > 4 && !strcmp(f + n - 4, ".hpp"));
  /* libcu++ names its headers without an extension */
  return strstr(f, "/include/cccl/") || (hdr && (strstr(f, "/include/") || strstr(f, "cuda") || !strchr(f, '/')));
}

ptx_module *ptx_parse(arena *ar, diag *d, const char *path, const char *text, size_t len) {
  P *p = arena_alloc(ar, sizeof *p);
  p->ar = ar;
  p->d = d;
  p->path = path;
  p->src = p->p = p->line_start = text;
  p->end = text + len;
  p->line = 1;
  p->m = arena_alloc(ar, sizeof *p->m);
  p->m->ar = ar;
  p->m->path = path;
  vec_init_arena(&p->funcs, sizeof(ptx_func *), ar);
  vec_init_arena(&p->vars, sizeof(ptx_var *), ar);
  vec_init_arena(&p->files, sizeof(const char *), ar);
  next(p);
  int saw_version = 0;
  while (p->t.k != T_EOF) {
    char b[64];
    if (p->t.k != T_DOT) FAIL(p, "expected a directive, found %s", tok_desc(p, b, sizeof b));
    if (is_dot(p, "version")) {
      next(p);
      if (p->t.k != T_FLOAT || p->t.fbits) FAIL(p, "expected a version number such as 8.0");
      p->m->version_major = (int)p->t.f;
      p->m->version_minor = (int)lround((p->t.f - p->m->version_major) * 10);
      saw_version = 1;
      next(p);
      continue;
    }
    if (is_dot(p, "target")) {
      next(p);
      do {
        const char *t = expect_id(p, "a target");
        if (!strncmp(t, "sm_", 3)) p->m->sm = atoi(t + 3);
        else if (strcmp(t, "texmode_unified") && strcmp(t, "texmode_independent") && strcmp(t, "debug") && strcmp(t, "map_f64_to_f32"))
          FAIL(p, "unknown target '%s'", t);
      } while (accept(p, ','));
      if (p->m->sm && p->m->sm < 70)
        FAIL(p, "PTX for sm_%d: gpurace reads PTX for sm_70 and later (warp-synchronous intrinsics, scoped memory operations)", p->m->sm);
      continue;
    }
    if (is_dot(p, "address_size")) {
      next(p);
      if (expect_int(p, "an address size") != 64) FAIL(p, "only 64-bit PTX (.address_size 64) is supported");
      continue;
    }
    if (is_dot(p, "file")) {
      next(p);
      int64_t n = expect_int(p, "a file number");
      if (n < 0 || n > 100000) FAIL(p, "file number out of range");
      if (p->t.k != T_STR) FAIL(p, "expected a file name");
      while (p->files.len <= (size_t)n) *(const char **)vec_push(&p->files) = NULL;
      *(const char **)vec_at(&p->files, (size_t)n) = p->t.s;
      next(p);
      while (accept(p, ',')) expect_int(p, "a timestamp or size");
      continue;
    }
    if (is_dot(p, "section")) { next(p); while (!is_punct(p, '{')) { if (p->t.k == T_EOF) FAIL(p, "unterminated section"); next(p); } skip_braces(p); continue; }
    if (is_dot(p, "pragma")) { skip_to_semi(p); continue; }
    int is_extern = 0;
    while (is_dot(p, "visible") || is_dot(p, "extern") || is_dot(p, "weak") || is_dot(p, "common")) {
      if (is_dot(p, "extern")) is_extern = 1;
      next(p);
    }
    if (!saw_version) FAIL(p, "expected .version first: not a PTX file");
    if (is_dot(p, "entry")) { function(p, 1, is_extern); continue; }
    if (is_dot(p, "func")) { function(p, 0, is_extern); continue; }
    if (is_dot(p, "global")) { module_var_decl(p, PS_GLOBAL, is_extern); continue; }
    if (is_dot(p, "const")) { module_var_decl(p, PS_CONST, is_extern); continue; }
    if (is_dot(p, "shared")) { module_var_decl(p, PS_SHARED, is_extern); continue; }
    if (is_dot(p, "tex") || is_dot(p, "surf") || is_dot(p, "samplerref") || is_dot(p, "texref") || is_dot(p, "surfref"))
      FAIL(p, "textures and surfaces (.%s) are not supported", p->t.s);
    FAIL(p, "unsupported directive '.%s'", p->t.s);
  }
  if (!saw_version) { srcpos s = {path, 1, 1}; diag_fail(d, s, "no .version directive: not a PTX file"); }
  p->m->funcs = p->funcs.data;
  p->m->nfuncs = (int)p->funcs.len;
  p->m->vars = p->vars.data;
  p->m->nvars = (int)p->vars.len;
  p->m->files = p->files.data;
  p->m->nfiles = (int)p->files.len;
  /* .loc positions name files declared at the end of the module */
  for (int k = 0; k < p->m->nfuncs; k++) {
    ptx_func *f = p->m->funcs[k];
    srcpos last_user = {NULL, 0, 0};
    for (int i = 0; i < f->ncode; i++) {
      ptx_ins *in = &f->code[i];
      if (in->pos.file) continue;
      const char *fn = in->locfile > 0 && in->locfile < p->m->nfiles ? p->m->files[in->locfile] : NULL;
      /* code the compiler inlined from CUDA's own headers (atomicCAS, __shfl_sync) is reported where it was called */
      if (fn && ptx_cuda_header(fn) && in->in_file > 0 && in->in_file < p->m->nfiles && p->m->files[in->in_file]) {
        fn = p->m->files[in->in_file];
        in->pos.line = in->in_line;
        in->pos.col = in->in_col;
      }
      if (fn) in->pos.file = fn;
      else { in->pos.file = path; in->pos.line = in->line; in->pos.col = in->col; }
      /* still in a header (libcu++ inlines several levels deep, and .loc
       * names one): the user's line that the code is part of */
      if (fn && ptx_cuda_header(fn) && last_user.file) in->pos = last_user;
      else if (fn) last_user = in->pos;
    }
  }
  return p->m;
}
