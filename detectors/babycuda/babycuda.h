/* babycuda: the core calculus of CUDA of Cogumbreiro, Lange et al.,
 * "Provable GPU Data-Races in Static Race Detection" (shared/papers/
 * babycuda-faial.txt), and the first static golden model of gpurace.
 *
 *   program     the calculus as a data type, its text syntax (.bc files)
 *               and a printer;
 *   bc_eval     the access-history semantics of Figure 5 (plus `sync`,
 *               which closes a phase) and Definition 1 (DRF);
 *   bc_type     the behavioural typing of Figure 6 (plus t-sync), which
 *               gives the program's memory access protocol (MAP) and says
 *               whether the program is well-typed;
 *   bc_map_check  DRF of a MAP for every thread of the launch and every
 *               parameter value the assumptions allow, decided by Z3;
 *   bc_extract  the BabyCUDA program of a CUDA kernel (from its KIR);
 *   bc_to_cuda  a CUDA kernel of a BabyCUDA program, to run it on the
 *               emulator (the property tests and witness replays).
 *
 * Theorem 1 of the paper: for a well-typed program, the program is DRF iff
 * its MAP is.  docs/babycuda.md gives the rules and the extensions (arrays
 * of a grid, several arrays, barrier divergence). */
#ifndef GR_BABYCUDA_H
#define GR_BABYCUDA_H

#include <stdint.h>
#include <stdio.h>

#include "kir.h"
#include "util.h"

/* ---------------------------------------------------------------- syntax */

/* Numeric and boolean expressions, one type: the kind says which. */
typedef enum {
  BX_NUM, BX_VAR, BX_ADD, BX_SUB, BX_MUL, BX_DIV, BX_REM, BX_NEG,               /* numeric */
  BX_TRUE, BX_FALSE, BX_EQ, BX_NE, BX_LT, BX_LE, BX_GT, BX_GE, BX_AND, BX_OR, BX_NOT  /* boolean */
} bc_expr_kind;
typedef struct bc_expr {
  bc_expr_kind k;
  int64_t num;              /* BX_NUM */
  const char *var;          /* BX_VAR */
  struct bc_expr *a, *b;
} bc_expr;
#define BC_IS_BOOL(k) ((k) >= BX_TRUE)

/* The thread's coordinates are the variables tid (threadIdx.x), tid.y,
 * tid.z, bid (blockIdx.x), bid.y and bid.z. */
int bc_thread_var(const char *name);   /* 0..5 as listed, or -1 */
extern const char *const bc_thread_var_name[6];

typedef enum { BS_SKIP, BS_SEQ, BS_READ, BS_WRITE, BS_IF, BS_FOR, BS_SYNC } bc_stmt_kind;
typedef struct bc_stmt {
  bc_stmt_kind k;
  srcpos pos;
  int array;                /* READ, WRITE: index into the program's arrays */
  const char *var;          /* READ: the local it binds; FOR: the loop variable */
  bc_expr *idx, *val;       /* READ, WRITE: the index; WRITE: the payload */
  int atomic;               /* WRITE: an atomic (device scope) that writes val (`atomic A[n] := m`): it races
                             * with the plain accesses of other threads, not with atomics */
  bc_expr *cond, *lo, *hi;  /* IF: the condition; FOR: x ranges over lo..hi-1 */
  struct bc_stmt *body;     /* READ: the continuation b of `let x = A[n] in b`; IF: then; FOR: body */
  struct bc_stmt *els;      /* IF: else (mandatory) */
  struct bc_stmt **items;   /* SEQ */
  int n;
  /* READ, WRITE, IF, FOR (extraction): what must hold where it runs for its
   * expressions' integers to be CUDA's machine integers (every intermediate
   * result in its type's range: nothing wraps), or NULL; bc_exact_check */
  bc_expr *obl;
} bc_stmt;

enum { BC_READ, BC_WRITE, BC_ATOMIC };   /* kinds of access */

typedef enum { BC_SHARED, BC_GLOBAL } bc_space;
typedef struct {
  const char *name;
  bc_space space;           /* shared: one copy per block; global: one for the grid */
  int64_t size;             /* elements; 0 where unknown */
  int64_t *init;            /* size initial values, or NULL: no index holds a value (lastwrite = undefined) */
  kir_sk sk;                /* the elements' kind in the kernel (SK_I64 in a .bc file) */
  srcpos decl;
} bc_array;

typedef struct {
  const char *name;
  int64_t value;            /* the value bc_eval uses */
  int has_value;
  int ranged;               /* extraction: the parameter's C type bounds it to lo..hi */
  int64_t lo, hi;
} bc_param;

typedef struct {
  arena ar;
  const char *file;
  const char *kernel;       /* the CUDA kernel it was extracted from, or NULL */
  bc_array *arrays;
  int narrays;
  bc_param *params;
  int nparams;
  bc_expr **assume;         /* what the parameters satisfy (the checker's hypotheses) */
  srcpos *assume_pos;
  int nassume;
  int64_t block[3], grid[3];/* the launch: T is every thread of it */
  bc_stmt *body;
} bc_program;

/* Parses a .bc file.  NULL with "file:line:col: error: ..." in err. */
bc_program *bc_parse(const char *file, const char *text, size_t len, char *err, size_t errlen);
void bc_program_free(bc_program *p);
void bc_print(FILE *out, const bc_program *p);
void bc_print_expr(FILE *out, const bc_expr *e);
void bc_print_stmt(FILE *out, const bc_program *p, const bc_stmt *s, int indent);

/* Builders (arena-allocated), for the parser, extraction and generators. */
bc_program *bc_program_new(const char *file);
bc_expr *bc_num(bc_program *p, int64_t v);
bc_expr *bc_var(bc_program *p, const char *name);
bc_expr *bc_bin(bc_program *p, bc_expr_kind k, bc_expr *a, bc_expr *b);
bc_stmt *bc_stmt_new(bc_program *p, bc_stmt_kind k, srcpos pos);
bc_stmt *bc_seq(bc_program *p, bc_stmt **items, int n, srcpos pos);
int bc_add_array(bc_program *p, const char *name, bc_space space, int64_t size, srcpos decl);
int bc_add_param(bc_program *p, const char *name);
int bc_find_array(const bc_program *p, const char *name);
bc_expr *bc_expr_copy(bc_program *to, const bc_expr *e);   /* a deep copy in to's arena */
/* Free variables of an expression: calls f for each occurrence. */
void bc_expr_vars(const bc_expr *e, void (*f)(const char *var, void *ctx), void *ctx);
int bc_expr_mentions(const bc_expr *e, const char *var);
int64_t bc_threads_per_block(const bc_program *p);
int64_t bc_blocks(const bc_program *p);

/* ---------------------------------------------------------------- semantics */

typedef enum {
  BC_SEM_DRF,               /* Definition 1: every phase of the history is DRF */
  BC_SEM_RACY,              /* a racy phase (or, on a global array, two blocks' conflicting accesses) */
  BC_SEM_STUCK,             /* no rule applies: a read with lastwrite undefined, a division by 0, ... */
  BC_SEM_DIVERGENT,         /* the threads of a block reached different numbers of syncs */
  BC_SEM_BOUND              /* the step bound was reached: no verdict */
} bc_sem_verdict;
extern const char *const bc_sem_verdict_name[5];

/* A thread: its coordinates in the launch. */
typedef struct { int64_t tid[3], bid[3]; } bc_thread;

typedef struct {
  int array;
  int64_t index;
  bc_thread t1, t2;
  int write1, write2;       /* which side writes */
  int64_t phase1, phase2;   /* phases of the two accesses (equal within a block) */
} bc_race;

typedef struct {
  bc_sem_verdict verdict;
  char why[512];            /* STUCK, DIVERGENT, BOUND: what happened, where */
  bc_race race;             /* RACY */
  int64_t phases;           /* of block 0 */
  uint64_t accesses, steps;
} bc_sem_result;

/* Runs the program for every thread of its launch (par, phase after phase,
 * from the initial history its arrays' initial values make), for the
 * parameter values it holds, and judges the history as Definition 1 does.
 * Only `array` (-1: all) counts for the verdict.  With `history`, prints
 * the history.  max_steps 0: a default of 10^8 statement steps. */
void bc_eval(const bc_program *p, int array, uint64_t max_steps, FILE *history, bc_sem_result *r);

/* ---------------------------------------------------------------- typing */

typedef enum { BM_SKIP, BM_SEQ, BM_RD, BM_WR, BM_IF, BM_FOR, BM_SYNC } bc_map_kind;
typedef struct bc_map {
  bc_map_kind k;
  srcpos pos;
  bc_expr *idx;             /* RD, WR */
  int atomic;               /* WR: an atomic write (races with no other atomic) */
  bc_expr *cond, *lo, *hi;  /* IF; FOR */
  const char *var;          /* FOR */
  struct bc_map *body, *els;/* IF, FOR */
  struct bc_map **items;    /* SEQ */
  int n;
} bc_map;

typedef struct {
  int well_typed;
  char why[512];            /* the first rule that failed, naming the variable and where it was read */
  srcpos at;
} bc_typing;

/* Types the program for one array (V starts with the thread variables and
 * the parameters).  The MAP is built whether or not the program is
 * well-typed: for an ill-typed one it is Faial's abstraction, in which a
 * value read from memory is any number. */
bc_map *bc_type(bc_program *p, int array, bc_typing *t);
void bc_print_map(FILE *out, const bc_map *m, int indent);

/* ---------------------------------------------------------------- machine integers */

/* The values of a C integer kind (kir_sk): 1 with them in lo..hi, else 0.
 * U64's upper end is taken at 2^63 - 1 (the calculus's numbers are int64):
 * a stronger condition, still sound. */
int bc_sk_range(int sk, int64_t *lo, int64_t *hi);

/* Whether the calculus's mathematical integers are the kernel's machine
 * integers for what decides the accesses to `array` (-1: all arrays): the
 * obligation (bc_stmt.obl) of each of its accesses and of every condition
 * and loop holds for every thread of the launch, every iteration and path
 * that reaches it, every parameter value its type and the assumptions
 * allow, and every value a read may return (its element type's range).
 * Where one can fail, a proof over the integers says nothing of CUDA's
 * kernel: exact 0, and why names the statement and a thread that wraps. */
typedef struct {
  int exact;
  char why[512];
} bc_exact;
void bc_exact_check(const bc_program *p, int array, unsigned timeout_ms, bc_exact *r);

/* ---------------------------------------------------------------- the MAP checker */

typedef enum {
  BC_MAP_DRF,               /* proved: no two threads of the launch conflict in one phase, for any parameter */
  BC_MAP_RACY,              /* a witness */
  BC_MAP_DIVERGENT,         /* a sync under a condition or loop bound that two threads of a block see differently */
  BC_MAP_UNKNOWN            /* the solver gave up (time-out, non-linear), or no solver: never DRF */
} bc_map_verdict;

typedef struct {
  bc_thread t[2];
  int64_t index, phase;
  int write[2];
  srcpos pos[2];
  char loops[2][256];       /* "x=3, y=0": the loop variables of each side */
  char params[256];         /* "M=4" */
} bc_witness;

typedef struct {
  bc_map_verdict verdict;
  char why[512];            /* UNKNOWN, DIVERGENT */
  bc_witness w;             /* RACY; DIVERGENT: t[0], t[1] and pos[0] (the sync's condition) */
  int queries;
  double seconds;
} bc_map_result;

/* Decides DRF of the MAP of the array (its space says whether threads of
 * two blocks meet on it).  timeout_ms 0: 10 s per query. */
void bc_map_check(const bc_program *p, int array, const bc_map *m, unsigned timeout_ms, bc_map_result *r);
/* Whether Z3 answers: gpurace was built with it and its library loads (at
 * the first call); else bc_solver_problem says why ("gpurace was built
 * without Z3", or the loader's error), and every verdict is unknown. */
int bc_have_solver(void);
const char *bc_solver_problem(void);
/* For the checker's test: on (1), every query is answered as where Z3's
 * SMT core gives up (bc_smt.c's enc_check), by Z3's default solver given
 * the query's assertions.  Off (0) by default; per process. */
void bc_solver_test_fallback(int on);

/* ---------------------------------------------------------------- CUDA */

/* The BabyCUDA program of a kernel, for the launch given: NULL when the
 * kernel lies outside the calculus, with why and where in err
 * ("file:line:col: outside the calculus: ..."). */
bc_program *bc_extract(const kir_module *m, const kir_func *f, const int64_t block[3], const int64_t grid[3],
                       const char *file, char *err, size_t errlen);

/* A CUDA kernel `bc` for the program, with //@ directives that launch it
 * and initialise its arrays (every array a global buffer of int, in a
 * block of the program's launch), as a malloc'd string.  With `pair`, the
 * launch has two threads that play pair[0] and pair[1] (a witness replay). */
char *bc_to_cuda(const bc_program *p, const bc_thread *pair);
/* The array whose buffer in bc_to_cuda's kernel is named buffer, or -1. */
int bc_cuda_array(const bc_program *p, const char *buffer);

/* ---------------------------------------------------------------- Theorem 1, as a property */

typedef struct {
  uint64_t seed;
  uint64_t first;           /* the first program's number: program i of a seed is the same alone or in a run */
  int count;                /* well-typed programs */
  int ill_count;            /* ill-typed programs */
  int emulate_every;        /* run hb on the emulator (and replay witnesses) for every k-th program; 0 never */
  unsigned timeout_ms;
} bc_prop_opts;

typedef struct {
  int programs, agreed, unknown, hb_runs, replays;
  int failures;
  uint64_t failed_at;
  char failure[8192];       /* the first failure, shrunk: why, and the program */
  int ill_programs, ill_stuck, ill_unknown, false_alarms;
  uint64_t false_alarm_at;
  char false_alarm[8192];   /* the first false alarm found, shrunk */
} bc_prop_result;

/* Program i of a seed, as the property run generates it (ill: ill-typed). */
bc_program *bc_prop_program(uint64_t seed, uint64_t i, int ill);
/* 1 when a program failed the property (the first, shrunk, in r->failure). */
int bc_prop_run(const bc_prop_opts *o, bc_prop_result *r);

/* Extraction as a property: kernel i of a seed is CUDA source with the
 * traps of machine integers and of names (bc_prop.c says which); `gpurace
 * check`'s verdict on its array A must agree with hb on the emulator where
 * it claims one (DRF proved: no race; true alarm: a race). */
typedef struct {
  int kernels, proved, true_alarms, other;   /* other: possible, unknown, outside */
  int failures, errors;
  uint64_t failed_at;
  char failure[8192];       /* the first failure: why, and the kernel */
} bc_prop_cuda_result;
char *bc_prop_cuda_kernel(uint64_t seed, uint64_t i);   /* malloc'd source */
int bc_prop_cuda_run(uint64_t seed, int count, unsigned timeout_ms, bc_prop_cuda_result *r);

/* ---------------------------------------------------------------- gpurace check */

typedef enum {
  BC_CHECK_DRF,             /* DRF (proved) */
  BC_CHECK_RACY,            /* racy (true alarm: well-typed) */
  BC_CHECK_POSSIBLE,        /* racy (possible false alarm: not well-typed) */
  BC_CHECK_DIVERGENT,       /* barrier divergence */
  BC_CHECK_UNKNOWN,         /* the solver gave up, or there is none */
  BC_CHECK_OUTSIDE          /* the kernel lies outside the calculus */
} bc_check_verdict;

typedef struct {
  int array;
  bc_check_verdict verdict;
  bc_typing typing;
  bc_map_result map;
} bc_array_check;

typedef struct {
  bc_program *prog;         /* NULL when outside the calculus */
  char outside[1024];       /* why, "file:line:col: outside the calculus: ..." */
  bc_array_check *arrays;
  int narrays;
  bc_check_verdict verdict; /* the file's: the worst of its arrays */
  double seconds;
} bc_check_result;

typedef struct {
  unsigned timeout_ms;      /* per solver query; 0: 10 s */
  const char *array;        /* only this array, or NULL */
  const char *const *defines;
  int ndefines;
} bc_check_opts;

/* Checks a .bc file, or the first launch of a .cu kernel file (its
 * //@ launch, buffer, arg and assume lines).  GR_EINPUT with the message in
 * err for bad input; 0 otherwise, the verdicts in r. */
int bc_check_file(const char *path, const bc_check_opts *o, bc_check_result *r, char *err, size_t errlen);
void bc_check_result_free(bc_check_result *r);
/* With `timing`, the queries and seconds of each array's check (a run's
 * output is otherwise the same byte for byte). */
void bc_check_print(FILE *out, const char *path, const bc_check_result *r, int timing);
void bc_check_print_json(FILE *out, const char *path, const bc_check_result *r, int timing);
/* The exit status of `gpurace check`: 0 DRF, 4 racy or divergent, 5 no verdict. */
int bc_check_status(const bc_check_result *r);
/* The program of a file (parsed, or extracted from its first launch):
 * NULL with the message in err (bad input, or outside the calculus, where
 * *outside is set). */
bc_program *bc_load(const char *path, const bc_check_opts *o, int *outside, char *err, size_t errlen);

#endif
