/* The attribute and constant-operand rules MLIR 22's TOSA verifiers apply
 * to the element-wise ops (TosaOps.cpp), in mlir-opt's words:
 *
 *   tosa.clamp   min_val and max_val of the input's element type, neither
 *                NaN, min_val <= max_val (unsigned and i1 compared
 *                unsigned);
 *   tosa.mul     a constant shift of 0 for float data;
 *   tosa.negate  constant zero points of 0 unless the zero point is i8.
 *
 * A bound is printed as MLIR prints the attribute ("2.000000e+00 : f32",
 * "0x7FC00000 : f32", "-3 : i8", "true").  A shift or zero point that is
 * not a constant bcast can read (a function argument, another op) is not
 * judged, as the verifier cannot judge it either. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "type/mlir_internal.h"
#include "type/text.h"

typedef struct text_span {
  const char *p;
  size_t n;
} text_span;

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static text_span trimmed(const char *p, size_t n) {
  while (n && is_blank(p[0])) p++, n--;
  while (n && is_blank(p[n - 1])) n--;
  return (text_span){p, n};
}

static int span_eq(text_span s, const char *want) {
  return strlen(want) == s.n && memcmp(s.p, want, s.n) == 0;
}

/* The floating types whose attributes bcast prints as MLIR does: their
 * width and the digits APFloat's default toString gives. */
static const struct {
  const char *name;
  int bits, digits;
} float_types[] = {{"f16", 16, 5}, {"bf16", 16, 4}, {"f32", 32, 9},
                   {"f64", 64, 17}};

/* A clamp bound as MLIR reads it: its value's text, its type (the written
 * one, or the literal's default: i64, f64, i1 for true / false). */
typedef struct bound {
  text_span value, type;
  int is_bool, is_float_literal;
} bound;

static void read_bound(bcast_mlir_span v, bound *b) {
  text_span s = trimmed(v.text, v.len);
  size_t colon = s.n;
  int depth = 0;
  for (size_t i = 0; i < s.n; i++) {
    if (s.p[i] == '<') depth++;
    if (s.p[i] == '>' && depth) depth--;
    if (s.p[i] == ':' && !depth) {
      colon = i;
      break;
    }
  }
  b->value = trimmed(s.p, colon);
  b->type = colon < s.n ? trimmed(s.p + colon + 1, s.n - colon - 1)
                        : (text_span){NULL, 0};
  b->is_bool = span_eq(b->value, "true") || span_eq(b->value, "false");
  b->is_float_literal = 0;
  for (size_t i = 0; i < b->value.n && !b->is_bool; i++)
    if (b->value.p[i] == '.' || b->value.p[i] == 'e' || b->value.p[i] == 'E')
      b->is_float_literal = 1;
  if (b->value.n > 1 && b->value.p[0] == '0' &&
      (b->value.p[1] == 'x' || b->value.p[1] == 'X'))
    b->is_float_literal = 0; /* a bit pattern: its type says */
  if (!b->type.n)
    b->type = (text_span){b->is_bool ? "i1" : b->is_float_literal ? "f64"
                                                                  : "i64",
                          b->is_bool ? 2u : 3u};
}

/* A number in a bound's text: *neg and the magnitude, decimal or 0x. */
static int read_uint(text_span s, int *neg, unsigned long long *mag) {
  char buf[64];
  *neg = s.n && s.p[0] == '-';
  size_t skip = (s.n && (s.p[0] == '-' || s.p[0] == '+')) ? 1 : 0;
  if (s.n - skip == 0 || s.n - skip >= sizeof buf) return 0;
  memcpy(buf, s.p + skip, s.n - skip);
  buf[s.n - skip] = '\0';
  if (buf[0] == '-' || buf[0] == '+' || is_blank(buf[0])) return 0;
  char *end;
  *mag = strtoull(buf, &end, 0);
  return *end == '\0';
}

/* The value of a float bound rounded to its type, and its bits. */
static int float_value(const bound *b, int type, double *v, uint64_t *bits) {
  int neg;
  unsigned long long mag;
  const int w = float_types[type].bits;
  if (!b->is_float_literal && b->value.n > 1 && b->value.p[0] == '0' &&
      read_uint(b->value, &neg, &mag)) {
    if (w < 64 && mag >> w) return 0;
    *bits = mag;
    if (w == 64) {
      memcpy(v, bits, sizeof *v);
    } else if (w == 32) {
      uint32_t u = (uint32_t)mag;
      float f;
      memcpy(&f, &u, sizeof f);
      *v = f;
    } else {
      *v = type == 0 ? bcast_half_to_float((uint16_t)mag)
                     : bcast_bf16_to_float((uint16_t)mag);
    }
    return 1;
  }
  char buf[128];
  if (b->value.n == 0 || b->value.n >= sizeof buf) return 0;
  memcpy(buf, b->value.p, b->value.n);
  buf[b->value.n] = '\0';
  char *end;
  double d = strtod(buf, &end);
  if (*end != '\0') return 0;
  if (w == 64) {
    *v = d;
    memcpy(bits, &d, sizeof d);
  } else if (w == 32) {
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    *v = f;
    *bits = u;
  } else {
    uint16_t h = type == 0 ? bcast_float_to_half((float)d)
                           : bcast_double_to_bf16(d);
    *v = type == 0 ? bcast_half_to_float(h) : bcast_bf16_to_float(h);
    *bits = h;
  }
  return 1;
}

/* Does text read back as exactly v in float type `type`? */
static int reads_back(const char *text, int type, double v) {
  double r;
  uint64_t bits;
  bound b = {{text, strlen(text)}, {NULL, 0}, 0, 1};
  if (float_value(&b, type, &r, &bits) == 0) return 0;
  return r == v && signbit(r) == signbit(v);
}

/* MLIR's printFloatValue: six significant digits in exponent form when
 * they read back exactly ("2.000000e+00"), else APFloat's natural digits
 * when the text has a '.' ("1.23456788"), else the bits in hex. */
static void format_float(double v, uint64_t bits, int type, char *out,
                         size_t cap) {
  if (isfinite(v)) {
    char t[64];
    snprintf(t, sizeof t, "%.5e", v);
    if (reads_back(t, type, v)) {
      /* APFloat pads its six digits to seven: one more 0 before 'e'. */
      char *e = strchr(t, 'e');
      snprintf(out, cap, "%.*s0%s", (int)(e - t), t, e);
      return;
    }
    snprintf(t, sizeof t, "%.*g", float_types[type].digits, v);
    if (strchr(t, '.') && !strchr(t, 'e')) {
      snprintf(out, cap, "%s", t);
      return;
    }
  }
  snprintf(out, cap, "0x%0*llX", float_types[type].bits / 4,
           (unsigned long long)bits);
}

static bcast_status bound_fail(bcast_diag *diag, const char *why,
                               const char *head, const char *lo,
                               const char *hi) {
  if (!diag) return BCAST_INVALID_ARGUMENT;
  bcast__fail(diag, BCAST_INVALID_ARGUMENT, "tosa.clamp: %s (min_val %s, "
              "max_val %s)", why, lo, hi);
  bcast__mlir_message(diag, 1, "%s, got min_val=%s, max_val=%s", head, lo,
                      hi);
  return BCAST_INVALID_ARGUMENT;
}

bcast_status bcast__tosa_clamp_bounds(const bcast_mlir_op *op,
                                      bcast_diag *diag) {
  bcast_mlir_span k, lo_v, hi_v;
  if (!bcast_mlir_op_attr(op, "min_val", &k, &lo_v) ||
      !bcast_mlir_op_attr(op, "max_val", &k, &hi_v))
    return BCAST_OK; /* ODS's missing attribute: not modelled here */
  const bcast_mlir_type_ref *in = &op->operands[0];
  text_span elem = {in->elem, in->elem_len};
  bound lo, hi;
  read_bound(lo_v, &lo);
  read_bound(hi_v, &hi);
  int ftype = -1;
  for (int t = 0; t < (int)(sizeof float_types / sizeof float_types[0]); t++)
    if (span_eq(elem, float_types[t].name)) ftype = t;
  const int is_int = elem.n > 1 && (elem.p[0] == 'i' || elem.p[0] == 'u');
  if (ftype < 0 && !is_int) return BCAST_OK; /* f8, quant: not judged */
  const int same = lo.type.n == elem.n && hi.type.n == elem.n &&
                   memcmp(lo.type.p, elem.p, elem.n) == 0 &&
                   memcmp(hi.type.p, elem.p, elem.n) == 0;
  const int lo_kind_ok = ftype >= 0 ? !lo.is_bool : !lo.is_float_literal;
  const int hi_kind_ok = ftype >= 0 ? !hi.is_bool : !hi.is_float_literal;
  if (!same || !lo_kind_ok || !hi_kind_ok) {
    if (!diag) return BCAST_INVALID_ARGUMENT;
    bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                "tosa.clamp: min_val and max_val must be attributes of the "
                "input's element type %.*s",
                (int)elem.n, elem.p);
    bcast__mlir_message(diag, 1,
                        "min/max attributes types are incompatible with "
                        "input/output element types.");
    return BCAST_INVALID_ARGUMENT;
  }
  char lo_text[96], hi_text[96];
  if (ftype >= 0) {
    double a, b;
    uint64_t abits, bbits;
    if (!float_value(&lo, ftype, &a, &abits) ||
        !float_value(&hi, ftype, &b, &bbits))
      return BCAST_OK; /* a malformed value: the parser's business */
    char fa[64], fb[64];
    format_float(a, abits, ftype, fa, sizeof fa);
    format_float(b, bbits, ftype, fb, sizeof fb);
    snprintf(lo_text, sizeof lo_text, "%s : %.*s", fa, (int)elem.n, elem.p);
    snprintf(hi_text, sizeof hi_text, "%s : %.*s", fb, (int)elem.n, elem.p);
    if (isnan(a) || isnan(b))
      return bound_fail(diag, "a bound is NaN",
                        "min/max attributes should not be 'NaN'", lo_text,
                        hi_text);
    if (b < a)
      return bound_fail(diag, "min_val is greater than max_val",
                        "expected min_val <= max_val", lo_text, hi_text);
    return BCAST_OK;
  }
  /* Integers: i1 as true / false; unsigned and i1 compared unsigned. */
  const int is_i1 = span_eq(elem, "i1");
  const int is_unsigned = elem.p[0] == 'u';
  int na = 0, nb = 0;
  unsigned long long ma, mb;
  if (is_i1) {
    ma = lo.is_bool ? span_eq(lo.value, "true") : 0;
    mb = hi.is_bool ? span_eq(hi.value, "true") : 0;
    if ((!lo.is_bool && !read_uint(lo.value, &na, &ma)) ||
        (!hi.is_bool && !read_uint(hi.value, &nb, &mb)))
      return BCAST_OK;
    snprintf(lo_text, sizeof lo_text, "%s", ma ? "true" : "false");
    snprintf(hi_text, sizeof hi_text, "%s", mb ? "true" : "false");
  } else {
    if (!read_uint(lo.value, &na, &ma) || !read_uint(hi.value, &nb, &mb))
      return BCAST_OK;
    snprintf(lo_text, sizeof lo_text, "%s%llu : %.*s", na ? "-" : "", ma,
             (int)elem.n, elem.p);
    snprintf(hi_text, sizeof hi_text, "%s%llu : %.*s", nb ? "-" : "", mb,
             (int)elem.n, elem.p);
  }
  int greater;
  if (is_i1 || is_unsigned || (!na && !nb))
    greater = ma > mb;
  else if (na != nb)
    greater = nb; /* lo >= 0 > hi */
  else
    greater = ma < mb; /* both negative */
  if (greater)
    return bound_fail(diag, "min_val is greater than max_val",
                      "expected min_val <= max_val", lo_text, hi_text);
  return BCAST_OK;
}

/* The one value of a constant operand k, when bcast can read it: an
 * integer, or a float splat ("dense<1.5> : tensor<1xf32>") as *fvalue
 * with *value its integer part as MLIR's zero point getters take it. */
static int constant_operand(const bcast_mlir_op *op, size_t k,
                            int64_t *value, double *fvalue) {
  int64_t vals[1];
  size_t n = 0;
  bcast_mlir_span dense;
  if (k >= op->n_operand_names) return 0;
  if (bcast__mlir_constant_ints(op, op->operand_names[k], vals, 1, &n)) {
    if (n != 1) return 0;
    *value = vals[0];
    *fvalue = (double)vals[0];
    return 1;
  }
  if (!bcast__mlir_constant_dense(op, op->operand_names[k], &dense) ||
      dense.len < 7)
    return 0;
  char buf[64];
  size_t close = 6;
  while (close < dense.len && dense.text[close] != '>') close++;
  if (close - 6 == 0 || close - 6 >= sizeof buf) return 0;
  memcpy(buf, dense.text + 6, close - 6);
  buf[close - 6] = '\0';
  char *end;
  *fvalue = strtod(buf, &end);
  if (*end != '\0' || !isfinite(*fvalue)) return 0;
  *value = (int64_t)*fvalue;
  return 1;
}

bcast_status bcast__tosa_mul_shift(const bcast_mlir_op *op, bcast_diag *diag) {
  const bcast_mlir_type_ref *a = &op->operands[0];
  text_span elem = {a->elem, a->elem_len};
  int is_float = 0;
  for (size_t t = 0; t < sizeof float_types / sizeof float_types[0]; t++)
    is_float |= span_eq(elem, float_types[t].name);
  if (!is_float && !(elem.n > 3 && elem.p[0] == 'f' && elem.p[2] == 'E'))
    return BCAST_OK;
  int64_t shift;
  double fshift;
  if (!constant_operand(op, 2, &shift, &fshift) || shift == 0)
    return BCAST_OK;
  if (!diag) return BCAST_INVALID_ARGUMENT;
  bcast__fail(diag, BCAST_INVALID_ARGUMENT,
              "tosa.mul: the shift is %lld but %.*s data takes no shift "
              "(it must be 0)",
              (long long)shift, (int)elem.n, elem.p);
  bcast__mlir_message(diag, 1, "require shift to be 0 for float type");
  return BCAST_INVALID_ARGUMENT;
}

bcast_status bcast__tosa_negate_zero_points(const bcast_mlir_op *op,
                                            bcast_diag *diag) {
  static const char *const names[] = {"input1", "output"};
  for (size_t k = 1; k <= 2 && k < op->n_operands; k++) {
    const bcast_mlir_type_ref *zp = &op->operands[k];
    if (zp->elem_len == 2 && memcmp(zp->elem, "i8", 2) == 0) continue;
    int64_t value;
    double fvalue;
    if (!constant_operand(op, k, &value, &fvalue) || fvalue == 0) continue;
    if (!diag) return BCAST_INVALID_ARGUMENT;
    bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                "tosa.negate: the %s zero point is %g; only int8 data has "
                "zero points (the others must be 0)",
                names[k - 1], fvalue);
    bcast__mlir_message(diag, 1,
                        "%s zero point must be zero for non-int8 integer "
                        "types",
                        names[k - 1]);
    return BCAST_INVALID_ARGUMENT;
  }
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* nan_mode: MLIR 22 spells it as its enum, "nan_mode = IGNORE" in the custom
 * form and "#tosa.nan_mode<IGNORE>" anywhere.  Its custom-form parser drops
 * any other value ("IGNORE" as a string, a number: PROPAGATE stays) and
 * refuses an identifier that names no mode; the generic form refuses what
 * is not the enum. */

typedef enum nan_mode_text {
  NAN_MODE_ENUM,      /* PROPAGATE or IGNORE, bare or #tosa.nan_mode<..> */
  NAN_MODE_BAD_NAME,  /* a bare identifier naming no mode */
  NAN_MODE_OTHER      /* a string, a number, ...: not the enum */
} nan_mode_text;

static nan_mode_text nan_mode_kind(bcast_mlir_span v, text_span *name) {
  text_span s = trimmed(v.text, v.len);
  static const char prefix[] = "#tosa.nan_mode<";
  const size_t pn = sizeof prefix - 1;
  int wrapped = 0;
  if (s.n > pn && memcmp(s.p, prefix, pn) == 0 && s.p[s.n - 1] == '>') {
    s = trimmed(s.p + pn, s.n - pn - 1);
    wrapped = 1;
  }
  *name = s;
  if (span_eq(s, "PROPAGATE") || span_eq(s, "IGNORE")) return NAN_MODE_ENUM;
  int ident = s.n > 0 && !(s.p[0] >= '0' && s.p[0] <= '9');
  for (size_t i = 0; i < s.n && ident; i++)
    ident = bcast__is_ident(s.p[i]);
  return ident || wrapped ? NAN_MODE_BAD_NAME : NAN_MODE_OTHER;
}

/* The nan_mode entry of an op that reads one, or 0. */
static int nan_mode_entry(const bcast_mlir_op *op, bcast_mlir_span *key,
                          bcast_mlir_span *value) {
  bcast_op id;
  if (!(op->name_len > 5 && memcmp(op->name, "tosa.", 5) == 0) ||
      bcast_op_lookup(op->name, op->name_len, &id) != BCAST_OK ||
      !bcast_op_reads_attr(id, BCAST_ATTR_NAN_MODE))
    return 0;
  return bcast_mlir_op_attr(op, "nan_mode", key, value);
}

int bcast_mlir_nan_mode_dropped(const bcast_mlir_op *op,
                                bcast_mlir_span *value) {
  bcast_mlir_span key, v;
  text_span name;
  if (!op || op->custom.len == 0 || !nan_mode_entry(op, &key, &v) ||
      nan_mode_kind(v, &name) != NAN_MODE_OTHER)
    return 0;
  if (value) *value = v;
  return 1;
}

/* The first character after blanks from p, not beyond end. */
static const char *next_token(const char *p, const char *end) {
  while (p < end && is_blank(*p)) p++;
  return p;
}

static bcast_status nan_mode_syntax(const bcast_mlir_op *op, const char **at,
                                    bcast_diag *diag) {
  bcast_mlir_span key, v;
  text_span name;
  if (!nan_mode_entry(op, &key, &v)) return BCAST_OK;
  const nan_mode_text kind = nan_mode_kind(v, &name);
  if (kind == NAN_MODE_ENUM) return BCAST_OK;
  const int custom = op->custom.len > 0;
  const int wrapped = name.p != trimmed(v.text, v.len).p;
  if (custom && kind == NAN_MODE_OTHER) return BCAST_OK; /* dropped */
  if (!diag) return BCAST_PARSE;
  const int n = (int)(v.len > 200 ? 200 : v.len);
  bcast__fail(diag, BCAST_PARSE,
              "nan_mode = %.*s is not one of MLIR 22's NaN modes (write "
              "nan_mode = PROPAGATE or nan_mode = IGNORE)",
              n, v.text);
  if (wrapped) {
    /* The enum attribute's own parser, at the name it cannot read. */
    *at = name.p;
    bcast__mlir_message(diag, 0,
                        "expected ::mlir::tosa::NanPropagationMode to be one "
                        "of: PROPAGATE, IGNORE");
  } else if (custom) {
    /* The custom parser reads the keyword, then reports at what follows. */
    text_span t = trimmed(v.text, v.len);
    *at = next_token(t.p + t.n, op->attrs.text + op->attrs.len);
    bcast__mlir_message(diag, 0, "custom op '%.*s' invalid nan_mode value: %.*s",
                        (int)op->name_len, op->name, (int)name.n, name.p);
  } else if (kind == NAN_MODE_BAD_NAME) {
    /* A bare identifier is no attribute value in a generic dictionary;
     * the parser reports it just after the '=' it read last. */
    const char *p = name.p;
    while (p > key.text && *(p - 1) != '=') p--;
    *at = p;
    bcast__mlir_message(diag, 0, "expected attribute value");
  } else if (op->properties.len > 0 && key.text >= op->properties.text &&
             key.text < op->properties.text + op->properties.len) {
    text_span dict = trimmed(op->properties.text, op->properties.len);
    if (dict.n >= 2 && dict.p[0] == '<') dict = trimmed(dict.p + 1, dict.n - 2);
    bcast__mlir_message(diag, 0,
                        "invalid properties %.*s for op %.*s: Invalid "
                        "attribute `nan_mode` in property conversion: %.*s",
                        (int)(dict.n > 300 ? 300 : dict.n), dict.p,
                        (int)op->name_len, op->name, n, v.text);
  } else {
    bcast__mlir_message(diag, 1,
                        "attribute 'nan_mode' failed to satisfy constraint: "
                        "Supported NaN propagation strategies");
  }
  return BCAST_PARSE;
}

/* A clamp bound typed as a float must be written as one: MLIR's parser
 * refuses a decimal integer ("-1 : f64") and a negated hex bit pattern,
 * at the bound's first digit.  bcast's own note carries the hint
 * mlir-opt gives as a note of its own ("add a trailing dot ..."). */
static bcast_status clamp_bound_syntax(const bcast_mlir_op *op,
                                       const char **at, bcast_diag *diag) {
  static const char *const names[] = {"min_val", "max_val"};
  for (size_t k = 0; k < 2; k++) {
    bcast_mlir_span key, v;
    bound b;
    if (!bcast_mlir_op_attr(op, names[k], &key, &v)) continue;
    read_bound(v, &b);
    const int float_type = b.type.n > 1 && (b.type.p[0] == 'f' ||
                                            span_eq(b.type, "bf16"));
    if (!float_type || b.is_bool || b.is_float_literal || b.value.n == 0)
      continue;
    const int neg = b.value.p[0] == '-' || b.value.p[0] == '+';
    const int hex = b.value.n > (size_t)neg + 1 && b.value.p[neg] == '0' &&
                    (b.value.p[neg + 1] == 'x' || b.value.p[neg + 1] == 'X');
    if (hex && !neg) continue; /* a bit pattern */
    if (!diag) return BCAST_PARSE;
    *at = b.value.p + neg;
    bcast__fail(diag, BCAST_PARSE,
                "tosa.clamp: %s = %.*s : %.*s is not a float literal: %s",
                names[k], (int)b.value.n, b.value.p, (int)b.type.n, b.type.p,
                hex ? "a hex bit pattern takes no sign"
                    : "add a trailing dot to make the literal a float");
    bcast__mlir_message(diag, 0, "%s",
                        hex ? "hexadecimal float literal should not have a "
                              "leading minus"
                            : "unexpected decimal integer literal for a "
                              "floating point value");
    return BCAST_PARSE;
  }
  return BCAST_OK;
}

/* tosa.arithmetic_right_shift's round: a required bool attribute (ODS). */
static bcast_status round_attr(const bcast_mlir_op *op, const char **at,
                               bcast_diag *diag) {
  bcast_mlir_span key, v;
  if (!bcast_mlir_op_attr(op, "round", &key, &v)) {
    if (!diag) return BCAST_INVALID_ARGUMENT;
    bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                "tosa.arithmetic_right_shift needs its round attribute "
                "(round = true or round = false)");
    bcast__mlir_message(diag, 1, "requires attribute 'round'");
    return BCAST_INVALID_ARGUMENT;
  }
  /* A BoolAttr is an i1 IntegerAttr: "true", "false", "1 : i1", "0 : i1". */
  text_span t = trimmed(v.text, v.len);
  bound b;
  read_bound(v, &b);
  if (span_eq(b.type, "i1") &&
      (b.is_bool || span_eq(b.value, "0") || span_eq(b.value, "1")))
    return BCAST_OK;
  if (!diag) return BCAST_INVALID_ARGUMENT;
  bcast__fail(diag, BCAST_INVALID_ARGUMENT,
              "tosa.arithmetic_right_shift: round = %.*s is not a bool "
              "(round = true or round = false)",
              (int)(t.n > 200 ? 200 : t.n), t.p);
  if (op->custom.len > 0) {
    /* The custom parser verifies the dictionary it read, at its '{'. */
    *at = op->attrs.len ? op->attrs.text : NULL;
    bcast__mlir_message(diag, 0,
                        "custom op '%.*s' '%.*s' op attribute 'round' failed "
                        "to satisfy constraint: bool attribute",
                        (int)op->name_len, op->name, (int)op->name_len,
                        op->name);
  } else {
    bcast__mlir_message(diag, 1,
                        "attribute 'round' failed to satisfy constraint: "
                        "bool attribute");
  }
  return BCAST_INVALID_ARGUMENT;
}

bcast_status bcast__tosa_attr_syntax(const bcast_mlir_op *op, const char **at,
                                     bcast_diag *diag) {
  const char *where = NULL;
  bcast_op id;
  bcast_status st = nan_mode_syntax(op, &where, diag);
  if (st == BCAST_OK && bcast_op_lookup(op->name, op->name_len, &id) ==
                            BCAST_OK) {
    if (id == BCAST_OP_CLAMP)
      st = clamp_bound_syntax(op, &where, diag);
    else if (id == BCAST_OP_ARITHMETIC_RIGHT_SHIFT)
      st = round_attr(op, &where, diag);
  }
  if (at) *at = where;
  return st;
}

int bcast__mlir_nan_mode_value_dropped(const char *text, size_t len) {
  text_span name;
  return nan_mode_kind((bcast_mlir_span){text, len}, &name) == NAN_MODE_OTHER;
}
