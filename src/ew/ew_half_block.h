/* Blocks of float16 and bfloat16 converted to and from float with the
 * CPU's vector instructions, for the x86-64-v3 kernel set (ew_kernel.h).
 *
 * Each function converts m elements (any m >= 0) between a storage array
 * and a float array, and gives exactly the bits that ew_f16_load /
 * ew_f16_store / ew_bf16_load / ew_bf16_store (ew_scalar.h) give element
 * by element: the kernels that use them must be bit-identical to the
 * portable ones, and tests/unit/test_ew_half.c checks that they are.  Eight elements go
 * per step; the last m % 8 go through an eight-element buffer, so that
 * short runs take the same instructions.
 *
 * float16 uses F16C: vcvtph2ps widens exactly, except that it quiets a
 * signalling NaN and raises "invalid" for it, where ew_f16_load keeps it
 * signalling and raises nothing (a float16 -> float32 cast would show
 * both, and powf(1, x) is 1 for a quiet NaN x but NaN for a signalling
 * one), so those lanes are quieted before widening and unquieted after;
 * vcvtps2ph with an explicit round-to-nearest-even ignores MXCSR and
 * narrows as ew_f16_store does, NaN payloads included.  bfloat16 is
 * stored with AVX2 integer shifts (AVX-512 BF16's vcvtneps2bf16 flushes
 * subnormals, so it would not be bit-identical); its load, a shift, is
 * left to the compiler, which vectorizes it.
 *
 * Only included where EW_HAVE_AVX2 is set (x86, GCC or Clang); the
 * functions carry the kernel set's target attribute, EW_AVX2_. */
#ifndef BCAST_EW_HALF_BLOCK_H
#define BCAST_EW_HALF_BLOCK_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "ew/ew_scalar.h"

#define EW_V3_TARGET_ __attribute__((target("avx2,f16c")))

/* The last m < 8 elements of a block, through eight-element buffers. */
EW_V3_TARGET_ static inline __m128i ew_v3_load8_u16(const uint16_t *src,
                                                    int64_t m) {
  uint16_t tmp[8] = {0};
  memcpy(tmp, src, (size_t)m * sizeof *src);
  return _mm_loadu_si128((const __m128i *)(const void *)tmp);
}

EW_V3_TARGET_ static inline void ew_v3_store8_f32(float *dst, __m256 v,
                                                  int64_t m) {
  float tmp[8];
  _mm256_storeu_ps(tmp, v);
  memcpy(dst, tmp, (size_t)m * sizeof *dst);
}

EW_V3_TARGET_ static inline __m256 ew_v3_load8_f32(const float *src,
                                                   int64_t m) {
  float tmp[8] = {0};
  memcpy(tmp, src, (size_t)m * sizeof *src);
  return _mm256_loadu_ps(tmp);
}

EW_V3_TARGET_ static inline void ew_v3_store8_u16(uint16_t *dst, __m128i v,
                                                  int64_t m) {
  uint16_t tmp[8];
  _mm_storeu_si128((__m128i *)(void *)tmp, v);
  memcpy(dst, tmp, (size_t)m * sizeof *dst);
}

/* The loops below convert eight elements per step and the last m % 8
 * through the eight-element buffers above. */

/* Exactly ew_f16_load: a signalling NaN stays signalling, and widening
 * it raises no "invalid" (neither the portable load nor NumPy's cast
 * does, where vcvtph2ps would).  NaNs are rare, so the 16-bit lanes are
 * first tested for any NaN (magnitude above 0x7c00), and only a step with
 * one finds the signalling lanes, sets their quiet bit before widening and
 * clears it again after.  That test costs what the one it replaced did (an
 * unordered compare of the widened lanes, which could only see the NaN
 * after vcvtph2ps had raised "invalid"): a widening loop in L2 on the AMD
 * EPYC (Zen 4), 0.056 ns per element either way.  A lane is a signalling
 * NaN when its magnitude is strictly between 0x7c00 and 0x7e00; adding
 * 0x8000 - 0x7c01 wraps exactly those magnitudes (and no others) to the
 * signed range below -32768 + 0x1ff. */
EW_V3_TARGET_ static inline __m128i ew_v3_f16_snan16(__m128i h) {
  const __m128i mag = _mm_and_si128(h, _mm_set1_epi16(0x7fff));
  const __m128i shifted = _mm_add_epi16(mag, _mm_set1_epi16(0x8000 - 0x7c01));
  return _mm_cmpgt_epi16(_mm_set1_epi16(-32768 + 0x1ff), shifted);
}

/* The halves h, some of them NaNs, widened. */
EW_V3_TARGET_ static inline __m256 ew_v3_f16_widen_nan8(__m128i h) {
  const __m128i snan = ew_v3_f16_snan16(h);
  const __m256 f = _mm256_cvtph_ps(
      _mm_or_si128(h, _mm_and_si128(snan, _mm_set1_epi16(0x0200))));
  return _mm256_andnot_ps(
      _mm256_castsi256_ps(_mm256_and_si256(_mm256_cvtepi16_epi32(snan),
                                           _mm256_set1_epi32(0x00400000))),
      f);
}

EW_V3_TARGET_ static inline __m256 ew_v3_f16_widen8(__m128i h) {
  const __m128i nan = _mm_cmpgt_epi16(_mm_and_si128(h, _mm_set1_epi16(0x7fff)),
                                      _mm_set1_epi16(0x7c00));
  if (__builtin_expect(_mm_testz_si128(nan, nan), 1))
    return _mm256_cvtph_ps(h);
  return ew_v3_f16_widen_nan8(h);
}

/* Sixteen elements per step share one test for NaNs.  Where repair is 0
 * (a constant: the block's function quiets every NaN operand and raises
 * "invalid" for a signalling one, see EW_QUIETS_ in ew_kernel.h) the lanes
 * are widened as vcvtph2ps gives them, with no test: for such a function
 * the signalling NaN it quiets and raises "invalid" for gives the same
 * result and flags as the function would.  The test cost such blocks
 * much: a float16 add of 128x1024 in cache on that EPYC, 0.132 ns per
 * element with it, 0.077 without. */
EW_V3_TARGET_ static inline void
ew_v3_f16_load_block(float *dst, const uint16_t *src, int64_t m, int repair) {
  int64_t i = 0;
  if (repair)
    for (; i + 16 <= m; i += 16) {
      const __m128i h0 =
          _mm_loadu_si128((const __m128i *)(const void *)(src + i));
      const __m128i h1 =
          _mm_loadu_si128((const __m128i *)(const void *)(src + i + 8));
      const __m256i mag = _mm256_and_si256(_mm256_set_m128i(h1, h0),
                                           _mm256_set1_epi16(0x7fff));
      const __m256i nan = _mm256_cmpgt_epi16(mag, _mm256_set1_epi16(0x7c00));
      if (__builtin_expect(_mm256_testz_si256(nan, nan), 1)) {
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h0));
        _mm256_storeu_ps(dst + i + 8, _mm256_cvtph_ps(h1));
      } else {
        _mm256_storeu_ps(dst + i, ew_v3_f16_widen_nan8(h0));
        _mm256_storeu_ps(dst + i + 8, ew_v3_f16_widen_nan8(h1));
      }
    }
  for (; i + 8 <= m; i += 8) {
    const __m128i h =
        _mm_loadu_si128((const __m128i *)(const void *)(src + i));
    _mm256_storeu_ps(dst + i,
                     repair ? ew_v3_f16_widen8(h) : _mm256_cvtph_ps(h));
  }
  if (i < m) {
    const __m128i h = ew_v3_load8_u16(src + i, m - i);
    ew_v3_store8_f32(dst + i,
                     repair ? ew_v3_f16_widen8(h) : _mm256_cvtph_ps(h), m - i);
  }
}

/* The narrowing stores, around an eight-lane narrowing NARROW8 (float
 * lanes -> 16-bit lanes). */
#define EW_V3_STORE_BLOCK_(NAME, NARROW8)                                     \
  EW_V3_TARGET_ static inline void NAME(uint16_t *dst, const float *src,      \
                                        int64_t m) {                          \
    int64_t i = 0;                                                            \
    for (; i + 8 <= m; i += 8)                                                \
      _mm_storeu_si128((__m128i *)(void *)(dst + i),                          \
                       NARROW8(_mm256_loadu_ps(src + i)));                    \
    if (i < m)                                                                \
      ew_v3_store8_u16(dst + i, NARROW8(ew_v3_load8_f32(src + i, m - i)),     \
                       m - i);                                                \
  }

EW_V3_TARGET_ static inline __m128i ew_v3_f16_narrow8(__m256 f) {
  return _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT);
}
EW_V3_STORE_BLOCK_(ew_v3_f16_store_block, ew_v3_f16_narrow8)

/* ew_bf16_store on eight lanes: round to nearest even on the low 16 bits,
 * a NaN keeps its top bits and gets the quiet bit; the 32-bit lanes are
 * then packed to 16 bits (packus works within 128-bit halves, hence the
 * permute). */
EW_V3_TARGET_ static inline __m128i ew_v3_bf16_narrow8(__m256 f) {
  const __m256i u = _mm256_castps_si256(f);
  const __m256i odd =
      _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
  const __m256i rounded = _mm256_srli_epi32(
      _mm256_add_epi32(u, _mm256_add_epi32(_mm256_set1_epi32(0x7fff), odd)),
      16);
  const __m256i nan =
      _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x40));
  const __m256i is_nan =
      _mm256_cmpgt_epi32(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff)),
                         _mm256_set1_epi32(0x7f800000));
  const __m256i o = _mm256_blendv_epi8(rounded, nan, is_nan);
  const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(o, o),
                                                  0x08); /* lanes 0 and 2 */
  return _mm256_castsi256_si128(packed);
}

EW_V3_STORE_BLOCK_(ew_v3_bf16_store_block, ew_v3_bf16_narrow8)

#endif
