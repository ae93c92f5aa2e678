/* The numerics of the element-wise ops, one element at a time.
 *
 * Every op is a small static inline function of values: ew_<op>_<S>(a, b,
 * p) with S the value type's suffix (b bool, i8..i64, u8..u64, f32 float,
 * f64 double).  float16 and bfloat16 are loaded into float, computed as
 * float32 and rounded back (to nearest even) when stored; for + - * / that
 * double rounding is exact (float32 has more than 2p+2 bits for p = 11 and
 * p = 8).  Beside each op, ew_unpred_<op>_<S>(a, b, p) says whether TOSA
 * calls the result unpredictable; bcast computes the result the functions
 * below give anyway, and checked mode reports the element instead.
 *
 * The functions are written once per kind of type (signed, unsigned,
 * floating, bool) as templates and instantiated per C type below.  The
 * kernels (ew_kernel.h) wrap loops around them; the reference path of the
 * tests calls them one element at a time. */
#ifndef BCAST_EW_SCALAR_H
#define BCAST_EW_SCALAR_H

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bcast/dtype.h"

/* Raises the floating-point flag fe where NumPy's loops set it themselves
 * (npy_set_floatstatus_*): integer division by zero and overflow, which
 * no instruction flags.  The error states read it after the run
 * (ew_run.c).  Only on rare branches: a call keeps a loop scalar. */
static inline void ew_raise(int fe) { feraiseexcept(fe); }

/* The attributes as the kernels read them, prepared once per plan. */
typedef struct ew_params {
  int32_t shift;         /* MUL, int32 */
  int32_t round;         /* ARITHMETIC_RIGHT_SHIFT */
  int32_t nan_ignore;    /* CLAMP, MAXIMUM, MINIMUM */
  int32_t in_zp, out_zp; /* NEGATE, tosa profile */
  int64_t lo_i, hi_i;    /* CLAMP, signed types: within the type's range */
  uint64_t lo_u, hi_u;   /* CLAMP, unsigned types */
  double lo_f, hi_f;     /* CLAMP, floating types: rounded to the type */
} ew_params;

/* ------------------------------------------------------------------------ */
/* float16 and bfloat16 bit patterns <-> float, branch-free so that loops
 * over them vectorize. */

static inline uint32_t ew_bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float ew_float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* 1 where the float bits u are a NaN, else 0. */
static inline uint32_t ew_bits_nan(uint32_t u) {
  return (uint32_t)((u & 0x7fffffffu) > 0x7f800000u);
}

/* x with its quiet bit set where it is a NaN, on the bits: no flag. */
static inline float ew_f32_quieted(float x) {
  const uint32_t u = ew_bits_of(x);
  return ew_float_of(u | ew_bits_nan(u) << 22);
}

/* Exact.  The exponent and mantissa bits are placed where float keeps them
 * and the value rescaled by 2^112 (the difference of the exponent biases),
 * which also normalises subnormals; inf and NaN keep their payload. */
static inline float ew_f16_load(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t em = h & 0x7fffu;
  const uint32_t finite = ew_bits_of(ew_float_of(em << 13) * 0x1p112f);
  const uint32_t special = (em << 13) | 0x7f800000u;
  const uint32_t is_special = 0u - (uint32_t)(em >= 0x7c00u);
  return ew_float_of((special & is_special) | (finite & ~is_special) | sign);
}

/* A float16's value (ew_f16_load's float) as a double, as NumPy widens
 * float16 to float64 (npy_halfbits_to_doublebits): a signalling NaN stays
 * signalling and raises nothing, where (double) would quiet it and raise
 * "invalid".  So it is quieted before the conversion (which keeps a quiet
 * NaN's payload and raises nothing) and unquieted after; the other values
 * convert exactly.  Bit operations beside the conversion, which vectorize
 * with it. */
static inline double ew_f16_value_to_f64(float x) {
  const uint32_t u = ew_bits_of(x);
  const uint32_t snan = ew_bits_nan(u) & ~(u >> 22) & 1u;
  const double d = (double)ew_f32_quieted(x);
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  bits &= ~((uint64_t)snan << 51);
  double r;
  memcpy(&r, &bits, sizeof r);
  return r;
}

/* Round to nearest even; beyond the float16 range to inf; NaN stays a
 * (quiet) NaN with its sign and top payload bits.  Below 2^-14 the value is
 * added to 0.5f, which rounds it at the float16 subnormal step.
 *
 * The floating-point flags are NumPy's (npy_floatbits_to_halfbits), as
 * F16C's conversion raises them too: overflow when a finite value rounds
 * to inf, underflow when a value below 2^-14 is not a multiple of the
 * subnormal step.  Each is raised by a float multiply that overflows or
 * underflows only when its mask is set (FLT_MAX * 2, and the float just
 * above FLT_MIN times 2^-24, whose result is tiny and inexact; else 0
 * times those), its bits folded into the result where they change
 * nothing: the loop stays free of branches and the multiplies stay. */
static inline uint16_t ew_f16_store(float f) {
  const uint32_t all = ew_bits_of(f);
  const uint32_t sign = (all >> 16) & 0x8000u;
  const uint32_t u = all & 0x7fffffffu;
  const uint32_t nan = 0x7e00u | ((u >> 13) & 0x3ffu);
  const uint32_t is_nan = 0u - (uint32_t)(u > 0x7f800000u);
  const uint32_t inf_nan = (nan & is_nan) | (0x7c00u & ~is_nan);
  const uint32_t sub = ew_bits_of(ew_float_of(u) + 0.5f) - 0x3f000000u;
  const uint32_t normal = (u + 0xc8000fffu + ((u >> 13) & 1u)) >> 13;
  /* Selected with masks: the loop stays free of branches. */
  const uint32_t big = 0u - (uint32_t)(u >= 0x47800000u);
  const uint32_t small = 0u - (uint32_t)(u < 0x38800000u);
  const uint32_t finite = (sub & small) | (normal & ~small);
  const uint32_t o = (inf_nan & big) | (finite & ~big);
  const uint32_t over = 0u - (uint32_t)(u >= 0x477ff000u && u < 0x7f800000u);
  const uint32_t under =
      small & (0u - (uint32_t)(ew_float_of(u) != (float)sub * 0x1p-24f));
  const uint32_t inf = ew_bits_of(ew_float_of(0x7f7fffffu & over) * 2.0f);
  const uint32_t tiny =
      ew_bits_of(ew_float_of(0x00800001u & under) * 0x1p-24f);
  /* over: inf is 0x7f800000 and o already 0x7c00; tiny is positive. */
  return (uint16_t)(o | ((inf >> 13) & 0x7c00u) | (tiny >> 31) | sign);
}

static inline float ew_bf16_load(uint16_t b) {
  return ew_float_of((uint32_t)b << 16);
}

/* Round to nearest even; NaN stays a quiet NaN. */
static inline uint16_t ew_bf16_store(float f) {
  const uint32_t u = ew_bits_of(f);
  const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const uint32_t nan = (u >> 16) | 0x40u;
  const uint32_t is_nan = 0u - ew_bits_nan(u);
  return (uint16_t)((nan & is_nan) | (rounded & ~is_nan));
}

/* The 8-bit floats (src/dtype/half.c): exact loads; stores round to
 * nearest even as MLIR's arith.truncf does. */
static inline float ew_f8e4m3fn_load(uint8_t b) {
  return bcast_f8e4m3fn_to_float(b);
}
static inline uint8_t ew_f8e4m3fn_store(float f) {
  return bcast_double_to_f8e4m3fn(f);
}
static inline float ew_f8e5m2_load(uint8_t b) {
  return bcast_f8e5m2_to_float(b);
}
static inline uint8_t ew_f8e5m2_store(float f) {
  return bcast_double_to_f8e5m2(f);
}

/* Loads and stores of the other types. */
#define ew_ld_same(x) (x)
#define ew_st_same(x) (x)
static inline uint8_t ew_ld_bool(uint8_t x) { return (uint8_t)(x != 0); }

/* double -> float rounded to odd: truncated, with the last bit set when
 * inexact.  Rounding that to a narrower type (float16, bfloat16) to
 * nearest even gives the correctly rounded result, which rounding the
 * double twice to nearest would not. */
static inline float ew_f64_to_f32_odd(double x) {
  float f = (float)x;
  if (isnan(x) || (double)f == x) return f;
  uint32_t u = ew_bits_of(f);
  if (fabs((double)f) > fabs(x)) u -= 1; /* step toward zero */
  return ew_float_of(u | 1u);
}

/* An integer rounded to nearest even at 8 significant bits (bfloat16's
 * precision), returned as a float that holds it exactly. */
static inline float ew_u64_to_bf16_value(uint64_t m) {
  if (m < ((uint64_t)1 << 24)) return (float)m;
  const int top = 63 - __builtin_clzll(m);
  const int shift = top - 7;
  uint64_t q = m >> shift;
  const uint64_t rest = m & (((uint64_t)1 << shift) - 1);
  const uint64_t half = (uint64_t)1 << (shift - 1);
  if (rest > half || (rest == half && (q & 1))) q++;
  return ldexpf((float)q, shift);
}

static inline float ew_i64_to_bf16_value(int64_t v) {
  const uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  const float f = ew_u64_to_bf16_value(m);
  return v < 0 ? -f : f;
}

/* Count leading zeros of a 64-bit pattern, 64 for 0. */
static inline int ew_clz64(uint64_t x) { return x ? __builtin_clzll(x) : 64; }

/* ------------------------------------------------------------------------ */
/* Templates.  Each op's unpredictability test comes right after it;
 * EW_NEVER_ defines one that is always false. */

#define EW_NEVER1_(op, S, T)                                                  \
  static inline int ew_unpred_##op##_##S(T a, const ew_params *p) {           \
    (void)a;                                                                  \
    (void)p;                                                                  \
    return 0;                                                                 \
  }
#define EW_NEVER2_(op, S, T)                                                  \
  static inline int ew_unpred_##op##_##S(T a, T b, const ew_params *p) {      \
    (void)a;                                                                  \
    (void)b;                                                                  \
    (void)p;                                                                  \
    return 0;                                                                 \
  }

/* Comparisons, logical ops and select: every type.  Bool values arrive as
 * 0 or 1 (ew_ld_bool). */
#define EW_COMMON_SCALARS_(S, T)                                              \
  static inline uint8_t ew_equal_##S(T a, T b, const ew_params *p) {          \
    (void)p;                                                                  \
    return a == b;                                                            \
  }                                                                           \
  static inline uint8_t ew_greater_##S(T a, T b, const ew_params *p) {        \
    (void)p;                                                                  \
    return a > b;                                                             \
  }                                                                           \
  static inline uint8_t ew_greater_equal_##S(T a, T b, const ew_params *p) {  \
    (void)p;                                                                  \
    return a >= b;                                                            \
  }                                                                           \
  static inline uint8_t ew_less_##S(T a, T b, const ew_params *p) {           \
    (void)p;                                                                  \
    return a < b;                                                             \
  }                                                                           \
  static inline uint8_t ew_less_equal_##S(T a, T b, const ew_params *p) {     \
    (void)p;                                                                  \
    return a <= b;                                                            \
  }                                                                           \
  static inline uint8_t ew_not_equal_##S(T a, T b, const ew_params *p) {      \
    (void)p;                                                                  \
    return a != b;                                                            \
  }                                                                           \
  static inline uint8_t ew_logical_and_##S(T a, T b, const ew_params *p) {    \
    (void)p;                                                                  \
    return (uint8_t)((a != 0) & (b != 0));                                    \
  }                                                                           \
  static inline uint8_t ew_logical_or_##S(T a, T b, const ew_params *p) {     \
    (void)p;                                                                  \
    return (uint8_t)((a != 0) | (b != 0));                                    \
  }                                                                           \
  static inline uint8_t ew_logical_xor_##S(T a, T b, const ew_params *p) {    \
    (void)p;                                                                  \
    return (uint8_t)((a != 0) ^ (b != 0));                                    \
  }                                                                           \
  static inline uint8_t ew_logical_not_##S(T a, const ew_params *p) {         \
    (void)p;                                                                  \
    return a == 0;                                                            \
  }                                                                           \
  static inline T ew_select_##S(uint8_t c, T a, T b) { return c ? a : b; }    \
  EW_NEVER2_(equal, S, T)                                                     \
  EW_NEVER2_(greater, S, T)                                                   \
  EW_NEVER2_(greater_equal, S, T)                                             \
  EW_NEVER2_(less, S, T)                                                      \
  EW_NEVER2_(less_equal, S, T)                                                \
  EW_NEVER2_(not_equal, S, T)                                                 \
  EW_NEVER2_(logical_and, S, T)                                               \
  EW_NEVER2_(logical_or, S, T)                                                \
  EW_NEVER2_(logical_xor, S, T)                                               \
  EW_NEVER1_(logical_not, S, T)

/* Integer ops that read the same for signed and unsigned types.  U is the
 * unsigned type of the same width, UW the unsigned type arithmetic is done
 * in (no promotion to a signed int can overflow). */
#define EW_INT_SCALARS_(S, T, U, UW, BITS)                                      \
  EW_COMMON_SCALARS_(S, T)                                                      \
  static inline T ew_bitwise_not_##S(T a, const ew_params *p) {                 \
    (void)p;                                                                    \
    return (T)~a;                                                               \
  }                                                                             \
  static inline T ew_bitwise_and_##S(T a, T b, const ew_params *p) {            \
    (void)p;                                                                    \
    return (T)(a & b);                                                          \
  }                                                                             \
  static inline T ew_bitwise_or_##S(T a, T b, const ew_params *p) {             \
    (void)p;                                                                    \
    return (T)(a | b);                                                          \
  }                                                                             \
  static inline T ew_bitwise_xor_##S(T a, T b, const ew_params *p) {            \
    (void)p;                                                                    \
    return (T)(a ^ b);                                                          \
  }                                                                             \
  /* Wrapping add and sub; unpredictable when the exact sum does not fit. */    \
  static inline T ew_add_##S(T a, T b, const ew_params *p) {                    \
    (void)p;                                                                    \
    return (T)(U)((UW)(U)a + (UW)(U)b);                                         \
  }                                                                             \
  static inline int ew_unpred_add_##S(T a, T b, const ew_params *p) {           \
    T r;                                                                        \
    (void)p;                                                                    \
    return __builtin_add_overflow(a, b, &r);                                    \
  }                                                                             \
  static inline T ew_sub_##S(T a, T b, const ew_params *p) {                    \
    (void)p;                                                                    \
    return (T)(U)((UW)(U)a - (UW)(U)b);                                         \
  }                                                                             \
  static inline int ew_unpred_sub_##S(T a, T b, const ew_params *p) {           \
    T r;                                                                        \
    (void)p;                                                                    \
    return __builtin_sub_overflow(a, b, &r);                                    \
  }                                                                             \
  /* Wrapping product (TOSA's MUL keeps the low bits: never unpredictable). */  \
  static inline T ew_mul_wrap_##S(T a, T b, const ew_params *p) {               \
    (void)p;                                                                    \
    return (T)(U)((UW)(U)a * (UW)(U)b);                                         \
  }                                                                             \
  /* numpy.square: the wrapping product a * a. */                               \
  static inline T ew_square_##S(T a, const ew_params *p) {                      \
    return ew_mul_wrap_##S(a, a, p);                                            \
  }                                                                             \
  static inline T ew_maximum_##S(T a, T b, const ew_params *p) {                \
    (void)p;                                                                    \
    return a > b ? a : b;                                                       \
  }                                                                             \
  static inline T ew_minimum_##S(T a, T b, const ew_params *p) {                \
    (void)p;                                                                    \
    return a < b ? a : b;                                                       \
  }                                                                             \
  /* numpy.fmax / fmin: integers have no NaN to ignore. */                      \
  static inline T ew_fmax_##S(T a, T b, const ew_params *p) {                   \
    return ew_maximum_##S(a, b, p);                                             \
  }                                                                             \
  static inline T ew_fmin_##S(T a, T b, const ew_params *p) {                   \
    return ew_minimum_##S(a, b, p);                                             \
  }                                                                             \
  /* Leading zeros of the BITS-bit pattern: clz(0) = BITS, negative -> 0. */    \
  static inline T ew_clz_##S(T a, const ew_params *p) {                         \
    (void)p;                                                                    \
    return (T)(ew_clz64((uint64_t)(U)a) - (64 - (BITS)));                       \
  }                                                                             \
  /* Logical shifts by counts in [0, BITS-1] through the unsigned pattern;    \
   * other counts give 0 (unpredictable in TOSA). */ \
  static inline T ew_logical_left_shift_##S(T a, T b, const ew_params *p) {     \
    (void)p;                                                                    \
    return ew_count_ok_##S(b) ? (T)(U)((UW)(U)a << b) : (T)0;                   \
  }                                                                             \
  static inline T ew_logical_right_shift_##S(T a, T b, const ew_params *p) {    \
    (void)p;                                                                    \
    return ew_count_ok_##S(b) ? (T)((UW)(U)a >> b) : (T)0;                      \
  }                                                                             \
  static inline int ew_unpred_logical_left_shift_##S(T a, T b,                  \
                                                     const ew_params *p) {      \
    (void)a;                                                                    \
    (void)p;                                                                    \
    return !ew_count_ok_##S(b);                                                 \
  }                                                                             \
  static inline int ew_unpred_logical_right_shift_##S(T a, T b,                 \
                                                      const ew_params *p) {     \
    (void)a;                                                                    \
    (void)p;                                                                    \
    return !ew_count_ok_##S(b);                                                 \
  }                                                                             \
  static inline int ew_unpred_arithmetic_right_shift_##S(                       \
      T a, T b, const ew_params *p) {                                           \
    (void)a;                                                                    \
    (void)p;                                                                    \
    return !ew_count_ok_##S(b);                                                 \
  }                                                                             \
  /* Integer power by squaring, wrapping; b < 0 is handled per signedness. */   \
  static inline T ew_pow_bits_##S(T a, U e) {                                   \
    UW r = 1, x = (U)a;                                                         \
    while (e) {                                                                 \
      if (e & 1u) r = (U)(r * x);                                               \
      x = (U)(x * x);                                                           \
      e = (U)(e >> 1);                                                          \
    }                                                                           \
    return (T)(U)r;                                                             \
  }                                                                             \
  /* CLAMP bounds arrive clipped to the type (ew_params). */                    \
  EW_NEVER1_(clamp, S, T)                                                       \
  EW_NEVER1_(bitwise_not, S, T)                                                 \
  EW_NEVER1_(clz, S, T)                                                         \
  EW_NEVER2_(bitwise_and, S, T)                                                 \
  EW_NEVER2_(bitwise_or, S, T)                                                  \
  EW_NEVER2_(bitwise_xor, S, T)                                                 \
  EW_NEVER2_(mul_wrap, S, T)                                                    \
  EW_NEVER1_(square, S, T)                                                      \
  EW_NEVER2_(fmax, S, T)                                                        \
  EW_NEVER2_(fmin, S, T)                                                        \
  EW_NEVER2_(maximum, S, T)                                                     \
  EW_NEVER2_(minimum, S, T)

#define EW_SINT_SCALARS_(S, T, U, UW, BITS, MIN, MAX)                           \
  static inline int ew_count_ok_##S(T b) { return b >= 0 && b < (BITS); }       \
  EW_INT_SCALARS_(S, T, U, UW, BITS)                                            \
  /* |a|, wrapping: abs(MIN) = MIN (unpredictable). */                          \
  static inline T ew_abs_##S(T a, const ew_params *p) {                         \
    (void)p;                                                                    \
    return a < 0 ? (T)(U)(0 - (UW)(U)a) : a;                                    \
  }                                                                             \
  static inline int ew_unpred_abs_##S(T a, const ew_params *p) {                \
    (void)p;                                                                    \
    return a == (MIN);                                                          \
  }                                                                             \
  /* Negate, wrapping (numpy profile): -MIN = MIN (unpredictable). */           \
  static inline T ew_negate_##S(T a, const ew_params *p) {                      \
    (void)p;                                                                    \
    return (T)(U)(0 - (UW)(U)a);                                                \
  }                                                                             \
  static inline int ew_unpred_negate_##S(T a, const ew_params *p) {             \
    (void)p;                                                                    \
    return a == (MIN);                                                          \
  }                                                                             \
  /* numpy.reciprocal of an integer: 1.0 / a converted to T as NumPy's loop \
   * does (truncated: 1, -1 or 0); 1 / 0 = inf converts as x86-64 does: the  \
   * minimum for int32 and int64, 0 for narrower types (unpredictable). */   \
  static inline T ew_reciprocal_##S(T a, const ew_params *p) {                  \
    (void)p;                                                                    \
    if (a == 0) return (T)((BITS) >= 32 ? (MIN) : 0);                           \
    return (T)(a == 1 ? 1 : a == -1 ? -1 : 0);                                  \
  }                                                                             \
  static inline int ew_unpred_reciprocal_##S(T a, const ew_params *p) {         \
    (void)p;                                                                    \
    return a == 0;                                                              \
  }                                                                             \
  /* TOSA's NEGATE: clip(-(a - in_zp) + out_zp) computed in 64 bits;          \
   * saturation is TOSA's rule for int8/int16, bcast's choice for int32,      \
   * where TOSA calls an out-of-range result unpredictable. */ \
  static inline int64_t ew_negate_exact_##S(T a, const ew_params *p) {          \
    return -((int64_t)a - p->in_zp) + p->out_zp;                                \
  }                                                                             \
  static inline T ew_negate_sat_##S(T a, const ew_params *p) {                  \
    const int64_t v = ew_negate_exact_##S(a, p);                                \
    return (T)(v < (MIN) ? (MIN) : v > (MAX) ? (MAX) : v);                      \
  }                                                                             \
  static inline int ew_unpred_negate_sat_##S(T a, const ew_params *p) {         \
    const int64_t v = ew_negate_exact_##S(a, p);                                \
    return (BITS) >= 32 && (v < (MIN) || v > (MAX));                            \
  }                                                                             \
  static inline T ew_clamp_##S(T a, const ew_params *p) {                       \
    const T lo = (T)p->lo_i, hi = (T)p->hi_i;                                   \
    const T v = a < lo ? lo : a;                                                \
    return v > hi ? hi : v;                                                     \
  }                                                                             \
  /* Truncating division; a / 0 = 0 and MIN / -1 = MIN (unpredictable). */      \
  static inline T ew_intdiv_##S(T a, T b, const ew_params *p) {                 \
    (void)p;                                                                    \
    if (b == 0) return 0;                                                       \
    if (b == -1) return (T)(U)(0 - (UW)(U)a);                                   \
    return (T)(a / b);                                                          \
  }                                                                             \
  static inline int ew_unpred_intdiv_##S(T a, T b, const ew_params *p) {        \
    (void)p;                                                                    \
    return b == 0 || (a == (MIN) && b == -1);                                   \
  }                                                                             \
  /* numpy.floor_divide: the quotient rounded toward -inf; a // 0 = 0 and    \
   * MIN // -1 = MIN (NumPy warns: reported in checked mode). */  \
  static inline T ew_floor_divide_##S(T a, T b, const ew_params *p) {           \
    if (b == 0) ew_raise(FE_DIVBYZERO);                                         \
    if (a == (MIN) && b == -1) ew_raise(FE_OVERFLOW);                           \
    const T q = ew_intdiv_##S(a, b, p);                                         \
    return (T)(b != 0 && b != -1 && (a % b != 0) && ((a < 0) != (b < 0))        \
                   ? q - 1                                                      \
                   : q);                                                        \
  }                                                                             \
  static inline int ew_unpred_floor_divide_##S(T a, T b,                        \
                                               const ew_params *p) {            \
    return ew_unpred_intdiv_##S(a, b, p);                                       \
  }                                                                             \
  /* numpy.remainder: the sign of the divisor; a % 0 = 0 (NumPy warns). */      \
  static inline T ew_remainder_##S(T a, T b, const ew_params *p) {              \
    (void)p;                                                                    \
    if (b == 0) ew_raise(FE_DIVBYZERO);                                         \
    if (b == 0 || b == -1) return 0;                                            \
    const T r = (T)(a % b);                                                     \
    return (T)(r != 0 && ((r < 0) != (b < 0)) ? r + b : r);                     \
  }                                                                             \
  static inline int ew_unpred_remainder_##S(T a, T b, const ew_params *p) {     \
    (void)a;                                                                    \
    (void)p;                                                                    \
    return b == 0;                                                              \
  }                                                                             \
  /* Sign-filling shift; with round, +1 when the last bit shifted out is 1.   \
   * Counts outside [0, BITS-1]: the sign fill, unrounded. */ \
  static inline T ew_arithmetic_right_shift_##S(T a, T b,                       \
                                                const ew_params *p) {           \
    if (!ew_count_ok_##S(b)) return (T)(a < 0 ? -1 : 0);                        \
    const int64_t v = (int64_t)a;                                               \
    const int64_t up = (p->round && b > 0) ? ((v >> (b - 1)) & 1) : 0;          \
    return (T)((v >> b) + up);                                                  \
  }                                                                             \
  static inline T ew_pow_##S(T a, T b, const ew_params *p) {                    \
    (void)p;                                                                    \
    if (b < 0) return (T)(a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0);       \
    return ew_pow_bits_##S(a, (U)b);                                            \
  }                                                                             \
  static inline int ew_unpred_pow_##S(T a, T b, const ew_params *p) {           \
    (void)a;                                                                    \
    (void)p;                                                                    \
    return b < 0;                                                               \
  }

#define EW_UINT_SCALARS_(S, T, UW, BITS)                                      \
  static inline int ew_count_ok_##S(T b) { return b < (BITS); }               \
  EW_INT_SCALARS_(S, T, T, UW, BITS)                                          \
  static inline T ew_abs_##S(T a, const ew_params *p) {                       \
    (void)p;                                                                  \
    return a;                                                                 \
  }                                                                           \
  /* Negate wraps (numpy): -a mod 2^BITS; unpredictable unless a == 0. */     \
  static inline T ew_negate_##S(T a, const ew_params *p) {                    \
    (void)p;                                                                  \
    return (T)(0 - (UW)a);                                                    \
  }                                                                           \
  static inline int ew_unpred_negate_##S(T a, const ew_params *p) {           \
    (void)p;                                                                  \
    return a != 0;                                                            \
  }                                                                           \
  /* Unsigned: 1 / 1 = 1, otherwise 0 (1 / 0 = inf converts to 0). */         \
  static inline T ew_reciprocal_##S(T a, const ew_params *p) {                \
    (void)p;                                                                  \
    return (T)(a == 1);                                                       \
  }                                                                           \
  static inline int ew_unpred_reciprocal_##S(T a, const ew_params *p) {       \
    (void)p;                                                                  \
    return a == 0;                                                            \
  }                                                                           \
  static inline T ew_clamp_##S(T a, const ew_params *p) {                     \
    const T lo = (T)p->lo_u, hi = (T)p->hi_u;                                 \
    const T v = a < lo ? lo : a;                                              \
    return v > hi ? hi : v;                                                   \
  }                                                                           \
  static inline T ew_intdiv_##S(T a, T b, const ew_params *p) {               \
    (void)p;                                                                  \
    return b == 0 ? (T)0 : (T)(a / b);                                        \
  }                                                                           \
  static inline int ew_unpred_intdiv_##S(T a, T b, const ew_params *p) {      \
    (void)a;                                                                  \
    (void)p;                                                                  \
    return b == 0;                                                            \
  }                                                                           \
  /* Unsigned: floor and truncation agree; x // 0 = x % 0 = 0. */             \
  static inline T ew_floor_divide_##S(T a, T b, const ew_params *p) {         \
    if (b == 0) ew_raise(FE_DIVBYZERO);                                       \
    return ew_intdiv_##S(a, b, p);                                            \
  }                                                                           \
  static inline T ew_remainder_##S(T a, T b, const ew_params *p) {            \
    (void)p;                                                                  \
    if (b == 0) ew_raise(FE_DIVBYZERO);                                       \
    return b == 0 ? (T)0 : (T)(a % b);                                        \
  }                                                                           \
  static inline int ew_unpred_floor_divide_##S(T a, T b,                      \
                                               const ew_params *p) {          \
    return ew_unpred_intdiv_##S(a, b, p);                                     \
  }                                                                           \
  static inline int ew_unpred_remainder_##S(T a, T b, const ew_params *p) {   \
    return ew_unpred_intdiv_##S(a, b, p);                                     \
  }                                                                           \
  /* An unsigned value has no sign: the shift is logical (numpy). */          \
  static inline T ew_arithmetic_right_shift_##S(T a, T b,                     \
                                                const ew_params *p) {         \
    if (!ew_count_ok_##S(b)) return 0;                                        \
    const UW up = (p->round && b > 0) ? (((UW)a >> (b - 1)) & 1u) : 0;        \
    return (T)(((UW)a >> b) + up);                                            \
  }                                                                           \
  static inline T ew_pow_##S(T a, T b, const ew_params *p) {                  \
    (void)p;                                                                  \
    return ew_pow_bits_##S(a, b);                                             \
  }                                                                           \
  EW_NEVER1_(abs, S, T)                                                       \
  EW_NEVER2_(pow, S, T)

/* IEEE 754's arithmetic, correctly rounded in F: add, subtract, multiply,
 * square and divide.  ATTR is the functions' attribute (the native
 * float16 set's target, ew_k_fp16.c; nothing for float and double).
 * Each quiets a NaN operand and raises "invalid" for a signalling one,
 * which EW_QUIETS_ (ew_kernel.h) relies on. */
#define EW_IEEE_SCALARS_(S, F, ATTR)                                          \
  ATTR static inline F ew_add_##S(F a, F b, const ew_params *p) {             \
    (void)p;                                                                  \
    return a + b;                                                             \
  }                                                                           \
  ATTR static inline F ew_sub_##S(F a, F b, const ew_params *p) {             \
    (void)p;                                                                  \
    return a - b;                                                             \
  }                                                                           \
  ATTR static inline F ew_mul_##S(F a, F b, const ew_params *p) {             \
    (void)p;                                                                  \
    return a * b;                                                             \
  }                                                                           \
  ATTR static inline F ew_square_##S(F a, const ew_params *p) {               \
    (void)p;                                                                  \
    return a * a;                                                             \
  }                                                                           \
  ATTR static inline F ew_divide_##S(F a, F b, const ew_params *p) {          \
    (void)p;                                                                  \
    return a / b;                                                             \
  }

/* Floating point: F is float or double, M the <math.h> suffix (f or
 * nothing). */
#define EW_FLOAT_SCALARS_(S, F, M)                                              \
  EW_COMMON_SCALARS_(S, F)                                                      \
  EW_IEEE_SCALARS_(S, F, )                                                      \
  static inline F ew_abs_##S(F a, const ew_params *p) {                         \
    (void)p;                                                                    \
    return fabs##M(a);                                                          \
  }                                                                             \
  static inline F ew_ceil_##S(F a, const ew_params *p) {                        \
    (void)p;                                                                    \
    return ceil##M(a);                                                          \
  }                                                                             \
  static inline F ew_floor_##S(F a, const ew_params *p) {                       \
    (void)p;                                                                    \
    return floor##M(a);                                                         \
  }                                                                             \
  static inline F ew_erf_##S(F a, const ew_params *p) {                         \
    (void)p;                                                                    \
    return erf##M(a);                                                           \
  }                                                                             \
  static inline F ew_exp_##S(F a, const ew_params *p) {                         \
    (void)p;                                                                    \
    return exp##M(a);                                                           \
  }                                                                             \
  /* log(x < 0) = NaN, log(0) = -inf. */                                        \
  static inline F ew_log_##S(F a, const ew_params *p) {                         \
    (void)p;                                                                    \
    return log##M(a);                                                           \
  }                                                                             \
  static inline F ew_negate_##S(F a, const ew_params *p) {                      \
    (void)p;                                                                    \
    return -a;                                                                  \
  }                                                                             \
  static inline F ew_reciprocal_##S(F a, const ew_params *p) {                  \
    (void)p;                                                                    \
    return (F)1 / a;                                                            \
  }                                                                             \
  /* rsqrt(-0) = -inf, rsqrt(x < 0) = NaN. */                                   \
  static inline F ew_rsqrt_##S(F a, const ew_params *p) {                       \
    (void)p;                                                                    \
    return (F)1 / sqrt##M(a);                                                   \
  }                                                                             \
  /* 1/(1+e^-a), written with e = e^-|a| <= 1 so that it never overflows:   \
   * for a < 0 it is e/(1+e), which keeps tiny (subnormal) results that      \
   * 1/(1+inf) would flush to 0. */   \
  static inline F ew_sigmoid_##S(F a, const ew_params *p) {                     \
    (void)p;                                                                    \
    const F e = exp##M(-fabs##M(a));                                            \
    const F r = (F)1 / ((F)1 + e);                                              \
    return a >= 0 ? r : e * r;                                                  \
  }                                                                             \
  /* sin(+-inf) = cos(+-inf) = NaN; sin keeps the sign of a zero. */            \
  static inline F ew_sin_##S(F a, const ew_params *p) {                         \
    (void)p;                                                                    \
    return sin##M(a);                                                           \
  }                                                                             \
  static inline F ew_cos_##S(F a, const ew_params *p) {                         \
    (void)p;                                                                    \
    return cos##M(a);                                                           \
  }                                                                             \
  static inline F ew_tanh_##S(F a, const ew_params *p) {                        \
    (void)p;                                                                    \
    return tanh##M(a);                                                          \
  }                                                                             \
  /* max(a, lo) first, then min(., hi).  A NaN fails both comparisons and     \
   * passes through (PROPAGATE); IGNORE maps it to lo. */ \
  static inline F ew_clamp_##S(F a, const ew_params *p) {                       \
    const F lo = (F)p->lo_f, hi = (F)p->hi_f;                                   \
    const F v = p->nan_ignore ? (a >= lo ? a : lo) : (a < lo ? lo : a);         \
    return v > hi ? hi : v;                                                     \
  }                                                                             \
  /* PROPAGATE: a NaN operand wins.  IGNORE: the other operand wins (NaN      \
   * only when both are).  Either zero may come out of max(-0, +0). */ \
  static inline F ew_maximum_##S(F a, F b, const ew_params *p) {                \
    const F m = a > b ? a : b;                                                  \
    return p->nan_ignore ? (b != b ? a : m) : (a != a ? a : m);                 \
  }                                                                             \
  static inline F ew_minimum_##S(F a, F b, const ew_params *p) {                \
    const F m = a < b ? a : b;                                                  \
    return p->nan_ignore ? (b != b ? a : m) : (a != a ? a : m);                 \
  }                                                                             \
  /* numpy.fmax / fmin: a NaN operand is ignored (NaN only when both are). */   \
  static inline F ew_fmax_##S(F a, F b, const ew_params *p) {                   \
    (void)p;                                                                    \
    return b != b ? a : a != a ? b : a > b ? a : b;                             \
  }                                                                             \
  static inline F ew_fmin_##S(F a, F b, const ew_params *p) {                   \
    (void)p;                                                                    \
    return b != b ? a : a != a ? b : a < b ? a : b;                             \
  }                                                                             \
  static inline F ew_sqrt_##S(F a, const ew_params *p) {                        \
    (void)p;                                                                    \
    return sqrt##M(a);                                                          \
  }                                                                             \
  /* NumPy's npy_divmod (Python's float //, %): the remainder has the sign   \
   * of b, the quotient is rounded to the nearest integer of a - mod over b;  \
   * b == 0 gives a / b and fmod(a, 0) = NaN.  The comparisons are quiet   \
   * (isless, isgreater), as NumPy's: a NaN raises no invalid flag. */      \
  /* fmod's result mod of a by b (b != 0) with the sign of b; *shifted     \
   * when b was added.  |mod| < |b|, so the sum cannot overflow. */           \
  static inline F ew_mod_sign_##S(F mod, F b, int *shifted) {                   \
    *shifted = 0;                                                               \
    if (mod == 0) return copysign##M((F)0, b);                                  \
    if (isless(b, (F)0) == isless(mod, (F)0)) return mod;                       \
    *shifted = 1;                                                               \
    return mod + b;                                                             \
  }                                                                             \
  static inline F ew_divmod_##S(F a, F b, F *modulus) {                         \
    F mod = fmod##M(a, b);                                                      \
    if (b == 0) {                                                               \
      *modulus = mod;                                                           \
      return a / b;                                                             \
    }                                                                           \
    F div = (a - mod) / b;                                                      \
    int shifted;                                                                \
    mod = ew_mod_sign_##S(mod, b, &shifted);                                    \
    if (shifted) div -= (F)1;                                                   \
    F floordiv;                                                                 \
    if (div != 0) {                                                             \
      floordiv = floor##M(div);                                                 \
      if (isgreater(div - floordiv, (F)0.5)) floordiv += (F)1;                  \
    } else {                                                                    \
      floordiv = copysign##M((F)0, a / b);                                      \
    }                                                                           \
    *modulus = mod;                                                             \
    return floordiv;                                                            \
  }                                                                             \
  /* By 0 as NumPy 1.24's floor_divide and remainder loops: a / 0 alone,    \
   * fmod(a, 0) alone, with the flags those raise (1 // 0 divide by zero,     \
   * 0 // 0 invalid, inf // 0 and NaN // 0 none; a % 0 invalid but NaN). */   \
  static inline F ew_floor_divide_##S(F a, F b, const ew_params *p) {           \
    F mod;                                                                      \
    (void)p;                                                                    \
    if (b == 0) return a / b;                                                   \
    return ew_divmod_##S(a, b, &mod);                                           \
  }                                                                             \
  /* The modulus alone: no quotient, so none of its flags (1 % 1e-40's      \
   * quotient overflows, as NumPy's remainder never computes it). */          \
  static inline F ew_remainder_##S(F a, F b, const ew_params *p) {              \
    int shifted;                                                                \
    (void)p;                                                                    \
    if (b == 0) return fmod##M(a, b);                                           \
    return ew_mod_sign_##S(fmod##M(a, b), b, &shifted);                         \
  }                                                                             \
  static inline F ew_pow_##S(F a, F b, const ew_params *p) {                    \
    (void)p;                                                                    \
    return pow##M(a, b);                                                        \
  }                                                                             \
  /* TOSA's domain: a >= 0, a > 0 or b > 0, no NaN or inf operand. */           \
  static inline int ew_unpred_pow_##S(F a, F b, const ew_params *p) {           \
    (void)p;                                                                    \
    return !(a >= 0) || (a == 0 && !(b > 0)) || isnan(b) || isinf(a) ||         \
           isinf(b);                                                            \
  }                                                                             \
  EW_NEVER1_(abs, S, F)                                                         \
  EW_NEVER1_(ceil, S, F)                                                        \
  EW_NEVER1_(floor, S, F)                                                       \
  EW_NEVER1_(erf, S, F)                                                         \
  EW_NEVER1_(exp, S, F)                                                         \
  EW_NEVER1_(log, S, F)                                                         \
  EW_NEVER1_(negate, S, F)                                                      \
  EW_NEVER1_(reciprocal, S, F)                                                  \
  EW_NEVER1_(rsqrt, S, F)                                                       \
  EW_NEVER1_(sigmoid, S, F)                                                     \
  EW_NEVER1_(tanh, S, F)                                                        \
  EW_NEVER1_(sin, S, F)                                                         \
  EW_NEVER1_(cos, S, F)                                                         \
  EW_NEVER1_(clamp, S, F)                                                       \
  EW_NEVER2_(add, S, F)                                                         \
  EW_NEVER2_(sub, S, F)                                                         \
  EW_NEVER2_(mul, S, F)                                                         \
  EW_NEVER2_(maximum, S, F)                                                     \
  EW_NEVER2_(minimum, S, F)                                                     \
  EW_NEVER1_(sqrt, S, F)                                                        \
  EW_NEVER2_(fmax, S, F)                                                        \
  EW_NEVER2_(fmin, S, F)                                                        \
  EW_NEVER1_(square, S, F)                                                      \
  EW_NEVER2_(divide, S, F)                                                      \
  EW_NEVER2_(floor_divide, S, F)                                                \
  EW_NEVER2_(remainder, S, F)

EW_SINT_SCALARS_(i8, int8_t, uint8_t, unsigned, 8, INT8_MIN, INT8_MAX)
EW_SINT_SCALARS_(i16, int16_t, uint16_t, unsigned, 16, INT16_MIN, INT16_MAX)
EW_SINT_SCALARS_(i32, int32_t, uint32_t, uint32_t, 32, INT32_MIN, INT32_MAX)
EW_SINT_SCALARS_(i64, int64_t, uint64_t, uint64_t, 64, INT64_MIN, INT64_MAX)
EW_UINT_SCALARS_(u8, uint8_t, unsigned, 8)
EW_UINT_SCALARS_(u16, uint16_t, unsigned, 16)
EW_UINT_SCALARS_(u32, uint32_t, uint32_t, 32)
EW_UINT_SCALARS_(u64, uint64_t, uint64_t, 64)
EW_FLOAT_SCALARS_(f32, float, f)
EW_FLOAT_SCALARS_(f64, double, )
EW_COMMON_SCALARS_(b, uint8_t)

/* maximum, minimum, fmax and fmin of float16 as NumPy's float16 loops
 * compute them: on the stored bits, converted only to compare, so that
 * the result is one operand's bits unchanged (a signalling NaN stays
 * one), and with npy_half_ge / npy_half_le, so that of two operands that
 * compare equal the first is returned: maximum(+0, -0) is +0 and
 * maximum(-0, +0) is -0, where NumPy's float32 and float64 loops (and
 * the float functions above) return the second.  nan_mode IGNORE (a TOSA
 * attribute) returns the other operand of a NaN (the first when both
 * are), as above.  ew_k_binary.c
 * binds these for float16 (EW_B_EXTREMUM_). */
static inline uint16_t ew_maximum_f16(uint16_t a, uint16_t b,
                                      const ew_params *p) {
  const float x = ew_f16_load(a), y = ew_f16_load(b);
  if (p->nan_ignore && (x != x || y != y)) return y != y ? a : b;
  return x >= y || x != x ? a : b;
}
static inline uint16_t ew_minimum_f16(uint16_t a, uint16_t b,
                                      const ew_params *p) {
  const float x = ew_f16_load(a), y = ew_f16_load(b);
  if (p->nan_ignore && (x != x || y != y)) return y != y ? a : b;
  return x <= y || x != x ? a : b;
}
static inline uint16_t ew_fmax_f16(uint16_t a, uint16_t b,
                                   const ew_params *p) {
  const float x = ew_f16_load(a), y = ew_f16_load(b);
  (void)p;
  return x >= y || y != y ? a : b;
}
static inline uint16_t ew_fmin_f16(uint16_t a, uint16_t b,
                                   const ew_params *p) {
  const float x = ew_f16_load(a), y = ew_f16_load(b);
  (void)p;
  return x <= y || y != y ? a : b;
}
EW_NEVER2_(maximum, f16, uint16_t)
EW_NEVER2_(minimum, f16, uint16_t)
EW_NEVER2_(fmax, f16, uint16_t)
EW_NEVER2_(fmin, f16, uint16_t)

/* The 8-bit floats' ops as mlir-opt 22 folds MLIR's lowering of them
 * (APFloat; tests/diff/test_tosa22_fp8_ops.py).  abs and negate
 * (math.absf, arith.negf) change the stored sign bit only, so a NaN keeps
 * its payload and a signalling one stays one.  The others compute in
 * float32 between the format's load and store, which round once: maximum
 * and minimum (arith.maximumf / minimumf) order -0 below +0, clamp is
 * minimumf with max_val then maximumf with min_val (a NaN becomes min_val
 * under nan_mode IGNORE), and a NaN that add, sub or mul make from
 * numbers (inf - inf, 0 * inf) is APFloat's positive quiet NaN, not the
 * x86 default NaN, which is negative.  NaN operands propagate as in the
 * float32 functions.  ew_k_unary.c and ew_k_binary.c bind these for the
 * 8-bit floats (EW_FP8_UNARY_LIST, EW_FP8_BINARY_LIST). */
static inline uint8_t ew_abs_f8bits(uint8_t a, const ew_params *p) {
  (void)p;
  return (uint8_t)(a & 0x7fu);
}
static inline uint8_t ew_negate_f8bits(uint8_t a, const ew_params *p) {
  (void)p;
  return (uint8_t)(a ^ 0x80u);
}
EW_NEVER1_(abs, f8bits, uint8_t)
EW_NEVER1_(negate, f8bits, uint8_t)
/* IEEE 754-2019 maximum and minimum of two numbers (no NaN). */
static inline float ew_fp8_max_(float a, float b) {
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static inline float ew_fp8_min_(float a, float b) {
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
/* maximum and minimum per format S, on the stored bits: a NaN operand
 * gives that NaN, quiet (the first of two); under nan_mode IGNORE the
 * other operand's bits unchanged (the first of two NaNs, as the selects of
 * MLIR's lowering pick it, a signalling one staying one). */
#define EW_FP8_EXTREMUM_(op, S, pick)                                         \
  static inline uint8_t ew_##op##_##S(uint8_t a, uint8_t b,                   \
                                      const ew_params *p) {                   \
    const float x = ew_##S##_load(a), y = ew_##S##_load(b);                   \
    if (p->nan_ignore && (x != x || y != y)) return y != y ? a : b;           \
    return ew_##S##_store(x != x ? x : y != y ? y : pick(x, y));              \
  }                                                                           \
  EW_NEVER2_(op, S, uint8_t)
EW_FP8_EXTREMUM_(maximum, f8e4m3fn, ew_fp8_max_)
EW_FP8_EXTREMUM_(minimum, f8e4m3fn, ew_fp8_min_)
EW_FP8_EXTREMUM_(maximum, f8e5m2, ew_fp8_max_)
EW_FP8_EXTREMUM_(minimum, f8e5m2, ew_fp8_min_)
static inline float ew_clamp_f8(float a, const ew_params *p) {
  if (a != a) return p->nan_ignore ? (float)p->lo_f : a;
  return ew_fp8_max_(ew_fp8_min_(a, (float)p->hi_f), (float)p->lo_f);
}
/* r = a op b with APFloat's NaNs: the first NaN operand (the store
 * quiets it; x86 picks by operand order, which a vectorizing compiler may
 * swap for add and mul), else a NaN r made from numbers is positive. */
static inline float ew_fp8_nan_(float r, float a, float b) {
  return a != a ? a : b != b ? b : r != r ? NAN : r;
}
static inline float ew_add_f8(float a, float b, const ew_params *p) {
  return ew_fp8_nan_(ew_add_f32(a, b, p), a, b);
}
static inline float ew_sub_f8(float a, float b, const ew_params *p) {
  return ew_fp8_nan_(ew_sub_f32(a, b, p), a, b);
}
static inline float ew_mul_f8(float a, float b, const ew_params *p) {
  return ew_fp8_nan_(ew_mul_f32(a, b, p), a, b);
}
/* tosa.sigmoid as MLIR lowers it on format S: 1 / (1 + exp(-a)), each op
 * on the 8-bit type and so rounded to it (math.exp as float32 expf, see
 * ew_k_unary.c).  float8_e4m3fn has no infinity, so an exp(-a) above 464
 * is its NaN and the sigmoid of every a below -6 is NaN; float8_e5m2's
 * overflows to infinity and gives 0. */
#define EW_FP8_SIGMOID_(S)                                                    \
  static inline float ew_sigmoid_##S(float a, const ew_params *p) {           \
    const float e = ew_##S##_load(ew_##S##_store(ew_exp_f32(-a, p)));        \
    const float d = ew_##S##_load(ew_##S##_store(ew_add_f8(e, 1.0f, p)));    \
    return ew_fp8_nan_(1.0f / d, 1.0f, d);                                    \
  }
EW_FP8_SIGMOID_(f8e4m3fn)
EW_FP8_SIGMOID_(f8e5m2)

/* Bool's bitwise ops are its logical ops (numpy: invert(True) = False). */
static inline uint8_t ew_bitwise_not_b(uint8_t a, const ew_params *p) {
  (void)p;
  return (uint8_t)!a;
}
static inline uint8_t ew_bitwise_and_b(uint8_t a, uint8_t b,
                                       const ew_params *p) {
  (void)p;
  return (uint8_t)(a & b);
}
static inline uint8_t ew_bitwise_or_b(uint8_t a, uint8_t b,
                                      const ew_params *p) {
  (void)p;
  return (uint8_t)(a | b);
}
static inline uint8_t ew_bitwise_xor_b(uint8_t a, uint8_t b,
                                       const ew_params *p) {
  (void)p;
  return (uint8_t)(a ^ b);
}
/* numpy.absolute(bool) is the bool. */
static inline uint8_t ew_abs_b(uint8_t a, const ew_params *p) {
  (void)p;
  return a;
}
/* NumPy's bool loops of add and multiply, maximum and minimum (fmax,
 * fmin): logical or and and. */
#define EW_BOOL_AS_(op, as)                                                   \
  static inline uint8_t ew_##op##_b(uint8_t a, uint8_t b,                     \
                                    const ew_params *p) {                     \
    return ew_bitwise_##as##_b(a, b, p);                                      \
  }                                                                           \
  EW_NEVER2_(op, b, uint8_t)
EW_BOOL_AS_(add, or)
EW_BOOL_AS_(maximum, or)
EW_BOOL_AS_(fmax, or)
EW_BOOL_AS_(mul, and)
EW_BOOL_AS_(minimum, and)
EW_BOOL_AS_(fmin, and)
EW_NEVER1_(abs, b, uint8_t)
EW_NEVER1_(bitwise_not, b, uint8_t)
EW_NEVER2_(bitwise_and, b, uint8_t)
EW_NEVER2_(bitwise_or, b, uint8_t)
EW_NEVER2_(bitwise_xor, b, uint8_t)

/* TOSA's MUL of int32: the 64-bit product, shifted right by `shift` with
 * rounding half up.  (p + 2^(s-1)) >> s equals (p >> s) + bit s-1 of p,
 * which cannot overflow even for INT32_MIN^2 and s = 63.  The result keeps
 * the low 32 bits; out of the int32 range (shift > 0 only) it is
 * unpredictable. */
static inline int64_t ew_mul_shift_exact(int32_t a, int32_t b, int32_t s) {
  const int64_t prod = (int64_t)a * b;
  return s > 0 ? (prod >> s) + ((prod >> (s - 1)) & 1) : prod;
}
static inline int32_t ew_mul_shift_i32(int32_t a, int32_t b,
                                       const ew_params *p) {
  return (int32_t)(uint32_t)(uint64_t)ew_mul_shift_exact(a, b, p->shift);
}
static inline int ew_unpred_mul_shift_i32(int32_t a, int32_t b,
                                          const ew_params *p) {
  const int64_t v = ew_mul_shift_exact(a, b, p->shift);
  return p->shift > 0 && (v < INT32_MIN || v > INT32_MAX);
}

/* MUL of every integer type but int32 wraps. */
#define ew_mul_i8 ew_mul_wrap_i8
#define ew_mul_i16 ew_mul_wrap_i16
#define ew_mul_i64 ew_mul_wrap_i64
#define ew_mul_u8 ew_mul_wrap_u8
#define ew_mul_u16 ew_mul_wrap_u16
#define ew_mul_u32 ew_mul_wrap_u32
#define ew_mul_u64 ew_mul_wrap_u64
#define ew_unpred_mul_i8 ew_unpred_mul_wrap_i8
#define ew_unpred_mul_i16 ew_unpred_mul_wrap_i16
#define ew_unpred_mul_i64 ew_unpred_mul_wrap_i64
#define ew_unpred_mul_u8 ew_unpred_mul_wrap_u8
#define ew_unpred_mul_u16 ew_unpred_mul_wrap_u16
#define ew_unpred_mul_u32 ew_unpred_mul_wrap_u32
#define ew_unpred_mul_u64 ew_unpred_mul_wrap_u64
#define ew_mul_i32 ew_mul_shift_i32
#define ew_unpred_mul_i32 ew_unpred_mul_shift_i32

/* TOSA's MUL of int8 and int16: the exact int32 product. */
static inline int32_t ew_mul_wide_i8(int8_t a, int8_t b, const ew_params *p) {
  (void)p;
  return (int32_t)a * b;
}
static inline int32_t ew_mul_wide_i16(int16_t a, int16_t b,
                                      const ew_params *p) {
  (void)p;
  return (int32_t)a * b;
}
EW_NEVER2_(mul_wide, i8, int8_t)
EW_NEVER2_(mul_wide, i16, int16_t)

/* ------------------------------------------------------------------------ */
/* CAST: value conversions.  Integer -> narrower integer keeps the low bits
 * (two's complement); -> bool is x != 0; bool -> 0 or 1; integer -> float
 * rounds to nearest even; float -> float rounds to nearest even, to inf
 * beyond the range. */

/* float -> integer, TOSA: round half to even, saturate; NaN gives 0 (TOSA:
 * unpredictable). */
#define EW_TOSA_F2I_(S, T, MIN, MAX)                                          \
  static inline T ew_tosa_f2i_##S(double x) {                                 \
    const double r = nearbyint(x);                                            \
    if (isnan(r)) return 0;                                                   \
    if (r <= (double)(MIN)) return (MIN);                                     \
    if (r >= (double)(MAX)) return (MAX);                                     \
    return (T)r;                                                              \
  }                                                                           \
  static inline int ew_unpred_tosa_f2i_##S(double x) { return isnan(x); }
EW_TOSA_F2I_(i8, int8_t, INT8_MIN, INT8_MAX)
EW_TOSA_F2I_(i16, int16_t, INT16_MIN, INT16_MAX)
EW_TOSA_F2I_(i32, int32_t, INT32_MIN, INT32_MAX)
EW_TOSA_F2I_(i64, int64_t, INT64_MIN, INT64_MAX)

/* 8-bit float -> signed integer of `bits` bits, as MLIR 22's tosa-to-linalg
 * lowers tosa.cast (the value rounded to even in the 8-bit type first).
 * Where the type's largest exponent reaches the integer's (bits - 1 <=
 * max_exp: E4M3FN -> i8, E5M2 -> i8, i16) it clamps: a value not below
 * 2^(bits-1), NaN included (cmpf uge), gives the maximum, one below
 * -2^(bits-1) the minimum.  Otherwise it converts and then replaces the
 * format's infinities, compared unordered (cmpf ueq): +inf by the maximum,
 * then -inf by the minimum, so a NaN gives the minimum.  E4M3FN has no
 * infinity and MLIR compares with its NaN pattern instead, which matches
 * every value: E4M3FN -> i16, i32, i64 gives the minimum for every input
 * (checked against mlir-opt 22's folding, tests/diff/test_tosa22_fp8.py).
 * Never unpredictable: the selects decide every case fptosi leaves
 * poison. */
static inline int64_t ew_fp8_f2i(float x, int bits, int max_exp,
                                 int inf_is_nan) {
  const int64_t max = (int64_t)(UINT64_MAX >> (65 - bits));
  const int64_t min = -max - 1;
  const float r = nearbyintf(x);
  if (bits - 1 <= max_exp) {
    const float limit = ldexpf(1.0f, bits - 1);
    if (!(r < limit)) return max;
    return r < -limit ? min : (int64_t)r;
  }
  if (inf_is_nan || isnan(r)) return min;
  if (isinf(r)) return r > 0 ? max : min;
  return (int64_t)r;
}

/* float -> integer, numpy: truncation toward zero, as C's cast; where C
 * leaves it undefined (NaN, inf, out of range) x86-64's conversion
 * instructions give the integer minimum of the 32-bit conversion (targets
 * up to 16 bits and int32) or of the 64-bit one (uint32, int64, uint64
 * below 2^63), then the low bits are kept.  uint64 from 2^63 up is the
 * 64-bit conversion of x - 2^63 with the top bit flipped (the compilers'
 * unsigned conversion, NumPy's): 0 from 2^64 up and for +inf. */
static inline int32_t ew_x86_f2i32(double x) {
  return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}
static inline int64_t ew_x86_f2i64(double x) {
  return (x >= -9223372036854775808.0 && x < 9223372036854775808.0)
             ? (int64_t)x
             : INT64_MIN;
}
#define EW_NUMPY_F2I_(S, T, U, WIDE, LO, HI)                                  \
  static inline T ew_numpy_f2i_##S(double x) {                                \
    return (T)(U)ew_x86_f2i##WIDE(x);                                         \
  }                                                                           \
  static inline int ew_unpred_numpy_f2i_##S(double x) {                       \
    return !(x > (LO)-1.0 && x < (HI) + 1.0);                                 \
  }
EW_NUMPY_F2I_(i8, int8_t, uint8_t, 32, -128.0, 127.0)
EW_NUMPY_F2I_(i16, int16_t, uint16_t, 32, -32768.0, 32767.0)
EW_NUMPY_F2I_(i32, int32_t, uint32_t, 32, -2147483648.0, 2147483647.0)
EW_NUMPY_F2I_(u8, uint8_t, uint8_t, 32, 0.0, 255.0)
EW_NUMPY_F2I_(u16, uint16_t, uint16_t, 32, 0.0, 65535.0)
EW_NUMPY_F2I_(u32, uint32_t, uint32_t, 64, 0.0, 4294967295.0)
/* The same from a float (float16, bfloat16, float32 and the 8-bit floats
 * compute in float): where the result goes through the 32-bit conversion,
 * its range test in float (the float below -2^31 is -2^31 - 256, so x >
 * -2^31 - 1 is x >= -2^31), which vectorizes as one compare and
 * cvttps2dq; the others through double, as above.  float32 -> int8 ran at
 * 17 GB/s through double, NumPy's cast at 27-33 (Zen 4, 2^24 elements). */
static inline int32_t ew_x86_f2i32f(float x) {
  return (x >= -2147483648.0f && x < 2147483648.0f) ? (int32_t)x : INT32_MIN;
}
#define EW_NUMPY_F2IF_32_(S, T, U)                                            \
  static inline T ew_numpy_f2if_##S(float x) { return (T)(U)ew_x86_f2i32f(x); }
#define EW_NUMPY_F2IF_WIDE_(S, T)                                             \
  static inline T ew_numpy_f2if_##S(float x) {                                \
    return ew_numpy_f2i_##S((double)x);                                       \
  }
EW_NUMPY_F2IF_32_(i8, int8_t, uint8_t)
EW_NUMPY_F2IF_32_(i16, int16_t, uint16_t)
EW_NUMPY_F2IF_32_(i32, int32_t, uint32_t)
EW_NUMPY_F2IF_32_(u8, uint8_t, uint8_t)
EW_NUMPY_F2IF_32_(u16, uint16_t, uint16_t)
EW_NUMPY_F2IF_WIDE_(u32, uint32_t)
/* int64: the bounds are not doubles; x must lie in [-2^63, 2^63). */
static inline int64_t ew_numpy_f2i_i64(double x) { return ew_x86_f2i64(x); }
static inline int ew_unpred_numpy_f2i_i64(double x) {
  return !(x >= -9223372036854775808.0 && x < 9223372036854775808.0);
}
static inline uint64_t ew_numpy_f2i_u64(double x) {
  if (x >= 9223372036854775808.0)
    return x < 18446744073709551616.0 ? (uint64_t)x : 0;
  return (uint64_t)ew_x86_f2i64(x);
}
static inline int ew_unpred_numpy_f2i_u64(double x) {
  return !(x > -1.0 && x < 18446744073709551616.0);
}
EW_NUMPY_F2IF_WIDE_(i64, int64_t)
EW_NUMPY_F2IF_WIDE_(u64, uint64_t)

#endif
