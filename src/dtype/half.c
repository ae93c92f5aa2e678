/* IEEE binary16 and bfloat16 conversions, done on bit patterns so they are
 * exact and independent of the FPU's rounding mode and of F16C support.
 *
 * Narrowing (float or double -> half) goes through one routine that rounds
 * an exact value m * 2^e (m an integer below 2^54) to the nearest half, ties
 * to even.  Rounding a double directly this way avoids the double rounding
 * of double -> float -> half. */
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

/* Rounds |value| = m * 2^e (m != 0, m < 2^54) to a half magnitude.
 *
 * A half is q * 2^qe where the quantum exponent qe is -24 for subnormals and
 * L - 10 for a normal value whose leading bit is 2^L.  With qe fixed, the
 * result is m * 2^(e - qe) rounded to an integer q.  The half encoding is
 * monotonic, so a q that rounds up to the next binade (q = 2048 for normals,
 * 1024 for subnormals) carries into the exponent field by plain addition,
 * and a carry past the largest finite half produces exactly 0x7c00 (inf). */
static uint16_t round_magnitude_to_half(uint64_t m, int e) {
  int lead = e + leading_bit(m);
  if (lead >= 16) return 0x7c00; /* >= 65536: beyond every finite half */
  int qe = lead - 10 < -24 ? -24 : lead - 10;
  int shift = qe - e; /* bits of m below the quantum */
  uint64_t q;
  if (shift <= 0) {
    q = m << -shift; /* exact: fewer than 11 significant bits remain */
  } else if (shift >= 56) {
    q = 0; /* m < 2^54, so value < quantum / 4: rounds to zero */
  } else {
    q = m >> shift;
    uint64_t rest = m & (((uint64_t)1 << shift) - 1);
    uint64_t half_quantum = (uint64_t)1 << (shift - 1);
    if (rest > half_quantum || (rest == half_quantum && (q & 1))) q++;
  }
  if (qe == -24) return (uint16_t)q; /* subnormal, or 0x0400 after carry */
  int biased = lead + 15;            /* 1..30 here */
  uint32_t bits = ((uint32_t)(biased - 1) << 10) + (uint32_t)q;
  return (uint16_t)(bits >= 0x7c00 ? 0x7c00 : bits);
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

uint16_t bcast_float_to_half(float f) {
  uint32_t u = float_bits(f);
  uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
  uint32_t exp = (u >> 23) & 0xff;
  uint32_t mant = u & 0x7fffffu;
  if (exp == 0xff) {
    if (mant == 0) return sign | 0x7c00;
    /* NaN: keep the top payload bits and force the quiet bit. */
    return (uint16_t)(sign | 0x7e00u | (mant >> 13));
  }
  if (exp == 0 && mant == 0) return sign;
  uint64_t m = exp ? (mant | 0x800000u) : mant;
  int e = (exp ? (int)exp : 1) - 127 - 23;
  return sign | round_magnitude_to_half(m, e);
}

uint16_t bcast_double_to_half(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  uint16_t sign = (uint16_t)((u >> 48) & 0x8000u);
  uint32_t exp = (uint32_t)(u >> 52) & 0x7ff;
  uint64_t mant = u & 0xfffffffffffffull;
  if (exp == 0x7ff) {
    if (mant == 0) return sign | 0x7c00;
    return (uint16_t)(sign | 0x7e00u | (uint16_t)(mant >> 42));
  }
  if (exp == 0 && mant == 0) return sign;
  uint64_t m = exp ? (mant | 0x10000000000000ull) : mant;
  int e = (exp ? (int)exp : 1) - 1023 - 52;
  return sign | round_magnitude_to_half(m, e);
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
