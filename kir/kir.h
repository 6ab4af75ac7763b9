/* kir: the kernel IR.  A register-based, typed SIMT bytecode.  Every op runs
 * for the active lanes of one warp; registers hold 64-bit values per lane.
 * Integer registers keep their value extended to 64 bits according to the
 * op's type (i32 sign-, u32 zero-extended); floats keep their bit pattern.
 * Conditional branches carry their reconvergence point (the immediate
 * post-dominator), which gives exact pre-Volta lockstep. */
#ifndef GR_KIR_H
#define GR_KIR_H

#include <stdint.h>
#include <stdio.h>

#include "kir_val.h"
#include "util.h"

typedef struct {
  uint16_t op;
  uint16_t flags;
  int32_t dst, a, b, c;
  int64_t imm;
} kir_ins;

typedef struct {
  const char *name;
  kir_sk sk;          /* SK_PTR for pointers; SK_COUNT for a struct passed by value */
  kir_sk pointee;     /* element kind for pointers to scalars, else SK_U8 */
  uint32_t size;      /* a struct: its bytes, and its scalar leaves in order */
  int nleaves;
  uint32_t *leaf_off;
  int *leaf_sk;       /* kir_sk, as gr_type */
  const char **leaf_name;  /* each leaf's fields and indices from the struct ("in.y", "a.2"), or NULL (PTX) */
  int *leaf_pointee;  /* a pointer leaf's element kind (SK_U8 where not a scalar), or NULL (PTX) */
  int ranged;         /* an enumeration (subset front end): its values are lo..hi */
  int64_t lo, hi;
} kir_param;

typedef struct {
  const char *name;   /* as directives name it: the C++ name with its template arguments */
  const char *sym;    /* the PTX entry's (mangled) name, where the kernel came from PTX, else NULL */
  kir_ins *code;
  srcpos *pos;
  int ncode;
  int nregs;
  uint32_t frame;     /* local memory bytes per thread */
  int uses_gridws;    /* reads the grid workspace (SR_GRIDWS_*): its launches get one */
  kir_param *params;
  int nparams;
  srcpos decl;
} kir_func;

typedef struct {
  const char *name;
  const char *sym;    /* the PTX variable's (mangled) name, where it came from PTX, else NULL */
  uint32_t size, align;
  kir_sk elem;        /* element kind where it is a scalar or array of scalars, else SK_U8 */
  uint8_t *init;      /* size bytes */
  srcpos decl;
  int internal;       /* the compiler's own (PTX's $str: assert's and printf's strings): in no digest */
} kir_global;

/* A static __shared__ variable: its place in a block's shared memory. */
typedef struct {
  const char *name;
  uint32_t offset, size;
  kir_sk elem;        /* element kind where it is a scalar or array of scalars, else SK_U8 */
  srcpos decl;
} kir_shared;

typedef struct {
  arena ar;
  kir_func **funcs;   /* kernels only: device functions are inlined */
  int nfuncs;
  kir_global *globals;
  int nglobals;
  uint32_t shared_static;   /* bytes of static __shared__ per block */
  kir_shared *shared;       /* the subset's static __shared__ variables (none from PTX) */
  int nshared;
  int uses_dyn_shared;
  char *ptx;          /* the PTX text the module was lowered from (malloc'd), or NULL: the CUDA backend loads it */
} kir_module;

/* The kernel a directive or a host call names: its name exactly, its PTX
 * symbol, its name however spaced and with template arguments as the
 * source writes them ("k<256,float>" and "k<256, unsigned>" for the
 * demangler's "k<256u, float>" and "k<256, unsigned int>"), or the name
 * without template arguments where one instance alone has it. */
const kir_func *kir_find(const kir_module *m, const char *name);
void kir_print_func(FILE *out, const kir_func *f);
/* Control flow and registers of one instruction (at index i): its
 * successors (-1 where none; a branch's are its target and i + 1), and the
 * registers it reads, into u (at most 4), returning how many. */
void kir_successors(const kir_ins *in, int i, int *s0, int *s1);
int kir_ins_reads(const kir_ins *in, int *u);
/* Sets each conditional branch's reconvergence point (its c) to its
 * immediate post-dominator among the n instructions: n where the paths
 * from it meet only at the function's end, -1 where they never reach the
 * end (an endless loop).  Every front end calls it once its code is laid
 * out. */
void kir_set_reconvergence(kir_ins *code, int n);
/* The register an instruction writes for each lane it runs on, or -1. */
int kir_ins_writes(const kir_ins *in);
/* 1 for the ops that compute each lane's destination from that lane's
 * registers and the launch's constants alone (arithmetic, conversions,
 * constants, special registers, parameters, global addresses, math,
 * pointer arithmetic, select, nop): the engine's simt_alu, and a
 * destination that may be one of the operands. */
int kir_is_alu(int op);
/* Liveness over code[0..n) with registers in W 64-bit words: the
 * registers live before each instruction, n + 1 sets (the last, after the
 * end, empty), to a fixpoint; malloc'd.  kir_live_after: the union of
 * instruction i's successors' sets, into out. */
uint64_t *kir_liveness(const kir_ins *code, int n, size_t W);
void kir_live_after(const kir_ins *code, int i, int n, const uint64_t *live, size_t W, uint64_t *out);
/* The registers whose first value a thread can read: read on some path
 * from the entry before any write (live at the entry), and every register
 * a shuffle reads, which reads other lanes' (lanes that may not have run
 * the writes).  Their numbers, ascending, into a new array (free it);
 * their count into *n. */
int *kir_regs_read_first(const kir_func *f, int *n);
void kir_print_module(FILE *out, const kir_module *m);
void kir_module_free(kir_module *m);

#endif
