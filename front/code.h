/* code: the CUDA subset's code generator, private to front/, as Lua's
 * lcode.c is to lparser.c: the data a compilation shares between the
 * parser (front.c) and the code generator (code.c), its types, and the
 * functions that emit KIR: instructions, registers, labels, expression
 * descriptors made values, conversions, operators with their constant
 * folding, stores.  The parser decides what the source says; this decides
 * the instructions that say it. */
#ifndef GR_FRONT_CODE_H
#define GR_FRONT_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "front.h"
#include "kir.h"
#include "lex.h"
#include "util.h"

typedef enum { TY_VOID, TY_SCALAR, TY_PTR, TY_ARRAY, TY_STRUCT, TY_REF } tyk;
typedef struct type type;
typedef struct sdef sdef;
struct type { tyk k; kir_sk sk; type *base; uint64_t n; int vol, cnst, unsized; sdef *s; uint32_t align;
               int ranged; int64_t lo, hi; };   /* ranged: an enumeration's values, lo..hi (C++ [dcl.enum]) */
typedef struct { const char *name; type *ty; uint64_t off; } field;
struct sdef { const char *name; field *f; int nf; uint64_t size; uint32_t align; int complete; int skipped; };   /* skipped: its definition was host code the subset skipped */

typedef struct funcdef {
  const char *name;
  type *ret;
  int np;
  const char **pnames;
  type **ptypes;
  size_t body, body_end;    /* token index of '{' and of its matching '}' */
  int is_kernel, is_device, defined, inlining;
  size_t vis;               /* symbols visible in the body: those declared before it */
  srcpos pos;
} funcdef;

typedef enum { SYM_REG, SYM_MEM, SYM_GLOBAL, SYM_TYPEDEF, SYM_FUNC, SYM_ECONST, SYM_ALIAS } symk;
typedef struct {
  const char *name;
  symk k;
  type *ty;
  int reg;          /* SYM_REG */
  uint64_t addr;    /* SYM_MEM: constant generic address (shared or local) */
  int gidx;         /* SYM_GLOBAL */
  int64_t cval;     /* SYM_ECONST: the constant's bits, of type ty */
  int dyn_shared;   /* SYM_MEM: the extern __shared__ array, placed after static shared */
  int is_extern;    /* SYM_GLOBAL: a declaration that a definition may follow */
  funcdef *fn;
  srcpos pos;       /* where it was declared */
  struct expr *alias; /* SYM_ALIAS: the lvalue a reference is bound to */
} sym;

typedef enum { E_VOID, E_CONST, E_REG, E_VAR, E_MEM } ek;
typedef struct expr { ek k; type *ty; int reg; int64_t off; uint64_t bits; } expr;

/* A top-level declaration the device pass left out (host code, or a type
 * the subset cannot express), so that a use of its name says why. */
typedef struct { const char *name; const char *why; srcpos pos; } skipped;

typedef struct { int brk, cont; } loopctx;
typedef struct { int label; int64_t val; int is_default; } caselab;
typedef struct { funcdef *fn; int ret_label, ret_reg; type *ret; } inlctx;

typedef struct fstate {
  vec code, pos;        /* kir_ins, srcpos */
  vec labels;           /* int pc per label */
  int nreg, maxreg;
  uint32_t frame;
  vec loops;            /* loopctx */
  vec *cases;           /* caselab of the innermost switch, or NULL */
  vec inl;              /* inlctx stack; empty at kernel level */
  vec addr_taken;       /* const char * names whose address is taken somewhere */
  vec kconst;           /* uint64_t: the constant pool, one register each (KREG + index) */
  size_t last_label_pc; /* a label points here: the last instruction is a join, not to be retargeted */
} fstate;

/* Constants live in registers loaded once at kernel entry; until the kernel
 * is finished they are named KREG + index, then renumbered above the others. */
#define KREG (1 << 24)

typedef struct P {
  arena *a;
  diag *d;
  token *t;
  size_t nt, i;
  vec syms;             /* sym; scopes are marks into it */
  vec tags;             /* sdef * */
  vec globals;          /* kir_global */
  vec kernels;          /* kir_func * */
  vec shared_at;        /* (token index, address) of function-level __shared__ */
  vec shared_vars;      /* kir_shared: every static __shared__ variable, for the module */
  uint32_t shared_off;
  int dyn_shared;
  fstate *fs;           /* NULL outside function bodies */
  size_t discard_at;    /* token index where an expression whose value is unused begins */
  int depth;            /* nesting of the recursive descent, bounded so that input cannot overflow the C stack */
  size_t scope_start;   /* first symbol of the innermost scope: redeclarations there are errors */
  size_t body_scope;    /* a function's parameters: its body's block shares their scope */
  size_t vis_lo, vis_hi;/* symbols in [vis_lo, vis_hi) are hidden: an inlined body sees only what preceded it */
  vec skipped;          /* skipped: host-only and unparsable top-level declarations */
  vec pending;          /* funcdef *: bodies compiled at the end of the file (they call functions defined later) */
  int may_defer;        /* a call of a declared, not yet defined function defers the body instead of failing */
  int deferred_hit;
  size_t max_code;      /* bound on the KIR instructions of one kernel (inlining can multiply code) */
  int max_nesting;      /* bound on the recursive descent, so that input cannot overflow the C stack */
} P;

/* No object may reach 2^40 bytes: every size computed from it then fits in
 * 64 bits without wrapping, and an offset fits a global address's 32 bits
 * only where checked (KIR_GLOBAL_ADDR). */
#define MAX_OBJECT ((uint64_t)1 << 40)

/* void; ty_of_sk gives the scalar types by kind */
extern type ty_void;

static inline expr e_const(type *ty, uint64_t bits) { expr e = {E_CONST, ty, -1, 0, bits}; return e; }
static inline expr e_reg(type *ty, int r) { expr e = {E_REG, ty, r, 0, 0}; return e; }

type *ty_of_sk(kir_sk sk);
_Noreturn void front_fail(P *p, srcpos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
uint64_t ty_size(P *p, type *t, srcpos pos);
uint32_t ty_align(P *p, type *t);
void code_note_shared(P *p, const char *name, type *t, uint64_t off, uint64_t size, srcpos pos);
type *ty_new(P *p, tyk k);
type *ty_ptr(P *p, type *base);
type *ty_qual(P *p, type *t, int vol, int cnst);
type *ty_unqual(P *p, type *t);
int ty_is_int(type *t);
int ty_is_arith(type *t);
int ty_is_scalar(type *t);
kir_sk ty_reg_sk(type *t);
const char *ty_name(P *p, type *t);
kir_sk ty_promote(kir_sk s);
kir_sk ty_usual(kir_sk a, kir_sk b);
kir_vt ty_vt(kir_sk s);
int code_emit(P *p, int op, int dst, int a, int b, int c, int64_t imm, int flags, srcpos pos);
int code_reg_new(P *p, srcpos pos);
int code_label_new(P *p);
void code_label_here(P *p, int l);
void code_jump(P *p, int l, srcpos pos);
void code_branch(P *p, int op, int cond, int l, srcpos pos);
uint64_t code_local_alloc(P *p, type *ty, srcpos pos);
int code_const_reg(P *p, uint64_t bits, srcpos pos);
int code_to_reg(P *p, expr *e, srcpos pos);
int code_mem_base(P *p, expr *e, srcpos pos);
void code_to_rvalue(P *p, expr *e, srcpos pos);
void code_cast(P *p, expr *e, type *to, srcpos pos);
int code_truth(P *p, expr *e, srcpos pos);
expr code_arith(P *p, int opbase, expr l, expr r, kir_sk sk, srcpos pos);
expr code_binop(P *p, const char *op, expr l, expr r, srcpos pos);
void code_check_lvalue(P *p, expr *e, srcpos pos, const char *what);
void code_store(P *p, expr *lv, expr v, srcpos pos);
void code_store_var(P *p, expr *lv, int r, int mark, srcpos pos);
expr code_value_copy(P *p, expr lv, srcpos pos);
void code_incdec(P *p, expr *e, int delta, int post, srcpos pos, expr *out);
type *code_common_type(P *p, expr *a, expr *b, srcpos pos);

#endif
