/* ptx_int: what the PTX parser hands the PTX lowering (private to
 * emu/ptx_*.c).  The parser keeps an instruction as its opcode, its
 * modifiers in order and its operands, with names already resolved to
 * registers, variables and functions; the lowering gives them meaning, so
 * that one place decides what a modifier means and rejects what it does not
 * know. */
#ifndef GR_PTX_INT_H
#define GR_PTX_INT_H

#include <stdint.h>

#include "kir.h"
#include "util.h"

/* Fundamental types of registers, variables and instruction modifiers. */
typedef enum {
  PT_NONE, PT_PRED, PT_B8, PT_B16, PT_B32, PT_B64, PT_U8, PT_U16, PT_U32, PT_U64,
  PT_S8, PT_S16, PT_S32, PT_S64, PT_F16, PT_F16X2, PT_BF16, PT_F32, PT_F64, PT_B128, PT_BF16X2, PT_COUNT
} ptx_type;
extern const char *const ptx_type_name[PT_COUNT];
int ptx_type_size(ptx_type t);   /* bytes; a predicate counts 1 */

/* State spaces. */
typedef enum { PS_NONE, PS_REG, PS_GLOBAL, PS_SHARED, PS_LOCAL, PS_CONST, PS_PARAM, PS_COUNT } ptx_space;
extern const char *const ptx_space_name[PS_COUNT];

/* Special registers PTX names and KIR has no op for are lowered to several
 * ops; the rest map to kir_sreg. */
typedef enum {
  PSR_TID_X, PSR_TID_Y, PSR_TID_Z, PSR_NTID_X, PSR_NTID_Y, PSR_NTID_Z, PSR_CTAID_X, PSR_CTAID_Y, PSR_CTAID_Z,
  PSR_NCTAID_X, PSR_NCTAID_Y, PSR_NCTAID_Z, PSR_LANEID, PSR_CLOCK, PSR_CLOCK64, PSR_LANEMASK_EQ,
  PSR_LANEMASK_LE, PSR_LANEMASK_LT, PSR_LANEMASK_GE, PSR_LANEMASK_GT, PSR_ENVREG1, PSR_ENVREG2, PSR_RSMEM_BEGIN, PSR_RSMEM_END, PSR_RSMEM_CAP, PSR_RSMEM_1,
  PSR_GLOBALTIMER, PSR_GLOBALTIMER_LO, PSR_GLOBALTIMER_HI, PSR_COUNT
} ptx_sreg;

typedef enum { PO_REG, PO_IMM, PO_FIMM, PO_SYM, PO_ADDR, PO_VEC, PO_SREG, PO_SINK, PO_LABEL, PO_FUNC } ptx_opkind;

/* A symbol an operand names: a variable (module or function scope), a
 * parameter, or a function. */
typedef struct ptx_var ptx_var;

typedef struct ptx_opnd {
  uint8_t kind;        /* ptx_opkind */
  uint8_t neg;         /* !%p */
  uint8_t fbits;       /* PO_FIMM: 32 (0f...), 64 (0d...), 0 (decimal: f holds it) */
  int reg;             /* PO_REG; PO_ADDR's base register or -1; the second destination of d|p, or -1 */
  int reg2;
  int64_t imm;         /* PO_IMM's value; PO_ADDR's offset; PO_FIMM's bits */
  double f;
  ptx_var *var;        /* PO_SYM, PO_ADDR with a symbol base */
  const char *name;    /* PO_LABEL and PO_FUNC */
  int sreg;            /* PO_SREG: ptx_sreg */
  struct ptx_opnd *vec;
  int nvec;
} ptx_opnd;

#define PTX_MAX_MODS 10
typedef struct {
  const char *op;              /* "add"; NULL for a label */
  const char *mods[PTX_MAX_MODS];   /* without their dots, in order */
  int nmods;
  int guard, guard_neg;        /* @%p / @!%p; guard -1 when none */
  ptx_opnd *ops;
  int nops;
  /* call: the return and argument parameter lists */
  ptx_opnd *rets, *args;
  int nrets, nargs;
  const char *label;           /* a label's name */
  int line, col;               /* in the PTX file */
  int locfile;                 /* .loc's file number, resolved once .file directives are read */
  int in_file, in_line, in_col;   /* .loc's inlined_at, or in_file -1 */
  srcpos pos;                  /* the CUDA source position from .loc, else the PTX one */
} ptx_ins;

struct ptx_var {
  const char *name;
  ptx_space space;
  ptx_type type;
  uint32_t size, align;        /* bytes, of the whole variable */
  int is_array, is_extern, nelem;
  uint8_t *init;               /* module variables with an initialiser */
  int index;                   /* module variables: their kir_global; parameters: their position */
  int owner;                   /* parameters and function variables: the function, else -1 */
  int is_fparam;               /* in a function's parameter list (else a call site's .param) */
  int line;
};

typedef struct {
  const char *name;            /* as in the PTX (mangled) */
  int is_entry, defined, line;
  ptx_var **params, **rets;
  int nparams, nrets;
  ptx_type *regs;              /* the type of each register */
  int nregs;
  ptx_var **vars;              /* .shared and .local declared in the body */
  int nvars;
  ptx_ins *code;
  int ncode;
  srcpos decl;
} ptx_func;

typedef struct {
  arena *ar;
  const char *path;            /* the PTX file */
  ptx_func **funcs;
  int nfuncs;
  ptx_var **vars;              /* module .global, .const, .shared */
  int nvars;
  const char **files;          /* .file N "name": files[N] */
  int nfiles;
  int version_major, version_minor, sm;
} ptx_module;

/* Whether a .file is one of the CUDA toolkit's headers, not the user's code. */
int ptx_cuda_header(const char *f);

/* ptx_names.c.  A symbol's C++ name without parameters ("reduce<256, float>"),
 * its demangled signature in *sig (NULL when it is not a C++ symbol). */
char *ptx_names_display(arena *ar, const char *sym, const char **sig);
/* Fills the n parameters' names (where the CUDA source declares the kernel
 * `display` names) and kinds (from the signature `sig`, or the source's
 * declaration); 1 when the source had the declaration. */
int ptx_names_params(arena *ar, const char *sig, const char *source, const char *display, int n, const char **names,
                     kir_sk *sk, kir_sk *pointee);

/* Parses PTX text; on error, bails out through d. */
ptx_module *ptx_parse(arena *ar, diag *d, const char *path, const char *text, size_t len);

#endif
