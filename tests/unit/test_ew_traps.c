/* Table tests of TOSA's numerics traps, with exact values, and of the
 * element-wise API: shapes, out=, in place, checked mode, declared
 * signatures, type and attribute errors. */
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "bcast/elementwise.h"
#include "test.h"

/* Runs op over n-element vectors (all inputs the same type except SELECT's
 * bool condition) into a new tensor. */
static bcast_status run_vec(bcast_op op, const bcast_op_attrs *attrs,
                            bcast_profile profile, int checked,
                            bcast_dtype type, int64_t n, const void *a,
                            const void *b, const void *c, bcast_tensor *out,
                            bcast_diag *diag) {
  const void *data[3] = {a, b, c};
  bcast_tensor in[3];
  const int arity = bcast_op_arity(op);
  for (int k = 0; k < arity; k++) {
    bcast_dtype dt = (op == BCAST_OP_SELECT && k == 0) ? BCAST_BOOL : type;
    bcast_tensor_wrap(&in[k], dt, 1, &n, NULL, (void *)(uintptr_t)data[k],
                      NULL);
  }
  bcast_ew_options options;
  bcast_ew_options_init(&options);
  options.profile = profile;
  options.checked = checked;
  return bcast_ew_compute(op, attrs, (size_t)arity, in, out, &options, diag);
}

#define TOSA BCAST_PROFILE_TOSA

/* in[0] + in[1] into out, whose status must be want (diag holds why). */
#define ADD_INTO_IS(want)                                                     \
  CHECK_INT(                                                                  \
      bcast_ew_compute_into(BCAST_OP_ADD, NULL, 2, in, &out, NULL, &diag),    \
      want)

/* A unary op of the tosa profile over four float32s, which must succeed. */
#define UNARY_F32_OK(op, f, out)                                              \
  CHECK_INT(                                                                  \
      run_vec(op, NULL, TOSA, 0, BCAST_FLOAT32, 4, f, NULL, NULL, out, NULL), \
      BCAST_OK)
#define NUMPY BCAST_PROFILE_NUMPY

/* Element i of an integer result, or the bits of a 16-bit float one. */
static int64_t int_at(const bcast_tensor *x, int64_t i) {
  switch (x->dtype) {
  case BCAST_BOOL:
  case BCAST_UINT8:
    return ((const uint8_t *)x->data)[i];
  case BCAST_INT8:
    return ((const int8_t *)x->data)[i];
  case BCAST_INT16:
    return ((const int16_t *)x->data)[i];
  case BCAST_UINT16:
  case BCAST_FLOAT16:
  case BCAST_BFLOAT16:
    return ((const uint16_t *)x->data)[i];
  case BCAST_INT32:
    return ((const int32_t *)x->data)[i];
  default:
    return INT64_MIN;
  }
}

/* Runs op like run_vec (unchecked), expecting BCAST_OK and the n results
 * want[] as int_at() reads them; a failure names the caller's line. */
static void expect_run(test_ctx *t, int line, bcast_op op,
                       const bcast_op_attrs *attrs, bcast_profile profile,
                       bcast_dtype type, int64_t n, const void *a,
                       const void *b, const int64_t *want) {
  bcast_tensor out;
  bcast_status st =
      run_vec(op, attrs, profile, 0, type, n, a, b, NULL, &out, NULL);
  if (st != BCAST_OK) {
    test_fail(t, __FILE__, line, "status %d, expected BCAST_OK", (int)st);
    return;
  }
  for (int64_t i = 0; i < n; i++)
    if (int_at(&out, i) != want[i])
      test_fail(t, __FILE__, line,
                "result[%" PRId64 "] == %" PRId64 ", expected %" PRId64, i,
                int_at(&out, i), want[i]);
  bcast_tensor_release(&out);
}

/* EXPECT_RUN(op, attrs, profile, type, n, a, b, want...): the n results. */
#define EXPECT_RUN(op, attrs, profile, type, n, a, b, ...)                    \
  expect_run(t, __LINE__, op, attrs, profile, type, n, a, b,                  \
             (const int64_t[]){__VA_ARGS__})

static bcast_op_attrs attrs_default(void) {
  bcast_op_attrs a;
  bcast_op_attrs_init(&a);
  return a;
}

TEST(ew_trap_mul_shift_rounds_half_up_in_64_bits) {
  static const struct {
    int32_t a, b, shift, want;
  } rows[] = {
      {3, 5, 1, 8},   /* 7.5 -> 8 */
      {-3, 5, 1, -7}, /* -7.5 -> -7 (half toward +inf) */
      {7, 1, 1, 4},   /* 3.5 -> 4 */
      {-7, 1, 1, -3}, /* -3.5 -> -3 */
      {5, 1, 2, 1},   /* 1.25 -> 1 */
      {6, 1, 2, 2},   /* 1.5 -> 2 */
      {INT32_MAX, INT32_MAX, 31, 2147483646},
      {INT32_MIN, INT32_MIN, 63, 1}, /* 2^62 / 2^63 = 0.5 -> 1, no overflow */
      {INT32_MIN, INT32_MIN, 32, 1073741824},
      {65536, 65536, 0, 0}, /* shift 0 keeps the low 32 bits */
      {INT32_MAX, 2, 0, -2},
      {-1, -1, 0, 1},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    bcast_op_attrs at = attrs_default();
    at.shift = rows[i].shift;
    bcast_tensor out;
    CHECK_INT(run_vec(BCAST_OP_MUL, &at, TOSA, 0, BCAST_INT32, 1, &rows[i].a,
                      &rows[i].b, NULL, &out, NULL),
              BCAST_OK);
    CHECK_INT(out.dtype, BCAST_INT32);
    CHECK_INT(*(int32_t *)out.data, rows[i].want);
    bcast_tensor_release(&out);
  }
}

TEST(ew_trap_mul_widens_int8_and_int16_to_int32) {
  const int8_t a8[3] = {-128, 127, -128}, b8[3] = {-128, -128, 1};
  const int16_t a16[2] = {-32768, 32767}, b16[2] = {-32768, 32767};
  bcast_tensor out;
  CHECK_INT(run_vec(BCAST_OP_MUL, NULL, TOSA, 0, BCAST_INT8, 3, a8, b8, NULL,
                    &out, NULL),
            BCAST_OK);
  CHECK_INT(out.dtype, BCAST_INT32);
  const int32_t *r = out.data;
  CHECK_INT(r[0], 16384);
  CHECK_INT(r[1], -16256);
  CHECK_INT(r[2], -128);
  bcast_tensor_release(&out);
  EXPECT_RUN(BCAST_OP_MUL, NULL, TOSA, BCAST_INT16, 2, a16, b16, 1073741824,
             1073676289);
  /* numpy: int8 * int8 is int8, wrapping. */
  CHECK_INT(run_vec(BCAST_OP_MUL, NULL, NUMPY, 0, BCAST_INT8, 3, a8, b8, NULL,
                    &out, NULL),
            BCAST_OK);
  CHECK_INT(out.dtype, BCAST_INT8);
  CHECK_INT(((int8_t *)out.data)[0], 0);
  CHECK_INT(((int8_t *)out.data)[1], -128);
  bcast_tensor_release(&out);
  /* A shift needs int32 inputs. */
  bcast_op_attrs at = attrs_default();
  at.shift = 1;
  bcast_diag diag;
  CHECK_INT(run_vec(BCAST_OP_MUL, &at, TOSA, 0, BCAST_INT8, 3, a8, b8, NULL,
                    &out, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "shift must be 0 for int8");
}

TEST(ew_trap_arithmetic_right_shift_round) {
  static const struct {
    int32_t a, b, round, want;
  } rows[] = {
      {-7, 1, 1, -3},        {7, 1, 1, 4},    {5, 2, 1, 1},
      {6, 2, 1, 2},          {-7, 1, 0, -4},  {9, 0, 1, 9},
      {-1, 31, 1, 0},        {-1, 31, 0, -1}, {INT32_MIN, 31, 1, -1},
      {INT32_MAX, 30, 1, 2}, {-5, 32, 1, -1}, /* count out of range: the sign fill */
      {5, -1, 0, 0},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    bcast_op_attrs at = attrs_default();
    at.round = rows[i].round;
    bcast_tensor out;
    CHECK_INT(run_vec(BCAST_OP_ARITHMETIC_RIGHT_SHIFT, &at, TOSA, 0,
                      BCAST_INT32, 1, &rows[i].a, &rows[i].b, NULL, &out,
                      NULL),
              BCAST_OK);
    if (*(int32_t *)out.data != rows[i].want)
      test_fail(t, __FILE__, __LINE__, "ars(%d, %d, round %d) = %d, want %d",
                rows[i].a, rows[i].b, rows[i].round, *(int32_t *)out.data,
                rows[i].want);
    bcast_tensor_release(&out);
  }
  /* int8 keeps its own width. */
  const int8_t a[2] = {-128, -127}, b[2] = {7, 1};
  bcast_op_attrs at = attrs_default();
  at.round = 1;
  EXPECT_RUN(BCAST_OP_ARITHMETIC_RIGHT_SHIFT, &at, TOSA, BCAST_INT8, 2, a, b,
             -1, -63);
}

TEST(ew_trap_logical_shifts_of_negative_values) {
  const int8_t a8[6] = {-128, -1, -1, 1, 64, 1};
  const int8_t b8[6] = {1, 7, 0, 7, 1, 8};
  /* -128 >> 1 goes through the unsigned pattern 0x80; count 8 is out of
   * range and gives 0. */
  EXPECT_RUN(BCAST_OP_LOGICAL_RIGHT_SHIFT, NULL, TOSA, BCAST_INT8, 6, a8, b8,
             64, 1, -1, 0, 32, 0);
  EXPECT_RUN(BCAST_OP_LOGICAL_LEFT_SHIFT, NULL, TOSA, BCAST_INT8, 6, a8, b8, 0,
             -128, -1, -128, -128, 0);
  const int32_t a32[2] = {-1, INT32_MIN}, b32[2] = {28, 31};
  EXPECT_RUN(BCAST_OP_LOGICAL_RIGHT_SHIFT, NULL, TOSA, BCAST_INT32, 2, a32,
             b32, 15, 1);
}

TEST(ew_trap_cast_float_to_int_rounds_half_even_and_saturates) {
  const float x[12] = {2.5f,      3.5f,   -2.5f,       -3.5f,
                       127.5f,    300.0f, -300.0f,     INFINITY,
                       -INFINITY, NAN,    0.49999997f, -0.5f};
  bcast_op_attrs at = attrs_default();
  at.cast_to = &(const bcast_dtype){BCAST_INT8};
  EXPECT_RUN(BCAST_OP_CAST, &at, TOSA, BCAST_FLOAT32, 12, x, NULL, 2, 4, -2,
             -4, 127, 127, -128, 127, -128, 0, 0, 0);

  const float big[3] = {2147483648.0f, -2147483904.0f, 16777217.0f};
  at.cast_to = &(const bcast_dtype){BCAST_INT32};
  EXPECT_RUN(BCAST_OP_CAST, &at, TOSA, BCAST_FLOAT32, 3, big, NULL, INT32_MAX,
             INT32_MIN, 16777216);

  /* float16 65504 -> int16 saturates. */
  const uint16_t h[2] = {0x7bff, 0xfbff};
  at.cast_to = &(const bcast_dtype){BCAST_INT16};
  EXPECT_RUN(BCAST_OP_CAST, &at, TOSA, BCAST_FLOAT16, 2, h, NULL, 32767,
             -32768);

  /* numpy truncates toward zero; out of range follows x86 (documented). */
  const float y[5] = {2.7f, -2.7f, 300.0f, NAN, -129.0f};
  at.cast_to = &(const bcast_dtype){BCAST_INT8};
  EXPECT_RUN(BCAST_OP_CAST, &at, NUMPY, BCAST_FLOAT32, 5, y, NULL, 2, -2, 44,
             0, 127);
}

TEST(ew_trap_cast_integers_wrap_bool_rules_and_float_formats) {
  const int32_t x[5] = {300, -129, 128, 0, -1};
  bcast_op_attrs at = attrs_default();
  at.cast_to = &(const bcast_dtype){BCAST_INT8};
  EXPECT_RUN(BCAST_OP_CAST, &at, TOSA, BCAST_INT32, 5, x, NULL, 44, 127, -128,
             0, -1);
  at.cast_to = &(const bcast_dtype){BCAST_BOOL};
  EXPECT_RUN(BCAST_OP_CAST, &at, TOSA, BCAST_INT32, 5, x, NULL, 1, 1, 1, 0, 1);
  const uint8_t bools[2] = {1, 0};
  at.cast_to = &(const bcast_dtype){BCAST_INT32};
  EXPECT_RUN(BCAST_OP_CAST, &at, TOSA, BCAST_BOOL, 2, bools, NULL, 1, 0);
  bcast_tensor out;

  /* float32 -> float16: round half even, inf beyond, signed zero below. */
  const float f[6] = {65504.0f, 65520.0f, 1e-8f, -1e-8f, 1.0009765625f * 1.5f,
                      NAN};
  at.cast_to = &(const bcast_dtype){BCAST_FLOAT16};
  CHECK_INT(run_vec(BCAST_OP_CAST, &at, TOSA, 0, BCAST_FLOAT32, 6, f, NULL,
                    NULL, &out, NULL),
            BCAST_OK);
  const uint16_t *h = out.data;
  CHECK_INT(h[0], 0x7bff);
  CHECK_INT(h[1], 0x7c00);
  CHECK_INT(h[2], 0x0000);
  CHECK_INT(h[3], 0x8000);
  CHECK_INT(h[4], 0x3e02); /* 1.50146484375 rounds to even 1.501953125 */
  CHECK((h[5] & 0x7c00) == 0x7c00 && (h[5] & 0x3ff) != 0);
  bcast_tensor_release(&out);

  /* float32 -> bfloat16 ties to even; int32 -> bfloat16 rounds once. */
  const float g[2] = {1.00390625f, 1.01171875f};
  at.cast_to = &(const bcast_dtype){BCAST_BFLOAT16};
  EXPECT_RUN(BCAST_OP_CAST, &at, TOSA, BCAST_FLOAT32, 2, g, NULL, 0x3f80,
             0x3f82);
  const int32_t i24[1] = {16842753}; /* 2^24 + 2^16 + 1: just above a tie */
  EXPECT_RUN(BCAST_OP_CAST, &at, TOSA, BCAST_INT32, 1, i24, NULL,
             0x4b81); /* 2^24 + 2^17 */

  /* Modes TOSA does not list are refused in its profile. */
  bcast_diag diag;
  at.cast_to = &(const bcast_dtype){BCAST_FLOAT16};
  CHECK_INT(run_vec(BCAST_OP_CAST, &at, TOSA, 0, BCAST_BFLOAT16, 1, g, NULL,
                    NULL, &out, &diag),
            BCAST_TYPE);
  CHECK_CONTAINS(diag.message, "no bfloat16 -> float16 mode");
}

TEST(ew_trap_negate_zero_points_and_saturation) {
  const int8_t x[3] = {-128, 127, 5};
  EXPECT_RUN(BCAST_OP_NEGATE, NULL, TOSA, BCAST_INT8, 3, x, NULL, 127, -127,
             -5);
  bcast_op_attrs at = attrs_default();
  at.input_zp = 3;
  at.output_zp = -2;
  /* 131 - 2 saturates; -(124) - 2. */
  EXPECT_RUN(BCAST_OP_NEGATE, &at, TOSA, BCAST_INT8, 3, x, NULL, 127, -126,
             -4);
  bcast_tensor out;
  at.input_zp = -128;
  at.output_zp = 0;
  CHECK_INT(run_vec(BCAST_OP_NEGATE, &at, TOSA, 0, BCAST_INT8, 3, x, NULL,
                    NULL, &out, NULL),
            BCAST_OK);
  CHECK_INT(((int8_t *)out.data)[1], -128); /* -(255) saturates */
  bcast_tensor_release(&out);
  /* numpy wraps. */
  CHECK_INT(run_vec(BCAST_OP_NEGATE, NULL, NUMPY, 0, BCAST_INT8, 3, x, NULL,
                    NULL, &out, NULL),
            BCAST_OK);
  CHECK_INT(((int8_t *)out.data)[0], -128);
  bcast_tensor_release(&out);
  const int16_t y[1] = {-32768};
  EXPECT_RUN(BCAST_OP_NEGATE, NULL, TOSA, BCAST_INT16, 1, y, NULL, 32767);
  /* int32: -INT32_MIN is unpredictable; bcast saturates, checked reports. */
  const int32_t z[2] = {7, INT32_MIN};
  CHECK_INT(run_vec(BCAST_OP_NEGATE, NULL, TOSA, 0, BCAST_INT32, 2, z, NULL,
                    NULL, &out, NULL),
            BCAST_OK);
  CHECK_INT(((int32_t *)out.data)[1], INT32_MAX);
  bcast_tensor_release(&out);
  bcast_diag diag;
  CHECK_INT(run_vec(BCAST_OP_NEGATE, NULL, TOSA, 1, BCAST_INT32, 2, z, NULL,
                    NULL, &out, &diag),
            BCAST_CHECKED);
  CHECK_CONTAINS(diag.message, "tosa.negate");
  CHECK_CONTAINS(diag.message, "output index [1]");
  CHECK_CONTAINS(diag.message, "operand #0 = -2147483648");
  /* Zero points only for int8. */
  at.input_zp = 1;
  CHECK_INT(run_vec(BCAST_OP_NEGATE, &at, TOSA, 0, BCAST_INT16, 1, y, NULL,
                    NULL, &out, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "only int8");
}

TEST(ew_trap_clamp_and_max_min_nan_modes) {
  const float x[5] = {NAN, -1.0f, 0.5f, 7.0f, -0.0f};
  bcast_op_attrs at = attrs_default();
  at.min_val = bcast_scalar_float(0.0);
  at.max_val = bcast_scalar_float(6.0);
  bcast_tensor out;
  CHECK_INT(run_vec(BCAST_OP_CLAMP, &at, TOSA, 0, BCAST_FLOAT32, 5, x, NULL,
                    NULL, &out, NULL),
            BCAST_OK);
  const float *r = out.data;
  CHECK(isnan(r[0]));
  CHECK(r[1] == 0.0f && r[2] == 0.5f && r[3] == 6.0f && r[4] == 0.0f);
  bcast_tensor_release(&out);
  at.nan_mode = BCAST_NAN_IGNORE;
  CHECK_INT(run_vec(BCAST_OP_CLAMP, &at, TOSA, 0, BCAST_FLOAT32, 5, x, NULL,
                    NULL, &out, NULL),
            BCAST_OK);
  r = out.data;
  CHECK(r[0] == 0.0f); /* NaN -> min_val */
  CHECK(r[3] == 6.0f);
  bcast_tensor_release(&out);
  /* Integer bounds; min after max order shows when min_val == max_val. */
  const int8_t y[3] = {-128, 127, 3};
  at = attrs_default();
  at.min_val = bcast_scalar_int(-5);
  at.max_val = bcast_scalar_int(5);
  EXPECT_RUN(BCAST_OP_CLAMP, &at, TOSA, BCAST_INT8, 3, y, NULL, -5, 5, 3);
  bcast_diag diag;
  at.min_val = bcast_scalar_int(6);
  CHECK_INT(run_vec(BCAST_OP_CLAMP, &at, TOSA, 0, BCAST_INT8, 3, y, NULL, NULL,
                    &out, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "greater than max_val");
  /* uint64 bounds beyond INT64_MAX (numpy profile). */
  const uint64_t u[3] = {1, UINT64_MAX, (uint64_t)1 << 63};
  at = attrs_default();
  at.min_val = bcast_scalar_uint(((uint64_t)1 << 63) + 5);
  at.max_val = bcast_scalar_uint(UINT64_MAX - 1);
  CHECK_INT(run_vec(BCAST_OP_CLAMP, &at, NUMPY, 0, BCAST_UINT64, 3, u, NULL,
                    NULL, &out, NULL),
            BCAST_OK);
  CHECK(((uint64_t *)out.data)[0] == ((uint64_t)1 << 63) + 5);
  CHECK(((uint64_t *)out.data)[1] == UINT64_MAX - 1);
  CHECK(((uint64_t *)out.data)[2] == ((uint64_t)1 << 63) + 5);
  bcast_tensor_release(&out);
  /* CLAMP has no int32 in TOSA 1.0.2; MLIR 22 (the default) clamps it. */
  const bcast_dtype i32[1] = {BCAST_INT32};
  CHECK_INT(bcast_op_result_dtype_in(BCAST_OP_CLAMP, BCAST_PROFILE_TOSA,
                                     BCAST_TYPE_TABLES_TOSA_1_0, 1, i32,
                                     BCAST_DTYPE_COUNT, &out.dtype, &diag),
            BCAST_TYPE);
  const int32_t w[1] = {1};
  CHECK_INT(run_vec(BCAST_OP_CLAMP, NULL, TOSA, 0, BCAST_INT32, 1, w, NULL,
                    NULL, &out, &diag),
            BCAST_OK);
  bcast_tensor_release(&out);

  const float a[4] = {NAN, 1.0f, NAN, 2.0f}, b[4] = {1.0f, NAN, NAN, 3.0f};
  /* The last pair has no NaN: maximum gives 3, minimum 2. */
  static const struct {
    bcast_op op;
    float last;
  } extrema[] = {{BCAST_OP_MAXIMUM, 3.0f}, {BCAST_OP_MINIMUM, 2.0f}};
  for (int mode = 0; mode < 2; mode++)
    for (size_t e = 0; e < 2; e++) {
      at = attrs_default();
      at.nan_mode = mode ? BCAST_NAN_IGNORE : BCAST_NAN_PROPAGATE;
      CHECK_INT(run_vec(extrema[e].op, &at, TOSA, 0, BCAST_FLOAT32, 4, a, b,
                        NULL, &out, NULL),
                BCAST_OK);
      r = out.data;
      CHECK(mode ? r[0] == 1.0f : isnan(r[0]));
      CHECK(mode ? r[1] == 1.0f : isnan(r[1]));
      CHECK(isnan(r[2]));
      CHECK(r[3] == extrema[e].last);
      bcast_tensor_release(&out);
    }
}

TEST(ew_trap_intdiv_clz_abs_comparisons_and_special_floats) {
  const int32_t a[6] = {7, -7, 7, -7, 5, INT32_MIN};
  const int32_t b[6] = {2, 2, -2, -2, 0, -1};
  EXPECT_RUN(BCAST_OP_INTDIV, NULL, TOSA, BCAST_INT32, 6, a, b, 3, -3, -3, 3,
             0, INT32_MIN);
  bcast_tensor out;
  bcast_diag diag;
  CHECK_INT(run_vec(BCAST_OP_INTDIV, NULL, TOSA, 1, BCAST_INT32, 6, a, b, NULL,
                    &out, &diag),
            BCAST_CHECKED);
  CHECK_CONTAINS(diag.message, "tosa.intdiv");
  CHECK_CONTAINS(diag.message, "[4]");
  CHECK_CONTAINS(diag.message, "operand #0 = 5, operand #1 = 0");
  /* The same as fields: the element's index and values. */
  CHECK_INT(diag.element.flat, 4);
  CHECK_INT(diag.element.rank, 1);
  CHECK_INT(diag.element.index[0], 4);
  CHECK_INT(diag.element.operands, 2);
  for (int k = 0; k < 3; k++) CHECK_INT(diag.element.dtype[k], BCAST_INT32);
  int32_t seen[3];
  for (int k = 0; k < 3; k++)
    memcpy(&seen[k], diag.element.value[k], sizeof seen[k]);
  CHECK_INT(seen[0], 5);
  CHECK_INT(seen[1], 0);
  CHECK_INT(seen[2], 0); /* what an unchecked run writes */
  bcast_diag_clear(&diag);
  CHECK_INT(diag.element.flat, -1);

  const int32_t c[5] = {0, -1, 1, 0x00010000, INT32_MIN};
  EXPECT_RUN(BCAST_OP_CLZ, NULL, TOSA, BCAST_INT32, 5, c, NULL, 32, 0, 31, 15,
             0);

  CHECK_INT(run_vec(BCAST_OP_ABS, NULL, TOSA, 0, BCAST_INT32, 5, c, NULL, NULL,
                    &out, NULL),
            BCAST_OK);
  CHECK_INT(((int32_t *)out.data)[1], 1);
  CHECK_INT(((int32_t *)out.data)[4], INT32_MIN); /* wraps (documented) */
  bcast_tensor_release(&out);

  const float f[4] = {-0.0f, NAN, 0.0f, -1.0f}, g[4] = {0.0f, NAN, 1.0f, 2.0f};
  CHECK_INT(run_vec(BCAST_OP_EQUAL, NULL, TOSA, 0, BCAST_FLOAT32, 4, f, g,
                    NULL, &out, NULL),
            BCAST_OK);
  CHECK_INT(out.dtype, BCAST_BOOL);
  CHECK_INT(((uint8_t *)out.data)[0], 1); /* -0 == +0 */
  CHECK_INT(((uint8_t *)out.data)[1], 0); /* NaN != NaN */
  bcast_tensor_release(&out);
  CHECK_INT(run_vec(BCAST_OP_GREATER_EQUAL, NULL, TOSA, 0, BCAST_FLOAT32, 4, f,
                    g, NULL, &out, NULL),
            BCAST_OK);
  CHECK_INT(((uint8_t *)out.data)[0], 1);
  CHECK_INT(((uint8_t *)out.data)[1], 0);
  CHECK_INT(((uint8_t *)out.data)[2], 0);
  bcast_tensor_release(&out);

  UNARY_F32_OK(BCAST_OP_ABS, f, &out);
  CHECK(!signbit(((float *)out.data)[0])); /* abs(-0) = +0 */
  bcast_tensor_release(&out);
  UNARY_F32_OK(BCAST_OP_RSQRT, f, &out);
  CHECK(isinf(((float *)out.data)[0]) && ((float *)out.data)[0] < 0);
  CHECK(isnan(((float *)out.data)[3]));
  bcast_tensor_release(&out);
  UNARY_F32_OK(BCAST_OP_RECIPROCAL, f, &out);
  CHECK(isinf(((float *)out.data)[0]) && ((float *)out.data)[0] < 0);
  bcast_tensor_release(&out);
  UNARY_F32_OK(BCAST_OP_LOG, f, &out);
  CHECK(isinf(((float *)out.data)[2]) && ((float *)out.data)[2] < 0);
  CHECK(isnan(((float *)out.data)[3]));
  bcast_tensor_release(&out);

  /* float16 computed through float32 and rounded: 65504 + 16 -> inf. */
  const uint16_t h[2] = {0x7bff, 0x3c00}, k[2] = {0x4c00, 0x1000};
  /* 1 + 2^-11 ties to even. */
  EXPECT_RUN(BCAST_OP_ADD, NULL, TOSA, BCAST_FLOAT16, 2, h, k, 0x7c00, 0x3c00);

  /* POW outside its domain is reported in checked mode. */
  const float base[2] = {2.0f, -2.0f}, ex[2] = {10.0f, 0.5f};
  CHECK_INT(run_vec(BCAST_OP_POW, NULL, TOSA, 0, BCAST_FLOAT32, 2, base, ex,
                    NULL, &out, NULL),
            BCAST_OK);
  CHECK(((float *)out.data)[0] == 1024.0f);
  CHECK(isnan(((float *)out.data)[1]));
  bcast_tensor_release(&out);
  CHECK_INT(run_vec(BCAST_OP_POW, NULL, TOSA, 1, BCAST_FLOAT32, 2, base, ex,
                    NULL, &out, &diag),
            BCAST_CHECKED);
  CHECK_CONTAINS(diag.message, "tosa.pow");
  CHECK_CONTAINS(diag.message, "operand #0 = -2, operand #1 = 0.5");

  /* int32 add overflow wraps; checked names the values. */
  const int32_t p[2] = {1, INT32_MAX}, q[2] = {2, 1};
  CHECK_INT(run_vec(BCAST_OP_ADD, NULL, TOSA, 0, BCAST_INT32, 2, p, q, NULL,
                    &out, NULL),
            BCAST_OK);
  CHECK_INT(((int32_t *)out.data)[1], INT32_MIN);
  bcast_tensor_release(&out);
  CHECK_INT(run_vec(BCAST_OP_ADD, NULL, TOSA, 1, BCAST_INT32, 2, p, q, NULL,
                    &out, &diag),
            BCAST_CHECKED);
  CHECK_CONTAINS(diag.message, "operand #0 = 2147483647, operand #1 = 1");
  CHECK_CONTAINS(diag.message, "bcast gives -2147483648");
}

/* ------------------------------------------------------------------------ */
/* Shapes, out=, in place, declared signatures. */

static void wrap(bcast_tensor *t, bcast_dtype dtype, int32_t rank,
                 const int64_t *shape, void *data) {
  bcast_tensor_wrap(t, dtype, rank, shape, NULL, data, NULL);
}

TEST(ew_shapes_rank0_size1_size0_and_profiles) {
  float m[6] = {0, 1, 2, 3, 4, 5}, s = 10.0f, row[3] = {100, 200, 300};
  const int64_t m_shape[2] = {2, 3}, row_shape[1] = {3}, one[2] = {1, 3};
  bcast_tensor in[2], out;
  bcast_ew_options o;
  bcast_ew_options_init(&o);
  bcast_diag diag;
  /* tosa: different ranks are an error. */
  wrap(&in[0], BCAST_FLOAT32, 2, m_shape, m);
  wrap(&in[1], BCAST_FLOAT32, 0, NULL, &s);
  CHECK_INT(bcast_ew_compute(BCAST_OP_ADD, NULL, 2, in, &out, &o, &diag),
            BCAST_RANK_MISMATCH);
  CHECK_CONTAINS(diag.message, "operands don't have matching ranks");
  /* trait: rank 0 expands. */
  o.profile = BCAST_PROFILE_TRAIT;
  CHECK_INT(bcast_ew_compute(BCAST_OP_ADD, NULL, 2, in, &out, &o, &diag),
            BCAST_OK);
  CHECK_INT(out.rank, 2);
  CHECK(((float *)out.data)[5] == 15.0f);
  bcast_tensor_release(&out);
  /* tosa with equal ranks and a size-1 dim. */
  o.profile = BCAST_PROFILE_TOSA;
  wrap(&in[1], BCAST_FLOAT32, 2, one, row);
  CHECK_INT(bcast_ew_compute(BCAST_OP_SUB, NULL, 2, in, &out, &o, &diag),
            BCAST_OK);
  CHECK(((float *)out.data)[4] == -196.0f);
  bcast_tensor_release(&out);
  /* Incompatible sizes name the operands. */
  const int64_t bad[2] = {1, 4};
  float four[4] = {0};
  wrap(&in[1], BCAST_FLOAT32, 2, bad, four);
  CHECK_INT(bcast_ew_compute(BCAST_OP_ADD, NULL, 2, in, &out, &o, &diag),
            BCAST_INCOMPATIBLE);
  CHECK_CONTAINS(diag.message, "tosa.add");
  /* Size 0: numpy yes, tosa no. */
  const int64_t empty[2] = {0, 3};
  wrap(&in[0], BCAST_FLOAT32, 2, empty, m);
  wrap(&in[1], BCAST_FLOAT32, 1, row_shape, row);
  o.profile = BCAST_PROFILE_NUMPY;
  CHECK_INT(bcast_ew_compute(BCAST_OP_MUL, NULL, 2, in, &out, &o, &diag),
            BCAST_OK);
  CHECK_INT(out.rank, 2);
  CHECK_INT(out.shape[0], 0);
  CHECK_INT(out.shape[1], 3);
  bcast_tensor_release(&out);
  o.profile = BCAST_PROFILE_TRAIT;
  CHECK_INT(bcast_ew_compute(BCAST_OP_MUL, NULL, 2, in, &out, &o, &diag),
            BCAST_INCOMPATIBLE);
  CHECK_CONTAINS(diag.message, "size 0");
  /* Mismatched types: the tosa profile refuses, naming numpy's promotion;
   * the numpy profile promotes (float32 + int32 -> float64). */
  int32_t ints[3] = {1, 2, 3};
  wrap(&in[0], BCAST_FLOAT32, 1, row_shape, row);
  wrap(&in[1], BCAST_INT32, 1, row_shape, ints);
  o.profile = BCAST_PROFILE_TOSA;
  CHECK_INT(bcast_ew_compute(BCAST_OP_ADD, NULL, 2, in, &out, &o, &diag),
            BCAST_TYPE);
  CHECK_CONTAINS(diag.message,
                 "numpy profile promotes: float32 + int32 -> float64");
  o.profile = BCAST_PROFILE_NUMPY;
  CHECK_INT(bcast_ew_compute(BCAST_OP_ADD, NULL, 2, in, &out, &o, &diag),
            BCAST_OK);
  CHECK_INT(out.dtype, BCAST_FLOAT64);
  bcast_tensor_release(&out);
}

TEST(ew_out_given_in_place_and_overlap) {
  float a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {10, 20, 30}, c[6];
  const int64_t shape[2] = {2, 3}, row[2] = {1, 3};
  bcast_tensor in[2], out;
  wrap(&in[0], BCAST_FLOAT32, 2, shape, a);
  wrap(&in[1], BCAST_FLOAT32, 2, row, b);
  wrap(&out, BCAST_FLOAT32, 2, shape, c);
  bcast_diag diag;
  ADD_INTO_IS(BCAST_OK);
  CHECK(c[0] == 11.0f && c[5] == 36.0f);
  /* In place on input 0 (same shape and strides). */
  CHECK_INT(
      bcast_ew_compute_into(BCAST_OP_MUL, NULL, 2, in, &in[0], NULL, &diag),
      BCAST_OK);
  CHECK(a[0] == 10.0f && a[5] == 180.0f);
  /* A transposed output (column-major strides). */
  const int64_t t_strides[2] = {4, 8};
  bcast_tensor tout;
  bcast_tensor_wrap(&tout, BCAST_FLOAT32, 2, shape, t_strides, c, NULL);
  CHECK_INT(
      bcast_ew_compute_into(BCAST_OP_SUB, NULL, 2, in, &tout, NULL, &diag),
      BCAST_OK);
  CHECK(c[1] == 40.0f - 10.0f); /* element [1,0] = a[1][0] - b[0] */
  /* In place on the broadcast input: it overlaps without being the output. */
  bcast_tensor bview;
  wrap(&bview, BCAST_FLOAT32, 2, shape, b); /* same memory as b, bigger */
  (void)bview;
  float big[6] = {0};
  wrap(&in[1], BCAST_FLOAT32, 2, row, big);
  wrap(&out, BCAST_FLOAT32, 2, shape, big);
  ADD_INTO_IS(BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "overlaps operand #1");
  /* Wrong shape or type for out=. */
  const int64_t wrong[2] = {3, 2};
  wrap(&in[1], BCAST_FLOAT32, 2, row, b);
  wrap(&out, BCAST_FLOAT32, 2, wrong, c);
  ADD_INTO_IS(BCAST_RESULT_MISMATCH);
  CHECK_CONTAINS(diag.message, "broadcast shape [2,3]");
  wrap(&out, BCAST_INT32, 2, shape, c);
  ADD_INTO_IS(BCAST_TYPE);
}

TEST(ew_plan_reuse_and_declared_dynamic_dims) {
  int32_t a[4] = {1, 2, 3, 4}, b[2] = {10, 20}, c[4];
  int32_t a2[4] = {-1, -2, -3, -4};
  const int64_t shape[2] = {2, 2}, row[2] = {1, 2};
  bcast_tensor in[2];
  wrap(&in[0], BCAST_INT32, 2, shape, a);
  wrap(&in[1], BCAST_INT32, 2, row, b);
  bcast_shape declared[2] = {{2, {BCAST_DIM_DYNAMIC, 2}},
                             {2, {1, BCAST_DIM_DYNAMIC}}};
  bcast_ew_options o;
  bcast_ew_options_init(&o);
  o.declared = declared;
  bcast_ew_plan *plan;
  bcast_diag diag;
  CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_MAXIMUM, NULL, 2, in, NULL,
                                 &o, &diag),
            BCAST_OK);
  const void *d1[2] = {a, b}, *d2[2] = {a2, b};
  CHECK_INT(bcast_ew_plan_execute(plan, c, d1, &diag), BCAST_OK);
  CHECK(c[0] == 10 && c[3] == 20);
  CHECK_INT(bcast_ew_plan_execute(plan, c, d2, &diag), BCAST_OK);
  CHECK(c[0] == 10 && c[1] == 20);
  bcast_tensor out;
  CHECK_INT(bcast_ew_plan_alloc_output(plan, &out, &diag), BCAST_OK);
  CHECK_INT(bcast_ew_plan_run(plan, in, &out, &diag), BCAST_OK);
  CHECK_INT(((int32_t *)out.data)[2], 10);
  bcast_tensor_release(&out);
  bcast_ew_plan_destroy(plan);
  /* Tables outside bcast_type_tables are refused, not read as a default. */
  o.tables = BCAST_TYPE_TABLES_COUNT;
  CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_MAXIMUM, NULL, 2, in, NULL,
                                 &o, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "unknown type tables");
  o.tables = BCAST_TYPE_TABLES_TOSA_1_0;
  /* A static declared size that the bound tensor contradicts. */
  declared[0].dims[1] = 3;
  CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_MAXIMUM, NULL, 2, in, NULL,
                                 &o, &diag),
            BCAST_RUNTIME_SHAPE);
  CHECK(plan == NULL);
  /* The declared result. */
  declared[0].dims[1] = 2;
  bcast_shape result = {2, {2, 3}};
  o.declared_result = &result;
  CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_MAXIMUM, NULL, 2, in, NULL,
                                 &o, &diag),
            BCAST_RUNTIME_SHAPE);
}

TEST(ew_select_and_logical_ops) {
  const uint8_t cond[4] = {1, 0, 1, 0};
  const float a[4] = {1, 2, 3, 4}, b[4] = {-1, -2, -3, -4};
  bcast_tensor out;
  CHECK_INT(run_vec(BCAST_OP_SELECT, NULL, TOSA, 0, BCAST_FLOAT32, 4, cond, a,
                    b, &out, NULL),
            BCAST_OK);
  const float *r = out.data;
  CHECK(r[0] == 1 && r[1] == -2 && r[2] == 3 && r[3] == -4);
  bcast_tensor_release(&out);
  const uint8_t p[4] = {0, 0, 1, 1}, q[4] = {0, 1, 0, 1};
  static const struct {
    bcast_op op;
    uint8_t want[4];
  } rows[] = {{BCAST_OP_LOGICAL_AND, {0, 0, 0, 1}},
              {BCAST_OP_LOGICAL_OR, {0, 1, 1, 1}},
              {BCAST_OP_LOGICAL_XOR, {0, 1, 1, 0}}};
  for (size_t i = 0; i < 3; i++) {
    CHECK_INT(run_vec(rows[i].op, NULL, TOSA, 0, BCAST_BOOL, 4, p, q, NULL,
                      &out, NULL),
              BCAST_OK);
    CHECK(memcmp(out.data, rows[i].want, 4) == 0);
    bcast_tensor_release(&out);
  }
  CHECK_INT(run_vec(BCAST_OP_LOGICAL_NOT, NULL, TOSA, 0, BCAST_BOOL, 4, p,
                    NULL, NULL, &out, NULL),
            BCAST_OK);
  CHECK(((uint8_t *)out.data)[0] == 1 && ((uint8_t *)out.data)[3] == 0);
  bcast_tensor_release(&out);
}

TEST(ew_support_enumeration_and_result_types) {
  bcast_dtype in[3], out;
  size_t tosa = 0, numpy = 0;
  for (int op = 0; op < BCAST_OP_COUNT; op++) {
    size_t k = 0;
    while (bcast_ew_supported((bcast_op)op, BCAST_PROFILE_TOSA, k, in, &out) ==
           BCAST_OK)
      k++;
    CHECK(k > 0 || !bcast_op_get((bcast_op)op)->tosa_types);
    tosa += k;
    k = 0;
    while (bcast_ew_supported((bcast_op)op, BCAST_PROFILE_NUMPY, k, in,
                              &out) == BCAST_OK)
      k++;
    numpy += k;
  }
  /* MLIR 22's tables: 245 for the RFC's 36 ops, sin and cos 4 each (f16,
   * bf16, f32, f64), 52 casts to and from the two 8-bit floats (each
   * with bool, int8..int64, uint8..uint64, float16, bfloat16, float32,
   * float64), 120 of other casts and ops on unsigned types (uint8..uint64
   * each: clamp, add, sub, mul, the three bitwise ops, the two logical
   * shifts and select, 40; casts of bool, int8..int64 and the 4 floats to
   * them, 36; and of each of them to bool, the 4 floats and the 6 integers
   * of another width, 44), and 48 of the two 8-bit floats in the 24 float
   * ops; TOSA 1.0.2's have 147 and 3 each. */
  CHECK_INT(tosa, 253 + 52 + 40 + 36 + 44 + 48);
  CHECK(numpy > tosa);
  CHECK_INT(bcast_ew_supported(BCAST_OP_ADD, BCAST_PROFILE_MLIR, 0, in, &out),
            BCAST_UNSUPPORTED);
  const bcast_dtype i8[2] = {BCAST_INT8, BCAST_INT8};
  bcast_diag diag;
  CHECK_INT(bcast_ew_result_dtype(BCAST_OP_MUL, BCAST_PROFILE_TOSA, 2, i8,
                                  NULL, &out, &diag),
            BCAST_OK);
  CHECK_INT(out, BCAST_INT32);
  /* MLIR 22 (the default) takes int8 add and int8 * int8 -> int8; TOSA
   * 1.0.2's tables do not. */
  CHECK_INT(bcast_ew_result_dtype(BCAST_OP_ADD, BCAST_PROFILE_TOSA, 2, i8,
                                  NULL, &out, &diag),
            BCAST_OK);
  CHECK_INT(out, BCAST_INT8);
  CHECK_INT(bcast_op_result_dtype(BCAST_OP_MUL, BCAST_PROFILE_TOSA, 2, i8,
                                  BCAST_INT8, &out, &diag),
            BCAST_OK);
  CHECK_INT(out, BCAST_INT8);
  CHECK_INT(bcast_op_result_dtype_in(BCAST_OP_MUL, BCAST_PROFILE_TOSA,
                                     BCAST_TYPE_TABLES_TOSA_1_0, 2, i8,
                                     BCAST_INT8, &out, &diag),
            BCAST_OK);
  CHECK_INT(out, BCAST_INT32);
  CHECK_INT(bcast_op_result_dtype_in(BCAST_OP_ADD, BCAST_PROFILE_TOSA,
                                     BCAST_TYPE_TABLES_TOSA_1_0, 2, i8,
                                     BCAST_DTYPE_COUNT, &out, &diag),
            BCAST_TYPE);
  CHECK_CONTAINS(diag.message, "tosa.add does not take int8 in the tosa "
                               "profile with the tosa-1.0 tables");
  const bcast_dtype f32[1] = {BCAST_FLOAT32};
  CHECK_INT(bcast_op_result_dtype(BCAST_OP_CAST, BCAST_PROFILE_TOSA, 1, f32,
                                  BCAST_INT64, &out, &diag),
            BCAST_OK);
  CHECK_INT(bcast_op_result_dtype_in(BCAST_OP_CAST, BCAST_PROFILE_TOSA,
                                     BCAST_TYPE_TABLES_TOSA_1_0, 1, f32,
                                     BCAST_INT64, &out, &diag),
            BCAST_TYPE);
  CHECK_CONTAINS(diag.message, "no float32 -> int64 mode");
  CHECK_INT(bcast_op_result_dtype(BCAST_OP_CAST, BCAST_PROFILE_TOSA, 1, f32,
                                  BCAST_BFLOAT16, &out, &diag),
            BCAST_OK);
  const bcast_dtype f16[1] = {BCAST_FLOAT16};
  CHECK_INT(bcast_op_result_dtype(BCAST_OP_CAST, BCAST_PROFILE_TOSA, 1, f16,
                                  BCAST_BFLOAT16, &out, &diag),
            BCAST_TYPE); /* arith has no float16 <-> bfloat16 cast */
  bcast_type_tables tables;
  CHECK_INT(bcast_type_tables_parse("tosa-1.0", &tables), BCAST_OK);
  CHECK_INT(tables, BCAST_TYPE_TABLES_TOSA_1_0);
  CHECK_STR(bcast_type_tables_name(BCAST_TYPE_TABLES_MLIR), "mlir");
  CHECK_INT(bcast_type_tables_parse("tosa", &tables), BCAST_INVALID_ARGUMENT);
  CHECK_INT(bcast_ew_result_dtype(BCAST_OP_ADD, BCAST_PROFILE_NUMPY, 1, i8,
                                  NULL, &out, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_INT(bcast_ew_result_dtype(BCAST_OP_CAST, BCAST_PROFILE_TOSA, 1, f32,
                                  NULL, &out, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "needs a result type");
  const bcast_dtype sel[3] = {BCAST_INT8, BCAST_INT8, BCAST_INT8};
  CHECK_INT(bcast_ew_result_dtype(BCAST_OP_SELECT, BCAST_PROFILE_TOSA, 3, sel,
                                  NULL, &out, &diag),
            BCAST_TYPE);
  CHECK_CONTAINS(diag.message, "must be bool");
}

/* An operand whose data is not aligned for its elements is refused with
 * BCAST_INVALID_ARGUMENT before anything is read or written, not loaded
 * through a misaligned pointer (undefined behaviour; UBSan stops). */
TEST(ew_refuses_misaligned_data) {
  double store[6] = {1, 2, 3, 4, 5, 6}, outbuf[3] = {7, 7, 7};
  char *bytes = (char *)store + 4; /* float64 at byte offset 4 */
  const int64_t shape[1] = {3};
  bcast_tensor in[2], out;
  bcast_diag diag;
  CHECK_INT(bcast_tensor_wrap(&in[0], BCAST_FLOAT64, 1, shape, NULL, bytes,
                              &diag),
            BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&in[1], BCAST_FLOAT64, 1, shape, NULL, store,
                              &diag),
            BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&out, BCAST_FLOAT64, 1, shape, NULL, outbuf,
                              &diag),
            BCAST_OK);
  CHECK_INT(bcast_ew_compute_into(BCAST_OP_ADD, NULL, 2, in, &out, NULL, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK(strstr(diag.message, "not aligned") != NULL);
  for (int i = 0; i < 3; i++) CHECK(outbuf[i] == 7);
}
