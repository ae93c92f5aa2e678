/* The one parser of attribute values: text to bcast_op_attrs, for a
 * command line's NAME=VALUE (bcast_op_attr_parse) and for the entries of
 * MLIR attribute dictionaries (src/type/mlir_attr.c passes each entry an
 * op reads to bcast_op_attr_set).
 *
 * The parser only turns text into values.  Whether a value suits the op's
 * data type is decided once, by bcast__op_attrs_check (op_attrs.c), when
 * the data type is known. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bcast/op.h"
#include "core/diag.h"

/* Every element type as a constant, for attrs->cast_to to point at. */
static const bcast_dtype every_dtype[BCAST_DTYPE_COUNT] = {
#define DTYPE_(id, name, ctype, size, kind, npy, mlir) BCAST_##id,
    BCAST_DTYPE_LIST(DTYPE_)
#undef DTYPE_
};

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
    if (c >= '0' && c <= '9')
      d = (unsigned)(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = (unsigned)(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = (unsigned)(c - 'A' + 10);
    else
      return 0;
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
  if (value.n < 3 || value.p[0] != '0' ||
      (value.p[1] != 'x' && value.p[1] != 'X') ||
      !read_integer(value, &neg, &bits))
    return 0;
  if (span_is(type, "f16") && bits <= 0xFFFF) {
    *out = bcast_half_to_float((uint16_t)bits);
  } else if (span_is(type, "bf16") && bits <= 0xFFFF) {
    *out = bcast_bf16_to_float((uint16_t)bits);
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
      *out =
          bcast_scalar_int(neg ? (int64_t)((uint64_t)0 - mag) : (int64_t)mag);
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
    if (span_is(value, "true") || span_is(value, "True") ||
        span_is(value, "1"))
      attrs->round = 1;
    else if (span_is(value, "false") || span_is(value, "False") ||
             span_is(value, "0"))
      attrs->round = 0;
    else
      return bad_value(diag, op, attr, raw, "true or false");
    return BCAST_OK;
  case BCAST_ATTR_MIN_VAL:
  case BCAST_ATTR_MAX_VAL: {
    bcast_scalar *bound =
        attr == BCAST_ATTR_MIN_VAL ? &attrs->min_val : &attrs->max_val;
    return read_number(value, type, bound)
               ? BCAST_OK
               : bad_value(diag, op, attr, raw, "a number");
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
    int64_t *zp =
        attr == BCAST_ATTR_INPUT_ZP ? &attrs->input_zp : &attrs->output_zp;
    return read_int64(value, zp)
               ? BCAST_OK
               : bad_value(diag, op, attr, raw, "an integer");
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
    bcast__append(buf, cap, &len, "%s%s", a ? ", " : "",
                  bcast_attr_name((bcast_attr)a));
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
  bcast_status status =
      set_value(&next, op, attr, (span){value, value_len}, diag);
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
