/* The CUDA subset's parser: one pass from tokens to KIR, in the manner of
 * Lua's lparser.c, with its code generator in code.c as lcode.c is
 * lparser.c's.  Expressions produce descriptors (constant, register value,
 * register variable, memory lvalue) and code is emitted as they are parsed,
 * so constant expressions fold as a matter of course.  Device functions are
 * inlined at each call by re-parsing their body tokens with the arguments
 * bound to fresh registers; recursion is detected on the inlining stack.
 * Anything outside the subset stops with a named error at its position. */
#include "front.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "code.h"
#include "kir_sem.h"
#include "lex.h"

/* ------------------------------------------------------------- tokens */

/* The parser compares token texts and names with literals tens of
 * thousands of times a file (a small kernel's headers: a third of a short
 * run's instructions were strcmp): a mismatch is nearly always in the
 * first byte, which this tests without a call. */
#define streq(a, b) (*(a) == *(b) && strcmp((a), (b)) == 0)

static token *tk(P *p) { return &p->t[p->i]; }
static token *tk_at(P *p, size_t k) { return &p->t[p->i + k < p->nt ? p->i + k : p->nt - 1]; }
static srcpos here(P *p) { return tk(p)->pos; }
static int is(P *p, const char *s) { token *t = tk(p); return (t->kind == TK_PUNCT || t->kind == TK_IDENT) && streq(t->text, s); }
static int is_at(P *p, size_t k, const char *s) { token *t = tk_at(p, k); return (t->kind == TK_PUNCT || t->kind == TK_IDENT) && streq(t->text, s); }
static void next(P *p) { if (p->i + 1 < p->nt) p->i++; }
static int accept(P *p, const char *s) { if (is(p, s)) { next(p); return 1; } return 0; }
static void expect(P *p, const char *s) {
  if (!accept(p, s)) front_fail(p, here(p), "expected '%s' before '%s'", s, tk(p)->text);
}
static const char *ident(P *p) {
  if (tk(p)->kind != TK_IDENT) front_fail(p, here(p), "expected an identifier before '%s'", tk(p)->text);
  const char *s = tk(p)->text;
  next(p);
  return s;
}

/* ------------------------------------------------------------- symbols */

static sym *lookup(P *p, const char *name) {
  for (size_t k = p->syms.len; k-- > 0;) {
    if (k >= p->vis_lo && k < p->vis_hi) { k = p->vis_lo; if (!k) break; continue; }
    sym *s = vec_at(&p->syms, k);
    if (streq(s->name, name)) return s;
  }
  return NULL;
}

static int same_type(type *a, type *b) {
  if (a == b) return 1;
  if (a->k != b->k || a->vol != b->vol || a->cnst != b->cnst) return 0;
  switch (a->k) {
  case TY_VOID: return 1;
  case TY_SCALAR: return a->sk == b->sk;
  case TY_PTR: case TY_REF: return same_type(a->base, b->base);
  case TY_ARRAY: return a->n == b->n && same_type(a->base, b->base);
  case TY_STRUCT: return a->s == b->s;
  }
  return 0;
}

/* Declares a name in the innermost scope.  A second declaration of a name in
 * one scope is an error, as nvcc makes it, except a typedef repeated with the
 * same type (the C headers do that). */
static sym *declare_at(P *p, const char *name, symk k, type *ty, srcpos pos) {
  size_t lo = p->scope_start;
  for (size_t j = p->syms.len; j-- > lo;) {
    sym *o = vec_at(&p->syms, j);
    if (!streq(o->name, name)) continue;
    if (k == SYM_TYPEDEF && o->k == SYM_TYPEDEF && same_type(o->ty, ty)) return o;
    if (o->pos.file)
      front_fail(p, pos, "redefinition of '%s' (first declared at %s:%d:%d)", name, o->pos.file, o->pos.line, o->pos.col);
    front_fail(p, pos, "redefinition of '%s'", name);
  }
  sym *s = vec_push(&p->syms);
  s->name = name; s->k = k; s->ty = ty; s->pos = pos;
  return s;
}
static sym *declare(P *p, const char *name, symk k, type *ty) { return declare_at(p, name, k, ty, here(p)); }
static sdef *find_tag(P *p, const char *name) {
  for (size_t k = p->tags.len; k-- > 0;) {
    sdef *s = *(sdef **)vec_at(&p->tags, k);
    if (streq(s->name, name)) return s;
  }
  return NULL;
}

/* ------------------------------------------------------------- declarations */

typedef struct {
  type *ty;
  int is_typedef, is_global, is_device, is_host, is_shared, is_constant, is_static, is_extern, is_constexpr, is_auto;
  int any;
} declspec;

static void enter(P *p) {
  if (++p->depth > p->max_nesting) front_fail(p, p->t[p->i].pos, "nesting too deep (more than %d levels; --max-nesting raises it)", p->max_nesting);
}
static void leave(P *p) { p->depth--; }

static const char *const decl_keywords[] = {"void", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
  "bool", "_Bool", "struct", "union", "enum", "const", "volatile", "typedef", "static", "extern", "inline",
  "__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__", "__forceinline__", "__noinline__",
  "__inline__", "__inline", "register", "__restrict__", "__restrict", "__launch_bounds__", "__align__", "auto", "constexpr",
  "__attribute__", "__extension__", "class", NULL};

static int is_decl_keyword(const char *s) {
  for (int k = 0; decl_keywords[k]; k++) if (streq(s, decl_keywords[k])) return 1;
  return 0;
}

static sdef *find_tag(P *p, const char *name);

/* A struct tag names a type by itself, as in C++, unless a variable or
 * function of that name hides it. */
static sdef *tag_as_type(P *p, const char *name) {
  sym *s = lookup(p, name);
  if (s && s->k != SYM_TYPEDEF) return NULL;
  return s ? NULL : find_tag(p, name);
}

static int is_type_start(P *p) {
  token *t = tk(p);
  if (t->kind != TK_IDENT) return 0;
  if (is_decl_keyword(t->text)) return 1;
  sym *s = lookup(p, t->text);
  return (s && s->k == SYM_TYPEDEF) || tag_as_type(p, t->text);
}

/* __attribute__((...)), __align__(N), alignas(N) and [[...]]: skipped, but
 * an alignment they give is returned, since it changes layouts. */
static expr parse_cond(P *p);
static int64_t const_int(P *p, expr e, srcpos pos, const char *what);
/* Skips a balanced parenthesised group; the '(' is the current token. */
static void skip_parens(P *p, srcpos pos, const char *what) {
  expect(p, "(");
  for (int depth = 1; depth;) {
    if (tk(p)->kind == TK_EOF) front_fail(p, pos, "unterminated %s", what);
    if (is(p, "(")) depth++; else if (is(p, ")")) depth--;
    next(p);
  }
}

/* An alignment: a constant power of two up to 4096. */
static uint32_t parse_alignment(P *p) {
  srcpos vp = here(p);
  int64_t a = const_int(p, parse_cond(p), vp, "an alignment");
  if (a <= 0 || (a & (a - 1)) || a > 4096) front_fail(p, vp, "alignment must be a power of two up to 4096");
  return (uint32_t)a;
}

static uint32_t parse_attributes(P *p) {
  uint32_t align = 0;
  for (;;) {
    srcpos pos = here(p);
    if (accept(p, "__align__") || accept(p, "alignas") || accept(p, "_Alignas")) {
      expect(p, "(");
      uint32_t a = parse_alignment(p);
      expect(p, ")");
      if (a > align) align = a;
    } else if (accept(p, "__attribute__") || accept(p, "__attribute")) {
      expect(p, "(");
      expect(p, "(");
      while (!is(p, ")")) {
        if (tk(p)->kind == TK_EOF) front_fail(p, pos, "unterminated __attribute__");
        int aligned = is(p, "aligned") || is(p, "__aligned__");
        next(p);
        if (aligned && is(p, "(") && !is_at(p, 1, ")")) {
          next(p);
          uint32_t a = parse_alignment(p);
          expect(p, ")");
          if (a > align) align = a;
        } else if (is(p, "(")) skip_parens(p, pos, "__attribute__");
        else if (aligned && align < 16) align = 16;   /* GCC's "biggest alignment" */
        accept(p, ",");
      }
      expect(p, ")");
      expect(p, ")");
    } else if (is(p, "[") && is_at(p, 1, "[")) {
      next(p); next(p);
      int depth = 2;
      while (depth) {
        if (tk(p)->kind == TK_EOF) front_fail(p, pos, "unterminated [[attribute]]");
        if (is(p, "[")) depth++; else if (is(p, "]")) depth--;
        next(p);
      }
    } else if (accept(p, "__extension__")) {
    } else return align;
  }
}

static type *parse_declarator(P *p, type *base, const char **name, srcpos *npos, int *is_func);
static void parse_struct_body(P *p, sdef *s);
static expr parse_assign(P *p);
static expr parse_cond(P *p);

/* The values of the __NV_ATOMIC_* orders and __NV_THREAD_SCOPE_* scopes, as
 * CUDA's crt/device_functions.h defines them (the __nv_atomic builtins below). */
enum { NV_RELAXED, NV_CONSUME, NV_ACQUIRE, NV_RELEASE, NV_ACQ_REL, NV_SEQ_CST };
enum { NV_SCOPE_THREAD, NV_SCOPE_BLOCK, NV_SCOPE_CLUSTER, NV_SCOPE_DEVICE, NV_SCOPE_SYSTEM };

static int nv_constant(const char *name, int64_t *v) {
  static const char *const orders[] = {"RELAXED", "CONSUME", "ACQUIRE", "RELEASE", "ACQ_REL", "SEQ_CST"};
  static const char *const scopes[] = {"THREAD", "BLOCK", "CLUSTER", "DEVICE", "SYSTEM"};
  if (!strncmp(name, "__NV_ATOMIC_", 12)) {
    for (int k = 0; k < 6; k++) if (streq(name + 12, orders[k])) { *v = k; return 1; }
  } else if (!strncmp(name, "__NV_THREAD_SCOPE_", 18)) {
    for (int k = 0; k < 5; k++) if (streq(name + 18, scopes[k])) { *v = k; return 1; }
  }
  return 0;
}

static int64_t const_int(P *p, expr e, srcpos pos, const char *what) {
  if (e.k != E_CONST || !ty_is_int(e.ty)) front_fail(p, pos, "%s must be an integer constant expression", what);
  return (int64_t)e.bits;
}

static void parse_declspec(P *p, declspec *ds) {
  memset(ds, 0, sizeof *ds);
  int nsigned = 0, nunsigned = 0, nshort = 0, nlong = 0, vol = 0, cnst = 0;
  uint32_t align = 0;
  const char *base = NULL;
  type *named = NULL;
  srcpos start = here(p);
  for (;;) {
    token *t = tk(p);
    if (t->kind != TK_IDENT) break;
    const char *s = t->text;
    srcpos pos = t->pos;
    if (streq(s, "typedef")) ds->is_typedef = 1;
    else if (streq(s, "__global__")) ds->is_global = 1;
    else if (streq(s, "__device__")) ds->is_device = 1;
    else if (streq(s, "__host__")) ds->is_host = 1;
    else if (streq(s, "__shared__")) ds->is_shared = 1;
    else if (streq(s, "__constant__")) ds->is_constant = 1;
    else if (streq(s, "static")) ds->is_static = 1;
    else if (streq(s, "extern")) ds->is_extern = 1;
    else if (streq(s, "inline") || streq(s, "__forceinline__") || streq(s, "__noinline__") ||
             streq(s, "__inline__") || streq(s, "register") || streq(s, "__restrict__")) {}
    else if (streq(s, "__launch_bounds__")) {
      next(p);
      skip_parens(p, pos, "__launch_bounds__");
      continue;
    }
    else if (streq(s, "__align__") || streq(s, "__attribute__") || streq(s, "__attribute") || streq(s, "alignas") ||
             streq(s, "_Alignas") || streq(s, "__extension__")) {
      uint32_t a = parse_attributes(p);
      if (a > align) align = a;
      continue;
    }
    else if (streq(s, "__managed__")) front_fail(p, pos, "unsupported: __managed__ memory");
    else if (streq(s, "constexpr")) { cnst = 1; ds->is_constexpr = 1; }
    else if (streq(s, "const")) cnst = 1;
    else if (streq(s, "volatile")) vol = 1;
    else if (streq(s, "signed")) nsigned++;
    else if (streq(s, "unsigned")) nunsigned++;
    else if (streq(s, "short")) nshort++;
    else if (streq(s, "long")) nlong++;
    else if (streq(s, "auto")) {   /* the type of the initialiser: local_decl deduces it */
      if (base || named) front_fail(p, pos, "two or more data types in declaration specifiers");
      ds->is_auto = 1;
      named = &ty_void;
    }
    else if (streq(s, "union")) front_fail(p, pos, "unsupported: union");
    else if (streq(s, "void") || streq(s, "char") || streq(s, "int") || streq(s, "float") ||
             streq(s, "double") || streq(s, "bool") || streq(s, "_Bool")) {
      if (base || named) front_fail(p, pos, "two or more data types in declaration specifiers");
      base = s;
    } else if (streq(s, "struct") || streq(s, "enum")) {
      if (base || named) front_fail(p, pos, "two or more data types in declaration specifiers");
      int is_enum = s[0] == 'e';
      next(p);
      if (is_enum && (is(p, "class") || is(p, "struct"))) front_fail(p, here(p), "unsupported: scoped enumerations (enum %s)", tk(p)->text);
      uint32_t sa = parse_attributes(p);
      srcpos tagpos = here(p);
      const char *tag = tk(p)->kind == TK_IDENT ? ident(p) : NULL;
      if (is_enum) {
        if (accept(p, ":")) front_fail(p, here(p), "unsupported: enumerations with an underlying type");
        named = ty_of_sk(SK_I32);
        if (accept(p, "{")) {
          int64_t v = 0, emin = 0, emax = 0;
          int any = 0;
          while (!accept(p, "}")) {
            srcpos ep = here(p);
            const char *n = ident(p);
            if (accept(p, "=")) { srcpos vp = here(p); v = const_int(p, parse_cond(p), vp, "an enumerator value"); }
            if (v < INT32_MIN || v > INT32_MAX) front_fail(p, ep, "enumerator value %lld does not fit an int", (long long)v);
            sym *e = declare_at(p, n, SYM_ECONST, ty_of_sk(SK_I32), ep);
            if (!any || v < emin) emin = v;
            if (!any || v > emax) emax = v;
            any = 1;
            e->cval = v++;
            if (!accept(p, ",")) { expect(p, "}"); break; }
          }
          /* the values of the enumeration: those of the smallest bit-field
           * that holds every enumerator (C++ [dcl.enum]: no fixed underlying
           * type); a value outside is undefined, and the checker may assume
           * a parameter of the type holds one */
          type *et = arena_alloc(p->a, sizeof *et);
          *et = *ty_of_sk(SK_I32);
          et->ranged = 1;
          int m = 0;
          while (m < 31 && (emax >= ((int64_t)1 << m) || (emin < 0 && emin < -((int64_t)1 << m)))) m++;
          et->lo = emin < 0 ? -((int64_t)1 << m) : 0;
          et->hi = ((int64_t)1 << m) - 1;
          named = et;
          if (tag) declare_at(p, tag, SYM_TYPEDEF, et, tagpos);  /* C++: the tag is a type name */
        } else if (tag) {
          sym *t = lookup(p, tag);   /* `enum Tag x`: the tag's own type, its values with it */
          if (t && t->k == SYM_TYPEDEF && t->ty && t->ty->ranged) named = t->ty;
        }
        ds->any = 1;
        continue;
      }
      sdef *sd = tag ? find_tag(p, tag) : NULL;
      if (is(p, ":")) front_fail(p, here(p), "unsupported: struct inheritance");
      if (is(p, "{")) {
        if (sd && sd->complete) front_fail(p, tagpos, "redefinition of 'struct %s'", tag);
        if (!sd) {
          sd = arena_alloc(p->a, sizeof *sd);
          sd->name = tag ? tag : "<anonymous>";
          *(sdef **)vec_push(&p->tags) = sd;
        }
        sd->align = sa;
        parse_struct_body(p, sd);
      } else if (!sd) {
        if (!tag) front_fail(p, here(p), "expected '{' after 'struct'");
        sd = arena_alloc(p->a, sizeof *sd);
        sd->name = tag;
        *(sdef **)vec_push(&p->tags) = sd;
      }
      named = ty_new(p, TY_STRUCT);
      named->s = sd;
      ds->any = 1;
      continue;
    } else {
      sym *sy = lookup(p, s);
      int free_slot = !base && !named && !nsigned && !nunsigned && !nshort && !nlong;
      sdef *sd;
      if (sy && sy->k == SYM_TYPEDEF && free_slot) named = sy->ty;
      else if (free_slot && (sd = tag_as_type(p, s))) { named = ty_new(p, TY_STRUCT); named->s = sd; }
      else break;
    }
    ds->any = 1;
    next(p);
  }
  if (!ds->any) front_fail(p, start, "expected a type before '%s'", tk(p)->text);
  type *t;
  if (named) t = named;
  else {
    kir_sk sk = SK_I32;
    if (nshort && nlong) front_fail(p, start, "both 'long' and 'short' in declaration specifiers");
    if (nsigned && nunsigned) front_fail(p, start, "both 'signed' and 'unsigned' in declaration specifiers");
    if (base && streq(base, "void")) t = &ty_void;
    else {
      if (!base || streq(base, "int")) sk = nshort ? SK_I16 : nlong ? SK_I64 : SK_I32;
      else if (streq(base, "char")) sk = SK_I8;
      else if (streq(base, "float")) sk = SK_F32;
      else if (streq(base, "double")) sk = SK_F64;
      else sk = SK_BOOL;
      if ((nshort || nlong) && base && !streq(base, "int") && !(nlong == 1 && sk == SK_F64))
        front_fail(p, start, "invalid combination of type specifiers");
      if (nunsigned) {
        if (sk == SK_I8) sk = SK_U8; else if (sk == SK_I16) sk = SK_U16; else if (sk == SK_I32) sk = SK_U32;
        else if (sk == SK_I64) sk = SK_U64; else front_fail(p, start, "'unsigned' with a non-integer type");
      }
      t = ty_of_sk(sk);
    }
  }
  ds->ty = ty_qual(p, t, vol, cnst);
  if (align) {
    type *a = ty_new(p, ds->ty->k);
    *a = *ds->ty;
    a->align = align;
    ds->ty = a;
  }
}

static void parse_struct_body(P *p, sdef *s) {
  enter(p);
  expect(p, "{");
  vec fields; vec_init_arena(&fields, sizeof(field), p->a);
  uint64_t off = 0;
  uint32_t al = 1;
  while (!accept(p, "}")) {
    declspec ds;
    parse_declspec(p, &ds);
    do {
      const char *n; srcpos np; int isf = 0;
      type *ft = parse_declarator(p, ds.ty, &n, &np, &isf);
      if (isf) front_fail(p, np, "unsupported: member functions");
      if (!n) front_fail(p, np, "unsupported: anonymous struct members");
      if (accept(p, ":")) front_fail(p, np, "unsupported: bit-fields");
      if (ft->k == TY_REF) front_fail(p, np, "unsupported: reference members");
      for (size_t j = 0; j < fields.len; j++)
        if (streq(((field *)vec_at(&fields, j))->name, n)) front_fail(p, np, "duplicate member '%s'", n);
      uint32_t fa = ty_align(p, ft);
      uint64_t fsz = ty_size(p, ft, np);
      off = (off + fa - 1) / fa * fa;
      field *f = vec_push(&fields);
      f->name = n; f->ty = ft; f->off = off;
      off += fsz;
      if (off >= MAX_OBJECT) front_fail(p, np, "struct too large (2^40 bytes or more)");
      if (fa > al) al = fa;
    } while (accept(p, ","));
    expect(p, ";");
  }
  s->f = fields.data; s->nf = (int)fields.len;
  if (s->align > al) al = s->align;   /* struct __align__(N) S { ... } */
  s->align = al;
  s->size = (off + al - 1) / al * al;
  s->complete = 1;
  leave(p);
}

static void parse_params(P *p, funcdef *f) {
  vec names, types;
  vec_init_arena(&names, sizeof(char *), p->a);
  vec_init_arena(&types, sizeof(type *), p->a);
  if (!(is(p, "void") && is_at(p, 1, ")")) && !is(p, ")")) {
    do {
      if (is(p, "...")) front_fail(p, here(p), "unsupported: variadic functions");
      declspec ds;
      parse_declspec(p, &ds);
      const char *n; srcpos np; int isf = 0;
      type *t = parse_declarator(p, ds.ty, &n, &np, &isf);
      if (isf) front_fail(p, np, "unsupported: function pointer parameters");
      if (t->k == TY_ARRAY) t = ty_ptr(p, t->base);  /* parameter arrays are pointers */
      if (t->k == TY_VOID) front_fail(p, np, "parameter has void type");
      if (accept(p, "=")) front_fail(p, np, "unsupported: default arguments");
      *(const char **)vec_push(&names) = n;
      *(type **)vec_push(&types) = t;
    } while (accept(p, ","));
  } else if (is(p, "void")) next(p);
  expect(p, ")");
  f->np = (int)names.len;
  f->pnames = names.data;
  f->ptypes = types.data;
}

/* Declarators: pointers, a name, array dimensions, or a parameter list. */
static type *parse_declarator(P *p, type *base, const char **name, srcpos *npos, int *is_func) {
  type *t = base;
  parse_attributes(p);
  while (is(p, "*") || is(p, "&") || is(p, "&&")) {
    if (is(p, "&&")) front_fail(p, here(p), "unsupported: rvalue references");
    if (is(p, "&")) {
      if (t->k == TY_REF) front_fail(p, here(p), "reference to a reference");
      next(p);
      type *r = ty_new(p, TY_REF);
      r->base = t;
      t = r;
      parse_attributes(p);
      continue;
    }
    if (t->k == TY_REF) front_fail(p, here(p), "pointer to a reference");
    next(p);
    t = ty_ptr(p, t);
    for (;;) {
      if (accept(p, "const")) t = ty_qual(p, t, 0, 1);
      else if (accept(p, "volatile")) t = ty_qual(p, t, 1, 0);
      else if (accept(p, "__restrict__") || accept(p, "restrict") || accept(p, "__restrict")) {}
      else if (is(p, "__attribute__")) parse_attributes(p);
      else break;
    }
  }
  *npos = here(p);
  *name = NULL;
  if (is(p, "(")) front_fail(p, here(p), "unsupported: function pointers and parenthesised declarators");
  /* after the specifiers, an identifier is the declared name even where it
   * names a type elsewhere (typedef unsigned long size_t;) */
  if (tk(p)->kind == TK_IDENT && !is_decl_keyword(tk(p)->text)) *name = ident(p);
  if (is(p, "::")) front_fail(p, here(p), "unsupported: qualified names (::)");
  uint32_t align = parse_attributes(p);
  if (is(p, "(")) {
    next(p);
    funcdef *f = arena_alloc(p->a, sizeof *f);
    f->ret = t;
    parse_params(p, f);
    for (;;) {   /* what may follow a parameter list */
      if (is(p, "__attribute__") || is(p, "[")) { if (is(p, "[") && !is_at(p, 1, "[")) break; parse_attributes(p); }
      else if (accept(p, "noexcept") || accept(p, "throw")) {
        if (is(p, "(")) skip_parens(p, here(p), "exception specification");
      } else if (is(p, "const") || is(p, "override") || is(p, "final")) front_fail(p, here(p), "unsupported: member functions");
      else break;
    }
    *is_func = 1;
    /* stash the parameter list in a pseudo type */
    type *ft = ty_new(p, TY_VOID);
    ft->base = (type *)(void *)f;
    return ft;
  }
  /* array dimensions, outermost first */
  uint64_t dims[8]; int nd = 0, unsized = 0;
  while (accept(p, "[")) {
    if (nd == 8) front_fail(p, here(p), "too many array dimensions");
    if (is(p, "]")) { if (nd) front_fail(p, here(p), "only the first array dimension may be omitted"); unsized = 1; dims[nd++] = 0; }
    else {
      srcpos dp = here(p);
      int64_t n = const_int(p, parse_cond(p), dp, "an array size");
      if (n <= 0) front_fail(p, dp, "array size must be positive");
      if ((uint64_t)n > (1ull << 32)) front_fail(p, dp, "array too large");
      dims[nd++] = (uint64_t)n;
    }
    expect(p, "]");
  }
  if (nd && t->k == TY_REF) front_fail(p, *npos, "array of references");
  for (int k = nd - 1; k >= 0; k--) {
    type *a = ty_new(p, TY_ARRAY);
    a->base = t; a->n = dims[k];
    if (k == 0 && unsized) a->unsized = 1;
    t = a;
  }
  { uint32_t a2 = parse_attributes(p); if (a2 > align) align = a2; }
  if (align) { type *a = ty_new(p, t->k); *a = *t; if (align > a->align) a->align = align; t = a; }
  return t;
}

/* ------------------------------------------------------------- expressions */

static expr parse_expr(P *p);
static void discarded_expr(P *p);
static expr parse_unary(P *p);
static void compile_inline(P *p, funcdef *f, expr *args, int nargs, expr *res, srcpos pos);
static const skipped *find_skipped(P *p, const char *name);
static type *parse_typename(P *p);
static int builtin_call(P *p, const char *name, srcpos pos, expr *res, int unused);

/* Whether the call named by the current token is a whole expression
 * statement (or an operand of a discarded comma): an atomic whose value is
 * unused then has no destination, PTX's red, and its thread never waits
 * for it. */
static int call_value_unused(P *p) {
  if (p->i != p->discard_at) return 0;
  int depth = 0;
  size_t k = 1;
  for (;; k++) {
    if (p->i + k >= p->nt) return 0;
    if (is_at(p, k, "(")) depth++;
    else if (is_at(p, k, ")") && --depth == 0) break;
  }
  return is_at(p, k + 1, ";") || is_at(p, k + 1, ")") || is_at(p, k + 1, ",");
}

static expr parse_call_args_and_inline(P *p, funcdef *f, srcpos pos) {
  expr args[32];
  int n = 0;
  expect(p, "(");
  if (!is(p, ")")) {
    do {
      if (n == 32) front_fail(p, here(p), "too many arguments");
      args[n++] = parse_assign(p);
    } while (accept(p, ","));
  }
  expect(p, ")");
  if (n != f->np) front_fail(p, pos, "function '%s' takes %d argument%s, %d given", f->name, f->np, f->np == 1 ? "" : "s", n);
  expr res;
  compile_inline(p, f, args, n, &res, pos);
  return res;
}

static expr member(P *p, expr e, const char *fname, srcpos pos) {
  if (e.ty->k != TY_STRUCT) front_fail(p, pos, "request for member '%s' in something not a structure", fname);
  if (e.k != E_MEM) front_fail(p, pos, "member access on a struct value that is not in memory");
  for (int k = 0; k < e.ty->s->nf; k++) {
    field *f = &e.ty->s->f[k];
    if (streq(f->name, fname)) {
      expr m = e;
      m.off += (int64_t)f->off;
      m.ty = ty_qual(p, f->ty, e.ty->vol, e.ty->cnst);
      return m;
    }
  }
  front_fail(p, pos, "'struct %s' has no member named '%s'", e.ty->s->name, fname);
}

static expr deref(P *p, expr e, srcpos pos) {
  code_to_rvalue(p, &e, pos);
  if (e.ty->k != TY_PTR) front_fail(p, pos, "invalid type argument of unary '*' (have '%s')", ty_name(p, e.ty));
  if (e.ty->base->k == TY_VOID) front_fail(p, pos, "dereferencing a 'void *' pointer");
  int r = code_to_reg(p, &e, pos);
  expr m = {E_MEM, e.ty->base, r, 0, 0};
  return m;
}


static expr index_expr(P *p, expr base, expr idx, srcpos pos) {
  code_to_rvalue(p, &base, pos);
  code_to_rvalue(p, &idx, pos);
  if (base.ty->k != TY_PTR && idx.ty->k == TY_PTR) { expr t = base; base = idx; idx = t; }
  if (base.ty->k != TY_PTR) front_fail(p, pos, "subscripted value is neither array nor pointer");
  if (!ty_is_int(idx.ty)) front_fail(p, pos, "array subscript is not an integer");
  return deref(p, code_binop(p, "+", base, idx, pos), pos);
}

static expr parse_primary(P *p) {
  token *t = tk(p);
  srcpos pos = t->pos;
  if (t->kind == TK_INT) {
    next(p);
    kir_sk sk;
    uint64_t v = t->ival;
    int dec = !(t->text[0] == '0' && t->text[1]);
    if (t->is_long || v > 0xffffffffull) sk = (t->is_unsigned || (v >> 63)) ? SK_U64 : SK_I64;
    else if (t->is_unsigned) sk = SK_U32;
    else if (v <= 0x7fffffffull) sk = SK_I32;
    else sk = dec ? SK_I64 : SK_U32;
    if (t->is_long && t->is_unsigned) sk = SK_U64;
    return e_const(ty_of_sk(sk), sem_canon(sk, v));
  }
  if (t->kind == TK_FLOAT) {
    next(p);
    if (t->is_f32) return e_const(ty_of_sk(SK_F32), sem_bits32((float)t->fval));
    return e_const(ty_of_sk(SK_F64), sem_bits64(t->fval));
  }
  if (t->kind == TK_CHAR) { next(p); return e_const(ty_of_sk(SK_I8), sem_canon(SK_I8, t->ival)); }
  if (t->kind == TK_STRING) front_fail(p, pos, "unsupported: string literals");
  if (accept(p, "(")) {
    expr e = parse_expr(p);
    expect(p, ")");
    return e;
  }
  if (t->kind != TK_IDENT) front_fail(p, pos, "expected an expression before '%s'", t->text);
  const char *name = t->text;
  if (streq(name, "true") || streq(name, "false")) { next(p); return e_const(ty_of_sk(SK_BOOL), name[0] == 't'); }
  if (streq(name, "static_cast") || streq(name, "reinterpret_cast") || streq(name, "const_cast")) {
    /* C++'s named casts: the subset's conversions, which cover what these allow of scalars and pointers */
    next(p);
    expect(p, "<");
    type *to = parse_typename(p);
    expect(p, ">");
    expect(p, "(");
    expr e = parse_expr(p);
    expect(p, ")");
    if (to->k == TY_REF) front_fail(p, pos, "unsupported: %s to a reference type", name);
    code_cast(p, &e, to, pos);
    return e;
  }
  if (streq(name, "nullptr") || (streq(name, "NULL") && !lookup(p, name))) { next(p); return e_const(ty_ptr(p, &ty_void), 0); }
  static const struct { const char *n; int base; } spec[] = {
    {"threadIdx", SR_TID_X}, {"blockIdx", SR_CTAID_X}, {"blockDim", SR_NTID_X}, {"gridDim", SR_NCTAID_X}};
  for (int k = 0; k < 4; k++) {
    if (streq(name, spec[k].n) && !lookup(p, name)) {
      next(p);
      expect(p, ".");
      srcpos cp = here(p);
      const char *c = ident(p);
      int off = streq(c, "x") ? 0 : streq(c, "y") ? 1 : streq(c, "z") ? 2 : -1;
      if (off < 0) front_fail(p, cp, "'%s' has no member named '%s'", name, c);
      int r = code_reg_new(p, pos);
      code_emit(p, OP_SREG, r, -1, -1, -1, spec[k].base + off, 0, pos);
      return e_reg(ty_of_sk(SK_U32), r);
    }
  }
  int64_t nvc;
  if (nv_constant(name, &nvc) && !lookup(p, name)) {
    next(p);
    return e_const(ty_of_sk(SK_I32), (uint64_t)nvc);
  }
  if (streq(name, "warpSize") && !lookup(p, name)) {
    next(p);
    int r = code_reg_new(p, pos);
    code_emit(p, OP_SREG, r, -1, -1, -1, SR_WARPSIZE, 0, pos);
    return e_reg(ty_of_sk(SK_I32), r);
  }
  sym *s = lookup(p, name);
  if (s && s->k == SYM_FUNC && is_at(p, 1, "(")) {
    next(p);
    if (!s->fn->is_device) front_fail(p, pos, "cannot call %s function '%s' from device code", s->fn->is_kernel ? "__global__" : "host", name);
    return parse_call_args_and_inline(p, s->fn, pos);
  }
  if (!s && is_at(p, 1, "(")) {
    int unused = call_value_unused(p);
    next(p);
    expr res;
    if (builtin_call(p, name, pos, &res, unused)) return res;
    const skipped *k = find_skipped(p, name);
    if (k) front_fail(p, pos, "'%s' is %s, declared at %s:%d:%d: device code cannot call it", name, k->why, k->pos.file, k->pos.line, k->pos.col);
    front_fail(p, pos, "implicit declaration of function '%s'", name);
  }
  if (!s) {
    const skipped *k = find_skipped(p, name);
    if (k) front_fail(p, pos, "'%s' is %s, declared at %s:%d:%d: device code cannot use it", name, k->why, k->pos.file, k->pos.line, k->pos.col);
    front_fail(p, pos, "'%s' undeclared", name);
  }
  next(p);
  switch (s->k) {
  case SYM_REG: { expr e = {E_VAR, s->ty, s->reg, 0, 0}; return e; }
  case SYM_MEM: {
    /* a fixed address is a constant of the kernel's pool, set once at its
     * entry (loops do not set it again); dynamic shared memory's base is
     * fixed up at the end of compilation, so each use sets it */
    if (!s->dyn_shared) { expr e = {E_MEM, s->ty, code_const_reg(p, s->addr, pos), 0, 0}; return e; }
    int r = code_reg_new(p, pos);
    code_emit(p, OP_CONST, r, -1, -1, -1, (int64_t)s->addr, KIR_CONST_DYNSHARED, pos);
    expr e = {E_MEM, s->ty, r, 0, 0};
    return e;
  }
  case SYM_GLOBAL: {
    int r = code_reg_new(p, pos);
    code_emit(p, OP_GADDR, r, -1, -1, -1, s->gidx, 0, pos);
    expr e = {E_MEM, s->ty, r, 0, 0};
    return e;
  }
  case SYM_ECONST: return e_const(s->ty, (uint64_t)s->cval);
  case SYM_ALIAS: return *s->alias;
  case SYM_TYPEDEF: front_fail(p, pos, "unexpected type name '%s'", name);
  case SYM_FUNC: front_fail(p, pos, "unsupported: function pointers ('%s' used as a value)", name);
  }
  front_fail(p, pos, "bad symbol");
}


static expr parse_postfix(P *p) {
  size_t start = p->i;
  expr e = parse_primary(p);
  for (;;) {
    srcpos pos = here(p);
    if (accept(p, "[")) {
      expr i = parse_expr(p);
      expect(p, "]");
      e = index_expr(p, e, i, pos);
    } else if (accept(p, ".")) {
      e = member(p, e, ident(p), pos);
    } else if (accept(p, "->")) {
      const char *f = ident(p);
      e = member(p, deref(p, e, pos), f, pos);
    } else if (accept(p, "++") || accept(p, "--")) {
      expr out;
      /* `x++;` as a whole statement: the old value is unused, no copy */
      int unused = start == p->discard_at && (is(p, ";") || is(p, ")") || is(p, ","));
      code_incdec(p, &e, p->t[p->i - 1].text[0] == '+' ? 1 : -1, !unused, pos, &out);
      e = out;
    } else if (is(p, "(")) {
      front_fail(p, pos, "called object is not a function");
    } else return e;
  }
}

static type *parse_typename(P *p) {
  declspec ds;
  srcpos pos = here(p);
  parse_declspec(p, &ds);
  const char *n; srcpos np; int isf = 0;
  type *t = parse_declarator(p, ds.ty, &n, &np, &isf);
  if (n || isf) front_fail(p, pos, "expected a type name");
  return t;
}

static expr parse_sizeof(P *p, srcpos pos) {
  type *t;
  fstate *fs = p->fs;
  size_t code0 = fs ? fs->code.len : 0, lab0 = fs ? fs->labels.len : 0;
  int reg0 = fs ? fs->nreg : 0;
  size_t open = p->i;
  if (is(p, "(") && (next(p), is_type_start(p))) {
    t = parse_typename(p);
    expect(p, ")");
  } else {
    p->i = open;
    if (!fs) front_fail(p, pos, "sizeof of an expression outside a function is unsupported");
    expr e = parse_unary(p);   /* type only: its code is dropped below */
    t = e.ty;
  }
  if (fs) { fs->code.len = code0; fs->pos.len = code0; fs->labels.len = lab0; fs->nreg = reg0; }
  return e_const(ty_of_sk(SK_U64), ty_size(p, t, pos));
}

static expr parse_unary_inner(P *p);
static expr parse_unary(P *p) {
  enter(p);
  expr e = parse_unary_inner(p);
  leave(p);
  return e;
}

static expr parse_unary_inner(P *p) {
  srcpos pos = here(p);
  if (accept(p, "++") || accept(p, "--")) {
    int d = p->t[p->i - 1].text[0] == '+' ? 1 : -1;
    expr e = parse_unary(p), out;
    code_incdec(p, &e, d, 0, pos, &out);
    return out;
  }
  if (accept(p, "sizeof")) return parse_sizeof(p, pos);
  if (accept(p, "alignof") || accept(p, "__alignof__") || accept(p, "_Alignof") || accept(p, "__alignof")) {
    expect(p, "(");
    if (!is_type_start(p)) front_fail(p, here(p), "alignof needs a type");
    type *t = parse_typename(p);
    expect(p, ")");
    return e_const(ty_of_sk(SK_U64), ty_align(p, t));
  }
  if (accept(p, "&")) {
    expr e = parse_unary(p);
    if (e.k == E_VAR) front_fail(p, pos, "unsupported: the address of a variable that a reference parameter is bound to");
    if (e.k != E_MEM) front_fail(p, pos, "lvalue required as unary '&' operand");
    type *t = ty_ptr(p, e.ty);
    int r = code_mem_base(p, &e, pos);
    return e_reg(t, r);
  }
  if (accept(p, "*")) return deref(p, parse_unary(p), pos);
  if (accept(p, "+") || accept(p, "-") || accept(p, "~") || accept(p, "!")) {
    char op = p->t[p->i - 1].text[0];
    expr e = parse_unary(p);
    code_to_rvalue(p, &e, pos);
    if (op == '!') {
      if (!ty_is_scalar(e.ty)) front_fail(p, pos, "wrong type argument to unary '!'");
      if (e.k == E_CONST) {
        kir_sk sk = ty_reg_sk(e.ty);
        return e_const(ty_of_sk(SK_I32), sem_un(OP_LNOT_I32 + ty_vt(sk == SK_BOOL ? SK_I32 : sk), e.bits));
      }
      int c = code_truth(p, &e, pos), r = code_reg_new(p, pos);
      code_emit(p, OP_LNOT_U64, r, c, -1, -1, 0, 0, pos);
      return e_reg(ty_of_sk(SK_I32), r);
    }
    if (!ty_is_arith(e.ty) || (op == '~' && !ty_is_int(e.ty))) front_fail(p, pos, "wrong type argument to unary '%c'", op);
    kir_sk sk = ty_promote(e.ty->sk);
    code_cast(p, &e, ty_of_sk(sk), pos);
    if (op == '+') return e;
    int opc = (op == '-' ? OP_NEG_I32 : OP_NOT_I32) + ty_vt(sk);
    if (e.k == E_CONST) return e_const(ty_of_sk(sk), sem_un(opc, e.bits));
    int r = code_reg_new(p, pos);
    code_emit(p, opc, r, code_to_reg(p, &e, pos), -1, -1, 0, 0, pos);
    return e_reg(ty_of_sk(sk), r);
  }
  if (is(p, "(")) {
    size_t open = p->i;
    next(p);
    if (is_type_start(p)) {
      type *t = parse_typename(p);
      expect(p, ")");
      if (is(p, "{")) front_fail(p, pos, "unsupported: compound literals");
      expr e = parse_unary(p);
      code_cast(p, &e, t, pos);
      return e;
    }
    p->i = open;  /* a parenthesised expression, not a cast */
  }
  if (is_type_start(p) && is_at(p, 1, "(")) {  /* functional cast: float(x) */
    type *t = parse_typename(p);
    expect(p, "(");
    expr e = parse_assign(p);
    expect(p, ")");
    code_cast(p, &e, t, pos);
    return e;
  }
  token *t = tk(p);
  if (t->kind == TK_IDENT) {
    static const char *unsup[] = {"goto", "new", "delete", "template", "class", "namespace", "throw", "try",
                                  "operator", "asm", "__asm__", "typeid", "this", "dynamic_cast", NULL};
    for (int k = 0; unsup[k]; k++) if (streq(t->text, unsup[k])) front_fail(p, pos, "unsupported: %s", t->text);
  }
  return parse_postfix(p);
}

/* Binary operators on rvalues; pointer arithmetic scales by element size. */
static expr parse_binary(P *p, int minprec);

static int prec_of(P *p) {
  token *t = tk(p);
  if (t->kind != TK_PUNCT) return -1;
  static const struct { const char *s; int prec; } tab[] = {
    {"*", 10}, {"/", 10}, {"%", 10}, {"+", 9}, {"-", 9}, {"<<", 8}, {">>", 8}, {"<", 7}, {"<=", 7}, {">", 7},
    {">=", 7}, {"==", 6}, {"!=", 6}, {"&", 5}, {"^", 4}, {"|", 3}, {"&&", 2}, {"||", 1}};
  for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++) if (streq(t->text, tab[k].s)) return tab[k].prec;
  return -1;
}

/* && and || short-circuit: in SIMT they are branches, and lanes diverge. */
static expr logical(P *p, int is_and, expr l, int prec, srcpos pos) {
  if (l.k == E_CONST) {
    int lv = l.bits != 0;
    if (l.ty->k == TY_SCALAR && sem_sk_is_float(l.ty->sk)) lv = sem_cvt(l.ty->sk, SK_BOOL, l.bits) != 0;
    if (lv != is_and) {  /* decided: the right side is not evaluated, but must parse */
      fstate *fs = p->fs;
      size_t c0 = fs ? fs->code.len : 0;
      int n0 = fs ? fs->nreg : 0;
      parse_binary(p, prec + 1);
      if (fs) { fs->code.len = c0; fs->pos.len = c0; fs->nreg = n0; }
      return e_const(ty_of_sk(SK_I32), lv);
    }
    expr r = parse_binary(p, prec + 1);
    code_to_rvalue(p, &r, pos);
    if (r.k == E_CONST) return e_const(ty_of_sk(SK_I32), sem_cvt(ty_reg_sk(r.ty), SK_BOOL, r.bits));
    int c = code_truth(p, &r, pos), d = code_reg_new(p, pos), z = code_reg_new(p, pos);
    code_emit(p, OP_CONST, z, -1, -1, -1, 0, 0, pos);
    code_emit(p, OP_NE_U64, d, c, z, -1, 0, 0, pos);
    return e_reg(ty_of_sk(SK_I32), d);
  }
  int d = code_reg_new(p, pos), z = code_reg_new(p, pos);
  code_emit(p, OP_CONST, z, -1, -1, -1, 0, 0, pos);
  int c = code_truth(p, &l, pos);
  code_emit(p, OP_NE_U64, d, c, z, -1, 0, 0, pos);
  int done = code_label_new(p);
  code_branch(p, is_and ? OP_BRF : OP_BRT, d, done, pos);
  expr r = parse_binary(p, prec + 1);
  int c2 = code_truth(p, &r, pos);
  code_emit(p, OP_NE_U64, d, c2, z, -1, 0, 0, pos);
  code_label_here(p, done);
  return e_reg(ty_of_sk(SK_I32), d);
}

static expr parse_binary(P *p, int minprec) {
  expr l = parse_unary(p);
  for (;;) {
    int prec = prec_of(p);
    if (prec < minprec) return l;
    srcpos pos = here(p);
    const char *op = tk(p)->text;
    next(p);
    if (streq(op, "&&") || streq(op, "||")) { l = logical(p, op[0] == '&', l, prec, pos); continue; }
    expr r = parse_binary(p, prec + 1);
    l = code_binop(p, op, l, r, pos);
  }
}


static expr parse_cond(P *p) {
  expr c = parse_binary(p, 1);
  srcpos pos = here(p);
  if (!accept(p, "?")) return c;
  code_to_rvalue(p, &c, pos);
  if (c.k == E_CONST) {
    /* fold: still parse (and type-check) both arms, keep the chosen one's code */
    int take_first = sem_cvt(ty_reg_sk(c.ty), SK_BOOL, c.bits) != 0;
    fstate *fs = p->fs;
    size_t c0 = fs ? fs->code.len : 0;
    expr a;
    enter(p);
    a = parse_assign(p);
    if (!take_first && fs) { fs->code.len = c0; fs->pos.len = c0; }
    expect(p, ":");
    size_t c1 = fs ? fs->code.len : 0;
    expr b = parse_cond(p);
    leave(p);
    if (take_first && fs) { fs->code.len = c1; fs->pos.len = c1; }
    expr chosen = take_first ? a : b;
    if (chosen.k == E_CONST) {
      type *t = code_common_type(p, &a, &b, pos);
      code_cast(p, &chosen, t, pos);
    }
    return chosen;
  }
  if (!p->fs) front_fail(p, pos, "conditional expression is not constant");
  int cr = code_truth(p, &c, pos);
  int lelse = code_label_new(p), lend = code_label_new(p);
  code_branch(p, OP_BRF, cr, lelse, pos);
  int d = code_reg_new(p, pos);
  enter(p);
  expr a = parse_assign(p);
  if (a.k != E_VOID) code_to_rvalue(p, &a, pos);   /* void arms: (c) ? (void)0 : f() */
  int ar = a.ty->k == TY_VOID ? -1 : code_to_reg(p, &a, pos);
  size_t mov_a = p->fs->code.len;
  code_emit(p, OP_MOV, d, ar, -1, -1, 0, 0, pos);
  code_jump(p, lend, pos);
  expect(p, ":");
  code_label_here(p, lelse);
  expr b = parse_cond(p);
  leave(p);
  if (b.k != E_VOID) code_to_rvalue(p, &b, pos);
  type *t = a.k == E_VOID && b.k == E_VOID ? &ty_void : code_common_type(p, &a, &b, pos);
  if (t->k == TY_VOID) {
    ((kir_ins *)vec_at(&p->fs->code, mov_a))->op = OP_NOP;
    code_label_here(p, lend);
    expr v = {E_VOID, &ty_void, -1, 0, 0};
    return v;
  }
  code_cast(p, &b, t, pos);
  code_emit(p, OP_MOV, d, code_to_reg(p, &b, pos), -1, -1, 0, 0, pos);
  code_label_here(p, lend);
  /* the first arm was moved before its type was known: convert it in place */
  if (a.ty != t && !(a.ty->k == TY_PTR && t->k == TY_PTR) && ty_reg_sk(a.ty) != ty_reg_sk(t)) {
    kir_ins *mv = vec_at(&p->fs->code, mov_a);
    mv->op = OP_CVT;
    mv->imm = ty_reg_sk(a.ty) | (ty_reg_sk(t) << 8);
  }
  return e_reg(t, d);
}

static expr parse_assign(P *p) {
  expr l = parse_cond(p);
  srcpos pos = here(p);
  token *t = tk(p);
  if (t->kind != TK_PUNCT) return l;
  const char *op = t->text;
  size_t n = strlen(op);
  if (!(op[n - 1] == '=' && !streq(op, "==") && !streq(op, "!=") && !streq(op, "<=") && !streq(op, ">="))) return l;
  next(p);
  code_check_lvalue(p, &l, pos, "left operand of assignment");
  int mark = p->fs ? p->fs->nreg : 0;
  enter(p);   /* a = b = ... and a += b += ... recurse here: bounded like any nesting */
  expr r = parse_assign(p);
  leave(p);
  if (n > 1) {
    char bop[4] = {0};
    memcpy(bop, op, n - 1);
    expr cur = l;
    if (l.k == E_VAR) cur.k = E_REG;
    else cur = code_value_copy(p, l, pos);
    r = code_binop(p, bop, cur, r, pos);
  }
  code_to_rvalue(p, &r, pos);
  if (l.ty->k == TY_PTR && r.ty->k == TY_SCALAR && !(r.k == E_CONST && r.bits == 0))
    front_fail(p, pos, "assignment makes pointer from integer without a cast");
  if (l.ty->k == TY_SCALAR && r.ty->k == TY_PTR && l.ty->sk != SK_BOOL)
    front_fail(p, pos, "assignment makes integer from pointer without a cast");
  type *lt = l.ty;
  if (lt->vol || lt->cnst) { type *u = ty_new(p, lt->k); *u = *lt; u->vol = u->cnst = 0; lt = u; }
  code_cast(p, &r, lt, pos);
  if (l.k == E_VAR) {
    code_store_var(p, &l, code_to_reg(p, &r, pos), mark, pos);
    return e_reg(lt, l.reg);   /* the temporary may have been retargeted */
  }
  if (lt->k != TY_STRUCT) { int rr = code_to_reg(p, &r, pos); r = e_reg(lt, rr); }
  code_store(p, &l, r, pos);
  return r;
}

static expr parse_expr(P *p) {
  expr e = parse_assign(p);
  while (accept(p, ",")) e = parse_assign(p);
  return e;
}

/* An expression statement or for-step: its value, and its parts' values
 * around commas, are unused. */
static void discarded_expr(P *p) {
  size_t saved = p->discard_at;
  p->discard_at = p->i;
  parse_assign(p);
  while (accept(p, ",")) { p->discard_at = p->i; parse_assign(p); }
  p->discard_at = saved;
}

/* ------------------------------------------------------------- builtins */

static expr arg_expr(P *p) { return parse_assign(p); }

static int atomic_sk_ok(int kind, kir_sk sk) {
  switch (kind) {
  case AT_ADD: return sk == SK_I32 || sk == SK_U32 || sk == SK_U64 || sk == SK_F32 || sk == SK_F64 || sk == SK_I64;
  case AT_SUB: return sk == SK_I32 || sk == SK_U32;
  case AT_EXCH: return sk == SK_I32 || sk == SK_U32 || sk == SK_U64 || sk == SK_F32 || sk == SK_I64;
  case AT_MIN: case AT_MAX: return sk == SK_I32 || sk == SK_U32 || sk == SK_U64 || sk == SK_I64;
  case AT_INC: case AT_DEC: return sk == SK_U32;
  case AT_CAS: return sk == SK_I32 || sk == SK_U32 || sk == SK_U64 || sk == SK_I64 || sk == SK_U16;
  default: return sk == SK_I32 || sk == SK_U32 || sk == SK_U64 || sk == SK_I64;
  }
}

/* CUDA's scoped atomic builtins (CUDA 12.8 and later), the C spelling of
 * PTX's memory orders and scopes: __nv_atomic_load_n(p, order, scope) and
 * the rest.  Each becomes what nvcc emits for it (checked against nvcc
 * 13.0 for sm_90): thread scope is cta; consume is acquire; a seq_cst
 * access is fence.sc then the acquire (load, read-modify-write) or relaxed
 * (store) access; a fence is fence.acq_rel for acq_rel and fence.sc for
 * every other order.  The order and scope must be integer constants. */
static int nv_scope(P *p, expr e, srcpos pos, const char *name) {
  int64_t v = const_int(p, e, pos, "the scope of an __nv_atomic builtin");
  switch (v) {
  case NV_SCOPE_THREAD: case NV_SCOPE_BLOCK: return SCOPE_BLOCK;
  case NV_SCOPE_DEVICE: return SCOPE_DEVICE;
  case NV_SCOPE_SYSTEM: return SCOPE_SYSTEM;
  case NV_SCOPE_CLUSTER: front_fail(p, pos, "'%s': cluster scope is not modelled (gpurace has no thread block clusters)", name);
  default: front_fail(p, pos, "'%s': %lld is not a thread scope (__NV_THREAD_SCOPE_*)", name, (long long)v);
  }
  return SCOPE_SYSTEM;
}

/* The memory order argument: 'l' a load, 's' a store, 'r' a read-modify-write. */
static int nv_order(P *p, expr e, srcpos pos, const char *name, int what) {
  int64_t v = const_int(p, e, pos, "the memory order of an __nv_atomic builtin");
  if (v < NV_RELAXED || v > NV_SEQ_CST) front_fail(p, pos, "'%s': %lld is not a memory order (__NV_ATOMIC_*)", name, (long long)v);
  if (what == 'l' && (v == NV_RELEASE || v == NV_ACQ_REL)) front_fail(p, pos, "'%s': an atomic load's memory order cannot be release or acq_rel", name);
  if (what == 's' && (v == NV_CONSUME || v == NV_ACQUIRE || v == NV_ACQ_REL))
    front_fail(p, pos, "'%s': an atomic store's memory order cannot be consume, acquire or acq_rel", name);
  return (int)v;
}

/* The KIR order of an access with C order o (seq_cst: after its fence). */
static int nv_kir_order(int o, int what) {
  switch (o) {
  case NV_CONSUME: case NV_ACQUIRE: return MO_ACQUIRE;
  case NV_RELEASE: return MO_RELEASE;
  case NV_ACQ_REL: return MO_ACQ_REL;
  case NV_SEQ_CST: return what == 's' ? MO_RELAXED : MO_ACQUIRE;
  default: return MO_RELAXED;
  }
}

/* The pointed-to kind of an __nv_atomic builtin's first argument. */
static kir_sk nv_target(P *p, expr *a, srcpos pos, const char *name) {
  code_to_rvalue(p, a, pos);
  if (a->ty->k != TY_PTR || (a->ty->base->k != TY_SCALAR && a->ty->base->k != TY_PTR))
    front_fail(p, pos, "first argument of '%s' must be a pointer to an integer, floating or pointer type", name);
  kir_sk sk = a->ty->base->k == TY_PTR ? SK_PTR : a->ty->base->sk;
  if (kir_sk_size[sk] != 4 && kir_sk_size[sk] != 8) front_fail(p, pos, "'%s' on a %d-byte type: gpurace models 4- and 8-byte atomics", name, kir_sk_size[sk]);
  return sk;
}

static void nv_sc_fence(P *p, int o, int scope, srcpos pos) {
  if (o == NV_SEQ_CST) code_emit(p, OP_FENCE, -1, -1, -1, -1, scope, FENCE_SC, pos);
}

static int nv_atomic_call(P *p, const char *name, srcpos pos, expr *res, int unused) {
  static const struct { const char *n; int kind, fetch; } rmws[] = {
    {"fetch_add", AT_ADD, 1}, {"fetch_sub", AT_SUB, 1}, {"fetch_and", AT_AND, 1}, {"fetch_or", AT_OR, 1},
    {"fetch_xor", AT_XOR, 1}, {"fetch_min", AT_MIN, 1}, {"fetch_max", AT_MAX, 1},
    {"add", AT_ADD, 0}, {"sub", AT_SUB, 0}, {"and", AT_AND, 0}, {"or", AT_OR, 0}, {"xor", AT_XOR, 0},
    {"min", AT_MIN, 0}, {"max", AT_MAX, 0}, {"exchange_n", AT_EXCH, 1}};
  static const struct { const char *n; int args; } forms[] = {
    {"load_n", 3}, {"load", 4}, {"store_n", 4}, {"store", 4}, {"exchange", 5}, {"compare_exchange_n", 7},
    {"compare_exchange", 7}, {"thread_fence", 2}};
  const char *op = name + 12;
  int nargs = -1, rmw = -1;
  for (size_t k = 0; k < sizeof rmws / sizeof rmws[0]; k++) if (streq(op, rmws[k].n)) { rmw = (int)k; nargs = 4; }
  for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) if (streq(op, forms[k].n)) nargs = forms[k].args;
  if (nargs < 0) return 0;
  expr a[7];
  int n = 0;
  expect(p, "(");
  if (!is(p, ")")) do {
    if (n == 7) front_fail(p, here(p), "too many arguments to '%s'", name);
    a[n++] = arg_expr(p);
  } while (accept(p, ","));
  expect(p, ")");
  if (n != nargs) front_fail(p, pos, "'%s' takes %d arguments, %d given", name, nargs, n);
  expr v = {E_VOID, &ty_void, -1, 0, 0};
  *res = v;
  if (streq(op, "thread_fence")) {
    int o = nv_order(p, a[0], pos, name, 'f'), scope = nv_scope(p, a[1], pos, name);
    code_emit(p, OP_FENCE, -1, -1, -1, -1, scope, o == NV_ACQ_REL ? FENCE_ACQ_REL : FENCE_SC, pos);
    return 1;
  }
  kir_sk sk = nv_target(p, &a[0], pos, name);
  type *ty = a[0].ty->base;
  int addr = code_to_reg(p, &a[0], pos);
  int scope = nv_scope(p, a[n - 1], pos, name);
  if (streq(op, "load_n") || streq(op, "load")) {
    int o = nv_order(p, a[n - 2], pos, name, 'l'), d = code_reg_new(p, pos);
    nv_sc_fence(p, o, scope, pos);
    code_emit(p, OP_LD, d, addr, -1, -1, 0, KIR_MF_STRONG(sk, scope, nv_kir_order(o, 'l')), pos);
    expr val = e_reg(ty, d);
    if (n == 3) { *res = val; return 1; }
    expr lv = deref(p, a[1], pos);
    code_check_lvalue(p, &lv, pos, "the result of '__nv_atomic_load'");
    code_cast(p, &val, lv.ty, pos);
    code_store(p, &lv, val, pos);
    return 1;
  }
  if (streq(op, "store_n") || streq(op, "store")) {
    int o = nv_order(p, a[2], pos, name, 's');
    expr val = streq(op, "store") ? deref(p, a[1], pos) : a[1];
    code_cast(p, &val, ty, pos);
    int r = code_to_reg(p, &val, pos);
    nv_sc_fence(p, o, scope, pos);
    code_emit(p, OP_ST, -1, addr, r, -1, 0, KIR_MF_STRONG(sk, scope, nv_kir_order(o, 's')), pos);
    return 1;
  }
  if (streq(op, "compare_exchange_n") || streq(op, "compare_exchange")) {
    int ok_o = nv_order(p, a[4], pos, name, 'r'), fail_o = nv_order(p, a[5], pos, name, 'l');
    int order = nv_kir_order(ok_o, 'r');
    /* one atom.cas carries both orders: a failure order that acquires makes it acquire */
    if (nv_kir_order(fail_o, 'l') == MO_ACQUIRE && (order == MO_RELAXED || order == MO_RELEASE)) order = order == MO_RELAXED ? MO_ACQUIRE : MO_ACQ_REL;
    if (!atomic_sk_ok(AT_CAS, sk) && sk != SK_F32 && sk != SK_F64 && sk != SK_PTR) front_fail(p, pos, "no '%s' for '%s'", name, kir_sk_name[sk]);
    expr ex = deref(p, a[1], pos);
    code_check_lvalue(p, &ex, pos, "the expected value of a compare-and-exchange");
    expr cmp = ex, des = streq(op, "compare_exchange") ? deref(p, a[2], pos) : a[2];
    code_cast(p, &cmp, ty, pos);
    code_cast(p, &des, ty, pos);
    int cr = code_to_reg(p, &cmp, pos), dr = code_to_reg(p, &des, pos);
    code_truth(p, &a[3], pos);   /* weak: evaluated; a strong exchange is a valid weak one */
    nv_sc_fence(p, ok_o, scope, pos);
    int old = code_reg_new(p, pos), ok = code_reg_new(p, pos);
    code_emit(p, OP_ATOM, old, addr, cr, dr, 0, sk | AT_CAS << 8 | scope << MF_SCOPE_SHIFT | order << MF_ORDER_SHIFT, pos);
    code_emit(p, OP_EQ_U64, ok, old, cr, -1, 0, 0, pos);
    /* on failure the value seen goes to *expected, as in C11 */
    int done = code_label_new(p);
    code_branch(p, OP_BRT, ok, done, pos);
    expr ov = e_reg(ty, old);
    code_cast(p, &ov, ex.ty, pos);
    code_store(p, &ex, ov, pos);
    code_label_here(p, done);
    *res = e_reg(ty_of_sk(SK_BOOL), ok);
    return 1;
  }
  if (streq(op, "exchange")) {
    int o = nv_order(p, a[3], pos, name, 'r');
    expr val = deref(p, a[1], pos);
    code_cast(p, &val, ty, pos);
    int r = code_to_reg(p, &val, pos), d = code_reg_new(p, pos);
    nv_sc_fence(p, o, scope, pos);
    code_emit(p, OP_ATOM, d, addr, r, -1, 0, sk | AT_EXCH << 8 | scope << MF_SCOPE_SHIFT | nv_kir_order(o, 'r') << MF_ORDER_SHIFT, pos);
    expr lv = deref(p, a[2], pos);
    code_check_lvalue(p, &lv, pos, "the result of '__nv_atomic_exchange'");
    expr ov = e_reg(ty, d);
    code_cast(p, &ov, lv.ty, pos);
    code_store(p, &lv, ov, pos);
    return 1;
  }
  int kind = rmws[rmw].kind;
  if (kind != AT_EXCH && !atomic_sk_ok(kind, sk)) front_fail(p, pos, "no '%s' for '%s'", name, kir_sk_name[sk]);
  int o = nv_order(p, a[2], pos, name, 'r');
  expr val = a[1];
  code_cast(p, &val, ty, pos);
  int r = code_to_reg(p, &val, pos), d = rmws[rmw].fetch && !unused ? code_reg_new(p, pos) : -1;
  nv_sc_fence(p, o, scope, pos);
  code_emit(p, OP_ATOM, d, addr, r, -1, 0, sk | kind << 8 | scope << MF_SCOPE_SHIFT | nv_kir_order(o, 'r') << MF_ORDER_SHIFT, pos);
  if (d >= 0) *res = e_reg(ty, d);
  return 1;
}

static int builtin_call(P *p, const char *name, srcpos pos, expr *res, int unused) {
  expr a[4];
  int n = 0;
  #define ARGS(k) do { expect(p, "("); if (!is(p, ")")) do { if (n == 4) front_fail(p, here(p), "too many arguments to '%s'", name); a[n++] = arg_expr(p); } while (accept(p, ",")); expect(p, ")"); \
    if (n != (k)) front_fail(p, pos, "'%s' takes %d argument%s, %d given", name, (k), (k) == 1 ? "" : "s", n); } while (0)
  expr v = {E_VOID, &ty_void, -1, 0, 0};
  *res = v;
  if (!strncmp(name, "__nv_atomic_", 12)) return nv_atomic_call(p, name, pos, res, unused);
  if (streq(name, "__syncthreads")) { ARGS(0); code_emit(p, OP_BAR, -1, -1, -1, -1, BAR_SYNC, 0, pos); return 1; }
  if (streq(name, "__syncthreads_count") || streq(name, "__syncthreads_and") || streq(name, "__syncthreads_or")) {
    ARGS(1);
    int kind = name[14] == 'c' ? BAR_COUNT : name[14] == 'a' ? BAR_AND : BAR_OR;   /* __syncthreads_X */
    int pr = code_truth(p, &a[0], pos), d = code_reg_new(p, pos);
    code_emit(p, OP_BAR, d, pr, -1, -1, kind, 0, pos);
    *res = e_reg(ty_of_sk(SK_I32), d);
    return 1;
  }
  if (streq(name, "memcpy") || streq(name, "__builtin_memcpy") || streq(name, "memset") || streq(name, "__builtin_memset")) {
    /* a byte loop: exact for any alignment, and each byte an access the detectors see */
    ARGS(3);
    int is_set = strstr(name, "memset") != NULL;
    code_to_rvalue(p, &a[0], pos);
    if (a[0].ty->k != TY_PTR) front_fail(p, pos, "first argument of '%s' must be a pointer", name);
    if (!is_set) { code_to_rvalue(p, &a[1], pos); if (a[1].ty->k != TY_PTR) front_fail(p, pos, "second argument of '%s' must be a pointer", name); }
    else code_cast(p, &a[1], ty_of_sk(SK_U8), pos);
    code_cast(p, &a[2], ty_of_sk(SK_U64), pos);
    int dst = code_to_reg(p, &a[0], pos), src = code_to_reg(p, &a[1], pos), n = code_to_reg(p, &a[2], pos);
    int i = code_reg_new(p, pos), c = code_reg_new(p, pos), q = code_reg_new(p, pos), v = code_reg_new(p, pos);
    int one = code_const_reg(p, 1, pos);
    code_emit(p, OP_CONST, i, -1, -1, -1, 0, 0, pos);
    int top = code_label_new(p), done = code_label_new(p);
    code_label_here(p, top);
    code_emit(p, OP_LT_U64, c, i, n, -1, 0, 0, pos);
    code_branch(p, OP_BRF, c, done, pos);
    if (!is_set) {
      code_emit(p, OP_PADD, q, src, i, -1, 0, 0, pos);
      code_emit(p, OP_LD, v, q, -1, -1, 0, KIR_MF_ACCESS(SK_U8, a[1].ty->base->vol), pos);
    }
    code_emit(p, OP_PADD, q, dst, i, -1, 0, 0, pos);
    code_emit(p, OP_ST, -1, q, is_set ? src : v, -1, 0, KIR_MF_ACCESS(SK_U8, a[0].ty->base->vol), pos);
    code_emit(p, OP_ADD_U64, i, i, one, -1, 0, 0, pos);
    code_jump(p, top, pos);
    code_label_here(p, done);
    *res = e_reg(ty_ptr(p, &ty_void), dst);
    return 1;
  }
  if (streq(name, "__syncwarp")) {
    expect(p, "(");
    expr m = is(p, ")") ? e_const(ty_of_sk(SK_U32), 0xffffffffu) : arg_expr(p);
    expect(p, ")");
    code_cast(p, &m, ty_of_sk(SK_U32), pos);
    code_emit(p, OP_SYNCWARP, -1, code_to_reg(p, &m, pos), -1, -1, 0, 0, pos);
    return 1;
  }
  if (streq(name, "__threadfence_block") || streq(name, "__threadfence") || streq(name, "__threadfence_system")) {
    ARGS(0);
    int sc = streq(name, "__threadfence_block") ? SCOPE_BLOCK : streq(name, "__threadfence") ? SCOPE_DEVICE : SCOPE_SYSTEM;
    code_emit(p, OP_FENCE, -1, -1, -1, -1, sc, 0, pos);
    return 1;
  }
  if (!strncmp(name, "atomic", 6)) {
    static const char *an[] = {"Add", "Sub", "Exch", "Min", "Max", "Inc", "Dec", "CAS", "And", "Or", "Xor"};
    const char *rest = name + 6;
    int kind = -1;
    size_t kl = 0;
    for (int k = 0; k < AT_COUNT; k++) {
      size_t l = strlen(an[k]);
      if (!strncmp(rest, an[k], l) && l > kl && (rest[l] == 0 || rest[l] == '_')) { kind = k; kl = l; }
    }
    if (kind < 0) return 0;
    const char *suf = rest + kl;
    int scope = !*suf ? SCOPE_DEVICE : streq(suf, "_block") ? SCOPE_BLOCK : streq(suf, "_system") ? SCOPE_SYSTEM : -1;
    if (scope < 0) return 0;
    ARGS(kind == AT_CAS ? 3 : 2);
    code_to_rvalue(p, &a[0], pos);
    if (a[0].ty->k != TY_PTR || a[0].ty->base->k != TY_SCALAR) front_fail(p, pos, "first argument of '%s' must be a pointer to an integer or floating type", name);
    kir_sk sk = a[0].ty->base->sk;
    if (!atomic_sk_ok(kind, sk)) front_fail(p, pos, "no '%s' for '%s'", name, kir_sk_name[sk]);
    if (kind == AT_INC || kind == AT_DEC) sk = SK_U32;
    for (int k = 1; k < n; k++) code_cast(p, &a[k], ty_of_sk(sk), pos);
    int addr = code_to_reg(p, &a[0], pos);
    int b = code_to_reg(p, &a[1], pos), c = n > 2 ? code_to_reg(p, &a[2], pos) : -1;
    int d = unused ? -1 : code_reg_new(p, pos);
    code_emit(p, OP_ATOM, d, addr, b, c, 0, sk | (kind << 8) | (scope << 12) | (a[0].ty->base->vol ? MF_VOLATILE : 0), pos);
    if (d >= 0) *res = e_reg(ty_of_sk(sk), d);
    return 1;
  }
  struct { const char *n; int kind; int args; } votes[] = {
    {"__all_sync", VOTE_ALL, 2}, {"__any_sync", VOTE_ANY, 2}, {"__ballot_sync", VOTE_BALLOT, 2},
    {"__all", VOTE_ALL, 1}, {"__any", VOTE_ANY, 1}, {"__ballot", VOTE_BALLOT, 1}, {"__activemask", VOTE_ACTIVEMASK, 0}};
  for (size_t k = 0; k < sizeof votes / sizeof votes[0]; k++) {
    if (!streq(name, votes[k].n)) continue;
    ARGS(votes[k].args);
    int mask = -1, pred = -1;
    if (votes[k].args == 2) { code_cast(p, &a[0], ty_of_sk(SK_U32), pos); mask = code_to_reg(p, &a[0], pos); pred = code_truth(p, &a[1], pos); }
    else if (votes[k].args == 1) pred = code_truth(p, &a[0], pos);
    int d = code_reg_new(p, pos);
    code_emit(p, OP_VOTE, d, pred, mask, -1, votes[k].kind, 0, pos);
    *res = e_reg(ty_of_sk(votes[k].kind == VOTE_BALLOT || votes[k].kind == VOTE_ACTIVEMASK ? SK_U32 : SK_I32), d);
    return 1;
  }
  struct { const char *n; int kind; int sync; } shfls[] = {
    {"__shfl_sync", SHFL_IDX, 1}, {"__shfl_up_sync", SHFL_UP, 1}, {"__shfl_down_sync", SHFL_DOWN, 1}, {"__shfl_xor_sync", SHFL_XOR, 1},
    {"__shfl", SHFL_IDX, 0}, {"__shfl_up", SHFL_UP, 0}, {"__shfl_down", SHFL_DOWN, 0}, {"__shfl_xor", SHFL_XOR, 0}};
  for (size_t k = 0; k < sizeof shfls / sizeof shfls[0]; k++) {
    if (!streq(name, shfls[k].n)) continue;
    expect(p, "(");
    do { if (n == 4) front_fail(p, here(p), "too many arguments to '%s'", name); a[n++] = arg_expr(p); } while (accept(p, ","));
    expect(p, ")");
    int base = shfls[k].sync;
    if (n < 2 + base || n > 3 + base) front_fail(p, pos, "'%s' takes %d or %d arguments, %d given", name, 2 + base, 3 + base, n);
    int mreg = -1;
    if (base) { code_cast(p, &a[0], ty_of_sk(SK_U32), pos); mreg = code_to_reg(p, &a[0], pos); }
    expr val = a[base];
    code_to_rvalue(p, &val, pos);
    if (!ty_is_scalar(val.ty)) front_fail(p, pos, "'%s' needs a scalar value", name);
    if (val.ty->k == TY_SCALAR && kir_sk_size[val.ty->sk] < 4) code_cast(p, &val, ty_of_sk(SK_I32), pos);
    expr lane = a[base + 1];
    code_cast(p, &lane, ty_of_sk(SK_I32), pos);
    expr width = n > base + 2 ? a[base + 2] : e_const(ty_of_sk(SK_I32), 32);
    code_cast(p, &width, ty_of_sk(SK_I32), pos);
    int d = code_reg_new(p, pos);
    /* imm: the kind, and the member mask's register + 1 above bit 8 (0: the legacy form, no mask) */
    code_emit(p, OP_SHFL, d, code_to_reg(p, &val, pos), code_to_reg(p, &lane, pos), code_to_reg(p, &width, pos),
         shfls[k].kind | (int64_t)(mreg + 1) << 8, 0, pos);
    *res = e_reg(val.ty, d);
    return 1;
  }
  if (streq(name, "__ldg")) {
    ARGS(1);
    *res = deref(p, a[0], pos);
    code_to_rvalue(p, res, pos);
    return 1;
  }
  if (streq(name, "clock") || streq(name, "clock64")) {
    ARGS(0);
    int d = code_reg_new(p, pos);
    code_emit(p, OP_SREG, d, -1, -1, -1, SR_CLOCK, 0, pos);
    *res = e_reg(ty_of_sk(name[5] ? SK_I64 : SK_I32), d);
    if (!name[5]) code_cast(p, res, ty_of_sk(SK_I32), pos);
    return 1;
  }
  if (streq(name, "__trap")) { ARGS(0); code_emit(p, OP_TRAP, -1, -1, -1, -1, TRAP_CALL, 0, pos); return 1; }
  if (streq(name, "__gpurace_assert_fail")) { ARGS(0); code_emit(p, OP_TRAP, -1, -1, -1, -1, TRAP_ASSERT, 0, pos); return 1; }
  if (streq(name, "printf") || streq(name, "malloc") || streq(name, "free") || streq(name, "assert"))
    front_fail(p, pos, "unsupported: %s in device code", name);
  /* min/max: typed by the usual conversions */
  if (streq(name, "min") || streq(name, "max") || streq(name, "umin") || streq(name, "umax") ||
      streq(name, "llmin") || streq(name, "llmax")) {
    ARGS(2);
    code_to_rvalue(p, &a[0], pos); code_to_rvalue(p, &a[1], pos);
    if (!ty_is_arith(a[0].ty) || !ty_is_arith(a[1].ty)) front_fail(p, pos, "'%s' needs arithmetic arguments", name);
    kir_sk sk = ty_usual(a[0].ty->sk, a[1].ty->sk);
    if (name[0] == 'u') sk = SK_U32;
    *res = code_arith(p, strstr(name, "min") ? OP_MIN_I32 : OP_MAX_I32, a[0], a[1], sk, pos);
    return 1;
  }
  static const struct { const char *n; int fn; kir_sk sk; int args; kir_sk ret; } mf[] = {
    {"sqrtf", MATH_SQRTF, SK_F32, 1, SK_F32}, {"sqrt", MATH_SQRT, SK_F64, 1, SK_F64}, {"rsqrtf", MATH_RSQRTF, SK_F32, 1, SK_F32},
    {"expf", MATH_EXPF, SK_F32, 1, SK_F32}, {"__expf", MATH_EXPF, SK_F32, 1, SK_F32}, {"exp", MATH_EXP, SK_F64, 1, SK_F64},
    {"exp2f", MATH_EXP2F, SK_F32, 1, SK_F32}, {"logf", MATH_LOGF, SK_F32, 1, SK_F32}, {"__logf", MATH_LOGF, SK_F32, 1, SK_F32},
    {"log", MATH_LOG, SK_F64, 1, SK_F64}, {"log2f", MATH_LOG2F, SK_F32, 1, SK_F32}, {"log10f", MATH_LOG10F, SK_F32, 1, SK_F32},
    {"sinf", MATH_SINF, SK_F32, 1, SK_F32}, {"__sinf", MATH_SINF, SK_F32, 1, SK_F32}, {"sin", MATH_SIN, SK_F64, 1, SK_F64},
    {"cosf", MATH_COSF, SK_F32, 1, SK_F32}, {"__cosf", MATH_COSF, SK_F32, 1, SK_F32}, {"cos", MATH_COS, SK_F64, 1, SK_F64},
    {"tanf", MATH_TANF, SK_F32, 1, SK_F32}, {"tanhf", MATH_TANHF, SK_F32, 1, SK_F32},
    {"powf", MATH_POWF, SK_F32, 2, SK_F32}, {"__powf", MATH_POWF, SK_F32, 2, SK_F32}, {"pow", MATH_POW, SK_F64, 2, SK_F64},
    {"fabsf", MATH_FABSF, SK_F32, 1, SK_F32}, {"fabs", MATH_FABS, SK_F64, 1, SK_F64}, {"floorf", MATH_FLOORF, SK_F32, 1, SK_F32},
    {"floor", MATH_FLOOR, SK_F64, 1, SK_F64}, {"ceilf", MATH_CEILF, SK_F32, 1, SK_F32}, {"ceil", MATH_CEIL, SK_F64, 1, SK_F64},
    {"truncf", MATH_TRUNCF, SK_F32, 1, SK_F32}, {"roundf", MATH_ROUNDF, SK_F32, 1, SK_F32},
    {"fminf", MATH_FMINF, SK_F32, 2, SK_F32}, {"fmaxf", MATH_FMAXF, SK_F32, 2, SK_F32}, {"fmin", MATH_FMIN, SK_F64, 2, SK_F64},
    {"fmax", MATH_FMAX, SK_F64, 2, SK_F64}, {"fmaf", MATH_FMAF, SK_F32, 3, SK_F32}, {"fma", MATH_FMA, SK_F64, 3, SK_F64},
    {"fmodf", MATH_FMODF, SK_F32, 2, SK_F32}, {"atan2f", MATH_ATAN2F, SK_F32, 2, SK_F32}, {"atanf", MATH_ATANF, SK_F32, 1, SK_F32},
    {"__fdividef", MATH_FDIVIDEF, SK_F32, 2, SK_F32},
    {"__popc", MATH_POPC, SK_U32, 1, SK_I32}, {"__popcll", MATH_POPCLL, SK_U64, 1, SK_I32}, {"__clz", MATH_CLZ, SK_I32, 1, SK_I32},
    {"__clzll", MATH_CLZLL, SK_I64, 1, SK_I32}, {"__ffs", MATH_FFS, SK_I32, 1, SK_I32}, {"__ffsll", MATH_FFSLL, SK_I64, 1, SK_I32},
    {"__brev", MATH_BREV, SK_U32, 1, SK_U32}, {"abs", MATH_ABS, SK_I32, 1, SK_I32}, {"llabs", MATH_LLABS, SK_I64, 1, SK_I64},
    {"__mul24", MATH_MUL24, SK_I32, 2, SK_I32}, {"__umul24", MATH_UMUL24, SK_U32, 2, SK_U32},
    {"__mulhi", MATH_MULHI, SK_I32, 2, SK_I32}, {"__umulhi", MATH_UMULHI, SK_U32, 2, SK_U32},
    {"__sad", MATH_SAD, SK_I32, 3, SK_U32}, {"__usad", MATH_USAD, SK_U32, 3, SK_U32}};
  for (size_t k = 0; k < sizeof mf / sizeof mf[0]; k++) {
    if (!streq(name, mf[k].n)) continue;
    ARGS(mf[k].args);
    int r[3] = {-1, -1, -1};
    for (int j = 0; j < n; j++) {
      code_to_rvalue(p, &a[j], pos);
      if (!ty_is_arith(a[j].ty)) front_fail(p, pos, "argument %d of '%s' is not arithmetic", j + 1, name);
      code_cast(p, &a[j], ty_of_sk((mf[k].fn == MATH_SAD || mf[k].fn == MATH_USAD) && j == 2 ? SK_U32 : mf[k].sk), pos);
      r[j] = code_to_reg(p, &a[j], pos);
    }
    int d = code_reg_new(p, pos);
    code_emit(p, OP_MATH, d, r[0], r[1], r[2], mf[k].fn, 0, pos);
    *res = e_reg(ty_of_sk(mf[k].ret), d);
    return 1;
  }
  #undef ARGS
  return 0;
}

/* ------------------------------------------------------------- statements */

static void parse_stmt(P *p);
static void parse_block(P *p);

static int name_addr_taken(P *p, const char *n) {
  fstate *fs = p->fs;
  for (size_t k = 0; k < fs->addr_taken.len; k++) if (streq(*(const char **)vec_at(&fs->addr_taken, k), n)) return 1;
  return 0;
}

/* Stores an initialiser into memory at lv (arrays and structs, braces nest). */
static void init_mem(P *p, expr lv, srcpos pos) {
  enter(p);
  if (lv.ty->k == TY_ARRAY || lv.ty->k == TY_STRUCT) {
    if (!accept(p, "{")) {
      if (lv.ty->k == TY_STRUCT) { expr v = parse_assign(p); code_cast(p, &v, lv.ty, pos); code_store(p, &lv, v, pos); leave(p); return; }
      front_fail(p, here(p), "array initialiser must be a brace-enclosed list");
    }
    uint64_t k = 0;
    while (!accept(p, "}")) {
      expr el = lv;
      if (lv.ty->k == TY_ARRAY) {
        if (k >= lv.ty->n) front_fail(p, here(p), "excess elements in array initialiser");
        uint64_t es = ty_size(p, lv.ty->base, pos);
        el.ty = lv.ty->base;
        el.off = lv.off + (int64_t)(k * es);
      } else {
        if (k >= (uint64_t)lv.ty->s->nf) front_fail(p, here(p), "excess elements in struct initialiser");
        el.ty = lv.ty->s->f[k].ty;
        el.off = lv.off + (int64_t)lv.ty->s->f[k].off;
      }
      init_mem(p, el, here(p));
      k++;
      if (!accept(p, ",")) { expect(p, "}"); break; }
    }
    leave(p);
    return;
  }
  expr v = parse_assign(p);
  type *t = lv.ty;
  if (t->cnst || t->vol) { type *u = ty_new(p, t->k); *u = *t; u->cnst = 0; t = u; }
  code_cast(p, &v, t, pos);
  expr target = lv;
  target.ty = t;
  code_store(p, &target, v, pos);
  leave(p);
}

static uint64_t count_init_elems(P *p) {
  /* for T a[] = {...}: count top-level elements without consuming */
  size_t k = p->i;
  if (!is(p, "{")) return 0;
  int depth = 0;
  uint64_t n = 0;
  int any = 0;
  for (; k < p->nt; k++) {
    token *t = &p->t[k];
    if (t->kind == TK_EOF) break;
    if (t->kind == TK_PUNCT && (streq(t->text, "{") || streq(t->text, "(") || streq(t->text, "["))) { depth++; if (depth > 1) any = 1; continue; }
    if (t->kind == TK_PUNCT && (streq(t->text, "}") || streq(t->text, ")") || streq(t->text, "]"))) {
      depth--;
      if (depth == 0) return n + (any ? 1 : 0);
      continue;
    }
    if (depth == 1 && t->kind == TK_PUNCT && streq(t->text, ",")) { n++; any = 0; continue; }
    any = 1;
  }
  return n;
}

/* A reference bound to v: the lvalue itself (inlining makes the reference
 * an alias of it), or for a const reference to an rvalue, a copy in a
 * register.  `what` names the reference in messages. */
static expr *bind_reference(P *p, expr v, type *rt, srcpos pos, const char *what) {
  expr *b = arena_alloc(p->a, sizeof *b);
  if (v.k == E_VAR || (v.k == E_MEM && v.ty->k != TY_ARRAY)) {
    if (!same_type(ty_unqual(p, v.ty), ty_unqual(p, rt)))
      front_fail(p, pos, "%s: cannot bind a reference to '%s' to a value of type '%s'", what, ty_name(p, rt), ty_name(p, v.ty));
    if ((v.ty->cnst && !rt->cnst) || (v.ty->vol && !rt->vol)) front_fail(p, pos, "%s: binding the reference drops a qualifier", what);
    *b = v;
    b->ty = rt;
    return b;
  }
  if (!rt->cnst) front_fail(p, pos, "%s: a non-const reference needs an lvalue", what);
  code_cast(p, &v, ty_unqual(p, rt), pos);
  int r = code_reg_new(p, pos);
  code_emit(p, OP_MOV, r, code_to_reg(p, &v, pos), -1, -1, 0, 0, pos);
  b->k = E_VAR; b->ty = rt; b->reg = r;
  return b;
}

static void local_decl(P *p, declspec *ds) {
  do {
    const char *n; srcpos np; int isf = 0;
    size_t decl_tok = p->i;
    type *t = parse_declarator(p, ds->ty, &n, &np, &isf);
    if (isf) front_fail(p, np, "unsupported: local function declarations");
    if (!n) front_fail(p, np, "expected an identifier in declaration");
    if (ds->is_typedef) {
      if (t->k == TY_REF) front_fail(p, np, "unsupported: reference typedefs");
      if (ds->is_auto) front_fail(p, np, "'auto' in a typedef");
      declare_at(p, n, SYM_TYPEDEF, t, np);
      continue;
    }
    if (ds->is_auto) {
      /* auto x = e: x takes e's type (arrays decay, qualifiers of e drop,
       * the declaration's const stays), as C++ deduces it */
      int star = t->k == TY_PTR && t->base->k == TY_VOID;   /* auto *p = e: e must be a pointer */
      if ((t->k != TY_VOID && !star) || ds->is_shared || ds->is_static || ds->is_extern)
        front_fail(p, np, "unsupported: 'auto' other than 'auto NAME = EXPR' or 'auto *NAME = EXPR' for a local variable");
      if (!accept(p, "=")) front_fail(p, np, "declaration of 'auto %s' has no initialiser", n);
      srcpos vp = here(p);
      expr v = parse_assign(p);
      code_to_rvalue(p, &v, vp);
      if (v.ty->k == TY_VOID) front_fail(p, vp, "'auto %s' initialised with a void value", n);
      if (star && v.ty->k != TY_PTR) front_fail(p, vp, "'auto *%s' initialised with a value of type '%s', not a pointer", n, ty_name(p, v.ty));
      type *dt = ty_qual(p, ty_unqual(p, v.ty), 0, ds->ty->cnst);
      if (dt->k == TY_STRUCT || name_addr_taken(p, n)) {
        uint64_t addr = code_local_alloc(p, dt, np);
        sym *ms = declare_at(p, n, SYM_MEM, dt, np);
        ms->addr = addr;
        int r = code_reg_new(p, np);
        code_emit(p, OP_CONST, r, -1, -1, -1, (int64_t)addr, 0, np);
        expr lv = {E_MEM, ty_unqual(p, dt), r, 0, 0};
        if (dt->k != TY_STRUCT) { code_cast(p, &v, lv.ty, vp); v = e_reg(lv.ty, code_to_reg(p, &v, vp)); }
        code_store(p, &lv, v, np);
        continue;
      }
      int r = code_reg_new(p, np);
      expr var = {E_VAR, ty_unqual(p, dt), r, 0, 0};
      code_store_var(p, &var, code_to_reg(p, &v, vp), r + 1, np);
      sym *rs = declare_at(p, n, SYM_REG, dt, np);
      rs->reg = r;
      continue;
    }
    if (t->k == TY_VOID) front_fail(p, np, "variable '%s' declared void", n);
    if (t->k == TY_REF) {   /* a local reference: an alias of the lvalue it is bound to */
      if (ds->is_shared || ds->is_static || ds->is_extern) front_fail(p, np, "unsupported: %s references", ds->is_shared ? "__shared__" : "static or extern");
      if (!accept(p, "=")) front_fail(p, np, "reference '%s' must be initialised", n);
      srcpos vp = here(p);
      expr *b = bind_reference(p, parse_assign(p), t->base, vp, arena_printf(p->a, "reference '%s'", n));
      type *rt = t->base;
      sym *s = declare_at(p, n, SYM_ALIAS, rt, np);
      s->alias = b;
      continue;
    }
    if (t->k == TY_ARRAY && t->unsized && !ds->is_extern) {
      uint64_t cnt = is(p, "=") ? (p->i++, count_init_elems(p)) : 0;
      if (!cnt) front_fail(p, np, "array size missing in '%s'", n);
      p->i--;
      type *u = ty_new(p, TY_ARRAY); *u = *t; u->n = cnt; u->unsized = 0; t = u;
    }
    if (ds->is_shared) {
      if (is(p, "=")) front_fail(p, np, "initialization is not supported for __shared__ variables");
      sym *s = declare_at(p, n, SYM_MEM, t, np);
      /* one address per declaration, however often its function is inlined */
      for (size_t k = 0; k < p->shared_at.len; k += 2) {
        uint64_t *e = vec_at(&p->shared_at, k);
        if (e[0] == decl_tok) { s->addr = e[1]; s->dyn_shared = ds->is_extern; goto next_decl; }
      }
      if (ds->is_extern) {
        if (t->k != TY_ARRAY || !t->unsized) front_fail(p, np, "extern __shared__ must be an unsized array");
        s->addr = 0;  /* fixed up once the static size is known: dynamic shared follows it */
        s->dyn_shared = 1;
        p->dyn_shared = 1;
      } else {
        uint32_t al = ty_align(p, t);
        uint64_t off = (p->shared_off + al - 1) / al * al, size = ty_size(p, t, np);
        if (off + size > (1u << 30)) front_fail(p, np, "__shared__ memory too large");
        s->addr = KIR_ADDR(SPACE_SHARED, off);
        p->shared_off = (uint32_t)(off + size);
        code_note_shared(p, n, t, off, size, np);
      }
      *(uint64_t *)vec_push(&p->shared_at) = decl_tok;
      *(uint64_t *)vec_push(&p->shared_at) = s->addr;
      continue;
    }
    if (ds->is_static || ds->is_extern) front_fail(p, np, "unsupported: %s local variables", ds->is_static ? "static" : "extern");
    if (t->k == TY_SCALAR || t->k == TY_PTR) {
      if (!name_addr_taken(p, n)) {
        int r = code_reg_new(p, np);
        if (accept(p, "=")) {
          expr v = parse_assign(p);
          type *lt = t;
          if (lt->cnst || lt->vol) { type *u = ty_new(p, lt->k); *u = *lt; u->cnst = 0; lt = u; }
          code_to_rvalue(p, &v, np);
          if (t->k == TY_PTR && v.ty->k == TY_SCALAR && !(v.k == E_CONST && v.bits == 0))
            front_fail(p, np, "initialization makes pointer from integer without a cast");
          code_cast(p, &v, lt, np);
          expr var = {E_VAR, lt, r, 0, 0};
          code_store_var(p, &var, code_to_reg(p, &v, np), r + 1, np);
        } else {
          /* uninitialised locals read as 0: deterministic, like zero-filled memory */
          code_emit(p, OP_CONST, r, -1, -1, -1, 0, 0, np);
        }
        sym *s = declare_at(p, n, SYM_REG, t, np);
        s->reg = r;
        continue;
      }
    }
    uint64_t addr = code_local_alloc(p, t, np);
    sym *s = declare_at(p, n, SYM_MEM, t, np);
    s->addr = addr;
    if (accept(p, "=")) {
      int r = code_reg_new(p, np);
      code_emit(p, OP_CONST, r, -1, -1, -1, (int64_t)addr, 0, np);
      expr lv = {E_MEM, t, r, 0, 0};
      init_mem(p, lv, np);
    }
  next_decl:;
  } while (accept(p, ","));
  expect(p, ";");
}

static loopctx *loop_top(P *p) { return p->fs->loops.len ? vec_at(&p->fs->loops, p->fs->loops.len - 1) : NULL; }

static void cond_branch_false(P *p, int target) {
  srcpos pos = here(p);
  expr c = parse_expr(p);
  code_to_rvalue(p, &c, pos);
  if (c.k == E_CONST) {
    if (!sem_cvt(ty_reg_sk(c.ty), SK_BOOL, c.bits)) code_jump(p, target, pos);
    return;
  }
  code_branch(p, OP_BRF, code_truth(p, &c, pos), target, pos);
}

static void parse_stmt_inner(P *p);
static void parse_stmt(P *p) {
  enter(p);
  parse_stmt_inner(p);
  leave(p);
}

static void parse_stmt_inner(P *p) {
  fstate *fs = p->fs;
  srcpos pos = here(p);
  int reg_mark = fs->nreg;
  token *t = tk(p);
  if (t->kind == TK_IDENT && is_at(p, 1, ":") && !is_type_start(p) && !streq(t->text, "default"))
    front_fail(p, pos, "unsupported: labels and goto");
  if (accept(p, ";")) return;
  if (is(p, "{")) { parse_block(p); return; }
  if (accept(p, "if")) {
    expect(p, "(");
    int lelse = code_label_new(p), lend = code_label_new(p);
    cond_branch_false(p, lelse);
    expect(p, ")");
    fs->nreg = reg_mark;
    parse_stmt(p);
    if (accept(p, "else")) {
      code_jump(p, lend, pos);
      code_label_here(p, lelse);
      parse_stmt(p);
      code_label_here(p, lend);
    } else {
      code_label_here(p, lelse);
      code_label_here(p, lend);
    }
    return;
  }
  if (accept(p, "while")) {
    int lcond = code_label_new(p), lend = code_label_new(p);
    code_label_here(p, lcond);
    expect(p, "(");
    cond_branch_false(p, lend);
    expect(p, ")");
    fs->nreg = reg_mark;
    loopctx *l = vec_push(&fs->loops); l->brk = lend; l->cont = lcond;
    parse_stmt(p);
    fs->loops.len--;
    code_jump(p, lcond, pos);
    code_label_here(p, lend);
    return;
  }
  if (accept(p, "do")) {
    int lbody = code_label_new(p), lcont = code_label_new(p), lend = code_label_new(p);
    code_label_here(p, lbody);
    loopctx *l = vec_push(&fs->loops); l->brk = lend; l->cont = lcont;
    parse_stmt(p);
    fs->loops.len--;
    if (!accept(p, "while")) front_fail(p, here(p), "expected 'while' after 'do' body");
    code_label_here(p, lcont);
    expect(p, "(");
    srcpos cp = here(p);
    expr c = parse_expr(p);
    code_to_rvalue(p, &c, cp);
    if (c.k == E_CONST) { if (sem_cvt(ty_reg_sk(c.ty), SK_BOOL, c.bits)) code_jump(p, lbody, cp); }
    else code_branch(p, OP_BRT, code_truth(p, &c, cp), lbody, cp);
    expect(p, ")");
    expect(p, ";");
    code_label_here(p, lend);
    fs->nreg = reg_mark;
    return;
  }
  if (accept(p, "for")) {
    size_t scope = p->syms.len, outer = p->scope_start;
    p->scope_start = scope;
    expect(p, "(");
    if (is_type_start(p)) { declspec ds; parse_declspec(p, &ds); local_decl(p, &ds); }
    else { if (!is(p, ";")) discarded_expr(p); expect(p, ";"); }
    int for_regs = fs->nreg;
    int lcond = code_label_new(p), lcont = code_label_new(p), lend = code_label_new(p);
    code_label_here(p, lcond);
    if (!is(p, ";")) cond_branch_false(p, lend);
    expect(p, ";");
    fs->nreg = for_regs;
    /* the step is compiled after the body: remember its tokens */
    size_t step = p->i;
    int depth = 0;
    while (tk(p)->kind != TK_EOF && !(depth == 0 && is(p, ")"))) {
      if (is(p, "(")) depth++; else if (is(p, ")")) depth--;
      next(p);
    }
    expect(p, ")");
    loopctx *l = vec_push(&fs->loops); l->brk = lend; l->cont = lcont;
    parse_stmt(p);
    fs->loops.len--;
    code_label_here(p, lcont);
    size_t after = p->i;
    p->i = step;
    if (!is(p, ")")) discarded_expr(p);
    p->i = after;
    fs->nreg = for_regs;
    code_jump(p, lcond, pos);
    code_label_here(p, lend);
    p->syms.len = scope;
    p->scope_start = outer;
    fs->nreg = reg_mark;
    return;
  }
  if (accept(p, "switch")) {
    expect(p, "(");
    srcpos cp = here(p);
    expr x = parse_expr(p);
    expect(p, ")");
    code_to_rvalue(p, &x, cp);
    if (!ty_is_int(x.ty)) front_fail(p, cp, "switch quantity not an integer");
    kir_sk sk = ty_promote(x.ty->sk);
    code_cast(p, &x, ty_of_sk(sk), cp);
    int xr = code_to_reg(p, &x, cp);
    int ldispatch = code_label_new(p), lend = code_label_new(p);
    code_jump(p, ldispatch, pos);
    vec cases; vec_init_arena(&cases, sizeof(caselab), p->a);
    vec *outer = fs->cases;
    fs->cases = &cases;
    loopctx *l = vec_push(&fs->loops);
    l->brk = lend;
    loopctx *enclosing = fs->loops.len > 1 ? vec_at(&fs->loops, fs->loops.len - 2) : NULL;
    l->cont = enclosing ? enclosing->cont : -1;
    parse_stmt(p);
    fs->loops.len--;
    fs->cases = outer;
    code_jump(p, lend, pos);
    code_label_here(p, ldispatch);
    int ldefault = lend;
    for (size_t k = 0; k < cases.len; k++) {
      caselab *c = vec_at(&cases, k);
      if (c->is_default) { ldefault = c->label; continue; }
      int cr = code_const_reg(p, sem_canon(sk, (uint64_t)c->val), pos), t2 = code_reg_new(p, pos);
      code_emit(p, OP_EQ_I32 + ty_vt(sk), t2, xr, cr, -1, 0, 0, pos);
      code_branch(p, OP_BRT, t2, c->label, pos);
    }
    code_jump(p, ldefault, pos);
    code_label_here(p, lend);
    fs->nreg = reg_mark;
    return;
  }
  if (accept(p, "case") || accept(p, "default")) {
    int is_def = p->t[p->i - 1].text[0] == 'd';
    if (!fs->cases) front_fail(p, pos, "'%s' label not within a switch statement", is_def ? "default" : "case");
    caselab c = {code_label_new(p), 0, is_def};
    if (!is_def) {
      srcpos vp = here(p);
      c.val = const_int(p, parse_cond(p), vp, "a case label");
    }
    for (size_t k = 0; k < fs->cases->len; k++) {
      caselab *o = vec_at(fs->cases, k);
      if (o->is_default && is_def) front_fail(p, pos, "multiple default labels in one switch");
      if (!o->is_default && !is_def && o->val == c.val) front_fail(p, pos, "duplicate case value %lld", (long long)c.val);
    }
    expect(p, ":");
    code_label_here(p, c.label);
    *(caselab *)vec_push(fs->cases) = c;
    if (!is(p, "}")) parse_stmt(p);
    return;
  }
  if (accept(p, "break")) {
    loopctx *l = loop_top(p);
    if (!l) front_fail(p, pos, "break statement not within loop or switch");
    code_jump(p, l->brk, pos);
    expect(p, ";");
    return;
  }
  if (accept(p, "continue")) {
    int target = -1;
    for (size_t k = fs->loops.len; k-- > 0;) { loopctx *l = vec_at(&fs->loops, k); if (l->cont >= 0) { target = l->cont; break; } }
    if (target < 0) front_fail(p, pos, "continue statement not within a loop");
    code_jump(p, target, pos);
    expect(p, ";");
    return;
  }
  if (accept(p, "return")) {
    inlctx *ic = fs->inl.len ? vec_at(&fs->inl, fs->inl.len - 1) : NULL;
    if (!is(p, ";")) {
      srcpos vp = here(p);
      expr v = parse_expr(p);
      if (!ic) front_fail(p, vp, "'return' with a value in a __global__ function");
      if (ic->ret->k == TY_VOID) front_fail(p, vp, "'return' with a value, in function returning void");
      code_to_rvalue(p, &v, vp);
      code_cast(p, &v, ic->ret, vp);
      if (ic->ret->k == TY_STRUCT) {
        expr dst = {E_MEM, ic->ret, ic->ret_reg, 0, 0};
        code_store(p, &dst, v, vp);
      } else code_emit(p, OP_MOV, ic->ret_reg, code_to_reg(p, &v, vp), -1, -1, 0, 0, vp);
    } else if (ic && ic->ret->k != TY_VOID) front_fail(p, pos, "'return' with no value, in function returning non-void");
    expect(p, ";");
    if (ic) code_jump(p, ic->ret_label, pos);
    else code_emit(p, OP_EXIT, -1, -1, -1, -1, 0, 0, pos);
    fs->nreg = reg_mark;
    return;
  }
  if (accept(p, "goto")) front_fail(p, pos, "unsupported: goto");
  if (is(p, "asm") || is(p, "__asm__") || is(p, "__asm")) front_fail(p, pos, "unsupported: inline assembly");
  if (is_type_start(p)) {
    declspec ds;
    parse_declspec(p, &ds);
    if (ds.is_global || (ds.is_device && !ds.is_shared)) front_fail(p, pos, "unsupported: nested function or device variable declarations");
    if (is(p, ";")) { next(p); return; }
    local_decl(p, &ds);
    return;
  }
  discarded_expr(p);
  expect(p, ";");
  fs->nreg = reg_mark;
}

static void parse_block(P *p) {
  expect(p, "{");
  size_t scope = p->syms.len, outer = p->scope_start;
  /* a function's outermost block shares its parameters' scope */
  p->scope_start = p->body_scope != (size_t)-1 ? p->body_scope : scope;
  p->body_scope = (size_t)-1;
  int reg_mark = p->fs->nreg;
  while (!is(p, "}")) {
    if (tk(p)->kind == TK_EOF) front_fail(p, here(p), "expected '}' at end of input");
    parse_stmt(p);
  }
  next(p);
  p->syms.len = scope;
  p->scope_start = outer;
  p->fs->nreg = reg_mark;
}

/* Names whose address is taken (unary '&' before an identifier): such
 * locals live in local memory rather than registers.  &p[i] and &p->f take
 * the address of what p points to, not of p: a pointer stays in a register
 * (an array is in local memory whatever is taken). */
static void scan_addr_taken(P *p, funcdef *f, vec *out) {
  for (size_t k = f->body; k < f->body_end; k++) {
    token *t = &p->t[k];
    if (t->kind != TK_PUNCT || !streq(t->text, "&")) continue;
    token *prev = &p->t[k - 1], *nx = &p->t[k + 1];
    int binary = prev->kind == TK_IDENT || prev->kind == TK_INT || prev->kind == TK_FLOAT || prev->kind == TK_CHAR ||
                 (prev->kind == TK_PUNCT && (streq(prev->text, ")") || streq(prev->text, "]")));
    if (prev->kind == TK_IDENT && streq(prev->text, "return")) binary = 0;
    token *after = &p->t[k + 2];
    int element = after->kind == TK_PUNCT && (streq(after->text, "[") || streq(after->text, "->"));
    if (!binary && nx->kind == TK_IDENT && !element) *(const char **)vec_push(out) = nx->text;
  }
}

static void compile_inline(P *p, funcdef *f, expr *args, int nargs, expr *res, srcpos pos) {
  fstate *fs = p->fs;
  if (f->inlining) front_fail(p, pos, "unsupported: recursion (call of '%s' inside itself)", f->name);
  if (!f->defined) {
    if (p->may_defer) { p->deferred_hit = 1; front_fail(p, pos, "function '%s' is not defined yet", f->name); }
    front_fail(p, pos, "function '%s' is declared but never defined", f->name);
  }
  if (fs->inl.len >= 64) front_fail(p, pos, "device functions nested too deeply");
  int ret_reg = -1;
  if (f->ret->k == TY_STRUCT) {
    uint64_t a = code_local_alloc(p, f->ret, pos);
    ret_reg = code_reg_new(p, pos);
    code_emit(p, OP_CONST, ret_reg, -1, -1, -1, (int64_t)a, 0, pos);
  } else if (f->ret->k != TY_VOID) ret_reg = code_reg_new(p, pos);
  /* bind arguments: by value, to fresh registers or local memory */
  int preg[32];
  uint64_t paddr[32];
  expr *bound[32] = {0};
  for (int k = 0; k < nargs; k++) {
    type *pt = f->ptypes[k];
    if (pt->k == TY_REF) {   /* bound to the caller's lvalue: inlining makes it an alias */
      bound[k] = bind_reference(p, args[k], pt->base, pos, arena_printf(p->a, "argument %d of '%s'", k + 1, f->name));
      continue;
    }
    code_to_rvalue(p, &args[k], pos);
    if (pt->k == TY_PTR && args[k].ty->k == TY_SCALAR && !(args[k].k == E_CONST && args[k].bits == 0))
      front_fail(p, pos, "argument %d of '%s' makes pointer from integer without a cast", k + 1, f->name);
    code_cast(p, &args[k], pt, pos);
    if (pt->k == TY_STRUCT) {
      uint64_t a = code_local_alloc(p, pt, pos);
      int r = code_reg_new(p, pos);
      code_emit(p, OP_CONST, r, -1, -1, -1, (int64_t)a, 0, pos);
      expr dst = {E_MEM, pt, r, 0, 0};
      code_store(p, &dst, args[k], pos);
      preg[k] = r;
      paddr[k] = a;
    } else {
      int r = code_reg_new(p, pos);
      code_emit(p, OP_MOV, r, code_to_reg(p, &args[k], pos), -1, -1, 0, 0, pos);
      preg[k] = r;
    }
  }
  size_t saved_i = p->i, scope = p->syms.len, saved_scope = p->scope_start;
  size_t saved_lo = p->vis_lo, saved_hi = p->vis_hi;
  /* the body sees what was declared before it, not the caller's names */
  p->vis_lo = f->vis; p->vis_hi = scope;
  p->scope_start = scope;
  vec saved_taken = fs->addr_taken;
  vec taken; vec_init_arena(&taken, sizeof(char *), p->a);
  scan_addr_taken(p, f, &taken);
  fs->addr_taken = taken;
  vec saved_loops = fs->loops;
  vec_init_arena(&fs->loops, sizeof(loopctx), p->a);
  vec *saved_cases = fs->cases;
  fs->cases = NULL;
  /* parameters: only globals and earlier functions are visible inside */
  for (int k = 0; k < nargs; k++) {
    type *pt = f->ptypes[k];
    if (!f->pnames[k]) continue;
    if (bound[k]) {
      sym *s = declare_at(p, f->pnames[k], SYM_ALIAS, bound[k]->ty, pos);
      s->alias = bound[k];
      continue;
    }
    if (pt->k == TY_STRUCT) {  /* a by-value copy in local memory */
      sym *s = declare_at(p, f->pnames[k], SYM_MEM, pt, pos);
      s->addr = paddr[k];
      continue;
    }
    if (name_addr_taken(p, f->pnames[k])) {
      uint64_t a = code_local_alloc(p, pt, pos);
      int ar = code_reg_new(p, pos);
      code_emit(p, OP_CONST, ar, -1, -1, -1, (int64_t)a, 0, pos);
      code_emit(p, OP_ST, -1, ar, preg[k], -1, 0, (pt->k == TY_PTR ? SK_PTR : pt->sk), pos);
      sym *s = declare_at(p, f->pnames[k], SYM_MEM, pt, pos);
      s->addr = a;
    } else {
      sym *s = declare_at(p, f->pnames[k], SYM_REG, pt, pos);
      s->reg = preg[k];
    }
  }
  inlctx *ic = vec_push(&fs->inl);
  ic->fn = f; ic->ret_label = code_label_new(p); ic->ret_reg = ret_reg; ic->ret = f->ret;
  int ret_label = ic->ret_label;
  f->inlining = 1;
  p->i = f->body;
  p->body_scope = scope;
  parse_block(p);
  f->inlining = 0;
  code_label_here(p, ret_label);
  fs->inl.len--;
  p->i = saved_i;
  p->syms.len = scope;
  p->scope_start = saved_scope;
  p->vis_lo = saved_lo; p->vis_hi = saved_hi;
  fs->addr_taken = saved_taken;
  fs->loops = saved_loops;
  fs->cases = saved_cases;
  if (f->ret->k == TY_VOID) { expr v = {E_VOID, &ty_void, -1, 0, 0}; *res = v; fs->nreg = ret_reg < 0 ? fs->nreg : ret_reg + 1; }
  else if (f->ret->k == TY_STRUCT) { expr m = {E_MEM, f->ret, ret_reg, 0, 0}; *res = m; }
  else { *res = e_reg(f->ret, ret_reg); fs->nreg = ret_reg + 1; }
}

/* ------------------------------------------------------------- reconvergence */

/* ------------------------------------------------------------- functions */

static kir_sk param_sk(type *t) { return t->k == TY_PTR ? SK_PTR : t->sk; }

/* The scalar leaves of a struct passed by value, in declaration order: what
 * a //@ arg list fills, one value each; with each its path of fields and
 * indices from the struct ("in.y", "a.2") and, for a pointer, the kind of
 * what it points to (gpurace check names the leaves and their arrays). */
#define MAX_PARAM_BYTES 32764   /* CUDA's bound on a launch's parameters */
typedef struct { vec off, sk, name, pointee; } leaves;
static void struct_leaves(P *p, type *t, uint64_t base, const char *path, leaves *lv, srcpos pos) {
  if (lv->off.len > 4096) front_fail(p, pos, "a struct parameter with more than 4096 scalar leaves");
  switch (t->k) {
  case TY_SCALAR: case TY_PTR:
    *(uint32_t *)vec_push(&lv->off) = (uint32_t)base;
    *(int *)vec_push(&lv->sk) = t->k == TY_PTR ? SK_PTR : t->sk;
    *(const char **)vec_push(&lv->name) = path;
    *(int *)vec_push(&lv->pointee) = t->k == TY_PTR && t->base->k == TY_SCALAR ? (int)t->base->sk : SK_U8;
    break;
  case TY_ARRAY: {
    uint64_t es = ty_size(p, t->base, pos);
    for (uint64_t i = 0; i < t->n; i++)
      struct_leaves(p, t->base, base + i * es, arena_printf(p->a, "%s%s%llu", path, *path ? "." : "", (unsigned long long)i), lv, pos);
    break;
  }
  case TY_STRUCT:
    for (int i = 0; i < t->s->nf; i++) {
      const char *f = t->s->f[i].name ? t->s->f[i].name : "";
      struct_leaves(p, t->s->f[i].ty, base + t->s->f[i].off, *path ? arena_printf(p->a, "%s.%s", path, f) : f, lv, pos);
    }
    break;
  default: front_fail(p, pos, "unsupported: this type in a struct parameter");
  }
}

static kir_func *compile_function(P *p, funcdef *f, int keep) {
  fstate fs;
  memset(&fs, 0, sizeof fs);
  vec_init_arena(&fs.code, sizeof(kir_ins), p->a);
  vec_init_arena(&fs.pos, sizeof(srcpos), p->a);
  vec_init_arena(&fs.labels, sizeof(int), p->a);
  vec_init_arena(&fs.loops, sizeof(loopctx), p->a);
  vec_init_arena(&fs.inl, sizeof(inlctx), p->a);
  vec_init_arena(&fs.addr_taken, sizeof(char *), p->a);
  vec_init_arena(&fs.kconst, sizeof(uint64_t), p->a);
  fs.last_label_pc = (size_t)-1;
  p->discard_at = (size_t)-1;
  p->fs = &fs;
  size_t scope = p->syms.len, saved_i = p->i, saved_scope = p->scope_start;
  p->vis_lo = f->vis; p->vis_hi = scope;   /* what was declared after it is not visible */
  p->scope_start = scope;
  scan_addr_taken(p, f, &fs.addr_taken);
  if (!f->is_kernel) {
    /* a device function checked on its own: parameters are opaque values */
    inlctx *ic = vec_push(&fs.inl);
    ic->fn = f; ic->ret_label = code_label_new(p); ic->ret = f->ret;
    ic->ret_reg = f->ret->k == TY_VOID ? -1 : code_reg_new(p, f->pos);
    if (f->ret->k == TY_STRUCT) code_emit(p, OP_CONST, ic->ret_reg, -1, -1, -1, (int64_t)code_local_alloc(p, f->ret, f->pos), 0, f->pos);
  }
  for (int k = 0; k < f->np; k++) {
    type *pt = f->ptypes[k];
    if (pt->k == TY_REF) {
      if (f->is_kernel) front_fail(p, f->pos, "a __global__ function cannot take a reference parameter ('%s')", f->pnames[k] ? f->pnames[k] : "");
      /* checked on its own: the reference is an opaque address */
      int r = code_reg_new(p, f->pos);
      code_emit(p, OP_PARAM, r, -1, -1, -1, k, 0, f->pos);
      if (!f->pnames[k]) continue;
      expr *b = arena_alloc(p->a, sizeof *b);
      b->k = E_MEM; b->ty = pt->base; b->reg = r;
      sym *s = declare_at(p, f->pnames[k], SYM_ALIAS, pt->base, f->pos);
      s->alias = b;
      continue;
    }
    if (pt->k == TY_STRUCT) {
      if (f->is_kernel && ty_size(p, pt, f->pos) > MAX_PARAM_BYTES)
        front_fail(p, f->pos, "struct parameter '%s' of %llu bytes: a launch passes at most %d bytes of parameters", f->pnames[k] ? f->pnames[k] : "",
             (unsigned long long)ty_size(p, pt, f->pos), MAX_PARAM_BYTES);
      uint64_t a = code_local_alloc(p, pt, f->pos);
      if (f->is_kernel) {
        /* by value: every thread starts with its own copy of the bytes the launch passed */
        int ar = code_reg_new(p, f->pos);
        code_emit(p, OP_CONST, ar, -1, -1, -1, (int64_t)a, 0, f->pos);
        code_emit(p, OP_PARAM, -1, ar, -1, -1, k, 0, f->pos);
      }
      if (f->pnames[k]) { sym *s = declare_at(p, f->pnames[k], SYM_MEM, pt, f->pos); s->addr = a; }
      continue;
    }
    int r = code_reg_new(p, f->pos);
    code_emit(p, OP_PARAM, r, -1, -1, -1, k, 0, f->pos);
    if (!f->pnames[k]) continue;
    if (name_addr_taken(p, f->pnames[k])) {
      uint64_t a = code_local_alloc(p, pt, f->pos);
      int ar = code_reg_new(p, f->pos);
      code_emit(p, OP_CONST, ar, -1, -1, -1, (int64_t)a, 0, f->pos);
      code_emit(p, OP_ST, -1, ar, r, -1, 0, param_sk(pt), f->pos);
      sym *s = declare_at(p, f->pnames[k], SYM_MEM, pt, f->pos);
      s->addr = a;
    } else {
      sym *s = declare_at(p, f->pnames[k], SYM_REG, pt, f->pos);
      s->reg = r;
    }
  }
  f->inlining = 1;
  p->i = f->body;
  p->body_scope = scope;
  parse_block(p);
  f->inlining = 0;
  srcpos endpos = p->t[f->body_end].pos;
  if (!f->is_kernel) code_label_here(p, ((inlctx *)vec_at(&fs.inl, 0))->ret_label);
  code_emit(p, OP_EXIT, -1, -1, -1, -1, 0, 0, endpos);
  p->i = saved_i;
  p->syms.len = scope;
  p->scope_start = saved_scope;
  p->vis_lo = p->vis_hi = 0;
  p->fs = NULL;
  if (!keep) return NULL;
  /* the constant pool: one CONST per constant at entry, in registers above the others */
  int nk = (int)fs.kconst.len;
  kir_ins *code = arena_alloc(p->a, sizeof(kir_ins) * (fs.code.len + (size_t)nk));
  srcpos *poss = arena_alloc(p->a, sizeof(srcpos) * (fs.code.len + (size_t)nk));
  for (int k = 0; k < nk; k++) {
    code[k].op = OP_CONST; code[k].dst = fs.maxreg + k; code[k].a = code[k].b = code[k].c = -1;
    code[k].imm = (int64_t)*(uint64_t *)vec_at(&fs.kconst, (size_t)k);
    poss[k] = f->pos;
  }
  memcpy(code + nk, fs.code.data, sizeof(kir_ins) * fs.code.len);
  memcpy(poss + nk, fs.pos.data, sizeof(srcpos) * fs.code.len);
  for (size_t i = (size_t)nk; i < fs.code.len + (size_t)nk; i++) {
    int32_t *ops[4] = {&code[i].dst, &code[i].a, &code[i].b, &code[i].c};
    int is_jump = code[i].op == OP_JMP || code[i].op == OP_BRT || code[i].op == OP_BRF;
    for (int j = 0; j < 4; j++) {
      if (is_jump && j == 1) continue;   /* a label, not a register */
      if (*ops[j] >= KREG) *ops[j] = fs.maxreg + (*ops[j] - KREG);
    }
    if (code[i].op == OP_SHFL && code[i].imm >> 8) {   /* the member mask's register lives in imm */
      int64_t mr = (code[i].imm >> 8) - 1;
      if (mr >= KREG) code[i].imm = (code[i].imm & 0xff) | (int64_t)(fs.maxreg + (mr - KREG) + 1) << 8;
    }
  }
  for (size_t l = 0; l < fs.labels.len; l++) { int *lp = vec_at(&fs.labels, l); if (*lp >= 0) *lp += nk; }
  kir_func *kf = arena_alloc(p->a, sizeof *kf);
  kf->name = f->name;
  kf->code = code;
  kf->pos = poss;
  kf->ncode = (int)fs.code.len + nk;
  kf->nregs = fs.maxreg + nk;
  kf->frame = fs.frame;
  kf->decl = f->pos;
  kf->nparams = f->np;
  kf->params = arena_alloc(p->a, sizeof(kir_param) * (size_t)(f->np + 1));
  for (int k = 0; k < f->np; k++) {
    kf->params[k].name = f->pnames[k] ? f->pnames[k] : "";
    kf->params[k].sk = param_sk(f->ptypes[k]);
    if (f->ptypes[k]->ranged) {   /* an enumeration: the values its type allows */
      kf->params[k].ranged = 1;
      kf->params[k].lo = f->ptypes[k]->lo;
      kf->params[k].hi = f->ptypes[k]->hi;
    }
    if (f->ptypes[k]->k == TY_STRUCT) {
      type *st = f->ptypes[k];
      kf->params[k].sk = SK_COUNT;
      kf->params[k].size = (uint32_t)ty_size(p, st, f->pos);
      leaves lv;
      vec_init_arena(&lv.off, sizeof(uint32_t), p->a);
      vec_init_arena(&lv.sk, sizeof(int), p->a);
      vec_init_arena(&lv.name, sizeof(const char *), p->a);
      vec_init_arena(&lv.pointee, sizeof(int), p->a);
      struct_leaves(p, st, 0, "", &lv, f->pos);
      kf->params[k].nleaves = (int)lv.off.len;
      kf->params[k].leaf_off = lv.off.data;
      kf->params[k].leaf_sk = lv.sk.data;
      kf->params[k].leaf_name = lv.name.data;
      kf->params[k].leaf_pointee = lv.pointee.data;
    }
    type *b = f->ptypes[k]->k == TY_PTR ? f->ptypes[k]->base : NULL;
    kf->params[k].pointee = b && b->k == TY_SCALAR ? b->sk : SK_U8;
  }
  for (int i = 0; i < kf->ncode; i++) {
    kir_ins *in = &kf->code[i];
    if (in->op == OP_JMP || in->op == OP_BRT || in->op == OP_BRF) in->a = *(int *)vec_at(&fs.labels, (size_t)in->a);
  }
  kir_set_reconvergence(kf->code, kf->ncode);
  return kf;
}

/* Constant initialiser of a module global, written into its bytes. */
static void init_bytes(P *p, type *t, uint8_t *buf, srcpos pos) {
  enter(p);
  if (t->k == TY_ARRAY || t->k == TY_STRUCT) {
    if (!accept(p, "{")) front_fail(p, here(p), "initialiser must be a brace-enclosed list");
    uint64_t k = 0;
    while (!accept(p, "}")) {
      if (t->k == TY_ARRAY) {
        if (k >= t->n) front_fail(p, here(p), "excess elements in array initialiser");
        init_bytes(p, t->base, buf + k * ty_size(p, t->base, pos), here(p));
      } else {
        if (k >= (uint64_t)t->s->nf) front_fail(p, here(p), "excess elements in struct initialiser");
        init_bytes(p, t->s->f[k].ty, buf + t->s->f[k].off, here(p));
      }
      k++;
      if (!accept(p, ",")) { expect(p, "}"); break; }
    }
    leave(p);
    return;
  }
  srcpos vp = here(p);
  expr v = parse_assign(p);
  if (v.k != E_CONST) front_fail(p, vp, "initialiser element is not constant");
  type *dt = t;
  if (dt->cnst || dt->vol) { type *u = ty_new(p, dt->k); *u = *dt; u->cnst = u->vol = 0; dt = u; }
  code_cast(p, &v, dt, vp);
  size_t sz = (size_t)ty_size(p, t, vp);
  memcpy(buf, &v.bits, sz);  /* little-endian host: the low bytes */
  leave(p);
}

static void skip_body(P *p, funcdef *f) {
  f->body = p->i;
  int depth = 0;
  do {
    if (tk(p)->kind == TK_EOF) front_fail(p, p->t[f->body].pos, "unterminated function body");
    if (is(p, "{")) depth++;
    else if (is(p, "}")) depth--;
    if (depth) next(p);
  } while (depth);
  f->body_end = p->i;
  next(p);
}

/* ------------------------------------------------------------- top level */

static const char *const device_markers[] = {"__global__", "__device__", "__shared__", "__constant__", "__managed__", NULL};

static int is_device_marker(const token *t) {
  if (t->kind != TK_IDENT) return 0;
  for (int k = 0; device_markers[k]; k++) if (streq(t->text, device_markers[k])) return 1;
  return 0;
}

static int tok_is(const token *t, const char *s) {
  return (t->kind == TK_PUNCT || t->kind == TK_IDENT) && streq(t->text, s);
}

/* The end (one past) of the top-level declaration that starts at token i,
 * found by bracket matching alone, so that it holds for any C++: a ';' at
 * depth 0, or the '}' that closes a function body, namespace or linkage
 * block.  The body of a type definition or an initialiser goes on to its ';'.
 * *dev tells whether a device marker appears in it. */
static size_t decl_end(P *p, size_t i, int *dev) {
  int depth = 0, type_head = 0, paren_seen = 0, assign_seen = 0;
  *dev = 0;
  for (; i < p->nt; i++) {
    token *t = &p->t[i];
    if (t->kind == TK_EOF) return i;
    if (is_device_marker(t)) *dev = 1;
    if (t->kind != TK_PUNCT && t->kind != TK_IDENT) continue;
    if (depth == 0) {
      if (tok_is(t, ";")) return i + 1;
      if (tok_is(t, "struct") || tok_is(t, "class") || tok_is(t, "union") || tok_is(t, "enum")) type_head = 1;
      if (tok_is(t, "(")) paren_seen = 1;
      if (tok_is(t, "=")) assign_seen = 1;
    }
    if (tok_is(t, "(") || tok_is(t, "[") || tok_is(t, "{")) {
      int body = depth == 0 && tok_is(t, "{") && !assign_seen && !(type_head && !paren_seen);
      depth++;
      if (body) {   /* a function body or a block: ends at its '}' */
        for (i++; i < p->nt && p->t[i].kind != TK_EOF; i++) {
          token *u = &p->t[i];
          if (is_device_marker(u)) *dev = 1;
          if (tok_is(u, "(") || tok_is(u, "[") || tok_is(u, "{")) depth++;
          else if (tok_is(u, ")") || tok_is(u, "]") || tok_is(u, "}")) { if (--depth == 0) break; }
        }
        if (i >= p->nt || p->t[i].kind == TK_EOF) return i < p->nt ? i : p->nt - 1;
        if (i + 1 < p->nt && tok_is(&p->t[i + 1], ";")) i++;
        return i + 1;
      }
    } else if (tok_is(t, ")") || tok_is(t, "]") || tok_is(t, "}")) {
      if (depth > 0) depth--;
    }
  }
  return p->nt - 1;
}

/* The name a declaration most likely declares, for the note a later use of
 * it gets: the last identifier at depth 0 before '(', '=', '[', ',' or ';'. */
static const char *decl_name(P *p, size_t i, size_t end, srcpos *pos) {
  const char *name = NULL;
  int depth = 0;
  for (; i < end; i++) {
    token *t = &p->t[i];
    if (depth == 0 && t->kind == TK_IDENT && !is_decl_keyword(t->text) && !is_device_marker(t)) { name = t->text; *pos = t->pos; }
    if (tok_is(t, "{") || tok_is(t, "[") || tok_is(t, "(")) {
      if (depth == 0 && name && !tok_is(t, "{")) return name;
      depth++;
    } else if (tok_is(t, "}") || tok_is(t, "]") || tok_is(t, ")")) depth--;
    else if (depth == 0 && (tok_is(t, "=") || tok_is(t, ",") || tok_is(t, ";") || tok_is(t, ":"))) return name;
  }
  return name;
}

static void note_skipped(P *p, const char *name, srcpos pos, const char *why) {
  if (!name) return;
  skipped *k = vec_push(&p->skipped);
  k->name = name; k->pos = pos; k->why = why;
}

static const skipped *find_skipped(P *p, const char *name) {
  for (size_t k = p->skipped.len; k-- > 0;) {
    skipped *s = vec_at(&p->skipped, k);
    if (streq(s->name, name)) return s;
  }
  return NULL;
}

/* Parser state a failed attempt rolls back to. */
typedef struct { size_t i, nsyms, ntags, nglobals, nshared_at, nkernels, scope; uint32_t shared_off; int dyn_shared, depth; size_t nshared_vars; } pstate;

static void reset_inlining(P *p) {
  for (size_t k = 0; k < p->syms.len; k++) {
    sym *s = vec_at(&p->syms, k);
    if (s->k == SYM_FUNC) s->fn->inlining = 0;
  }
}

/* Runs fn; on an error, rolls the parser back, leaves the message in msg
 * and returns 1.  The diagnostic is cleared, so parsing can go on. */
static int attempt(P *p, void (*fn)(P *, void *), void *arg, char *msg, size_t n, int *ill_formed) {
  pstate st = {p->i, p->syms.len, p->tags.len, p->globals.len, p->shared_at.len, p->kernels.len, p->scope_start,
               p->shared_off, p->dyn_shared, p->depth, p->shared_vars.len};
  jmp_buf *outer = p->d->bail;
  jmp_buf here;
  p->d->bail = &here;
  if (setjmp(here)) {
    p->d->bail = outer;
    snprintf(msg, n, "%s", p->d->msg);
    if (ill_formed) *ill_formed = p->d->ill_formed;
    p->d->ill_formed = 0;
    p->d->failed = 0;
    p->d->msg[0] = 0;
    p->i = st.i; p->syms.len = st.nsyms; p->tags.len = st.ntags; p->globals.len = st.nglobals;
    p->shared_at.len = st.nshared_at; p->kernels.len = st.nkernels; p->scope_start = st.scope;
    p->shared_off = st.shared_off; p->dyn_shared = st.dyn_shared; p->depth = st.depth;
    p->shared_vars.len = st.nshared_vars;
    p->fs = NULL; p->vis_lo = p->vis_hi = 0; p->body_scope = (size_t)-1;
    reset_inlining(p);
    return 1;
  }
  fn(p, arg);
  p->d->bail = outer;
  return 0;
}

/* Raises an error an attempt caught, as if it had not been caught. */
static _Noreturn void rethrow(P *p, const char *msg) {
  snprintf(p->d->msg, sizeof p->d->msg, "%s", msg);
  p->d->failed = 1;
  longjmp(*p->d->bail, 1);
}

static void compile_kept(P *p, void *f) {
  funcdef *fd = f;
  kir_func *kf = compile_function(p, fd, fd->is_kernel);
  if (kf) *(kir_func **)vec_push(&p->kernels) = kf;
}

/* Compiles a kernel (or checks a device function) where it is defined; one
 * that calls a function declared but not yet defined waits for the end of
 * the file, as nvcc sees the whole translation unit. */
static void compile_or_defer(P *p, funcdef *f) {
  char msg[sizeof p->d->msg];
  p->may_defer = 1;
  p->deferred_hit = 0;
  int failed = attempt(p, compile_kept, f, msg, sizeof msg, NULL);
  p->may_defer = 0;
  if (!failed) return;
  if (!p->deferred_hit) rethrow(p, msg);
  *(funcdef **)vec_push(&p->pending) = f;
}

static void declaration(P *p, int device);

/* The type with its scalar elements const, arrays and all. */
static type *const_elems(P *p, type *t) {
  if (t->k != TY_ARRAY) return ty_qual(p, t, 0, 1);
  type *a = ty_new(p, TY_ARRAY);
  *a = *t;
  a->base = const_elems(p, t->base);
  return a;
}

typedef struct { int device; } declarg;
static void declaration_cb(P *p, void *a) { declaration(p, ((declarg *)a)->device); }

static const char *const cxx_heads[] = {"template", "namespace", "class", "using", "static_assert", "operator",
  "typename", "friend", "public", "private", "protected", "virtual", "explicit", "asm", "__asm__", "_Static_assert", NULL};

static void toplevel(P *p) {
  srcpos pos = here(p);
  if (accept(p, ";")) return;
  if (is(p, "extern") && tk_at(p, 1)->kind == TK_STRING) {   /* extern "C" and extern "C++" */
    next(p);
    next(p);
    if (accept(p, "{")) {
      while (!accept(p, "}")) {
        if (tk(p)->kind == TK_EOF) front_fail(p, pos, "unterminated linkage block (extern \"...\" {)");
        toplevel(p);
      }
      return;
    }
  }
  size_t start = p->i;
  int dev;
  size_t end = decl_end(p, start, &dev);
  token *t = tk(p);
  const char *cxx = NULL;
  if (t->kind == TK_IDENT)
    for (int k = 0; cxx_heads[k]; k++) if (streq(t->text, cxx_heads[k])) cxx = cxx_heads[k];
  if (t->kind != TK_IDENT && !(t->kind == TK_PUNCT && (streq(t->text, "[") || streq(t->text, "::")))) {
    if (dev) front_fail(p, pos, "expected a declaration before '%s'", t->text);
    cxx = t->text;
  }
  if (cxx) {
    /* C++ outside the subset: host code is skipped whatever it holds, as
     * nvcc's device pass skips it; device code there needs the PTX front end */
    if (dev) front_fail(p, pos, "unsupported: %s in device code", cxx);
    srcpos np = pos;
    note_skipped(p, decl_name(p, start, end, &np), np, "host-only C++");
    p->i = end;
    return;
  }
  for (size_t k = start; k < end; k++)
    if (p->t[k].bad) {
      if (dev) front_fail(p, p->t[k].pos, "%s", p->t[k].bad);
      srcpos np = pos;
      note_skipped(p, decl_name(p, start, end, &np), np, arena_printf(p->a, "a host declaration the device pass skipped (%s)", p->t[k].bad));
      p->i = end;
      return;
    }
  if (dev) { declaration(p, 1); return; }
  /* host code: its types and constants serve the device too; what the
   * subset cannot read is skipped, and remembered for a use to explain */
  char msg[sizeof p->d->msg];
  declarg a = {0};
  int ill_formed = 0;
  if (attempt(p, declaration_cb, &a, msg, sizeof msg, &ill_formed)) {
    /* what any C++ compiler rejects is an error here too, not host code to skip */
    if (ill_formed) rethrow(p, msg);
    srcpos np = pos;
    const char *n = decl_name(p, start, end, &np);
    note_skipped(p, n, np, arena_printf(p->a, "a host declaration the device pass skipped (%s)", msg));
    sdef *sd = n ? find_tag(p, n) : NULL;
    if (sd && !sd->complete) sd->skipped = 1;
    p->i = end;
  }
}

/* One declaration; `device` when it carries a device marker.  A host
 * declaration keeps its types, enumerators and integer constants. */
static void declaration(P *p, int device) {
  if (!is_type_start(p)) front_fail(p, here(p), "expected a declaration before '%s'", tk(p)->text);
  declspec ds;
  parse_declspec(p, &ds);
  if (accept(p, ";")) return;
  do {
    const char *n; srcpos np; int isf = 0;
    type *ty = parse_declarator(p, ds.ty, &n, &np, &isf);
    if (!n) front_fail(p, np, "expected an identifier in declaration");
    if (isf) {
      funcdef *f = (funcdef *)(void *)ty->base;
      f->name = n; f->pos = np;
      if (!device || (!ds.is_global && !ds.is_device)) {
        /* host functions do not exist on the device: skipped, as nvcc's device pass does */
        note_skipped(p, n, np, "a host function");
        if (is(p, "{")) { funcdef tmp; memset(&tmp, 0, sizeof tmp); skip_body(p, &tmp); return; }
        continue;
      }
      f->is_kernel = ds.is_global;
      f->is_device = ds.is_device && !ds.is_global;
      if (ds.is_global && f->ret->k != TY_VOID) front_fail(p, np, "a __global__ function must return void");
      if (ds.is_global && ds.is_device) front_fail(p, np, "a function cannot be both __global__ and __device__");
      if (f->ret->k == TY_REF) front_fail(p, np, "unsupported: functions returning references");
      sym *old = lookup(p, n);
      if (old && old->k == SYM_FUNC) {
        int same = old->fn->np == f->np && same_type(old->fn->ret, f->ret) && old->fn->is_kernel == f->is_kernel;
        for (int k = 0; same && k < f->np; k++) same = same_type(ty_unqual(p, old->fn->ptypes[k]), ty_unqual(p, f->ptypes[k]));
        if (!same) front_fail(p, np, "conflicting types for '%s' (declared at %s:%d:%d; overloading is outside the subset)", n, old->pos.file, old->pos.line, old->pos.col);
        f = old->fn;
      } else {
        sym *s = declare_at(p, n, SYM_FUNC, &ty_void, np);
        s->fn = f;
      }
      if (is(p, "{")) {
        if (f->defined) front_fail(p, np, "redefinition of '%s'", n);
        /* re-read the declarator's parameter names from this definition */
        funcdef *def = (funcdef *)(void *)ty->base;
        f->pnames = def->pnames; f->ptypes = def->ptypes; f->pos = np;
        for (int k = 0; k < f->np; k++)
          for (int j = 0; j < k; j++)
            if (f->pnames[k] && f->pnames[j] && streq(f->pnames[k], f->pnames[j])) front_fail(p, np, "redefinition of parameter '%s' of '%s'", f->pnames[k], n);
        f->defined = 1;
        f->vis = p->syms.len;
        skip_body(p, f);
        compile_or_defer(p, f);
        return;
      }
      continue;
    }
    if (ds.is_typedef) {
      if (ty->k == TY_REF) front_fail(p, np, "unsupported: reference typedefs");
      declare_at(p, n, SYM_TYPEDEF, ty, np);
      continue;
    }
    if (ty->k == TY_VOID) front_fail(p, np, "variable '%s' declared void", n);
    if (ty->k == TY_REF) front_fail(p, np, "unsupported: references at file scope");
    if (!device || (!ds.is_shared && !ds.is_device && !ds.is_constant)) {
      /* host variables do not exist on the device; an integer constant
       * initialised by a constant expression is usable there, as in CUDA */
      if (accept(p, "=")) {
        if (ty->cnst && !ty->vol && ty->k == TY_SCALAR && (ty_is_int(ty) || ds.is_constexpr)) {
          srcpos vp = here(p);
          expr v = parse_assign(p);
          if (v.k != E_CONST) front_fail(p, vp, "initialiser of '%s' is not a constant expression", n);
          type *u = ty_unqual(p, ty);
          code_cast(p, &v, u, vp);
          sym *s = declare_at(p, n, SYM_ECONST, u, np);
          s->cval = (int64_t)v.bits;
          continue;
        }
        int depth = 0;
        while (tk(p)->kind != TK_EOF && !(depth == 0 && (is(p, ",") || is(p, ";")))) {
          if (is(p, "{") || is(p, "(")) depth++;
          if (is(p, "}") || is(p, ")")) depth--;
          next(p);
        }
      }
      note_skipped(p, n, np, "a host variable");
      continue;
    }
    if (ds.is_shared) {
      sym *s = declare_at(p, n, SYM_MEM, ty, np);
      if (ds.is_extern) {
        if (ty->k != TY_ARRAY || !ty->unsized) front_fail(p, np, "extern __shared__ must be an unsized array");
        s->dyn_shared = 1;
        p->dyn_shared = 1;
      } else {
        if (is(p, "=")) front_fail(p, np, "initialization is not supported for __shared__ variables");
        uint32_t al = ty_align(p, ty);
        uint64_t off = (p->shared_off + al - 1) / al * al, size = ty_size(p, ty, np);
        if (size > (1u << 30) || off + size > (1u << 30)) front_fail(p, np, "__shared__ memory too large");
        s->addr = KIR_ADDR(SPACE_SHARED, off);
        p->shared_off = (uint32_t)(off + size);
        code_note_shared(p, n, ty, off, size, np);
      }
      continue;
    }
    if (ty->k == TY_ARRAY && ty->unsized) {
      uint64_t cnt = is(p, "=") ? (p->i++, count_init_elems(p)) : 0;
      if (!cnt) front_fail(p, np, "array size missing in '%s'", n);
      p->i--;
      type *u = ty_new(p, TY_ARRAY); *u = *ty; u->n = cnt; u->unsized = 0; ty = u;
    }
    uint64_t size = ty_size(p, ty, np);
    if (size > (1ull << 31)) front_fail(p, np, "__device__ variable '%s' too large", n);
    /* __constant__ memory is read-only to kernels: writes are compile errors */
    if (ds.is_constant) ty = const_elems(p, ty);
    sym *old = lookup(p, n);
    if (old && old->k == SYM_GLOBAL && old->is_extern && same_type(ty_unqual(p, old->ty), ty_unqual(p, ty))) {
      /* extern __device__ T x; ... __device__ T x = ...; */
      if (ds.is_extern) continue;
      old->is_extern = 0;
      kir_global *g = vec_at(&p->globals, (size_t)old->gidx);
      g->decl = np;
      if (accept(p, "=")) { if (!g->init) g->init = arena_alloc(p->a, size ? size : 1); init_bytes(p, ty, g->init, np); }
      continue;
    }
    kir_global *g = vec_push(&p->globals);
    g->name = n;
    g->size = (uint32_t)size;
    g->align = ty_align(p, ty);
    type *et = ty;
    while (et->k == TY_ARRAY) et = et->base;
    g->elem = et->k == TY_SCALAR ? et->sk : et->k == TY_PTR ? SK_PTR : SK_U8;
    g->init = NULL;   /* zeros unless initialised: no second copy of a large array */
    g->decl = np;
    sym *s = declare_at(p, n, SYM_GLOBAL, ty, np);
    s->gidx = (int)p->globals.len - 1;
    s->is_extern = ds.is_extern;
    if (accept(p, "=")) {
      if (ds.is_extern) front_fail(p, np, "an extern declaration cannot be initialised");
      g->init = arena_alloc(p->a, size ? size : 1);
      init_bytes(p, ty, g->init, np);
    }
  } while (accept(p, ","));
  expect(p, ";");
}

static void fix_dyn_shared(kir_module *m) {
  /* extern __shared__ arrays start after the static ones, 16-byte aligned */
  uint64_t base = KIR_ADDR(SPACE_SHARED, (m->shared_static + 15u) & ~15u);
  for (int k = 0; k < m->nfuncs; k++) {
    kir_func *f = m->funcs[k];
    for (int i = 0; i < f->ncode; i++)
      if (f->code[i].op == OP_CONST && (f->code[i].flags & KIR_CONST_DYNSHARED)) f->code[i].imm = (int64_t)base;
  }
}

/* main_text: the original file as read, for the lexer's column recovery
 * (which must not open a pipe a second time). */
static kir_module *front_compile_text(const char *file, const char *text, size_t len, int from_cpp,
                                      const char *main_text, size_t main_len, const front_limits *lim,
                                      char *err, size_t errlen) {
  kir_module *m = xcalloc(1, sizeof *m);
  diag d;
  memset(&d, 0, sizeof d);
  jmp_buf bail;
  d.bail = &bail;
  P *p = arena_alloc(&m->ar, sizeof *p);
  p->a = &m->ar;
  p->d = &d;
  if (setjmp(bail)) {
    snprintf(err, errlen, "%s", d.msg);
    kir_module_free(m);
    return NULL;
  }
  p->t = lex_all(p->a, &d, file, text, len, from_cpp, main_text, main_len, &p->nt);
  vec_init_arena(&p->syms, sizeof(sym), p->a);
  vec_init_arena(&p->tags, sizeof(sdef *), p->a);
  vec_init_arena(&p->globals, sizeof(kir_global), p->a);
  vec_init_arena(&p->kernels, sizeof(kir_func *), p->a);
  vec_init_arena(&p->shared_at, sizeof(uint64_t), p->a);
  vec_init_arena(&p->shared_vars, sizeof(kir_shared), p->a);
  vec_init_arena(&p->skipped, sizeof(skipped), p->a);
  vec_init_arena(&p->pending, sizeof(funcdef *), p->a);
  p->body_scope = (size_t)-1;
  p->max_code = lim && lim->max_code ? lim->max_code : FRONT_MAX_CODE;
  p->max_nesting = lim && lim->max_nesting > 0 ? lim->max_nesting : FRONT_MAX_NESTING;
  if (p->max_nesting > FRONT_NESTING_CAP) p->max_nesting = FRONT_NESTING_CAP;
  /* the fixed-width integer names kernels use without including stdint.h */
  static const struct { const char *n; kir_sk sk; } td[] = {
    {"int8_t", SK_I8}, {"uint8_t", SK_U8}, {"int16_t", SK_I16}, {"uint16_t", SK_U16}, {"int32_t", SK_I32},
    {"uint32_t", SK_U32}, {"int64_t", SK_I64}, {"uint64_t", SK_U64}, {"size_t", SK_U64}, {"uint", SK_U32},
    {"ptrdiff_t", SK_I64}, {"intptr_t", SK_I64}, {"uintptr_t", SK_U64}};
  for (size_t k = 0; k < sizeof td / sizeof td[0]; k++) declare(p, td[k].n, SYM_TYPEDEF, ty_of_sk(td[k].sk));
  p->scope_start = p->syms.len;   /* the file may redefine those names */
  while (tk(p)->kind != TK_EOF) toplevel(p);
  /* bodies that called functions defined later in the file */
  for (size_t k = 0; k < p->pending.len; k++) {
    funcdef *f = *(funcdef **)vec_at(&p->pending, k);
    compile_kept(p, f);
  }
  m->funcs = p->kernels.data;
  m->nfuncs = (int)p->kernels.len;
  m->globals = p->globals.data;
  m->nglobals = (int)p->globals.len;
  m->shared_static = p->shared_off;
  m->uses_dyn_shared = p->dyn_shared;
  m->shared = p->shared_vars.data;
  m->nshared = (int)p->shared_vars.len;
  fix_dyn_shared(m);
  return m;
}

kir_module *front_compile(const char *file, const char *text, size_t len, int from_cpp, const front_limits *lim,
                          char *err, size_t errlen) {
  return front_compile_text(file, text, len, from_cpp, NULL, 0, lim, err, errlen);
}

kir_module *front_compile_file(const char *path, const char *text, size_t len, const char *const *defines,
                               int ndefines, const front_limits *lim, char *err, size_t errlen) {
  size_t max = lim ? lim->max_source : 0;   /* 0: source.c's default */
  char *owned_text = NULL;
  if (!text) {
    owned_text = source_read_file(path, max, &len, err, errlen);
    if (!owned_text) return NULL;
    text = owned_text;
  }
  size_t n = 0;
  char *pp = source_preprocess(path, text, len, defines, ndefines, lim ? lim->include_path : NULL, lim ? lim->cache_dir : NULL, max,
                               &n, err, errlen);
  kir_module *m = NULL;
  if (pp) m = front_compile_text(path, pp, n, 1, text, len, lim, err, errlen);
  free(pp);
  free(owned_text);
  return m;
}
