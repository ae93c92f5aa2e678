/* The 8-bit floats: the conversion functions over every pattern and every
 * rounding boundary, the cast tables, and the cast kernels against a
 * transcription of the op sequence MLIR 22's tosa-to-linalg writes.  The
 * values themselves are checked against mlir-opt 22's folding by
 * tests/diff/test_tosa22_fp8.py. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bcast/elementwise.h"
#include "bcast/op.h"
#include "test.h"

typedef struct fp8_format {
  bcast_dtype dtype;
  float (*widen)(uint8_t);
  uint8_t (*narrow)(double);
  int max_exp;  /* exponent of the largest finite binade */
  int nan_only; /* E4M3FN: no infinity, 0x7f / 0xff the NaNs */
} fp8_format;

static const fp8_format formats[2] = {
    {BCAST_FLOAT8_E4M3FN, bcast_f8e4m3fn_to_float, bcast_double_to_f8e4m3fn,
     8, 1},
    {BCAST_FLOAT8_E5M2, bcast_f8e5m2_to_float, bcast_double_to_f8e5m2, 15,
     0},
};

static int is_nan_pattern(const fp8_format *f, unsigned b) {
  const unsigned m = b & 0x7fu;
  return f->nan_only ? m == 0x7fu : m > 0x7cu;
}

/* Every pattern widens to a value that narrows back to it (NaNs to the
 * format's quiet NaN of the same sign), and the finite ones increase
 * with the pattern. */
TEST(fp8_every_pattern_round_trips) {
  for (int k = 0; k < 2; k++) {
    const fp8_format *f = &formats[k];
    float prev = -1.0f;
    for (unsigned b = 0; b < 256; b++) {
      const float v = f->widen((uint8_t)b);
      const unsigned back = f->narrow(v);
      CHECK_INT(!!isnan(v), is_nan_pattern(f, b));
      CHECK_INT(!!signbit(v), (b & 0x80u) != 0);
      if (isnan(v)) {
        CHECK_INT(back, f->nan_only ? (b | 0x7fu) : (b | 0x02u));
        continue;
      }
      CHECK_INT(back, b);
      if (b < 0x80u && !isinf(v)) {
        CHECK(v > prev || b == 0);
        prev = v;
      }
    }
  }
}

/* Between two neighbouring finite values: the midpoint goes to the even
 * pattern, one double ulp either side to the nearer one.  Past the largest
 * value the next step is where the overflow pattern sits (E5M2: 65536,
 * infinity, which the tie at 61440 reaches as the even pattern; E4M3FN:
 * 480, its NaN, odd: 464 stays 448, anything above is NaN). */
TEST(fp8_narrowing_rounds_to_nearest_even_at_every_boundary) {
  for (int k = 0; k < 2; k++) {
    const fp8_format *f = &formats[k];
    const unsigned top = f->nan_only ? 0x7eu : 0x7bu; /* largest finite */
    for (unsigned b = 0; b <= top; b++) {
      const double lo = f->widen((uint8_t)b);
      /* Past the top: one more step, where the next pattern would be. */
      const double hi = b < top ? (double)f->widen((uint8_t)(b + 1))
                                : 2 * lo - f->widen((uint8_t)(b - 1));
      const unsigned next = b + 1; /* the pattern of hi (or the overflow) */
      const double mid = (lo + hi) / 2;
      for (int s = 0; s < 2; s++) {
        const double sign = s ? -1.0 : 1.0;
        const unsigned sb = s ? 0x80u : 0u;
        const unsigned over = f->nan_only ? 0x7fu : 0x7cu;
        const unsigned want_next = next > top ? over : next;
        const unsigned even = (b & 1u) ? want_next : b;
        CHECK_INT(f->narrow(sign * mid), even | sb);
        CHECK_INT(f->narrow(sign * nextafter(mid, 0.0)), b | sb);
        CHECK_INT(f->narrow(sign * nextafter(mid, INFINITY)), want_next | sb);
        CHECK_INT(f->narrow(sign * lo), b | sb);
      }
    }
    const unsigned inf = f->nan_only ? 0x7fu : 0x7cu;
    CHECK_INT(f->narrow(INFINITY), inf);
    CHECK_INT(f->narrow(-INFINITY), inf | 0x80u);
    CHECK_INT(f->narrow(1e300), inf);
    CHECK_INT(f->narrow(-0.0), 0x80u);
    CHECK_INT(f->narrow(ldexp(1.0, -1074)), 0u); /* far below: zero */
    CHECK_INT(f->narrow(NAN) & 0x7fu, f->nan_only ? 0x7fu : 0x7eu);
    CHECK_INT(f->narrow(-NAN), f->nan_only ? 0xffu : 0xfeu);
  }
}

/* The cast tables: the tosa-1.0 tables have TOSA 1.0's fp8 modes (to and
 * from float16, bfloat16, float32); MLIR's take bool, the signed
 * integers and the floats both ways, never the other 8-bit float or an
 * unsigned type. */
TEST(fp8_cast_tables) {
  const uint32_t peers = BCAST_TYPE_BIT(FLOAT16) | BCAST_TYPE_BIT(BFLOAT16) |
                         BCAST_TYPE_BIT(FLOAT32);
  const uint32_t mlir = BCAST_TYPES_BOOL | BCAST_TYPES_SINT |
                        BCAST_TYPES_UINT | BCAST_TYPES_FLOAT;
  for (int k = 0; k < 2; k++) {
    const bcast_dtype d = formats[k].dtype;
    CHECK_INT(bcast_op_cast_targets_in(d, BCAST_PROFILE_TOSA,
                                       BCAST_TYPE_TABLES_TOSA_1_0),
              peers);
    CHECK_INT(bcast_op_cast_targets_in(d, BCAST_PROFILE_TOSA,
                                       BCAST_TYPE_TABLES_MLIR),
              mlir);
    CHECK_INT(bcast_op_cast_targets(d, BCAST_PROFILE_NUMPY), 0);
    for (int s = 0; s < BCAST_DTYPE_COUNT; s++) {
      const uint32_t to1 = bcast_op_cast_targets_in(
          (bcast_dtype)s, BCAST_PROFILE_TOSA, BCAST_TYPE_TABLES_TOSA_1_0);
      const uint32_t to2 = bcast_op_cast_targets_in(
          (bcast_dtype)s, BCAST_PROFILE_TOSA, BCAST_TYPE_TABLES_MLIR);
      CHECK_INT(!!(to1 & (1u << d)), !!(peers & (1u << s)));
      CHECK_INT(!!(to2 & (1u << d)), !!(mlir & (1u << s)));
    }
    /* Under MLIR 22's tables every op that takes float16 takes the 8-bit
     * floats (mlir-opt verifies and lowers them all); TOSA 1.0's have
     * them in CAST only, and numpy none. */
    for (int op = 0; op < BCAST_OP_COUNT; op++) {
      const uint32_t mlir_types =
          bcast_op_types((bcast_op)op, BCAST_PROFILE_TOSA);
      CHECK_INT(!!(mlir_types & (1u << d)),
                !!(mlir_types & BCAST_TYPE_BIT(FLOAT16)));
      CHECK_INT(!!(bcast_op_types_in((bcast_op)op, BCAST_PROFILE_TOSA,
                                     BCAST_TYPE_TABLES_TOSA_1_0) &
                   (1u << d)),
                op == BCAST_OP_CAST);
      CHECK_INT(
          !!(bcast_op_types((bcast_op)op, BCAST_PROFILE_NUMPY) & (1u << d)),
          0);
    }
  }
}

/* MLIR 22's tosa-to-linalg for an 8-bit float -> iN, transcribed op by op:
 * r = math.roundeven x; where the format's largest exponent reaches
 * N - 1, select(cmpf uge r, 2^(N-1)) -> max, else fptosi(maximumf(r,
 * -2^(N-1))); otherwise fptosi r, then select(cmpf ueq r, +inf pattern)
 * -> max and select(cmpf ueq r, -inf pattern) -> min (E4M3FN's "inf"
 * pattern is its NaN: ueq is true for every r). */
static int64_t mlir_f2i(const fp8_format *f, float x, int n) {
  const int64_t max = (int64_t)(UINT64_MAX >> (65 - n)), min = -max - 1;
  const double r = nearbyint((double)x);
  if (n - 1 <= f->max_exp) {
    const double lim = ldexp(1.0, n - 1);
    const int uge = isnan(r) || r >= lim;
    const double clamped = r > -lim ? r : -lim;
    return uge ? max : (int64_t)clamped;
  }
  const double inf = f->widen(f->nan_only ? 0x7f : 0x7c);
  const int ueq_pos = isnan(r) || isnan(inf) || r == inf;
  const int ueq_neg = isnan(r) || isnan(inf) || r == -inf;
  int64_t v = ueq_pos ? max : (isinf(r) || isnan(r)) ? 0 : (int64_t)r;
  return ueq_neg ? min : v;
}

static int64_t load_int(const void *p, int n) {
  switch (n) {
  case 8:
    return *(const int8_t *)p;
  case 16:
    return *(const int16_t *)p;
  case 32:
    return *(const int32_t *)p;
  default:
    return *(const int64_t *)p;
  }
}

/* The cast kernels over all 256 patterns: to every signed integer as the
 * transcription computes, to float32 as the widening, and back from
 * float32 and float16 as the narrowing (the float16 rows go through the
 * blocked v3 loops where the CPU has them). */
TEST(ew_fp8_cast_kernels_follow_mlir) {
  uint8_t pats[256];
  for (int b = 0; b < 256; b++) pats[b] = (uint8_t)b;
  const int64_t n = 256;
  static const bcast_dtype ints[4] = {BCAST_INT8, BCAST_INT16, BCAST_INT32,
                                      BCAST_INT64};
  for (int k = 0; k < 2; k++) {
    const fp8_format *f = &formats[k];
    bcast_tensor in, out;
    CHECK_INT(bcast_tensor_wrap(&in, f->dtype, 1, &n, NULL, pats, NULL),
              BCAST_OK);
    for (int i = 0; i < 4; i++) {
      bcast_op_attrs attrs;
      bcast_op_attrs_init(&attrs);
      attrs.cast_to = &ints[i];
      const int bits = (int)bcast_dtype_size(ints[i]) * 8;
      CHECK_INT(
          bcast_ew_compute(BCAST_OP_CAST, &attrs, 1, &in, &out, NULL, NULL),
          BCAST_OK);
      for (int b = 0; b < 256; b++) {
        const int64_t got =
            load_int((const char *)out.data + b * (bits / 8), bits);
        const int64_t want = mlir_f2i(f, f->widen((uint8_t)b), bits);
        if (got != want)
          test_fail(t, __FILE__, __LINE__,
                    "%s 0x%02x -> int%d: %lld, not %lld",
                    bcast_dtype_name(f->dtype), b, bits, (long long)got,
                    (long long)want);
      }
      bcast_tensor_release(&out);
    }
    const bcast_dtype f32 = BCAST_FLOAT32;
    bcast_op_attrs attrs;
    bcast_op_attrs_init(&attrs);
    attrs.cast_to = &f32;
    CHECK_INT(
        bcast_ew_compute(BCAST_OP_CAST, &attrs, 1, &in, &out, NULL, NULL),
        BCAST_OK);
    float wide[256];
    memcpy(wide, out.data, sizeof wide);
    bcast_tensor_release(&out);
    for (int b = 0; b < 256; b++) {
      const float v = f->widen((uint8_t)b);
      CHECK(memcmp(&wide[b], &v, sizeof v) == 0);
    }
    /* Back: float32 and float16 -> the 8-bit float give the patterns. */
    uint16_t halves[256];
    for (int b = 0; b < 256; b++) halves[b] = bcast_double_to_half(wide[b]);
    bcast_tensor w32, w16;
    CHECK_INT(bcast_tensor_wrap(&w32, BCAST_FLOAT32, 1, &n, NULL, wide, NULL),
              BCAST_OK);
    CHECK_INT(
        bcast_tensor_wrap(&w16, BCAST_FLOAT16, 1, &n, NULL, halves, NULL),
        BCAST_OK);
    const bcast_tensor *srcs[2] = {&w32, &w16};
    attrs.cast_to = &f->dtype;
    for (int s = 0; s < 2; s++) {
      CHECK_INT(bcast_ew_compute(BCAST_OP_CAST, &attrs, 1, srcs[s], &out, NULL,
                                 NULL),
                BCAST_OK);
      for (int b = 0; b < 256; b++) {
        const unsigned got = ((const uint8_t *)out.data)[b];
        const unsigned want = is_nan_pattern(f, (unsigned)b)
                                  ? f->narrow(f->widen((uint8_t)b))
                                  : (unsigned)b;
        if (got != want)
          test_fail(t, __FILE__, __LINE__, "%s -> %s 0x%02x: 0x%02x",
                    s ? "float16" : "float32", bcast_dtype_name(f->dtype), b,
                    got);
      }
      bcast_tensor_release(&out);
    }
  }
}

/* One 8-bit float op over every input (pair) of a format, its result's
 * bytes into out (65536 for a binary op, 256 for a unary one), with the
 * status of the call. */
static bcast_status fp8_run(bcast_op op, const fp8_format *f, uint8_t *out,
                            bcast_diag *diag) {
  static uint8_t xs[65536], ys[65536];
  const int binary = bcast_op_arity(op) == 2;
  const int64_t n = binary ? 65536 : 256;
  for (int64_t i = 0; i < n; i++) {
    xs[i] = (uint8_t)(binary ? i >> 8 : i);
    ys[i] = (uint8_t)i;
  }
  bcast_tensor in[2], res;
  bcast_tensor_wrap(&in[0], f->dtype, 1, &n, NULL, xs, NULL);
  bcast_tensor_wrap(&in[1], f->dtype, 1, &n, NULL, ys, NULL);
  const bcast_status st =
      bcast_ew_compute(op, NULL, binary ? 2 : 1, in, &res, NULL, diag);
  if (st != BCAST_OK) return st;
  memcpy(out, res.data, (size_t)n);
  bcast_tensor_release(&res);
  return BCAST_OK;
}

/* The arithmetic kernels of the 8-bit floats round once: the exact result
 * (a double holds every sum, difference and product of two 8-bit floats
 * exactly) narrowed to the format gives the bits, over every pair, as
 * mlir-opt's APFloat folding computes (tests/diff/test_tosa22_fp8_ops.py);
 * so does 1 / x, whose double rounding through double is innocuous.  NaN
 * results are NaN patterns (their bits are checked against mlir-opt). */
TEST(ew_fp8_arith_rounds_once) {
  static const bcast_op ops[4] = {BCAST_OP_ADD, BCAST_OP_SUB, BCAST_OP_MUL,
                                  BCAST_OP_RECIPROCAL};
  static uint8_t got[65536];
  for (int k = 0; k < 2; k++) {
    const fp8_format *f = &formats[k];
    for (int o = 0; o < 4; o++) {
      CHECK_INT(fp8_run(ops[o], f, got, NULL), BCAST_OK);
      const int binary = bcast_op_arity(ops[o]) == 2;
      for (int i = 0; i < (binary ? 65536 : 256); i++) {
        const double x = f->widen((uint8_t)(binary ? i >> 8 : i));
        const double y = f->widen((uint8_t)i);
        const double exact = ops[o] == BCAST_OP_ADD   ? x + y
                             : ops[o] == BCAST_OP_SUB ? x - y
                             : ops[o] == BCAST_OP_MUL ? x * y
                                                      : 1.0 / x;
        const unsigned want = f->narrow(exact);
        const int ok =
            isnan(exact) ? is_nan_pattern(f, got[i]) : got[i] == want;
        if (!ok)
          test_fail(t, __FILE__, __LINE__,
                    "%s %s input %d: 0x%02x, not 0x%02x",
                    bcast_op_get(ops[o])->name, bcast_dtype_name(f->dtype), i,
                    got[i], want);
      }
    }
  }
}

/* The math ops (MLIR lowers each to one math op on the 8-bit type, which
 * its math-extend-to-supported-types computes in float32) are their
 * float32 C library function rounded once, over every input and pair
 * (the bits against mlir-opt: tests/diff/test_tosa22_fp8_ops.py); sigmoid
 * rounds after each of its ops, so float8_e4m3fn's sigmoid(-8) is NaN
 * (exp(8) is above its largest number) and float8_e5m2's sigmoid(-16) is
 * 0 (exp(16) overflows to infinity). */
static float fp8_math(bcast_op op, float x, float y) {
  switch (op) {
    case BCAST_OP_EXP: return expf(x);
    case BCAST_OP_LOG: return logf(x);
    case BCAST_OP_RSQRT: return 1.0f / sqrtf(x);
    case BCAST_OP_TANH: return tanhf(x);
    case BCAST_OP_SIN: return sinf(x);
    case BCAST_OP_COS: return cosf(x);
    case BCAST_OP_ERF: return erff(x);
    default: return powf(x, y);
  }
}

TEST(ew_fp8_math_ops_round_float32_once) {
  static const bcast_op ops[8] = {BCAST_OP_EXP, BCAST_OP_LOG, BCAST_OP_RSQRT,
                                  BCAST_OP_TANH, BCAST_OP_SIN, BCAST_OP_COS,
                                  BCAST_OP_ERF, BCAST_OP_POW};
  static uint8_t got[65536];
  for (int k = 0; k < 2; k++) {
    const fp8_format *f = &formats[k];
    for (int o = 0; o < 8; o++) {
      CHECK_INT(fp8_run(ops[o], f, got, NULL), BCAST_OK);
      const int binary = bcast_op_arity(ops[o]) == 2;
      for (int i = 0; i < (binary ? 65536 : 256); i++) {
        const float r = fp8_math(ops[o], f->widen((uint8_t)(binary ? i >> 8 : i)),
                                 f->widen((uint8_t)i));
        const int ok = isnan(r) ? is_nan_pattern(f, got[i])
                                : got[i] == f->narrow(r);
        if (!ok)
          test_fail(t, __FILE__, __LINE__, "%s %s input %d: 0x%02x",
                    bcast_op_get(ops[o])->name, bcast_dtype_name(f->dtype), i,
                    got[i]);
      }
    }
    CHECK_INT(fp8_run(BCAST_OP_SIGMOID, f, got, NULL), BCAST_OK);
    CHECK_INT(got[f->narrow(0.0)], f->narrow(0.5));
  }
  CHECK_INT(fp8_run(BCAST_OP_SIGMOID, &formats[0], got, NULL), BCAST_OK);
  CHECK(is_nan_pattern(&formats[0], got[formats[0].narrow(-8.0)]));
  CHECK_INT(fp8_run(BCAST_OP_SIGMOID, &formats[1], got, NULL), BCAST_OK);
  CHECK_INT(got[formats[1].narrow(-16.0)], 0x00);
}

/* APFloat's zeros and NaNs, as mlir-opt folds them: maximum and minimum
 * order -0 below +0; abs and negate change the sign bit only (E5M2's
 * signalling NaN 0x7d stays one); E5M2's inf - inf and 0 * inf give the
 * positive quiet NaN 0x7e. */
TEST(ew_fp8_zeros_and_nans_follow_apfloat) {
  static uint8_t got[65536];
  for (int k = 0; k < 2; k++) {
    const fp8_format *f = &formats[k];
    CHECK_INT(fp8_run(BCAST_OP_MAXIMUM, f, got, NULL), BCAST_OK);
    CHECK_INT(got[0x0080], 0x00);
    CHECK_INT(got[0x8000], 0x00);
    CHECK_INT(fp8_run(BCAST_OP_MINIMUM, f, got, NULL), BCAST_OK);
    CHECK_INT(got[0x0080], 0x80);
    CHECK_INT(got[0x8000], 0x80);
  }
  const fp8_format *e5m2 = &formats[1];
  CHECK_INT(fp8_run(BCAST_OP_ABS, e5m2, got, NULL), BCAST_OK);
  CHECK_INT(got[0xfd], 0x7d);
  CHECK_INT(fp8_run(BCAST_OP_NEGATE, e5m2, got, NULL), BCAST_OK);
  CHECK_INT(got[0x7d], 0xfd);
  CHECK_INT(fp8_run(BCAST_OP_SUB, e5m2, got, NULL), BCAST_OK);
  CHECK_INT(got[0x7c7c], 0x7e);
  CHECK_INT(fp8_run(BCAST_OP_MUL, e5m2, got, NULL), BCAST_OK);
  CHECK_INT(got[0xfc00], 0x7e);
}
