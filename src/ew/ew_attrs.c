/* Op attributes: which op reads which, the one parser for their text (a
 * command line's NAME=VALUE and MLIR's attribute dictionaries), the one
 * rule for CLAMP's bounds, and the kernels' parameters made from them.
 *
 * The parser only turns text into values.  Whether a value suits the op's
 * data type is decided once, by bcast__ew_clamp_bounds and the checks of
 * bcast_ew_result_dtype, when the data type is known. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "ew/ew_attrs.h"
#include "ew/ew_scalar.h"
#include "type/text.h"

/* ------------------------------------------------------------------------ */
/* Scalars. */

bcast_scalar bcast_scalar_int(int64_t value) {
  bcast_scalar s;
  s.kind = BCAST_SCALAR_INT;
  s.v.i = value;
  return s;
}

bcast_scalar bcast_scalar_uint(uint64_t value) {
  bcast_scalar s;
  s.kind = BCAST_SCALAR_UINT;
  s.v.u = value;
  return s;
}

bcast_scalar bcast_scalar_float(double value) {
  bcast_scalar s;
  s.kind = BCAST_SCALAR_FLOAT;
  s.v.f = value;
  return s;
}

bcast_scalar bcast_scalar_bool(int value) {
  bcast_scalar s;
  s.kind = BCAST_SCALAR_BOOL;
  s.v.i = value != 0;
  return s;
}

/* The shortest "%.Ng" text that reads back as v (at most 17 digits);
 * integers below 1e15 without an exponent. */
static void format_double(double v, char *buf, size_t cap) {
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
    format_double(s->v.f, buf, cap);
    break;
  default:
    snprintf(buf, cap, "(none)");
    break;
  }
}

/* ------------------------------------------------------------------------ */
/* The bound rule. */

/* A double rounded to the floating type it clamps (to nearest even), once:
 * a type narrower than float goes through float with round-to-odd, so
 * that only its own rounding counts.  Other types keep the double. */
#define EW_ROUND_PLAIN(VT, v) (VT)(v)
#define EW_ROUND_HALF(VT, v) ew_f16_load(ew_f16_store(ew_f64_to_f32_odd(v)))
#define EW_ROUND_BF16(VT, v) ew_bf16_load(ew_bf16_store(ew_f64_to_f32_odd(v)))
#define EW_ROUND_CASE_BCAST_KIND_FLOAT(ID, VT, coding)                        \
  case BCAST_##ID:                                                            \
    return EW_ROUND_##coding(VT, v);
#define EW_ROUND_CASE_BCAST_KIND_BOOL(ID, VT, coding)
#define EW_ROUND_CASE_BCAST_KIND_SIGNED(ID, VT, coding)
#define EW_ROUND_CASE_BCAST_KIND_UNSIGNED(ID, VT, coding)
#define EW_ROUND_CASE_BCAST_KIND_STRING(ID, VT, coding)
#define EW_ROUND_ROW_(unused, ID, name, ctype, size, kind, npy, mlir, S, VT,  \
                      VS, coding, digits, tosa)                               \
  EW_ROUND_CASE_##kind(ID, VT, coding)
static double round_to_type(double v, bcast_dtype dtype) {
  switch (dtype) {
    BCAST_DTYPE_TABLE(EW_ROUND_ROW_, 0)
  default:
    return v;
  }
}

/* The range of an integer or bool type, as signed and unsigned limits:
 * [*lo, *hi] with *lo <= 0. */
void bcast__ew_int_range(bcast_dtype dtype, int64_t *lo, uint64_t *hi) {
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

/* Checks one bound (not NONE) against data and converts it. */
static bcast_status convert_bound(const bcast_scalar *s, const char *attr,
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
  bcast__ew_int_range(data, &lo, &hi);
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
  *as_int = neg ? (int64_t)((uint64_t)0 - mag) : (int64_t)(mag > INT64_MAX ? INT64_MAX : mag);
  return BCAST_OK;
}

bcast_status bcast__ew_clamp_bounds(const bcast_op_attrs *attrs,
                                    bcast_dtype data, ew_bounds *out,
                                    bcast_diag *diag) {
  memset(out, 0, sizeof *out);
  out->lo_f = -INFINITY;
  out->hi_f = INFINITY;
  const bcast_dtype_kind kind = bcast_dtype_kind_of(data);
  if (kind == BCAST_KIND_STRING) return BCAST_OK;
  int64_t lo;
  uint64_t hi;
  if (kind != BCAST_KIND_FLOAT) {
    bcast__ew_int_range(data, &lo, &hi);
    out->lo_i = lo;
    out->hi_i = hi > INT64_MAX ? INT64_MAX : (int64_t)hi;
    out->lo_u = 0;
    out->hi_u = hi;
  }
  bcast_status status = BCAST_OK;
  if (attrs->min_val.kind != BCAST_SCALAR_NONE)
    status = convert_bound(&attrs->min_val, "min_val", data, &out->lo_i,
                           &out->lo_u, &out->lo_f, diag);
  if (status == BCAST_OK && attrs->max_val.kind != BCAST_SCALAR_NONE)
    status = convert_bound(&attrs->max_val, "max_val", data, &out->hi_i,
                           &out->hi_u, &out->hi_f, diag);
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

/* MLIR's bit pattern of an infinity of a floating type. */
/* Every element type as a constant, for attrs->cast_to to point at. */
static const bcast_dtype every_dtype[BCAST_DTYPE_COUNT] = {
#define DTYPE_(id, name, ctype, size, kind, npy, mlir) BCAST_##id,
    BCAST_DTYPE_LIST(DTYPE_)
#undef DTYPE_
};

static const char *mlir_infinity(bcast_dtype dtype, int negative) {
  switch (dtype) {
  case BCAST_FLOAT16:
    return negative ? "0xFC00" : "0x7C00";
  case BCAST_BFLOAT16:
    return negative ? "0xFF80" : "0x7F80";
  case BCAST_FLOAT32:
    return negative ? "0xFF800000" : "0x7F800000";
  default:
    return negative ? "0xFFF0000000000000" : "0x7FF0000000000000";
  }
}

bcast_status bcast_scalar_format_mlir(const bcast_scalar *scalar,
                                      bcast_dtype dtype, char *buf, size_t cap,
                                      bcast_diag *diag) {
  if (!scalar || !buf || cap == 0)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_scalar_format_mlir: NULL argument or empty "
                       "buffer");
  if ((unsigned)dtype >= BCAST_DTYPE_COUNT ||
      bcast_dtype_kind_of(dtype) == BCAST_KIND_STRING)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "no MLIR literal for element type %d", (int)dtype);
  if (scalar->kind == BCAST_SCALAR_NONE)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "an absent scalar has no MLIR literal");
  int64_t as_int = 0;
  uint64_t as_uint = 0;
  double as_fp = 0;
  bcast_status status = convert_bound(scalar, "the value", dtype, &as_int,
                                      &as_uint, &as_fp, diag);
  if (status != BCAST_OK) return status;
  char text[64];
  switch (bcast_dtype_kind_of(dtype)) {
  case BCAST_KIND_FLOAT:
    if (isinf(as_fp)) {
      snprintf(text, sizeof text, "%s", mlir_infinity(dtype, as_fp < 0));
    } else {
      /* MLIR's float literal needs a '.' before any exponent. */
      char digits[48];
      format_double(as_fp, digits, sizeof digits);
      const char *e = strchr(digits, 'e');
      if (strchr(digits, '.'))
        snprintf(text, sizeof text, "%s", digits);
      else if (e)
        snprintf(text, sizeof text, "%.*s.0%s", (int)(e - digits), digits, e);
      else
        snprintf(text, sizeof text, "%s.0", digits);
    }
    break;
  case BCAST_KIND_UNSIGNED:
    snprintf(text, sizeof text, "%llu", (unsigned long long)as_uint);
    break;
  default:
    snprintf(text, sizeof text, "%lld", (long long)as_int);
    break;
  }
  if (strlen(text) >= cap)
    return bcast__fail(diag, BCAST_OVERFLOW,
                       "the MLIR literal %s needs %zu bytes, the buffer has "
                       "%zu",
                       text, strlen(text) + 1, cap);
  memcpy(buf, text, strlen(text) + 1);
  return BCAST_OK;
}


/* ------------------------------------------------------------------------ */
/* Values.  A value is a span of text; these read it whole. */

typedef struct span {
  const char *p;
  size_t n;
} span;

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static span trim(span s) {
  while (s.n && is_space(s.p[0])) s.p++, s.n--;
  while (s.n && is_space(s.p[s.n - 1])) s.n--;
  return s;
}

static int span_is(span s, const char *text) {
  return strlen(text) == s.n && memcmp(s.p, text, s.n) == 0;
}

static int span_is_nocase(span s, const char *text) {
  if (strlen(text) != s.n) return 0;
  for (size_t i = 0; i < s.n; i++) {
    char c = s.p[i];
    if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    if (c != text[i]) return 0;
  }
  return 1;
}

/* Splits "value : type" at the first ':' outside quotes and <...>; *type
 * is empty without one.  Returns 0 when a ':' has no type after it. */
static int split_type(span s, span *value, span *type) {
  int depth = 0, quoted = 0;
  for (size_t i = 0; i < s.n; i++) {
    const char c = s.p[i];
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '<') depth++;
    if (c == '>' && depth > 0) depth--;
    if (c == ':' && depth == 0) {
      value->p = s.p;
      value->n = i;
      *value = trim(*value);
      type->p = s.p + i + 1;
      type->n = s.n - i - 1;
      *type = trim(*type);
      return type->n > 0;
    }
  }
  *value = s;
  type->p = s.p + s.n;
  type->n = 0;
  return 1;
}

/* Strips one pair of double quotes. */
static span unquote(span s) {
  if (s.n >= 2 && s.p[0] == '"' && s.p[s.n - 1] == '"') {
    s.p++;
    s.n -= 2;
  }
  return s;
}

/* An integer in decimal or 0x hexadecimal with an optional sign, exactly:
 * *neg and *mag.  Returns 0 if malformed or beyond 64 bits of magnitude. */
static int read_integer(span s, int *neg, uint64_t *mag) {
  size_t i = 0;
  *neg = 0;
  if (i < s.n && (s.p[i] == '-' || s.p[i] == '+')) *neg = s.p[i++] == '-';
  unsigned base = 10;
  if (i + 1 < s.n && s.p[i] == '0' &&
      (s.p[i + 1] == 'x' || s.p[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  if (i >= s.n) return 0;
  uint64_t v = 0;
  for (; i < s.n; i++) {
    const char c = s.p[i];
    unsigned d;
    if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
    else return 0;
    if (v > (UINT64_MAX - d) / base) return 0;
    v = v * base + d;
  }
  *mag = v;
  return 1;
}

/* A signed 64-bit integer.  Returns 0 if malformed or out of range. */
static int read_int64(span s, int64_t *out) {
  int neg;
  uint64_t mag;
  if (!read_integer(s, &neg, &mag)) return 0;
  if (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
    return 0;
  *out = neg ? (int64_t)((uint64_t)0 - mag) : (int64_t)mag;
  return 1;
}

/* A bit pattern "0x..." of floating type `type` ("f16", "bf16", "f32",
 * "f64"), as MLIR prints NaN and infinities.  Returns 0 otherwise. */
static int read_float_bits(span value, span type, double *out) {
  int neg;
  uint64_t bits;
  if (value.n < 3 || value.p[0] != '0' || (value.p[1] != 'x' && value.p[1] != 'X') ||
      !read_integer(value, &neg, &bits))
    return 0;
  if (span_is(type, "f16") && bits <= 0xFFFF) {
    *out = ew_f16_load((uint16_t)bits);
  } else if (span_is(type, "bf16") && bits <= 0xFFFF) {
    *out = ew_bf16_load((uint16_t)bits);
  } else if (span_is(type, "f32") && bits <= 0xFFFFFFFFu) {
    const uint32_t b32 = (uint32_t)bits;
    float f;
    memcpy(&f, &b32, sizeof f);
    *out = f;
  } else if (span_is(type, "f64")) {
    memcpy(out, &bits, sizeof *out);
  } else {
    return 0;
  }
  return 1;
}

/* A number: an exact integer (INT, or UINT above INT64_MAX), else a float
 * (strtod's syntax: "1.5", "-inf", "nan", "1e300"; integers beyond 64 bits
 * become floats too).  Returns 0 if malformed. */
static int read_number(span value, span type, bcast_scalar *out) {
  double f;
  if (read_float_bits(value, type, &f)) {
    *out = bcast_scalar_float(f);
    return 1;
  }
  /* A bit pattern too wide for its floating type is no number. */
  const int float_type = span_is(type, "f16") || span_is(type, "bf16") ||
                         span_is(type, "f32") || span_is(type, "f64");
  if (float_type && value.n > 1 && value.p[0] == '0' &&
      (value.p[1] == 'x' || value.p[1] == 'X'))
    return 0;
  int neg;
  uint64_t mag;
  if (read_integer(value, &neg, &mag)) {
    if (!neg && mag > (uint64_t)INT64_MAX)
      *out = bcast_scalar_uint(mag);
    else if (neg && mag > (uint64_t)INT64_MAX + 1)
      *out = bcast_scalar_float(-(double)mag);
    else
      *out = bcast_scalar_int(neg ? (int64_t)((uint64_t)0 - mag)
                                  : (int64_t)mag);
    return 1;
  }
  char text[128];
  if (value.n == 0 || value.n >= sizeof text) return 0;
  memcpy(text, value.p, value.n);
  text[value.n] = '\0';
  /* strtod would also take hexadecimal floats and leading spaces; MLIR and
   * the command line write neither. */
  if (is_space(text[0]) || strchr(text, 'x') || strchr(text, 'X')) return 0;
  char *end;
  errno = 0;
  f = strtod(text, &end);
  if (end != text + value.n) return 0;
  *out = bcast_scalar_float(f);
  return 1;
}

static bcast_status bad_value(bcast_diag *diag, bcast_op op, bcast_attr attr,
                              span raw, const char *expected) {
  return bcast__fail(diag, BCAST_PARSE, "tosa.%s: %s = '%.*s': expected %s",
                     bcast_op_get(op)->name, bcast_attr_name(attr),
                     (int)(raw.n > 200 ? 200 : raw.n), raw.p, expected);
}

/* Parses value for attr into attrs (op reads attr). */
static bcast_status set_value(bcast_op_attrs *attrs, bcast_op op,
                              bcast_attr attr, span raw, bcast_diag *diag) {
  span value, type;
  raw = trim(raw);
  if (!split_type(raw, &value, &type))
    return bad_value(diag, op, attr, raw, "a type after ':'");
  switch (attr) {
  case BCAST_ATTR_SHIFT: {
    int64_t n;
    if (!read_int64(value, &n) || n < INT32_MIN || n > INT32_MAX)
      return bad_value(diag, op, attr, raw, "an integer (0..63)");
    attrs->shift = (int32_t)n;
    return BCAST_OK;
  }
  case BCAST_ATTR_ROUND:
    if (span_is(value, "true") || span_is(value, "True") || span_is(value, "1"))
      attrs->round = 1;
    else if (span_is(value, "false") || span_is(value, "False") ||
             span_is(value, "0"))
      attrs->round = 0;
    else
      return bad_value(diag, op, attr, raw, "true or false");
    return BCAST_OK;
  case BCAST_ATTR_MIN_VAL:
  case BCAST_ATTR_MAX_VAL: {
    bcast_scalar s;
    if (!read_number(value, type, &s))
      return bad_value(diag, op, attr, raw, "a number");
    if (attr == BCAST_ATTR_MIN_VAL) attrs->min_val = s;
    else attrs->max_val = s;
    return BCAST_OK;
  }
  case BCAST_ATTR_NAN_MODE: {
    span mode = unquote(value);
    static const char prefix[] = "#tosa.nan_mode<";
    const size_t pn = sizeof prefix - 1;
    if (mode.n > pn && memcmp(mode.p, prefix, pn) == 0 &&
        mode.p[mode.n - 1] == '>') {
      mode.p += pn;
      mode.n -= pn + 1;
    }
    if (span_is_nocase(mode, "PROPAGATE"))
      attrs->nan_mode = BCAST_NAN_PROPAGATE;
    else if (span_is_nocase(mode, "IGNORE"))
      attrs->nan_mode = BCAST_NAN_IGNORE;
    else
      return bad_value(diag, op, attr, raw, "PROPAGATE or IGNORE");
    return BCAST_OK;
  }
  case BCAST_ATTR_INPUT_ZP:
  case BCAST_ATTR_OUTPUT_ZP: {
    int64_t n;
    if (!read_int64(value, &n))
      return bad_value(diag, op, attr, raw, "an integer");
    if (attr == BCAST_ATTR_INPUT_ZP) attrs->input_zp = n;
    else attrs->output_zp = n;
    return BCAST_OK;
  }
  case BCAST_ATTR_TO: {
    /* A type has no ": type" of its own; the whole text names it. */
    span name = unquote(raw);
    bcast_dtype to;
    if (bcast_dtype_parse(name.p, name.n, &to) != BCAST_OK ||
        bcast_dtype_kind_of(to) == BCAST_KIND_STRING)
      return bad_value(diag, op, attr, raw,
                       "an element type (int8, float16, f32, i1, ...)");
    attrs->cast_to = &every_dtype[to];
    return BCAST_OK;
  }
  default:
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT, "unknown attribute %d",
                       (int)attr);
  }
}

/* The names of every attribute, for an "unknown attribute" message. */
static void list_attrs(char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int a = 0; a < BCAST_ATTR_COUNT; a++)
    bcast__append(buf, cap, &len, "%s%s", a ? ", " : "", bcast_attr_name((bcast_attr)a));
}

bcast_status bcast_op_attr_set(bcast_op_attrs *attrs, bcast_op op,
                               const char *name, size_t name_len,
                               const char *value, size_t value_len,
                               bcast_diag *diag) {
  if (!attrs || !name || !value || (unsigned)op >= BCAST_OP_COUNT)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_op_attr_set: NULL argument or unknown op");
  bcast_attr attr;
  span key = trim((span){name, name_len});
  if (bcast_attr_lookup(key.p, key.n, &attr) != BCAST_OK) {
    char list[256];
    list_attrs(list, sizeof list);
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "unknown attribute '%.*s' (%s)",
                       (int)(key.n > 100 ? 100 : key.n), key.p, list);
  }
  if (!bcast_op_reads_attr(op, attr))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "attribute '%.*s' does not apply to tosa.%s",
                       (int)key.n, key.p, bcast_op_get(op)->name);
  /* Parse into a copy so that attrs stay unchanged on failure. */
  bcast_op_attrs next = *attrs;
  bcast_status status = set_value(&next, op, attr, (span){value, value_len}, diag);
  if (status == BCAST_OK) *attrs = next;
  return status;
}

bcast_status bcast_op_attr_parse(bcast_op_attrs *attrs, bcast_op op,
                                 const char *text, size_t len,
                                 bcast_diag *diag) {
  if (!text)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_op_attr_parse: NULL text");
  const char *eq = memchr(text, '=', len);
  span name = eq ? trim((span){text, (size_t)(eq - text)}) : (span){text, 0};
  if (!eq || name.n == 0)
    return bcast__fail(diag, BCAST_PARSE,
                       "attribute '%.*s': expected NAME=VALUE",
                       (int)(len > 200 ? 200 : len), text);
  return bcast_op_attr_set(attrs, op, name.p, name.n, eq + 1,
                           len - (size_t)(eq + 1 - text), diag);
}

/* ------------------------------------------------------------------------ */
/* Dictionaries. */

/* The end of a value starting at i: the first ',' or '}' outside quotes
 * and brackets ((), [], {}, <>; "->" inside an affine map is not a
 * bracket).  Returns len when the dictionary does not close. */
static size_t value_end(const char *t, size_t len, size_t i) {
  int depth = 0;
  for (; i < len; i++) {
    const char c = t[i];
    if (c == '"') {
      for (i++; i < len && t[i] != '"'; i++)
        if (t[i] == '\\') i++;
      continue;
    }
    if (c == '-' && bcast__peek(t, len, i + 1) == '>') {
      i++;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') depth++;
    else if (c == ')' || c == ']' || c == '>' || (c == '}' && depth > 0)) depth--;
    else if (depth == 0 && (c == ',' || c == '}')) return i;
    if (depth < 0) return len;
  }
  return len;
}

static int is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
         c == '-';
}

bcast_status bcast_op_attrs_parse_mlir(bcast_op_attrs *attrs, bcast_op op,
                                       const char *text, size_t len,
                                       size_t *used, bcast_diag *diag) {
  if (!attrs || !text || (unsigned)op >= BCAST_OP_COUNT)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_op_attrs_parse_mlir: NULL argument or unknown "
                       "op");
  if (len == 0 || text[0] != '{')
    return bcast__fail(diag, BCAST_PARSE,
                       "an attribute dictionary starts with '{'");
  bcast_op_attrs next = *attrs;
  size_t i = 1;
  for (int first = 1;; first = 0) {
    i = bcast__skip_trivia(text, len, i);
    if (bcast__peek(text, len, i) == '}' && first) break;
    /* A key: a bare identifier or a quoted string. */
    span key = {text + i, 0};
    if (bcast__peek(text, len, i) == '"') {
      size_t k = i + 1;
      while (k < len && text[k] != '"') k++;
      if (k >= len)
        return bcast__fail(diag, BCAST_PARSE,
                           "attribute dictionary: unterminated quoted name at "
                           "offset %zu",
                           i);
      key = (span){text + i + 1, k - i - 1};
      i = k + 1;
    } else {
      while (is_key_char(bcast__peek(text, len, i))) i++;
      key.n = (size_t)(text + i - key.p);
    }
    if (key.n == 0)
      return bcast__fail(diag, BCAST_PARSE,
                         "attribute dictionary: expected a name at offset %zu",
                         i);
    i = bcast__skip_trivia(text, len, i);
    /* "name" alone is a unit attribute; "name = value" has a value. */
    if (bcast__peek(text, len, i) == '=') {
      const size_t start = i + 1;
      i = value_end(text, len, start);
      if (i >= len) break;
      bcast_attr attr;
      if (bcast_attr_lookup(key.p, key.n, &attr) == BCAST_OK &&
          bcast_op_reads_attr(op, attr)) {
        const span v = trim((span){text + start, i - start});
        bcast_status status = set_value(&next, op, attr, v, diag);
        if (status != BCAST_OK) return status;
      }
    }
    if (bcast__peek(text, len, i) == ',') {
      i++;
      continue;
    }
    if (bcast__peek(text, len, i) == '}') break;
    return bcast__fail(diag, BCAST_PARSE,
                       "attribute dictionary: expected ',' or '}' at offset "
                       "%zu",
                       i);
  }
  if (i >= len)
    return bcast__fail(diag, BCAST_PARSE,
                       "attribute dictionary: no closing '}'");
  if (used) *used = i + 1;
  *attrs = next;
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* Kernel parameters. */

/* The kernels' parameters.  The attributes were checked by
 * bcast_ew_result_dtype, so the bounds convert without failing. */
void bcast__ew_params_from_attrs(struct ew_params *p, const bcast_op_attrs *a,
                                 bcast_dtype data) {
  memset(p, 0, sizeof *p);
  p->shift = a->shift;
  p->round = a->round != 0;
  p->nan_ignore = a->nan_mode == BCAST_NAN_IGNORE;
  p->in_zp = (int32_t)a->input_zp;
  p->out_zp = (int32_t)a->output_zp;
  ew_bounds bounds;
  bcast__ew_clamp_bounds(a, data, &bounds, NULL);
  p->lo_i = bounds.lo_i;
  p->hi_i = bounds.hi_i;
  p->lo_u = bounds.lo_u;
  p->hi_u = bounds.hi_u;
  p->lo_f = bounds.lo_f;
  p->hi_f = bounds.hi_f;
}
