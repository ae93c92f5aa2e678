/* Op attributes as values: the scalars they hold, their defaults, the one
 * rule for CLAMP's bounds (values of the data type) and the checks of the
 * attributes each op reads against its data type.  The text of attributes
 * is read by op_attr_text.c (a command line's NAME=VALUE) and by
 * src/type/mlir_attr.c (MLIR dictionaries); the kernels' parameters are
 * made from checked attributes by src/ew. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast/op.h"
#include "core/diag.h"
#include "op/op_attrs.h"

/* ------------------------------------------------------------------------ */
/* Scalars and defaults. */

bcast_scalar bcast_scalar_int(int64_t value) {
  return (bcast_scalar){BCAST_SCALAR_INT, {.i = value}};
}

bcast_scalar bcast_scalar_uint(uint64_t value) {
  return (bcast_scalar){BCAST_SCALAR_UINT, {.u = value}};
}

bcast_scalar bcast_scalar_float(double value) {
  return (bcast_scalar){BCAST_SCALAR_FLOAT, {.f = value}};
}

bcast_scalar bcast_scalar_bool(int value) {
  return (bcast_scalar){BCAST_SCALAR_BOOL, {.i = value != 0}};
}

/* Every default is zero (BCAST_SCALAR_NONE, BCAST_NAN_PROPAGATE, cast_to
 * NULL), so that a zeroed struct means the defaults. */
void bcast_op_attrs_init(bcast_op_attrs *attrs) {
  memset(attrs, 0, sizeof *attrs);
}

void bcast__format_double(double v, char *buf, size_t cap) {
  if (v == floor(v) && fabs(v) < 1e15) {
    snprintf(buf, cap, "%.0f", v);
    return;
  }
  for (int digits = 1; digits <= 17; digits++) {
    snprintf(buf, cap, "%.*g", digits, v);
    if (strtod(buf, NULL) == v || isnan(v)) return;
  }
}

/* A scalar as text for a message. */
static void format_scalar(const bcast_scalar *s, char *buf, size_t cap) {
  switch (s->kind) {
  case BCAST_SCALAR_INT:
    snprintf(buf, cap, "%lld", (long long)s->v.i);
    break;
  case BCAST_SCALAR_UINT:
    snprintf(buf, cap, "%llu", (unsigned long long)s->v.u);
    break;
  case BCAST_SCALAR_FLOAT:
    bcast__format_double(s->v.f, buf, cap);
    break;
  default:
    snprintf(buf, cap, "(none)");
    break;
  }
}

/* ------------------------------------------------------------------------ */
/* The bound rule. */

/* A double rounded to the floating type it clamps (to nearest even),
 * once: float16, bfloat16 and the 8-bit floats straight from the double
 * (src/dtype/half.c), float32 and float64 by C's conversion.  Other types
 * keep the double. */
#define OP_ROUND_PLAIN(VT, v) (VT)(v)
#define OP_ROUND_HALF(VT, v) bcast_half_to_float(bcast_double_to_half(v))
#define OP_ROUND_BF16(VT, v) bcast_bf16_to_float(bcast_double_to_bf16(v))
#define OP_ROUND_F8E4M3FN(VT, v)                                              \
  bcast_f8e4m3fn_to_float(bcast_double_to_f8e4m3fn(v))
#define OP_ROUND_F8E5M2(VT, v) bcast_f8e5m2_to_float(bcast_double_to_f8e5m2(v))
#define OP_ROUND_CASE_BCAST_KIND_FLOAT(ID, VT, coding)                        \
  case BCAST_##ID:                                                            \
    return OP_ROUND_##coding(VT, v);
#define OP_ROUND_CASE_BCAST_KIND_BOOL(ID, VT, coding)
#define OP_ROUND_CASE_BCAST_KIND_SIGNED(ID, VT, coding)
#define OP_ROUND_CASE_BCAST_KIND_UNSIGNED(ID, VT, coding)
#define OP_ROUND_CASE_BCAST_KIND_STRING(ID, VT, coding)
#define OP_ROUND_ROW_(unused, ID, name, ctype, size, kind, npy, mlir, S, VT,  \
                      VS, coding, digits, tosa)                               \
  OP_ROUND_CASE_##kind(ID, VT, coding)
static double round_to_type(double v, bcast_dtype dtype) {
  switch (dtype) {
    BCAST_DTYPE_TABLE(OP_ROUND_ROW_, 0)
  default:
    return v;
  }
}

void bcast__op_int_range(bcast_dtype dtype, int64_t *lo, uint64_t *hi) {
  const int bits = (int)bcast_dtype_size(dtype) * 8;
  switch (bcast_dtype_kind_of(dtype)) {
  case BCAST_KIND_BOOL:
    *lo = 0;
    *hi = 1;
    break;
  case BCAST_KIND_UNSIGNED:
    *lo = 0;
    *hi = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    break;
  default:
    *hi = bits == 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (bits - 1)) - 1;
    *lo = -(int64_t)*hi - 1;
    break;
  }
}

/* One integer bound as a value of an integer type: *neg and *mag give its
 * sign and magnitude so that int64 and uint64 ranges compare exactly.
 * Returns 0 when the scalar is not an integer (a fraction, inf, NaN). */
static int integer_parts(const bcast_scalar *s, int *neg, uint64_t *mag) {
  switch (s->kind) {
  case BCAST_SCALAR_INT:
    *neg = s->v.i < 0;
    *mag = *neg ? (uint64_t)0 - (uint64_t)s->v.i : (uint64_t)s->v.i;
    return 1;
  case BCAST_SCALAR_UINT:
    *neg = 0;
    *mag = s->v.u;
    return 1;
  case BCAST_SCALAR_FLOAT: {
    const double f = s->v.f;
    if (!isfinite(f) || f != floor(f)) return 0;
    /* 2^64 and beyond are out of every range; report them as such. */
    if (fabs(f) >= 18446744073709551616.0) {
      *neg = f < 0;
      *mag = UINT64_MAX;
      return 2;
    }
    *neg = f < 0;
    *mag = (uint64_t)fabs(f);
    return 1;
  }
  default:
    return 0;
  }
}

bcast_status bcast__op_bound_value(const bcast_scalar *s, const char *attr,
                                   bcast_dtype data, int64_t *as_int,
                                   uint64_t *as_uint, double *as_fp,
                                   bcast_diag *diag) {
  char text[64];
  format_scalar(s, text, sizeof text);
  const char *type = bcast_dtype_name(data);
  if ((unsigned)s->kind > BCAST_SCALAR_FLOAT)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "tosa.clamp: %s has no valid scalar kind (%d)", attr,
                       (int)s->kind);
  if (bcast_dtype_kind_of(data) == BCAST_KIND_FLOAT) {
    double v = s->kind == BCAST_SCALAR_INT    ? (double)s->v.i
               : s->kind == BCAST_SCALAR_UINT ? (double)s->v.u
                                              : s->v.f;
    if (isnan(v))
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.clamp: %s is NaN; a %s bound must be a number "
                         "(min_val and max_val must not be NaN)",
                         attr, type);
    *as_fp = round_to_type(v, data);
    return BCAST_OK;
  }
  int64_t lo;
  uint64_t hi;
  bcast__op_int_range(data, &lo, &hi);
  int neg;
  uint64_t mag;
  const int integral = integer_parts(s, &neg, &mag);
  if (!integral)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "tosa.clamp: %s %s is not an integer; %s data needs "
                       "an integer bound within %s's range %lld..%llu",
                       attr, text, type, type, (long long)lo,
                       (unsigned long long)hi);
  const uint64_t lo_mag = (uint64_t)0 - (uint64_t)lo;
  if (integral == 2 || (neg && mag > lo_mag) || (!neg && mag > hi))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "tosa.clamp: %s %s is outside %s's range %lld..%llu",
                       attr, text, type, (long long)lo,
                       (unsigned long long)hi);
  *as_uint = neg ? 0 : mag;
  *as_int = neg ? (int64_t)((uint64_t)0 - mag)
                : (int64_t)(mag > INT64_MAX ? INT64_MAX : mag);
  return BCAST_OK;
}

uint64_t bcast__op_clamp_bound_mlir_unsigned(uint64_t bound, unsigned bits) {
  return bits && (bound >> (bits - 1)) & 1u ? 0 : bound;
}

bcast_status bcast__op_clamp_bounds(const bcast_op_attrs *attrs,
                                    bcast_dtype data, bcast__clamp_bounds *out,
                                    bcast_diag *diag) {
  memset(out, 0, sizeof *out);
  out->lo_f = -INFINITY;
  out->hi_f = INFINITY;
  const bcast_dtype_kind kind = bcast_dtype_kind_of(data);
  if (kind == BCAST_KIND_STRING) return BCAST_OK;
  int64_t lo;
  uint64_t hi;
  if (kind != BCAST_KIND_FLOAT) {
    bcast__op_int_range(data, &lo, &hi);
    out->lo_i = lo;
    out->hi_i = hi > INT64_MAX ? INT64_MAX : (int64_t)hi;
    out->lo_u = 0;
    out->hi_u = hi;
  }
  bcast_status status = BCAST_OK;
  if (attrs->min_val.kind != BCAST_SCALAR_NONE)
    status = bcast__op_bound_value(&attrs->min_val, "min_val", data,
                                   &out->lo_i, &out->lo_u, &out->lo_f, diag);
  if (status == BCAST_OK && attrs->max_val.kind != BCAST_SCALAR_NONE)
    status = bcast__op_bound_value(&attrs->max_val, "max_val", data,
                                   &out->hi_i, &out->hi_u, &out->hi_f, diag);
  if (status != BCAST_OK) return status;

  /* min_val <= max_val, compared as the type's values. */
  const int greater = kind == BCAST_KIND_FLOAT      ? out->lo_f > out->hi_f
                      : kind == BCAST_KIND_UNSIGNED ? out->lo_u > out->hi_u
                                                    : out->lo_i > out->hi_i;
  if (greater) {
    char lo_text[64], hi_text[64];
    format_scalar(&attrs->min_val, lo_text, sizeof lo_text);
    format_scalar(&attrs->max_val, hi_text, sizeof hi_text);
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "tosa.clamp: min_val %s is greater than max_val %s",
                       lo_text, hi_text);
  }
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* The per-op checks. */

bcast_status bcast__op_attrs_check(bcast_op op, bcast_profile profile,
                                   bcast_dtype in, const bcast_op_attrs *a,
                                   bcast_diag *diag) {
  const char *name = bcast_op_get(op)->name;
  const int numpy = profile == BCAST_PROFILE_NUMPY;
  switch (op) {
  case BCAST_OP_MUL:
    if (a->shift < 0 || a->shift > 63)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.mul: shift %d is outside 0..63", (int)a->shift);
    /* uint32 on its int32 view, as MLIR 22 lowers it (apply_scale). */
    if (a->shift != 0 && (numpy ? in : bcast__op_signless(in)) != BCAST_INT32)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.mul: shift must be 0 for %s inputs (only "
                         "int32 and uint32 products are shifted), not %d",
                         bcast_dtype_name(in), (int)a->shift);
    break;
  case BCAST_OP_CLAMP: {
    /* The bounds have the data's type (the one rule above). */
    bcast__clamp_bounds bounds;
    bcast_status status = bcast__op_clamp_bounds(a, in, &bounds, diag);
    if (status != BCAST_OK) return status;
  }
    /* fall through - CLAMP also reads nan_mode */
  case BCAST_OP_MAXIMUM:
  case BCAST_OP_MINIMUM:
    if (a->nan_mode != BCAST_NAN_PROPAGATE && a->nan_mode != BCAST_NAN_IGNORE)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.%s: nan_mode %d is neither PROPAGATE nor "
                         "IGNORE",
                         name, (int)a->nan_mode);
    break;
  case BCAST_OP_NEGATE:
    if (a->input_zp == 0 && a->output_zp == 0) break;
    if (numpy)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.negate: zero points must be 0 in the numpy "
                         "profile (input_zp %lld, output_zp %lld)",
                         (long long)a->input_zp, (long long)a->output_zp);
    if (in != BCAST_INT8)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.negate: zero points must be 0 for %s "
                         "(input_zp %lld, output_zp %lld); only int8 has them",
                         bcast_dtype_name(in), (long long)a->input_zp,
                         (long long)a->output_zp);
    if (a->input_zp < INT8_MIN || a->input_zp > INT8_MAX ||
        a->output_zp < INT8_MIN || a->output_zp > INT8_MAX)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.negate: int8 zero points must be within "
                         "-128..127 (input_zp %lld, output_zp %lld)",
                         (long long)a->input_zp, (long long)a->output_zp);
    break;
  default:
    break;
  }
  return BCAST_OK;
}
