/* kir_sem: the meaning of every arithmetic op on one lane.  Used by the
 * engine (inlined into its lane loops, where `op` is a constant and the
 * switch folds away) and by the front end's constant folding, so that
 * folding and execution can never disagree.
 *
 * CUDA semantics where C leaves things undefined: integer division by zero
 * gives all ones (quotient) and the dividend (remainder), as NVIDIA GPUs do;
 * INT_MIN / -1 wraps; shifts by the type width or more give 0 (or the sign
 * fill for arithmetic right shifts), as PTX shl/shr clamp.
 *
 * The C library's functions are named by their compiler builtins
 * (__builtin_sqrtf, __builtin_memcpy: what <math.h> and <string.h> expand
 * to, calling the same library) so that this header includes no system
 * header but <stdint.h>: it is also the text of every kernel the compiled
 * engine builds (emu/jit.c), where <math.h> and <string.h> alone were a
 * third of a small kernel's compile. */
#ifndef GR_KIR_SEM_H
#define GR_KIR_SEM_H

#include <stdint.h>

#include "kir_val.h"

/* The low 32 bits of x, sign- or zero-extended.  Written in 64-bit
 * operations (the sign extension as xor and subtract), which vectorise
 * without narrowing the lanes to 32 bits and widening them back. */
static inline uint64_t sem_s32(uint64_t x) { return ((x & 0xffffffffu) ^ 0x80000000u) - 0x80000000u; }
static inline uint64_t sem_u32(uint64_t x) { return x & 0xffffffffu; }
static inline float sem_f32(uint64_t x) { float f; uint32_t u = (uint32_t)x; __builtin_memcpy(&f, &u, 4); return f; }
static inline double sem_f64(uint64_t x) { double f; __builtin_memcpy(&f, &x, 8); return f; }
static inline uint64_t sem_bits32(float f) { uint32_t u; __builtin_memcpy(&u, &f, 4); return u; }
static inline uint64_t sem_bits64(double f) { uint64_t u; __builtin_memcpy(&u, &f, 8); return u; }

/* The NaN of a float op's result r from operands a and b, as the H100
 * gives it (tests/hw/float_special.ptx): an f32 op's is the canonical NaN
 * 0x7fffffff, whatever its operands; an f64 op's is its last NaN operand
 * (in PTX's order), quieted, else (an invalid op: 0 * inf, __builtin_sqrt(-1)) the
 * default NaN 0xfff8000000000000.  C leaves it open (x86 gives the first
 * operand's, a compiler may swap a commutative op's operands): fixed
 * here, the interpreter and the compiled engine (jit.h), built apart,
 * agree bit for bit. */
/* (Chosen on the bits, without a branch, so that the compiled engine's
 * lane loops of float ops vectorise: a NaN has every exponent bit and a
 * mantissa bit set.  `bench/bench peer matmul 5 compiled`: 0.087 s with
 * the float comparison, 0.075 s with this; the interpreter's, whose lane
 * loops vectorised either way, 0.072 s and 0.076 s; a ternary on the bits
 * keeps a branch in compiled code: 0.095 s.) */
static inline int sem_isnan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static inline int sem_isnan64(uint64_t u) { return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
static inline uint64_t sem_nan32(float r) {
  uint32_t u = (uint32_t)sem_bits32(r), m = 0u - (uint32_t)sem_isnan32(u);
  return (u & ~m) | (0x7fffffffu & m);
}
static inline uint64_t sem_nan64(double r, uint64_t a, uint64_t b) {
  uint64_t u = sem_bits64(r);
  if (!sem_isnan64(u)) return u;
  if (sem_isnan64(b)) return b | 0x0008000000000000ull;
  if (sem_isnan64(a)) return a | 0x0008000000000000ull;
  return 0xfff8000000000000ull;
}

/* min and max (C's fmin and fmax: a NaN operand loses to a number) with
 * -0 below +0, as IEEE 754-2019's minimumNumber and maximumNumber have it
 * and the H100 does (tests/hw/float_special.ptx): C leaves the zeros'
 * order open, and the libm and a vector min instruction order them
 * differently. */
static inline uint64_t sem_minmax32(uint64_t a, uint64_t b, int max) {
  float x = sem_f32(a), y = sem_f32(b);
  if (x != x || y != y) return x != x && y != y ? 0x7fffffffu : x != x ? (uint32_t)b : (uint32_t)a;
  if (x != y) return (x < y) != max ? (uint32_t)a : (uint32_t)b;
  return max ? (uint32_t)(a & b) : (uint32_t)(a | b);   /* equal: the same bits, or zeros of two signs */
}
static inline uint64_t sem_minmax64(uint64_t a, uint64_t b, int max) {
  double x = sem_f64(a), y = sem_f64(b);
  if (x != x || y != y) return x != x && y != y ? sem_nan64(x, a, b) : x != x ? b : a;
  if (x != y) return (x < y) != max ? a : b;
  return max ? a & b : a | b;
}

__attribute__((always_inline)) static inline uint64_t sem_bin(int op, uint64_t a, uint64_t b) {
  uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
  int32_t ia = (int32_t)ua, ib = (int32_t)ub;
  int64_t la = (int64_t)a, lb = (int64_t)b;
  switch (op) {
#define INT_CASES(NAME, E32, E64) \
  case OP_##NAME##_I32: return sem_s32(E32); case OP_##NAME##_U32: return sem_u32(E32); \
  case OP_##NAME##_I64: case OP_##NAME##_U64: return (uint64_t)(E64);
  /* the low 32 bits of a 64-bit sum, difference or bitwise op are the
   * 32-bit op's: computed on whole lanes (a multiply stays 32-bit: x86
   * has no 64-bit vector multiply before AVX-512) */
  INT_CASES(ADD, a + b, a + b)
  INT_CASES(SUB, a - b, a - b)
  INT_CASES(MUL, ua * ub, a * b)
  INT_CASES(AND, a & b, a & b)
  INT_CASES(OR, a | b, a | b)
  INT_CASES(XOR, a ^ b, a ^ b)
  INT_CASES(SHL, ub >= 32 ? 0u : ua << ub, b >= 64 ? 0u : a << b)
#undef INT_CASES
  case OP_DIV_I32: return ub == 0 ? sem_s32(0xffffffffu) : (ia == INT32_MIN && ib == -1) ? sem_s32(ua) : sem_s32((uint32_t)(ia / ib));
  case OP_DIV_U32: return ub == 0 ? 0xffffffffu : ua / ub;
  case OP_DIV_I64: return b == 0 ? ~0ull : (la == INT64_MIN && lb == -1) ? a : (uint64_t)(la / lb);
  case OP_DIV_U64: return b == 0 ? ~0ull : a / b;
  case OP_REM_I32: return ub == 0 ? sem_s32(ua) : (ib == -1) ? 0 : sem_s32((uint32_t)(ia % ib));
  case OP_REM_U32: return ub == 0 ? ua : ua % ub;
  case OP_REM_I64: return b == 0 ? a : (lb == -1) ? 0 : (uint64_t)(la % lb);
  case OP_REM_U64: return b == 0 ? a : a % b;
  case OP_SHR_I32: return sem_s32((uint32_t)(ub >= 32 ? (ia < 0 ? -1 : 0) : ia >> ub));
  case OP_SHR_U32: return ub >= 32 ? 0 : ua >> ub;
  case OP_SHR_I64: return (uint64_t)(b >= 64 ? (la < 0 ? -1 : 0) : la >> b);
  case OP_SHR_U64: return b >= 64 ? 0 : a >> b;
#define CMP_CASES(NAME, OPR) \
  case OP_##NAME##_I32: return ia OPR ib; case OP_##NAME##_U32: return ua OPR ub; \
  case OP_##NAME##_I64: return la OPR lb; case OP_##NAME##_U64: return a OPR b; \
  case OP_##NAME##_F32: return sem_f32(a) OPR sem_f32(b); case OP_##NAME##_F64: return sem_f64(a) OPR sem_f64(b);
  CMP_CASES(EQ, ==) CMP_CASES(NE, !=) CMP_CASES(LT, <) CMP_CASES(LE, <=) CMP_CASES(GT, >) CMP_CASES(GE, >=)
#undef CMP_CASES
  case OP_MIN_I32: return ia < ib ? a : b;  case OP_MAX_I32: return ia > ib ? a : b;
  case OP_MIN_U32: return ua < ub ? a : b;  case OP_MAX_U32: return ua > ub ? a : b;
  case OP_MIN_I64: return la < lb ? a : b;  case OP_MAX_I64: return la > lb ? a : b;
  case OP_MIN_U64: return a < b ? a : b;    case OP_MAX_U64: return a > b ? a : b;
  case OP_MIN_F32: return sem_minmax32(a, b, 0);
  case OP_MAX_F32: return sem_minmax32(a, b, 1);
  case OP_MIN_F64: return sem_minmax64(a, b, 0);
  case OP_MAX_F64: return sem_minmax64(a, b, 1);
  case OP_ADD_F32: return sem_nan32(sem_f32(a) + sem_f32(b));
  case OP_SUB_F32: return sem_nan32(sem_f32(a) - sem_f32(b));
  case OP_MUL_F32: return sem_nan32(sem_f32(a) * sem_f32(b));
  case OP_DIV_F32: return sem_nan32(sem_f32(a) / sem_f32(b));
  case OP_ADD_F64: return sem_nan64(sem_f64(a) + sem_f64(b), a, b);
  case OP_SUB_F64: return sem_nan64(sem_f64(a) - sem_f64(b), a, b);
  case OP_MUL_F64: return sem_nan64(sem_f64(a) * sem_f64(b), a, b);
  case OP_DIV_F64: return sem_nan64(sem_f64(a) / sem_f64(b), a, b);
  default: return 0;
  }
}

__attribute__((always_inline)) static inline uint64_t sem_un(int op, uint64_t a) {
  switch (op) {
  case OP_NEG_I32: return sem_s32(0u - (uint32_t)a);
  case OP_NEG_U32: return sem_u32(0u - (uint32_t)a);
  case OP_NEG_I64: case OP_NEG_U64: return 0 - a;
  case OP_NEG_F32: return sem_nan32(-sem_f32(a));   /* the H100's neg.f32 of a NaN: the canonical NaN */
  case OP_NEG_F64: return sem_bits64(-sem_f64(a));
  case OP_NOT_I32: return sem_s32(~(uint32_t)a);
  case OP_NOT_U32: return sem_u32(~(uint32_t)a);
  case OP_NOT_I64: case OP_NOT_U64: return ~a;
  case OP_LNOT_I32: case OP_LNOT_U32: return (uint32_t)a == 0;
  case OP_LNOT_I64: case OP_LNOT_U64: return a == 0;
  case OP_LNOT_F32: return sem_f32(a) == 0.0f;
  case OP_LNOT_F64: return sem_f64(a) == 0.0;
  default: return 0;
  }
}

/* Value of a register of kind `sk` as a signed/unsigned 64-bit integer or double. */
/* ---- half precision: IEEE binary16 (f16) and bfloat16 (bf16) */

/* The format's bits of the exact value s + err (err: what rounding s to
 * double left out, or 0), rounded by mode (KIR_RN: to nearest even; _RZ,
 * _RM, _RP: towards zero, -inf, +inf), in a format of p significant bits,
 * minimum normal exponent emin, maximum emax and exponent width ebits.
 * Subnormals are kept (no .ftz); NaN is the canonical 0x7fff. */
static inline uint32_t sem_round_small(double s, double err, int p, int emin, int emax, int ebits, int mode) {
  uint32_t sign = __builtin_signbit(s) ? 1u << 15 : 0, inf = ((1u << ebits) - 1) << (p - 1);
  if (__builtin_isnan(s)) return 0x7fffu;
  double a = __builtin_fabs(s);
  if (__builtin_isinf(a)) return sign | inf;
  if (a == 0 && err == 0) return sign;
  int neg = sign != 0;
  /* the exact value's distance from a, in direction: +1 above a (in magnitude), -1 below */
  int dir = err == 0 ? 0 : ((err > 0) != neg) ? 1 : -1;
  int up_mode = mode == KIR_RN ? 0 : mode == KIR_RZ ? -1 : (mode == KIR_RP) != neg ? 1 : -1;   /* -1: towards 0, 1: away */
  double maxf = __builtin_ldexp(2.0 - __builtin_ldexp(1.0, 1 - p), emax);
  int e;
  __builtin_frexp(a, &e);
  int E = e - 1 < emin ? emin : e - 1;
  double q = __builtin_ldexp(1.0, E - (p - 1));
  double n = a / q, fl = __builtin_floor(n), frac = n - fl, mag;
  if (up_mode == 0) {
    int up = frac > 0.5 || (frac == 0.5 && (dir > 0 || (dir == 0 && __builtin_fmod(fl, 2.0) != 0)));
    mag = fl + up;
  } else if (up_mode < 0) mag = frac == 0 && dir < 0 ? fl - 1 : fl;
  else mag = frac > 0 || dir > 0 ? fl + 1 : fl;
  double r = mag * q;
  if (r > maxf) return up_mode < 0 ? sign | (inf - 1) : sign | inf;   /* overflow: the largest finite towards zero, else inf */
  if (r < __builtin_ldexp(1.0, emin)) return sign | (uint32_t)mag;   /* subnormal (or zero): the quantum is the smallest */
  __builtin_frexp(r, &e);
  uint32_t m = (uint32_t)(__builtin_ldexp(r, p - e) - __builtin_ldexp(1.0, p - 1));
  return sign | (uint32_t)(e - 1 + (1 << (ebits - 1)) - 1) << (p - 1) | m;
}
static inline uint32_t sem_d2h(double d, int mode) { return sem_round_small(d, 0, 11, -14, 15, 5, mode); }
static inline uint32_t sem_d2bf(double d, int mode) { return sem_round_small(d, 0, 8, -126, 127, 8, mode); }
/* f16 bits to float (exact) */
static inline float sem_h2f(uint32_t h) {
  uint32_t s = h >> 15 & 1, e = h >> 10 & 31, m = h & 1023;
  float v = e == 0 ? __builtin_ldexpf((float)m, -24) : e == 31 ? (m ? __builtin_nanf("") : __builtin_inff()) : __builtin_ldexpf((float)(m | 1024), (int)e - 25);
  return s ? -v : v;
}
static inline float sem_bf2f(uint32_t b) { return sem_f32((uint64_t)(b & 0xffffu) << 16); }
/* a*b+c rounded once: the product of two halves is exact in double, and
 * the sum's rounding error is exact too (two-sum), so one rounding of
 * s + err is the fused result */
static inline uint32_t sem_half_fma(double a, double b, double c, int bf) {
  double pr = a * b, s = pr + c;
  double bv = s - pr, err = (pr - (s - bv)) + (c - bv);
  if (!__builtin_isfinite(s)) err = 0;
  return bf ? sem_round_small(s, err, 8, -126, 127, 8, KIR_RN) : sem_round_small(s, err, 11, -14, 15, 5, KIR_RN);
}

static inline int sem_sk_is_float(int sk) { return sk == SK_F32 || sk == SK_F64; }
static inline int sem_sk_is_signed(int sk) { return sk == SK_I8 || sk == SK_I16 || sk == SK_I32 || sk == SK_I64; }

/* Canonical register form of a value of kind `sk` from raw low bits. */
static inline uint64_t sem_canon(int sk, uint64_t x) {
  switch (sk) {
  case SK_BOOL: return x != 0;
  case SK_I8: return (uint64_t)(int64_t)(int8_t)x;
  case SK_U8: return (uint8_t)x;
  case SK_I16: return (uint64_t)(int64_t)(int16_t)x;
  case SK_U16: return (uint16_t)x;
  case SK_I32: return sem_s32(x);
  case SK_U32: case SK_F32: return sem_u32(x);
  default: return x;
  }
}

/* Conversion between scalar kinds, C semantics; float to integer out of
 * range saturates (as cvt.rzi.sat does on the GPU) instead of being UB. */
static inline uint64_t sem_cvt(int from, int to, uint64_t x) {
  if (from == to) return x;
  if (to == SK_BOOL) {
    if (from == SK_F32) return sem_f32(x) != 0.0f;
    if (from == SK_F64) return sem_f64(x) != 0.0;
    return x != 0;
  }
  if (sem_sk_is_float(from)) {
    double d = from == SK_F32 ? (double)sem_f32(x) : sem_f64(x);
    if (to == SK_F32) return sem_bits32((float)d);
    if (to == SK_F64) return sem_bits64(d);
    if (d != d) return 0;
    d = __builtin_trunc(d);
    if (sem_sk_is_signed(to)) {
      int64_t lo = to == SK_I8 ? INT8_MIN : to == SK_I16 ? INT16_MIN : to == SK_I32 ? INT32_MIN : INT64_MIN;
      int64_t hi = to == SK_I8 ? INT8_MAX : to == SK_I16 ? INT16_MAX : to == SK_I32 ? INT32_MAX : INT64_MAX;
      if (d <= (double)lo) return sem_canon(to, (uint64_t)lo);
      if (d >= (double)hi) return sem_canon(to, (uint64_t)hi);
      return sem_canon(to, (uint64_t)(int64_t)d);
    }
    uint64_t hi = to == SK_U8 ? UINT8_MAX : to == SK_U16 ? UINT16_MAX : to == SK_U32 ? UINT32_MAX : UINT64_MAX;
    if (d <= 0) return 0;
    if (d >= (double)hi) return hi;
    return (uint64_t)d;
  }
  if (to == SK_F32) return sem_bits32(sem_sk_is_signed(from) ? (float)(int64_t)x : (float)x);
  if (to == SK_F64) return sem_bits64(sem_sk_is_signed(from) ? (double)(int64_t)x : (double)x);
  /* integer to integer: canonical input is already extended per its signedness */
  return sem_canon(to, x);
}

/* A math function (MATH_*, OP_MATH's imm) of one lane's operands (b and c
 * 0 where the function takes fewer): the C library's, as the GPU's
 * correctly rounded ones where they exist (sqrt, fma, rint). */
static inline uint64_t sem_math_raw(int fn, uint64_t a, uint64_t b, uint64_t c) {
  float fa = sem_f32(a), fb = sem_f32(b), fc = sem_f32(c);
  double da = sem_f64(a), db = sem_f64(b), dc = sem_f64(c);
  uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
  switch (fn) {
  case MATH_SQRTF: return sem_bits32(__builtin_sqrtf(fa));
  case MATH_SQRT: return sem_bits64(__builtin_sqrt(da));
  case MATH_RSQRTF: return sem_bits32(1.0f / __builtin_sqrtf(fa));
  case MATH_EXPF: return sem_bits32(__builtin_expf(fa));
  case MATH_EXP: return sem_bits64(__builtin_exp(da));
  case MATH_EXP2F: return sem_bits32(__builtin_exp2f(fa));
  case MATH_LOGF: return sem_bits32(__builtin_logf(fa));
  case MATH_LOG: return sem_bits64(__builtin_log(da));
  case MATH_LOG2F: return sem_bits32(__builtin_log2f(fa));
  case MATH_LOG10F: return sem_bits32(__builtin_log10f(fa));
  case MATH_SINF: return sem_bits32(__builtin_sinf(fa));
  case MATH_SIN: return sem_bits64(__builtin_sin(da));
  case MATH_COSF: return sem_bits32(__builtin_cosf(fa));
  case MATH_COS: return sem_bits64(__builtin_cos(da));
  case MATH_TANF: return sem_bits32(__builtin_tanf(fa));
  case MATH_TANHF: return sem_bits32(__builtin_tanhf(fa));
  case MATH_POWF: return sem_bits32(__builtin_powf(fa, fb));
  case MATH_POW: return sem_bits64(__builtin_pow(da, db));
  case MATH_FABSF: return sem_bits32(__builtin_fabsf(fa));
  case MATH_FABS: return sem_bits64(__builtin_fabs(da));
  case MATH_FLOORF: return sem_bits32(__builtin_floorf(fa));
  case MATH_FLOOR: return sem_bits64(__builtin_floor(da));
  case MATH_CEILF: return sem_bits32(__builtin_ceilf(fa));
  case MATH_CEIL: return sem_bits64(__builtin_ceil(da));
  case MATH_TRUNCF: return sem_bits32(__builtin_truncf(fa));
  case MATH_ROUNDF: return sem_bits32(__builtin_roundf(fa));
  case MATH_FMINF: return sem_minmax32(a, b, 0);
  case MATH_FMAXF: return sem_minmax32(a, b, 1);
  case MATH_FMIN: return sem_minmax64(a, b, 0);
  case MATH_FMAX: return sem_minmax64(a, b, 1);
  case MATH_FMAF: return sem_bits32(__builtin_fmaf(fa, fb, fc));
  case MATH_FMA: return sem_bits64(__builtin_fma(da, db, dc));
  case MATH_FMODF: return sem_bits32(__builtin_fmodf(fa, fb));
  case MATH_ATAN2F: return sem_bits32(__builtin_atan2f(fa, fb));
  case MATH_ATANF: return sem_bits32(__builtin_atanf(fa));
  case MATH_FDIVIDEF: return sem_bits32(fa / fb);
  case MATH_POPC: return (uint64_t)__builtin_popcount(ua);
  case MATH_POPCLL: return (uint64_t)__builtin_popcountll(a);
  case MATH_CLZ: return ua ? (uint64_t)__builtin_clz(ua) : 32;
  case MATH_CLZLL: return a ? (uint64_t)__builtin_clzll(a) : 64;
  case MATH_FFS: return ua ? (uint64_t)__builtin_ctz(ua) + 1 : 0;
  case MATH_FFSLL: return a ? (uint64_t)__builtin_ctzll(a) + 1 : 0;
  case MATH_BREV: { uint32_t x = ua, r = 0; for (int k = 0; k < 32; k++) { r = (r << 1) | (x & 1); x >>= 1; } return r; }
  case MATH_ABS: return sem_s32((uint32_t)((int32_t)ua < 0 ? 0u - ua : ua));
  case MATH_LLABS: return (int64_t)a < 0 ? 0 - a : a;
  case MATH_MUL24: return sem_s32((uint32_t)((int64_t)((int32_t)(ua << 8) >> 8) * (int64_t)((int32_t)(ub << 8) >> 8)));
  case MATH_UMUL24: return (uint32_t)((uint64_t)(ua & 0xffffff) * (ub & 0xffffff));
  case MATH_MULHI: return sem_s32((uint32_t)((uint64_t)((int64_t)(int32_t)ua * (int64_t)(int32_t)ub) >> 32));
  case MATH_UMULHI: return (uint32_t)(((uint64_t)ua * ub) >> 32);
  case MATH_SAD: { int32_t x = (int32_t)ua, y = (int32_t)ub; int64_t d = (int64_t)x - y; return (uint32_t)((d < 0 ? -d : d) + (uint32_t)c); }
  case MATH_USAD: return (uint32_t)((ua > ub ? ua - ub : ub - ua) + (uint32_t)c);
  case MATH_RINTF: return sem_bits32(__builtin_rintf(fa));   /* round to nearest even: the default rounding mode */
  case MATH_RINT: return sem_bits64(__builtin_rint(da));
  case MATH_TRUNC: return sem_bits64(__builtin_trunc(da));
  case MATH_MUL64HI: return (uint64_t)(int64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
  case MATH_UMUL64HI: return (uint64_t)(((unsigned __int128)a * b) >> 64);
  case MATH_BREVLL: { uint64_t x = a, r = 0; for (int k = 0; k < 64; k++) { r = (r << 1) | (x & 1); x >>= 1; } return r; }
  case MATH_H2F: return sem_bits32(sem_h2f(ua & 0xffffu));
  case MATH_BF2F: return sem_bits32(sem_bf2f(ua));
  case MATH_D2H: return sem_d2h(da, (int)ub);
  case MATH_D2BF: return sem_d2bf(da, (int)ub);
  case MATH_HFMA: return sem_half_fma(sem_h2f(ua & 0xffffu), sem_h2f(ub & 0xffffu), sem_h2f((uint32_t)c & 0xffffu), 0);
  case MATH_BFFMA: return sem_half_fma(sem_bf2f(ua), sem_bf2f(ub), sem_bf2f((uint32_t)c), 1);
  case MATH_FNS: {   /* PTX fns.b32: the position of the c-th set bit of a from bit b on (c < 0: downwards), else ~0u */
    uint32_t mask = ua, base = ub & 31;
    int32_t off = (int32_t)c;
    if (!off) return mask >> base & 1 ? base : 0xffffffffu;
    uint32_t count = off > 0 ? (uint32_t)off - 1 : (uint32_t)(-(int64_t)off) - 1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += off > 0 ? 1 : -1)
      if (mask >> pos & 1) { if (!count) return (uint64_t)pos; count--; }
    return 0xffffffffu;
  }
  default: return 0;
  }
}

/* The NaN of a float function's result, as sem_nan32 and sem_nan64 fix
 * an op's (the H100's f32 functions, fabsf and fmaf among them, give the
 * canonical NaN; an f64 one its last NaN operand): the libm and the
 * compiler's inline expansions (fmaf as an FMA instruction where the
 * target has one) propagate payloads each their own way.  fabs of an f64
 * is a sign bit's operation, and the half-precision functions round NaN
 * to the canonical one themselves. */
static inline uint64_t sem_nan3(int f64, uint64_t r, uint64_t a, uint64_t b, uint64_t c, int arity) {
  if (!f64) return sem_nan32(sem_f32(r));
  if (sem_f64(r) == sem_f64(r)) return r;
  if (arity > 2 && sem_f64(c) != sem_f64(c)) return c | 0x0008000000000000ull;
  if (arity > 1 && sem_f64(b) != sem_f64(b)) return b | 0x0008000000000000ull;
  if (sem_f64(a) != sem_f64(a)) return a | 0x0008000000000000ull;
  return 0xfff8000000000000ull;
}

static inline uint64_t sem_math(int fn, uint64_t a, uint64_t b, uint64_t c) {
  uint64_t r = sem_math_raw(fn, a, b, c);
  switch (fn) {
  case MATH_SQRTF: case MATH_RSQRTF: case MATH_EXPF: case MATH_EXP2F: case MATH_LOGF: case MATH_LOG2F: case MATH_LOG10F:
  case MATH_SINF: case MATH_COSF: case MATH_TANF: case MATH_TANHF: case MATH_FLOORF: case MATH_CEILF: case MATH_TRUNCF:
  case MATH_ROUNDF: case MATH_ATANF: case MATH_RINTF: case MATH_FABSF:
    return sem_nan3(0, r, a, b, c, 1);
  case MATH_POWF: case MATH_FMODF: case MATH_ATAN2F: case MATH_FDIVIDEF:   /* (fmin and fmax: sem_minmax fixes them) */
    return sem_nan3(0, r, a, b, c, 2);
  case MATH_FMAF: return sem_nan3(0, r, a, b, c, 3);
  case MATH_SQRT: case MATH_EXP: case MATH_LOG: case MATH_SIN: case MATH_COS: case MATH_FLOOR: case MATH_CEIL: case MATH_RINT:
  case MATH_TRUNC:
    return sem_nan3(1, r, a, b, c, 1);
  case MATH_POW: return sem_nan3(1, r, a, b, c, 2);
  case MATH_FMA: return sem_nan3(1, r, a, b, c, 3);
  default: return r;
  }
}

#endif
