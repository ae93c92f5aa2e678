/* IEEE binary16, bfloat16 and the two 8-bit floats' conversions, done on
 * bit patterns so they are exact and independent of the FPU's rounding
 * mode and of F16C support.
 *
 * Narrowing (float or double -> a narrower type) goes through one routine
 * that rounds an exact value m * 2^e (m an integer below 2^54) to the
 * nearest value of the format, ties to even.  Rounding a double directly
 * this way avoids the double rounding of double -> float -> half.  A float
 * is narrowed as the double that holds it exactly. */
#include <math.h>
#include <string.h>

#include "bcast/dtype.h"

static uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static int leading_bit(uint64_t m) { return 63 - __builtin_clzll(m); }

/* A narrow floating format: float16 (5 exponent bits, 10 stored mantissa
 * bits), bfloat16 (8 and 7), float8_e5m2 (5 and 2) and float8_e4m3fn (4
 * and 3).  E4M3FN ("finite, NaN") has no infinity: its top exponent holds
 * finite values too, and only the all-ones pattern is NaN. */
typedef struct half_format {
  int bits;      /* the whole width, sign bit on top */
  int mant_bits; /* stored mantissa bits */
  int bias;      /* exponent bias */
  int nan_only;  /* no infinity; all ones is the one NaN */
} half_format;

static const half_format FORMAT_HALF = {16, 10, 15, 0};
static const half_format FORMAT_BF16 = {16, 7, 127, 0};
static const half_format FORMAT_E5M2 = {8, 2, 15, 0};
static const half_format FORMAT_E4M3FN = {8, 3, 7, 1};

/* The format's +infinity: every exponent bit set, mantissa 0 (for E4M3FN
 * the pattern of 256, a finite value). */
static uint32_t format_inf(const half_format *f) {
  return (uint32_t)(2 * f->bias + 1) << f->mant_bits;
}

/* The first positive pattern beyond the finite values, and what a
 * magnitude rounding there or beyond becomes: the infinity, or for E4M3FN
 * the NaN (all ones), as APFloat rounds. */
static uint32_t format_overflow(const half_format *f) {
  return f->nan_only ? format_inf(f) | ((1u << f->mant_bits) - 1)
                     : format_inf(f);
}

/* The exponent of the largest finite binade. */
static int format_max_lead(const half_format *f) {
  return f->nan_only ? f->bias + 1 : f->bias;
}

/* Rounds |value| = m * 2^e (m != 0, m < 2^54) to a magnitude of format f.
 *
 * A value of the format is q * 2^qe, where the quantum exponent qe is
 * 1 - bias - mant_bits for subnormals (-24 for float16) and L - mant_bits
 * for a normal value whose leading bit is 2^L.  With qe fixed, the result
 * is m * 2^(e - qe) rounded to an integer q.  The encoding is monotonic,
 * so a q that rounds up to the next binade (2^(mant_bits+1) for normals,
 * 2^mant_bits for subnormals) carries into the exponent field by plain
 * addition, and a carry past the largest finite value produces exactly the
 * infinity. */
static uint16_t round_magnitude(uint64_t m, int e, const half_format *f) {
  const uint32_t over = format_overflow(f);
  const int qe_min = 1 - f->bias - f->mant_bits;
  int lead = e + leading_bit(m);
  if (lead > format_max_lead(f)) return (uint16_t)over; /* beyond all */
  int qe = lead - f->mant_bits < qe_min ? qe_min : lead - f->mant_bits;
  int shift = qe - e; /* bits of m below the quantum */
  uint64_t q;
  if (shift <= 0) {
    q = m << -shift; /* exact: at most mant_bits + 1 significant bits */
  } else if (shift >= 56) {
    q = 0; /* m < 2^54, so value < quantum / 4: rounds to zero */
  } else {
    q = m >> shift;
    uint64_t rest = m & (((uint64_t)1 << shift) - 1);
    uint64_t half_quantum = (uint64_t)1 << (shift - 1);
    if (rest > half_quantum || (rest == half_quantum && (q & 1))) q++;
  }
  /* Subnormal, or the least binade, whose q already carries the leading
   * bit into the exponent field. */
  if (qe == qe_min) return (uint16_t)q;
  int biased = lead + f->bias; /* 1 .. 2 * bias (+ 1 for E4M3FN) here */
  uint32_t bits = ((uint32_t)(biased - 1) << f->mant_bits) + (uint32_t)q;
  return (uint16_t)(bits >= over ? over : bits);
}

/* A double in format f: signed zeros and infinities kept, NaN quiet with
 * its top payload bits, everything else rounded to nearest even.  E4M3FN
 * takes its NaN for a NaN and an infinity. */
static uint16_t narrow_double(double d, const half_format *f) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  const uint16_t sign = (uint16_t)((u >> 63) << (f->bits - 1));
  const uint32_t exp = (uint32_t)(u >> 52) & 0x7ff;
  const uint64_t mant = u & 0xfffffffffffffull;
  const uint32_t inf = format_inf(f);
  if (exp == 0x7ff) {
    if (f->nan_only || mant == 0) return (uint16_t)(sign | format_overflow(f));
    const uint32_t quiet = 1u << (f->mant_bits - 1);
    return (uint16_t)(sign | inf | quiet |
                      (uint32_t)(mant >> (52 - f->mant_bits)));
  }
  if (exp == 0 && mant == 0) return sign;
  uint64_t m = exp ? (mant | 0x10000000000000ull) : mant;
  int e = (exp ? (int)exp : 1) - 1023 - 52;
  return (uint16_t)(sign | round_magnitude(m, e, f));
}

float bcast_half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) /* inf, or NaN with its payload (and quiet bit) kept */
    return bits_float(sign | 0x7f800000u | (mant << 13));
  if (exp != 0) return bits_float(sign | ((exp + 112) << 23) | (mant << 13));
  if (mant == 0) return bits_float(sign);
  /* Subnormal: mant * 2^-24, normalized so the leading bit is implicit. */
  int lead = leading_bit(mant); /* 0..9 */
  uint32_t fexp = (uint32_t)(lead - 24 + 127);
  uint32_t fmant = (mant << (23 - lead)) & 0x7fffffu;
  return bits_float(sign | (fexp << 23) | fmant);
}

/* A float converts to double exactly, NaN payload included. */
uint16_t bcast_float_to_half(float f) {
  return narrow_double((double)f, &FORMAT_HALF);
}

uint16_t bcast_double_to_half(double d) {
  return narrow_double(d, &FORMAT_HALF);
}

float bcast_bf16_to_float(uint16_t b) { return bits_float((uint32_t)b << 16); }

uint16_t bcast_float_to_bf16(float f) {
  uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN: keep payload, set quiet bit */
    return (uint16_t)((u >> 16) | 0x40u);
  /* Round to nearest even on the low 16 bits; overflow carries into inf. */
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

uint16_t bcast_double_to_bf16(double d) {
  return narrow_double(d, &FORMAT_BF16);
}

/* An 8-bit float's value: exact (every one is a float), NaN quiet with the
 * mantissa bits at the top of the float's payload, as APFloat widens. */
static float widen_fp8(uint8_t b, const half_format *f) {
  const uint32_t sign = (uint32_t)(b & 0x80u) << 24;
  const uint32_t mant = b & ((1u << f->mant_bits) - 1);
  const uint32_t magnitude = b & 0x7fu;
  const int exp = (int)(magnitude >> f->mant_bits);
  const int is_nan = f->nan_only ? magnitude == format_overflow(f)
                                 : magnitude > format_inf(f);
  if (is_nan)
    return bits_float(sign | 0x7fc00000u | (mant << (23 - f->mant_bits)));
  if (!f->nan_only && magnitude == format_inf(f))
    return bits_float(sign | 0x7f800000u);
  /* mant * 2^(1 - bias - mant_bits) for subnormals, with the implicit
   * bit for normal values: small integers times a power of two. */
  const uint32_t m = exp ? mant | (1u << f->mant_bits) : mant;
  const float v = ldexpf((float)m, (exp ? exp : 1) - f->bias - f->mant_bits);
  return sign ? -v : v;
}

float bcast_f8e4m3fn_to_float(uint8_t b) {
  return widen_fp8(b, &FORMAT_E4M3FN);
}

uint8_t bcast_double_to_f8e4m3fn(double d) {
  return (uint8_t)narrow_double(d, &FORMAT_E4M3FN);
}

float bcast_f8e5m2_to_float(uint8_t b) { return widen_fp8(b, &FORMAT_E5M2); }

uint8_t bcast_double_to_f8e5m2(double d) {
  return (uint8_t)narrow_double(d, &FORMAT_E5M2);
}
