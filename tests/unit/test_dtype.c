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
  CHECK_INT(bcast_dtype_parse("float32x", 7, &d),
            BCAST_OK); /* length-bounded */
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

/* Every row of the one dtype table agrees with itself and with the lookup
 * functions: the storage type has the declared size, the value type has
 * the kind's arithmetic (signedness for integers, a fraction for floats,
 * the storage type itself unless the coding converts), 16-bit codings only
 * on 16-bit floats, round-trip digits exactly for floats, and TOSA's types
 * are the ones the specification lists. */
#define VALUE_CHECK_BCAST_KIND_BOOL(VT) CHECK((VT)2 == 2);
#define VALUE_CHECK_BCAST_KIND_SIGNED(VT) CHECK((VT)-1 < (VT)0);
#define VALUE_CHECK_BCAST_KIND_UNSIGNED(VT) CHECK((VT)-1 > (VT)0);
#define VALUE_CHECK_BCAST_KIND_FLOAT(VT) CHECK((VT)0.5 * 2 == 1);
#define VALUE_CHECK_BCAST_KIND_STRING(VT)                                     \
  CHECK(sizeof(VT) == sizeof(bcast_string));
TEST(dtype_table_rows_agree) {
  int rows = 0;
#define ROW_(unused, id, name, ctype, size, kind, npy, mlir, S, VT, VS,       \
             coding, digits, tosa)                                            \
  do {                                                                        \
    const bcast_dtype d = BCAST_##id;                                         \
    const char *coding_ = #coding;                                            \
    CHECK_INT(d, rows);                                                       \
    CHECK_STR(bcast_dtype_name(d), name);                                     \
    CHECK_STR(bcast_dtype_mlir_name(d), mlir);                                \
    CHECK_INT(bcast_dtype_size(d), sizeof(ctype));                            \
    CHECK_INT(bcast_dtype_kind_of(d), kind);                                  \
    CHECK_INT((digits) > 0, (kind) == BCAST_KIND_FLOAT);                      \
    CHECK_INT(strcmp(coding_, "BOOL") == 0, (kind) == BCAST_KIND_BOOL);       \
    if (strcmp(coding_, "HALF") == 0 || strcmp(coding_, "BF16") == 0 ||      \
        strncmp(coding_, "F8", 2) == 0) {                                     \
      CHECK_INT((kind), BCAST_KIND_FLOAT);                                    \
      CHECK_INT(sizeof(ctype), coding_[0] == 'F' ? 1 : 2);                    \
      CHECK_STR(#VS, "f32");                                                  \
    } else {                                                                  \
      CHECK_INT(sizeof(VT), sizeof(ctype));                                   \
      CHECK_STR(#VS, #S);                                                     \
    }                                                                         \
    VALUE_CHECK_##kind(VT) CHECK_INT(                                         \
        BCAST_DTYPE_IN_TOSA(tosa),                                            \
        d == BCAST_BOOL || d == BCAST_INT8 || d == BCAST_INT16 ||             \
            d == BCAST_INT32 || d == BCAST_FLOAT16 || d == BCAST_BFLOAT16 ||  \
            d == BCAST_FLOAT32);                                              \
    CHECK_INT(BCAST_DTYPE_ARITH(tosa),                                        \
              d != BCAST_FLOAT8_E4M3FN && d != BCAST_FLOAT8_E5M2);            \
    (void)(npy);                                                              \
    rows++;                                                                   \
  } while (0);
  BCAST_DTYPE_TABLE(ROW_, 0)
#undef ROW_
  CHECK_INT(rows, BCAST_DTYPE_COUNT);
  /* The seven-column view sees the same rows in the same order. */
  int listed = 0;
#define LIST_(id, name, ctype, size, kind, npy, mlir)                         \
  CHECK_INT(BCAST_##id, listed++);                                            \
  CHECK_INT(size, sizeof(ctype));
  BCAST_DTYPE_LIST(LIST_)
#undef LIST_
  CHECK_INT(listed, BCAST_DTYPE_COUNT);
}

static const char *fmt_value(bcast_dtype dtype, const void *elem) {
  static char text[128];
  size_t n = bcast_dtype_format_value(dtype, elem, text, sizeof text);
  if (n != strlen(text)) return "(length mismatch)";
  return text;
}

TEST(dtype_format_value_prints_like_numpy) {
  const uint8_t yes = 1, no = 0, two = 2;
  CHECK_STR(fmt_value(BCAST_BOOL, &yes), "True");
  CHECK_STR(fmt_value(BCAST_BOOL, &no), "False");
  CHECK_STR(fmt_value(BCAST_BOOL, &two), "True");
  const int8_t i8 = -128;
  const int64_t i64 = INT64_MIN;
  const uint8_t u8 = 255;
  const uint64_t u64 = UINT64_MAX;
  CHECK_STR(fmt_value(BCAST_INT8, &i8), "-128");
  CHECK_STR(fmt_value(BCAST_INT64, &i64), "-9223372036854775808");
  CHECK_STR(fmt_value(BCAST_UINT8, &u8), "255");
  CHECK_STR(fmt_value(BCAST_UINT64, &u64), "18446744073709551615");
  const uint16_t h = bcast_float_to_half(0.1f), b = bcast_float_to_bf16(0.1f);
  const float f = 0.1f, finf = -INFINITY;
  const double dd = 0.1;
  CHECK_STR(fmt_value(BCAST_FLOAT16, &h), "0.099976");
  CHECK_STR(fmt_value(BCAST_BFLOAT16, &b), "0.1001");
  CHECK_STR(fmt_value(BCAST_FLOAT32, &f), "0.100000001");
  CHECK_STR(fmt_value(BCAST_FLOAT32, &finf), "-inf");
  CHECK_STR(fmt_value(BCAST_FLOAT64, &dd), "0.10000000000000001");
  const bcast_string s = {"a'b\\c\n\x01\x7f"
                          "d",
                          9};
  CHECK_STR(fmt_value(BCAST_STRING, &s), "'a\\'b\\\\c\\n\\x01\\x7fd'");
  CHECK_STR(fmt_value(BCAST_DTYPE_COUNT, &yes), "?");
  /* Unaligned elements are fine. */
  char raw[9] = {0};
  const int32_t i32 = -7;
  memcpy(raw + 1, &i32, sizeof i32);
  CHECK_STR(fmt_value(BCAST_INT32, raw + 1), "-7");
  /* snprintf's contract: the full length, a truncated NUL-terminated
   * text, and nothing written for cap 0. */
  char small[4] = "xyz";
  CHECK_INT(bcast_dtype_format_value(BCAST_INT64, &i64, small, 0), 20);
  CHECK_STR(small, "xyz");
  CHECK_INT(bcast_dtype_format_value(BCAST_INT64, &i64, small, sizeof small),
            20);
  CHECK_STR(small, "-92");
  CHECK_INT(bcast_dtype_format_value(BCAST_STRING, &s, small, sizeof small),
            strlen("'a\\'b\\\\c\\n\\x01\\x7fd'"));
  CHECK_STR(small, "'a\\");
}

/* The round-trip digits of each float type print every value so that it
 * reads back to the same encoding. */
TEST(dtype_float_digits_round_trip) {
  uint64_t rng = test_seed() ^ 0xd161u;
  char text[64];
  for (int i = 0; i < 20000; i++) {
    const uint64_t bits = test_rand(&rng);
    const uint16_t h = (uint16_t)bits;
    const float f = bitsf((uint32_t)bits);
    const double d = dbits(bits);
    if (!isnan(bcast_half_to_float(h))) {
      bcast_dtype_format_value(BCAST_FLOAT16, &h, text, sizeof text);
      CHECK_INT(bcast_float_to_half((float)strtod(text, NULL)), h);
    }
    if (!isnan(bcast_bf16_to_float(h))) {
      bcast_dtype_format_value(BCAST_BFLOAT16, &h, text, sizeof text);
      CHECK_INT(bcast_float_to_bf16((float)strtod(text, NULL)), h);
    }
    if (!isnan(f)) {
      bcast_dtype_format_value(BCAST_FLOAT32, &f, text, sizeof text);
      CHECK_INT(fbits(strtof(text, NULL)), fbits(f));
    }
    if (!isnan(d)) {
      bcast_dtype_format_value(BCAST_FLOAT64, &d, text, sizeof text);
      const double back = strtod(text, NULL);
      CHECK(memcmp(&back, &d, sizeof d) == 0);
    }
  }
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
    if (half_value((uint16_t)mid) <= a)
      lo = mid;
    else
      hi = mid;
  }
  double below = a - half_value((uint16_t)lo),
         above = half_value((uint16_t)hi) - a;
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
    if (is_nan && !isnan(f))
      test_fail(t, __FILE__, __LINE__, "NaN 0x%04x lost", h);
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
    test_fail(t, __FILE__, __LINE__,
              "float %a (0x%08x) -> 0x%04x, expected 0x%04x", (double)f,
              fbits(f), got, want);
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
  CHECK_INT(bcast_float_to_half(ldexpf(1.0f, -25)),
            0x0000); /* tie to even 0 */
  CHECK_INT(bcast_float_to_half(nextafterf(ldexpf(1.0f, -25), 1.0f)), 0x0001);
  CHECK_INT(bcast_float_to_half(ldexpf(3.0f, -25)), 0x0002); /* 1.5 -> 2 */
  CHECK_INT(bcast_float_to_half(bitsf(1)), 0x0000); /* float subnormal */
  CHECK_INT(bcast_double_to_half(dbits(1)), 0x0000);
  CHECK_INT(bcast_double_to_half(1e300), 0x7c00);
  CHECK_INT(bcast_double_to_half(1.0 + ldexp(1.0, -11) + ldexp(1.0, -40)),
            0x3c01);
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
    if (r >> 63)
      u = (u & 0x807fffffu) | ((uint32_t)(96 + (r >> 40) % 48) << 23);
    check_float(t, bitsf(u));
    uint64_t du = test_rand(&state);
    if (r & 1)
      du = (du & 0x800fffffffffffffull) |
           ((uint64_t)(1023 - 30 + (r >> 40) % 48) << 52);
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

/* Value of a positive bfloat16 encoding; 0x7f80 stands for 2^128, the
 * next binade after the largest finite value. */
static double bf16_value(uint32_t b) {
  return b >= 0x7f80 ? ldexp(1.0, 128)
                     : (double)bcast_bf16_to_float((uint16_t)b);
}

/* Reference narrowing of a non-NaN double to bfloat16, as ref_to_half. */
static uint16_t ref_to_bf16(double d) {
  uint16_t sign = signbit(d) ? 0x8000 : 0;
  double a = fabs(d);
  if (a >= ldexp(1.0, 128)) return sign | 0x7f80;
  uint32_t lo = 0, hi = 0x7f80; /* bf16_value(lo) <= a < bf16_value(hi) */
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (bf16_value(mid) <= a)
      lo = mid;
    else
      hi = mid;
  }
  double below = a - bf16_value(lo), above = bf16_value(hi) - a;
  uint32_t r = below < above ? lo : above < below ? hi : ((lo & 1) ? hi : lo);
  return (uint16_t)(sign | r);
}

static void check_double_bf16(test_ctx *t, double d) {
  uint16_t got = bcast_double_to_bf16(d), want = ref_to_bf16(d);
  if (got != want)
    test_fail(t, __FILE__, __LINE__,
              "double %a -> bf16 0x%04x, expected 0x%04x", d, got, want);
}

TEST(bfloat16_from_double_rounds_once) {
  /* Every positive encoding, the midpoints with its neighbour and one
   * double ulp either side: rounding through float first would get the
   * points just beside a midpoint wrong. */
  for (uint32_t b = 0; b < 0x7f80; b++) {
    const double v = bf16_value(b), mid = (v + bf16_value(b + 1)) / 2;
    check_double_bf16(t, v);
    check_double_bf16(t, -v);
    check_double_bf16(t, mid);
    check_double_bf16(t, nextafter(mid, 0.0));
    check_double_bf16(t, nextafter(mid, INFINITY));
  }
  CHECK_INT(bcast_double_to_bf16(1.0 + ldexp(1.0, -8) + ldexp(1.0, -40)),
            0x3f81);
  CHECK_INT(
      bcast_float_to_bf16((float)(1.0 + ldexp(1.0, -8) + ldexp(1.0, -40))),
      0x3f80); /* through float: rounded twice */
  CHECK_INT(bcast_double_to_bf16(1e300), 0x7f80);
  CHECK_INT(bcast_double_to_bf16(-INFINITY), 0xff80);
  CHECK_INT(bcast_double_to_bf16(-0.0), 0x8000);
  CHECK_INT(bcast_double_to_bf16(dbits(1)), 0x0000); /* double subnormal */
  CHECK_INT(bcast_double_to_bf16(ldexp(1.0, -133)), 0x0001); /* least bf16 */
  CHECK_INT(bcast_double_to_bf16(ldexp(1.0, -134)),
            0x0000); /* tie to even 0 */
  CHECK_INT(bcast_double_to_bf16(dbits(0x7ff8000000000000ull)), 0x7fc0);
  CHECK_INT(bcast_double_to_bf16(dbits(0xfff0200000000000ull)), 0xffc1);
  uint64_t state = test_seed() ^ 0xbf64u;
  for (int i = 0; i < 1000000; i++) {
    uint64_t r = test_rand(&state), u = test_rand(&state);
    /* Most draws on the exponents bfloat16 represents (2^-140 .. 2^130). */
    if (r & 1)
      u = (u & 0x800fffffffffffffull) |
          ((uint64_t)(1023 - 140 + (r >> 40) % 271) << 52);
    const double d = dbits(u);
    if (!isnan(d)) check_double_bf16(t, d);
  }
}
