/* IEEE binary16 and bfloat16 conversions, done on bit patterns so they are
 * exact and independent of the FPU's rounding mode and of F16C support.
 *
 * Narrowing (float or double -> a 16-bit type) goes through one routine
 * that rounds an exact value m * 2^e (m an integer below 2^54) to the
 * nearest value of the format, ties to even.  Rounding a double directly
 * this way avoids the double rounding of double -> float -> half.  A float
 * is narrowed as the double that holds it exactly. */
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

/* A 16-bit floating format: float16 (5 exponent bits, 10 stored mantissa
 * bits) and bfloat16 (8 and 7). */
typedef struct half_format {
  int mant_bits; /* stored mantissa bits */
  int bias;      /* exponent bias */
} half_format;

static const half_format FORMAT_HALF = {10, 15};
static const half_format FORMAT_BF16 = {7, 127};

/* The format's +infinity: every exponent bit set, mantissa 0. */
static uint32_t format_inf(const half_format *f) {
  return (uint32_t)(2 * f->bias + 1) << f->mant_bits;
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
  const uint32_t inf = format_inf(f);
  const int qe_min = 1 - f->bias - f->mant_bits;
  int lead = e + leading_bit(m);
  if (lead > f->bias) return (uint16_t)inf; /* beyond every finite value */
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
  int biased = lead + f->bias; /* 1 .. 2 * bias here */
  uint32_t bits = ((uint32_t)(biased - 1) << f->mant_bits) + (uint32_t)q;
  return (uint16_t)(bits >= inf ? inf : bits);
}

/* A double in format f: signed zeros and infinities kept, NaN quiet with
 * its top payload bits, everything else rounded to nearest even. */
static uint16_t narrow_double(double d, const half_format *f) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  const uint16_t sign = (uint16_t)((u >> 48) & 0x8000u);
  const uint32_t exp = (uint32_t)(u >> 52) & 0x7ff;
  const uint64_t mant = u & 0xfffffffffffffull;
  const uint32_t inf = format_inf(f);
  if (exp == 0x7ff) {
    if (mant == 0) return (uint16_t)(sign | inf);
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
