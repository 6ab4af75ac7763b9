/* kir_val: what a KIR value is: its types, the ops and their operands'
 * encodings (special registers, scopes, orders, atomics, math functions)
 * and the generic address with the pointer arithmetic over it.  The
 * part of kir.h that needs nothing but <stdint.h>, apart because it is
 * also the text of every kernel the compiled engine builds (emu/jit.c,
 * through kir_sem.h), where each header parsed is paid at every compile. */
#ifndef GR_KIR_VAL_H
#define GR_KIR_VAL_H

#include <stdint.h>
/* Value types of arithmetic ops. */
typedef enum { VT_I32, VT_U32, VT_I64, VT_U64, VT_F32, VT_F64, VT_COUNT } kir_vt;

/* Scalar kinds of memory, parameters and buffers. */
typedef enum {
  SK_BOOL, SK_I8, SK_U8, SK_I16, SK_U16, SK_I32, SK_U32, SK_I64, SK_U64, SK_F32, SK_F64, SK_PTR, SK_COUNT
} kir_sk;
extern const char *const kir_sk_name[SK_COUNT];
extern const int kir_sk_size[SK_COUNT];

#define KIR_BINOPS(X) X(ADD) X(SUB) X(MUL) X(DIV) X(REM) X(AND) X(OR) X(XOR) X(SHL) X(SHR) \
  X(EQ) X(NE) X(LT) X(LE) X(GT) X(GE) X(MIN) X(MAX)
#define KIR_UNOPS(X) X(NEG) X(NOT) X(LNOT)

typedef enum {
#define BIN(n) OP_##n##_I32, OP_##n##_U32, OP_##n##_I64, OP_##n##_U64, OP_##n##_F32, OP_##n##_F64,
#define UN(n) OP_##n##_I32, OP_##n##_U32, OP_##n##_I64, OP_##n##_U64, OP_##n##_F32, OP_##n##_F64,
  KIR_BINOPS(BIN) KIR_UNOPS(UN)
#undef BIN
#undef UN
  OP_CONST,    /* dst <- imm */
  OP_MOV,      /* dst <- a */
  OP_CVT,      /* dst <- convert a; imm = from_sk | to_sk << 8 */
  OP_SREG,     /* dst <- special register imm (SR_*) */
  OP_PARAM,    /* dst <- kernel parameter imm; a struct parameter is copied to [a] instead (dst -1) */
  OP_GADDR,    /* dst <- address of module global imm */
  OP_LD,       /* dst <- [a + imm]; flags: sk | MF_VOLATILE (strong) | scope << 12 | order << 14 */
  OP_ST,       /* [a + imm] <- b; flags as OP_LD */
  OP_ATOM,     /* dst <- atomic op on [a] with b (and c for CAS); flags: sk | AT_* << 8 | scope << 12 | order << 14 */
  OP_FENCE,    /* imm = scope; flags = FENCE_SC or FENCE_ACQ_REL */
  OP_BAR,      /* __syncthreads; imm = BAR_*: with a reduction, dst <- it over predicate a of the block's threads */
  OP_SYNCWARP, /* a = mask register */
  OP_VOTE,     /* dst <- vote imm (VOTE_*) over predicate a with member mask b */
  OP_SHFL,     /* dst <- shuffle imm (SHFL_*) of a by lane/delta b, width c */
  OP_MATH,     /* dst <- fn imm (MF_*) of a, b, c */
  OP_JMP,      /* goto a */
  OP_BRT,      /* if (b) goto a per lane; reconverge at c */
  OP_BRF,      /* if (!b) goto a per lane; reconverge at c */
  OP_EXIT,     /* the active lanes end */
  OP_TRAP,     /* __trap / assert failure: imm = reason (TRAP_*); a failed assert from PTX: a, b, c the
                * message, the file name and the line (__assertfail's arguments), or -1 */
  OP_NOP,
  OP_PADD,     /* dst <- a + b * imm (imm 0: b is in bytes), pointer arithmetic: a result outside a's object is a wild pointer (kir_ptr_add) */
  OP_PDIFF,    /* dst <- a - b in bytes, for pointers into one object, wild ones included (kir_ptr_diff) */
  OP_SEL,      /* dst <- c ? a : b (PTX selp: a choice without a branch) */
  OP_MALLOC,   /* dst <- device malloc(a): a new allocation from the device heap, or 0 where the heap is full */
  OP_FREE,     /* device free(a): a pointer OP_MALLOC returned, or 0 */
  OP_CPASYNC,  /* asynchronous copy (PTX cp.async) of imm bytes from global [b] to shared [a], of which c (a register, or
                * -1: all) are read and the rest zeroes: performed at a later OP_CPWAIT that waits for it, or when the
                * thread exits */
  OP_CPCOMMIT, /* the thread's copies since its last commit make a group (cp.async.commit_group) */
  OP_CPWAIT,   /* waits until at most imm of the thread's most recent groups are in flight (cp.async.wait_group) */
  OP_PRINTF,   /* dst <- device printf (vprintf) of the format string at a with the argument buffer at b: the
                * characters printed (-1 on a bad format); the text goes to the device's output */
  OP_COUNT
} kir_op;

#define KIR_VT_OF(op) ((kir_vt)((op) % VT_COUNT))
#define MF_VOLATILE 0x80   /* in the low byte of flags with the sk: a strong access */
#define KIR_CONST_DYNSHARED 1  /* OP_CONST flag: the base of dynamic shared memory, set at the end of compilation */

typedef enum { SR_TID_X, SR_TID_Y, SR_TID_Z, SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z,
               SR_NTID_X, SR_NTID_Y, SR_NTID_Z, SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z,
               SR_LANEID, SR_WARPSIZE, SR_CLOCK,
               /* the grid workspace of a cooperative launch (0 otherwise): PTX
                * %envreg2 and %envreg1, its low and high halves, which
                * cooperative_groups::this_grid() reads */
               SR_GRIDWS_LO, SR_GRIDWS_HI, SR_COUNT } kir_sreg;

typedef enum { SCOPE_BLOCK, SCOPE_DEVICE, SCOPE_SYSTEM } kir_scope;
extern const char *const kir_scope_name[3];

/* The memory order of a strong access (PTX .relaxed, .acquire, .release,
 * .acq_rel) and the kind of a fence (fence.sc, fence.acq_rel).  A volatile
 * access is relaxed at system scope; a plain one has neither. */
typedef enum { MO_RELAXED, MO_ACQUIRE, MO_RELEASE, MO_ACQ_REL } kir_order;
extern const char *const kir_order_name[4];
typedef enum { FENCE_SC, FENCE_ACQ_REL } kir_fence;
#define MF_SCOPE_SHIFT 12
#define MF_ORDER_SHIFT 14
#define KIR_MF_SCOPE(flags) ((int)((flags) >> MF_SCOPE_SHIFT & 3))
#define KIR_MF_ORDER(flags) ((int)((flags) >> MF_ORDER_SHIFT & 3))
/* The flags of a strong load or store of kind sk. */
#define KIR_MF_STRONG(sk, scope, order) ((sk) | MF_VOLATILE | (scope) << MF_SCOPE_SHIFT | (order) << MF_ORDER_SHIFT)
/* The flags of a load or store of kind sk through a (non-)volatile lvalue. */
#define KIR_MF_ACCESS(sk, vol) ((vol) ? KIR_MF_STRONG(sk, SCOPE_SYSTEM, MO_RELAXED) : (sk))

typedef enum { AT_ADD, AT_SUB, AT_EXCH, AT_MIN, AT_MAX, AT_INC, AT_DEC, AT_CAS, AT_AND, AT_OR, AT_XOR, AT_COUNT } kir_atom;
extern const char *const kir_atom_name[AT_COUNT];

typedef enum { VOTE_ALL, VOTE_ANY, VOTE_BALLOT, VOTE_ACTIVEMASK } kir_vote;
typedef enum { BAR_SYNC, BAR_COUNT, BAR_AND, BAR_OR } kir_bar;   /* __syncthreads, _count, _and, _or */
/* __trap(), a failed assert(), a barrier instruction whose id (a register) was not 0 */
typedef enum { TRAP_CALL, TRAP_ASSERT, TRAP_BARRIER_ID } kir_trap;
typedef enum { SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR } kir_shfl;

#define KIR_MATHFNS(X) \
  X(SQRTF) X(SQRT) X(RSQRTF) X(EXPF) X(EXP) X(EXP2F) X(LOGF) X(LOG) X(LOG2F) X(LOG10F) X(SINF) X(SIN) \
  X(COSF) X(COS) X(TANF) X(TANHF) X(POWF) X(POW) X(FABSF) X(FABS) X(FLOORF) X(FLOOR) X(CEILF) X(CEIL) \
  X(TRUNCF) X(ROUNDF) X(FMINF) X(FMAXF) X(FMIN) X(FMAX) X(FMAF) X(FMA) X(FMODF) X(ATAN2F) X(ATANF) \
  X(POPC) X(POPCLL) X(CLZ) X(CLZLL) X(FFS) X(FFSLL) X(BREV) X(ABS) X(LLABS) X(MUL24) X(UMUL24) \
  X(MULHI) X(UMULHI) X(FDIVIDEF) X(SAD) X(USAD) X(RINTF) X(RINT) X(TRUNC) X(MUL64HI) X(UMUL64HI) X(BREVLL) X(FNS) \
  X(H2F) X(BF2F) X(D2H) X(D2BF) X(HFMA) X(BFFMA)
/* The half-precision functions (PTX .f16 and .bf16, whose values are the
 * low 16 bits of a register): H2F and BF2F widen to f32 bits (exact);
 * D2H and D2BF round f64 bits a with rounding b (KIR_RN, _RZ, _RM, _RP);
 * HFMA and BFFMA are a*b+c rounded once to nearest even (add and multiply
 * are fma with 1 and -0). */
enum { KIR_RN, KIR_RZ, KIR_RM, KIR_RP };
typedef enum {
#define M(n) MATH_##n,
  KIR_MATHFNS(M)
#undef M
  MATH_COUNT
} kir_mathfn;
extern const char *const kir_math_name[MATH_COUNT];

/* Generic addresses.  The top byte holds the space (bits 58-59) and the
 * pointer's state (bits 56-57): 1 inside its object, 0 below it, 2 above it.
 * Global: allocation id in bits 32..55, offset below.  Shared: offset in
 * the executing thread's block.  Local: offset in the executing thread's
 * frame. */
#define KIR_SPACE_SHIFT 56
enum { SPACE_NONE, SPACE_GLOBAL, SPACE_SHARED, SPACE_LOCAL };
enum { KIR_BELOW, KIR_INSIDE, KIR_ABOVE };
#define KIR_STATE_MASK ((uint64_t)3 << KIR_SPACE_SHIFT)
#define KIR_SPACE_OF(addr) ((unsigned)((addr) >> (KIR_SPACE_SHIFT + 2)) & 3u)
#define KIR_STATE_OF(addr) ((unsigned)((addr) >> KIR_SPACE_SHIFT) & 3u)
#define KIR_ADDR(space, off) (((uint64_t)((space) << 2 | KIR_INSIDE) << KIR_SPACE_SHIFT) | (uint64_t)(off))
#define KIR_OFFSET_MASK(space) ((space) == SPACE_GLOBAL ? (uint64_t)0xffffffffu : ((uint64_t)1 << KIR_SPACE_SHIFT) - 1)
#define KIR_GLOBAL_ADDR(id, off) (KIR_ADDR(SPACE_GLOBAL, 0) | ((uint64_t)(id) << 32) | (uint32_t)(off))

/* Pointer arithmetic never carries from one object into another: the bits
 * that name the object (the space, and a global allocation's id) stay those
 * of the base, and a result whose offset leaves the object's range keeps
 * its offset modulo that range with the state "below" or "above".  Such a
 * wild pointer faults on every access, naming the object it came from, and
 * still compares with the object's pointers as flat addresses would (below
 * < inside < above), so that `p >= begin` ends a loop that steps below; one
 * that comes back inside is an ordinary pointer again. */
static inline int kir_is_object_ptr(uint64_t a) {
  unsigned sp = KIR_SPACE_OF(a), st = KIR_STATE_OF(a);
  return sp != SPACE_NONE && st != 3;
}
/* The offset of a pointer in its object, negative below it. */
static inline int64_t kir_ptr_offset(uint64_t a) {
  uint64_t m = KIR_OFFSET_MASK(KIR_SPACE_OF(a));
  int64_t off = (int64_t)(a & m);
  unsigned st = KIR_STATE_OF(a);
  if (st == KIR_BELOW) off -= (int64_t)(m + 1);
  else if (st == KIR_ABOVE) off += (int64_t)(m + 1);
  return off;
}
static inline uint64_t kir_ptr_add(uint64_t base, uint64_t delta) {
  uint64_t r = base + delta;
  if (!((r ^ base) >> 32)) return r;   /* the common case: bits 32 up (object and state) unchanged */
  if (!kir_is_object_ptr(base)) return r;
  uint64_t m = KIR_OFFSET_MASK(KIR_SPACE_OF(base));
  uint64_t obj = base & ~m & ~KIR_STATE_MASK;
  int64_t n = (int64_t)((uint64_t)kir_ptr_offset(base) + delta);
  unsigned st = n < 0 ? KIR_BELOW : (uint64_t)n > m ? KIR_ABOVE : KIR_INSIDE;
  return obj | (uint64_t)st << KIR_SPACE_SHIFT | ((uint64_t)n & m);
}
/* The address an access [a + imm] performs at.  A wild pointer moves in
 * its object (kir_ptr_add); any other address moves as the GPU's flat
 * address does, so that what arithmetic did on the way does not matter,
 * only where the access lands: PTX's 64-bit adds are plain sums, and a
 * pointer nvcc takes below its buffer, to come back through the access's
 * offset ([%rd+64]), reads the buffer.  The access is checked at the final
 * address (the engine's xlate). */
static inline uint64_t kir_access_addr(uint64_t a, int64_t imm) {
  if (KIR_STATE_OF(a) == KIR_INSIDE) return a + (uint64_t)imm;
  return kir_ptr_add(a, (uint64_t)imm);
}
/* a - b in bytes for pointers into one object (wild ones included); raw
 * difference otherwise. */
static inline uint64_t kir_ptr_diff(uint64_t a, uint64_t b) {
  if (!kir_is_object_ptr(a) || !kir_is_object_ptr(b)) return a - b;
  uint64_t ma = KIR_OFFSET_MASK(KIR_SPACE_OF(a)), mb = KIR_OFFSET_MASK(KIR_SPACE_OF(b));
  uint64_t oa = a & ~ma & ~KIR_STATE_MASK, ob = b & ~mb & ~KIR_STATE_MASK;
  return (oa - ob) + (uint64_t)kir_ptr_offset(a) - (uint64_t)kir_ptr_offset(b);
}

#endif
