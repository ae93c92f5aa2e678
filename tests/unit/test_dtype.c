/* Element type table and float16 / bfloat16 conversions.
 *
 * Narrowing conversions are checked against a slow reference that finds the
 * two halves around a value by binary search over the (monotonic) positive
 * encodings and picks the nearer one in exact double arithmetic. */
#include <math.h>
#include <stdlib.h>

#include "bcast/dtype.h"
#include "test.h"

TEST(dtype_table) {
  CHECK_STR(bcast_dtype_name(BCAST_FLOAT32), "float32");
  CHECK_STR(bcast_dtype_mlir_name(BCAST_UINT16), "ui16");
  CHECK_STR(bcast_dtype_mlir_name(BCAST_BOOL), "i1");
  CHECK_INT(bcast_dtype_size(BCAST_FLOAT16), 2);
  CHECK_INT(bcast_dtype_size(BCAST_INT64), 8);
  CHECK_INT(bcast_dtype_size(BCAST_STRING), sizeof(bcast_string));
  CHECK_INT(bcast_dtype_kind_of(BCAST_UINT8), BCAST_KIND_UNSIGNED);
  CHECK_INT(bcast_dtype_kind_of(BCAST_BFLOAT16), BCAST_KIND_FLOAT);
  CHECK_INT(bcast_dtype_kind_of(BCAST_STRING), BCAST_KIND_STRING);
  CHECK_STR(bcast_dtype_name(BCAST_DTYPE_COUNT), "unknown");
  CHECK_INT(bcast_dtype_size((bcast_dtype)-1), 0);
  for (int i = 0; i < BCAST_DTYPE_COUNT; i++) {
    bcast_dtype d;
    const char *name = bcast_dtype_name((bcast_dtype)i);
    const char *mlir = bcast_dtype_mlir_name((bcast_dtype)i);
    CHECK_INT(bcast_dtype_parse(name, strlen(name), &d), BCAST_OK);
    CHECK_INT(d, i);
    CHECK_INT(bcast_dtype_parse(mlir, strlen(mlir), &d), BCAST_OK);
    CHECK_INT(d, i);
  }
  bcast_dtype d;
  CHECK_INT(bcast_dtype_parse("f3", 2, &d), BCAST_INVALID_ARGUMENT);
  CHECK_INT(bcast_dtype_parse("float32x", 7, &d), BCAST_OK); /* length-bounded */
  CHECK_INT(d, BCAST_FLOAT32);
  CHECK_INT(bcast_dtype_parse("float", 5, &d), BCAST_INVALID_ARGUMENT);
}

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static float bitsf(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static double dbits(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* Value of a positive half encoding; 0x7c00 stands for 65536, the next
 * "binade" value IEEE rounding uses to decide overflow. */
static double half_value(uint16_t h) {
  if (h >= 0x7c00) return 65536.0;
  int exp = h >> 10, mant = h & 0x3ff;
  if (exp == 0) return ldexp(mant, -24);
  return ldexp(1024 + mant, exp - 25);
}

/* Reference narrowing of a finite or infinite non-NaN double. */
static uint16_t ref_to_half(double d) {
  uint16_t sign = signbit(d) ? 0x8000 : 0;
  double a = fabs(d);
  if (a >= 65536.0) return sign | 0x7c00;
  uint32_t lo = 0, hi = 0x7c00; /* half_value(lo) <= a < half_value(hi) */
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (half_value((uint16_t)mid) <= a) lo = mid;
    else hi = mid;
  }
  double below = a - half_value((uint16_t)lo), above = half_value((uint16_t)hi) - a;
  uint32_t r = below < above ? lo : above < below ? hi : ((lo & 1) ? hi : lo);
  return (uint16_t)(sign | r);
}

TEST(half_exhaustive_round_trip) {
  for (uint32_t h = 0; h < 65536; h++) {
    float f = bcast_half_to_float((uint16_t)h);
    uint16_t back = bcast_float_to_half(f);
    uint16_t back_d = bcast_double_to_half((double)f);
    int is_nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
    /* NaNs come back quiet with the same payload; everything else exactly. */
    uint16_t want = is_nan ? (uint16_t)(h | 0x200) : (uint16_t)h;
    if (back != want || back_d != want)
      test_fail(t, __FILE__, __LINE__, "half 0x%04x -> %a -> 0x%04x / 0x%04x",
                h, (double)f, back, back_d);
    if (!is_nan && (h & 0x7fff) != 0x7c00) {
      double v = half_value((uint16_t)(h & 0x7fff));
      if ((double)fabsf(f) != v || (signbit(f) != 0) != ((h & 0x8000) != 0))
        test_fail(t, __FILE__, __LINE__, "half 0x%04x -> %a, expected %a", h,
                  (double)f, v);
    }
    if (is_nan && !isnan(f)) test_fail(t, __FILE__, __LINE__, "NaN 0x%04x lost", h);
  }
  CHECK(isinf(bcast_half_to_float(0x7c00)) && bcast_half_to_float(0x7c00) > 0);
  CHECK(isinf(bcast_half_to_float(0xfc00)) && bcast_half_to_float(0xfc00) < 0);
  CHECK(bcast_half_to_float(0x0001) == ldexpf(1.0f, -24));
  CHECK(bcast_half_to_float(0x7bff) == 65504.0f);
  CHECK(bcast_half_to_float(0x3c00) == 1.0f);
}

static void check_float(test_ctx *t, float f) {
  if (isnan(f)) return;
  uint16_t got = bcast_float_to_half(f), want = ref_to_half((double)f);
  if (got != want)
    test_fail(t, __FILE__, __LINE__, "float %a (0x%08x) -> 0x%04x, expected 0x%04x",
              (double)f, fbits(f), got, want);
}

static void check_double(test_ctx *t, double d) {
  if (isnan(d)) return;
  uint16_t got = bcast_double_to_half(d), want = ref_to_half(d);
  if (got != want)
    test_fail(t, __FILE__, __LINE__, "double %a -> 0x%04x, expected 0x%04x", d,
              got, want);
}

TEST(half_from_float_boundaries) {
  /* Every half, its midpoints with both neighbours, and one float ulp
   * either side of each of those. */
  for (uint32_t h = 0; h < 0x7c00; h++) {
    double v = half_value((uint16_t)h), next = half_value((uint16_t)(h + 1));
    float points[3] = {(float)v, (float)((v + next) / 2), (float)next};
    for (int k = 0; k < 3; k++) {
      for (int s = -1; s <= 1; s++) {
        float p = points[k];
        if (s) p = nextafterf(p, s > 0 ? INFINITY : 0.0f);
        check_float(t, p);
        check_float(t, -p);
        check_double(t, (double)p);
        check_double(t, -(double)p);
      }
      /* A double just off the midpoint: a float would round it onto the
       * midpoint and a float -> half step would then tie to even. */
      double mid = (v + next) / 2;
      check_double(t, nextafter(mid, INFINITY));
      check_double(t, nextafter(mid, 0.0));
      check_double(t, mid + ldexp(mid, -40));
    }
  }
  CHECK_INT(bcast_float_to_half(65504.0f), 0x7bff);
  CHECK_INT(bcast_float_to_half(65519.99f), 0x7bff);
  CHECK_INT(bcast_float_to_half(65520.0f), 0x7c00);
  CHECK_INT(bcast_float_to_half(1e30f), 0x7c00);
  CHECK_INT(bcast_float_to_half(-INFINITY), 0xfc00);
  CHECK_INT(bcast_float_to_half(-0.0f), 0x8000);
  CHECK_INT(bcast_float_to_half(ldexpf(1.0f, -25)), 0x0000); /* tie to even 0 */
  CHECK_INT(bcast_float_to_half(nextafterf(ldexpf(1.0f, -25), 1.0f)), 0x0001);
  CHECK_INT(bcast_float_to_half(ldexpf(3.0f, -25)), 0x0002); /* 1.5 -> 2 */
  CHECK_INT(bcast_float_to_half(bitsf(1)), 0x0000);          /* float subnormal */
  CHECK_INT(bcast_double_to_half(dbits(1)), 0x0000);
  CHECK_INT(bcast_double_to_half(1e300), 0x7c00);
  CHECK_INT(bcast_double_to_half(1.0 + ldexp(1.0, -11) + ldexp(1.0, -40)), 0x3c01);
  CHECK_INT(bcast_float_to_half((float)(1.0 + ldexp(1.0, -11))), 0x3c00);
  /* NaN: quiet, payload kept where it fits, sign kept. */
  CHECK_INT(bcast_float_to_half(bitsf(0x7fc00000u)), 0x7e00);
  CHECK_INT(bcast_float_to_half(bitsf(0xffc00000u)), 0xfe00);
  CHECK_INT(bcast_float_to_half(bitsf(0x7f800001u)), 0x7e00);
  CHECK_INT(bcast_float_to_half(bitsf(0x7f8fe000u)), 0x7e7f);
  CHECK_INT(bcast_double_to_half(dbits(0x7ff0000000000001ull)), 0x7e00);
  CHECK_INT(bcast_double_to_half(dbits(0x7ff8040000000000ull)), 0x7e01);
}

TEST(half_from_float_random) {
  uint64_t state = test_seed() ^ 0x4841u;
  for (int i = 0; i < 2000000; i++) {
    uint64_t r = test_rand(&state);
    /* Half the draws concentrate on the exponents a half can represent. */
    uint32_t u = (uint32_t)r;
    if (r >> 63) u = (u & 0x807fffffu) | ((uint32_t)(96 + (r >> 40) % 48) << 23);
    check_float(t, bitsf(u));
    uint64_t du = test_rand(&state);
    if (r & 1) du = (du & 0x800fffffffffffffull) | ((uint64_t)(1023 - 30 + (r >> 40) % 48) << 52);
    check_double(t, dbits(du));
  }
}

TEST(bfloat16_conversions) {
  for (uint32_t b = 0; b < 65536; b++) {
    float f = bcast_bf16_to_float((uint16_t)b);
    CHECK_INT(fbits(f), b << 16);
    int is_nan = (b & 0x7f80) == 0x7f80 && (b & 0x7f);
    uint16_t want = is_nan ? (uint16_t)(b | 0x40) : (uint16_t)b;
    if (bcast_float_to_bf16(f) != want)
      test_fail(t, __FILE__, __LINE__, "bf16 0x%04x round trip", b);
  }
  CHECK_INT(bcast_float_to_bf16(bitsf(0x3f808000u)), 0x3f80); /* tie, even */
  CHECK_INT(bcast_float_to_bf16(bitsf(0x3f818000u)), 0x3f82); /* tie, odd up */
  CHECK_INT(bcast_float_to_bf16(bitsf(0x3f808001u)), 0x3f81);
  CHECK_INT(bcast_float_to_bf16(bitsf(0x7f7fffffu)), 0x7f80); /* overflow */
  CHECK_INT(bcast_float_to_bf16(bitsf(0xff800000u)), 0xff80);
  CHECK_INT(bcast_float_to_bf16(bitsf(0x7f800001u)), 0x7fc0);
  CHECK_INT(bcast_float_to_bf16(bitsf(0xffa12345u)), 0xffe1);
  uint64_t state = test_seed() ^ 0xbf16u;
  for (int i = 0; i < 1000000; i++) {
    uint32_t u = (uint32_t)test_rand(&state);
    float f = bitsf(u);
    if (isnan(f)) continue;
    /* Reference: the nearer of the truncation and the next encoding. */
    uint32_t lo = u & 0xffff0000u, rest = u & 0xffffu;
    uint32_t r = lo >> 16;
    if (rest > 0x8000u || (rest == 0x8000u && (r & 1))) r++;
    if (bcast_float_to_bf16(f) != (uint16_t)r)
      test_fail(t, __FILE__, __LINE__, "bf16 of 0x%08x", u);
  }
}
