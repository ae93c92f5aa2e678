/* StableHLO's view of an op's types: element type classes, quantized
 * element types (!quant.uniform<...>, per tensor and per axis) and the
 * #stablehlo.bounds<...> encoding, read from their text as the verifiers
 * of mlir_hlo.c need them.  Nothing allocates; every read is bounded by
 * the span it is given. */
#include <stdlib.h>
#include <string.h>

#include "type/mlir_hlo.h"
#include "type/text.h"

static int span_is(const char *t, size_t n, const char *want) {
  return strlen(want) == n && memcmp(t, want, n) == 0;
}

static int starts_with(const char *t, size_t n, const char *prefix) {
  size_t p = strlen(prefix);
  return n >= p && memcmp(t, prefix, p) == 0;
}

/* "iN", "siN" or "uiN" with N one of StableHLO's widths; *width gets N. */
static int int_type(const char *e, size_t n, unsigned *width) {
  size_t i = n > 0 && e[0] == 'i'                                   ? 1
             : n > 1 && (e[0] == 's' || e[0] == 'u') && e[1] == 'i' ? 2
                                                                    : 0;
  if (i == 0 || i >= n) return 0;
  unsigned w = 0;
  for (size_t k = i; k < n; k++) {
    if (e[k] < '0' || e[k] > '9' || w > 1000) return 0;
    w = w * 10 + (unsigned)(e[k] - '0');
  }
  *width = w;
  return 1;
}

bcast__hlo_elem bcast__hlo_elem_class(const char *e, size_t n) {
  static const char *const floats[] = {"f16", "bf16", "f32", "f64", "tf32"};
  unsigned w;
  if (span_is(e, n, "i1")) return BCAST__HLO_PRED;
  if (int_type(e, n, &w))
    return w == 2 || w == 4 || w == 8 || w == 16 || w == 32 || w == 64
               ? BCAST__HLO_INT
               : BCAST__HLO_OTHER;
  for (size_t k = 0; k < sizeof floats / sizeof floats[0]; k++)
    if (span_is(e, n, floats[k])) return BCAST__HLO_FLOAT;
  if (n > 3 && e[0] == 'f' && e[1] >= '4' && e[1] <= '8' && e[2] == 'E')
    return BCAST__HLO_FLOAT;
  if (starts_with(e, n, "complex<")) return BCAST__HLO_COMPLEX;
  if (starts_with(e, n, "!quant.uniform<")) return BCAST__HLO_QUANT;
  return BCAST__HLO_OTHER;
}

/* Reads a decimal integer (optionally negative) at t[*i]. */
static int read_int(const char *t, size_t n, size_t *i, int64_t *out) {
  size_t j = *i;
  int neg = bcast__peek(t, n, j) == '-';
  if (neg) j++;
  if (!bcast__is_digit(bcast__peek(t, n, j))) return 0;
  int64_t v;
  size_t end;
  if (bcast__parse_size(t, n, j, &v, &end) != BCAST_OK) return 0;
  *out = neg ? -v : v;
  *i = end;
  return 1;
}

/* Reads a float literal at t[*i] (as strtod reads it, from a bounded
 * copy: the text is not NUL-terminated). */
static int read_double(const char *t, size_t n, size_t *i, double *out) {
  char buf[64];
  size_t j = *i, k = 0;
  while (j < n && k + 1 < sizeof buf &&
         (bcast__is_digit(t[j]) || t[j] == '.' || t[j] == '-' || t[j] == '+' ||
          t[j] == 'e' || t[j] == 'E'))
    buf[k++] = t[j++];
  buf[k] = '\0';
  if (k == 0) return 0;
  char *end;
  *out = strtod(buf, &end);
  if ((size_t)(end - buf) != k) return 0;
  *i = j;
  return 1;
}

int bcast__hlo_quant_parse(const char *e, size_t n, bcast__hlo_quant *q) {
  static const char head[] = "!quant.uniform<";
  memset(q, 0, sizeof *q);
  q->axis = -1;
  if (!starts_with(e, n, head) || e[n - 1] != '>') return 0;
  size_t i = sizeof head - 1, end = n - 1;
  /* The storage type and its optional range "<min:max>". */
  q->storage = e + i;
  while (i < end && bcast__is_ident(e[i]) && e[i] != '-') i++;
  q->storage_len = (size_t)(e + i - q->storage);
  /* Quant's storage types: "i8", "u8" (unsigned), also "si8", "ui8". */
  unsigned width;
  int is_unsigned = q->storage_len > 1 && q->storage[0] == 'u';
  int short_unsigned = is_unsigned && bcast__is_digit(q->storage[1]);
  if (short_unsigned) {
    char as_ui[16];
    if (q->storage_len + 1 >= sizeof as_ui) return 0;
    as_ui[0] = 'u';
    memcpy(as_ui + 1, q->storage, q->storage_len);
    as_ui[1] = 'i';
    memcpy(as_ui + 2, q->storage + 1, q->storage_len - 1);
    if (!int_type(as_ui, q->storage_len + 1, &width)) return 0;
  } else if (!int_type(q->storage, q->storage_len, &width)) {
    return 0;
  }
  if (width == 0 || width > 64) return 0;
  if (is_unsigned) {
    q->storage_min = 0;
    q->storage_max = width >= 63 ? INT64_MAX : (int64_t)((1ull << width) - 1);
  } else {
    q->storage_min = width == 64 ? INT64_MIN : -(int64_t)(1ull << (width - 1));
    q->storage_max =
        width == 64 ? INT64_MAX : (int64_t)((1ull << (width - 1)) - 1);
  }
  if (bcast__peek(e, end, i) == '<') {
    i++;
    if (!read_int(e, end, &i, &q->storage_min) ||
        bcast__peek(e, end, i) != ':')
      return 0;
    i++;
    if (!read_int(e, end, &i, &q->storage_max) ||
        bcast__peek(e, end, i) != '>')
      return 0;
    i++;
  }
  if (bcast__peek(e, end, i) != ':') return 0;
  i++;
  q->expressed = e + i;
  while (i < end && bcast__is_ident(e[i]) && e[i] != '-') i++;
  q->expressed_len = (size_t)(e + i - q->expressed);
  if (q->expressed_len == 0) return 0;
  if (bcast__peek(e, end, i) == ':') {
    i++;
    if (!read_int(e, end, &i, &q->axis) || q->axis < 0) return 0;
  }
  i = bcast__skip_spaces(e, end, i);
  if (bcast__peek(e, end, i) != ',') return 0;
  i = bcast__skip_spaces(e, end, i + 1);
  if (q->axis >= 0) {
    /* "{s:zp, s:zp}": a sub-channel "{{...}}" is outside the model. */
    if (bcast__peek(e, end, i) != '{' || bcast__peek(e, end, i + 1) == '{')
      return 0;
    q->params = e + i + 1;
    size_t close = i + 1;
    while (close < end && e[close] != '}') close++;
    if (close >= end || bcast__skip_spaces(e, end, close + 1) != end) return 0;
    q->params_len = close - i - 1;
  } else {
    q->params = e + i;
    q->params_len = end - i;
    while (q->params_len > 0 && bcast__is_space(q->params[q->params_len - 1]))
      q->params_len--;
  }
  /* Every entry must read; also counts them. */
  size_t k = 0;
  double scale;
  int64_t zp;
  while (bcast__hlo_quant_param(q, k, &scale, &zp)) k++;
  q->n_params = k;
  if (k == 0 || (q->axis < 0 && k != 1)) return 0;
  /* The walk ended at an entry that does not read, or at the end. */
  size_t i2 = 0, seen = 0;
  for (; i2 < q->params_len; i2++)
    if (q->params[i2] == ',') seen++;
  return seen + 1 == k;
}

int bcast__hlo_quant_param(const bcast__hlo_quant *q, size_t k, double *scale,
                           int64_t *zp) {
  const char *t = q->params;
  size_t n = q->params_len, i = bcast__skip_spaces(t, n, 0);
  for (size_t at = 0;; at++) {
    double s;
    int64_t z = 0;
    if (!read_double(t, n, &i, &s)) return 0;
    if (bcast__peek(t, n, i) == ':') {
      i++;
      if (!read_int(t, n, &i, &z)) return 0;
    }
    if (at == k) {
      *scale = s;
      *zp = z;
      return 1;
    }
    i = bcast__skip_spaces(t, n, i);
    if (bcast__peek(t, n, i) != ',') return 0;
    i = bcast__skip_spaces(t, n, i + 1);
  }
}

int bcast__hlo_quant_same_params(const bcast__hlo_quant *a,
                                 const bcast__hlo_quant *b) {
  if (a->n_params != b->n_params) return 0;
  for (size_t k = 0; k < a->n_params; k++) {
    double sa, sb;
    int64_t za, zb;
    bcast__hlo_quant_param(a, k, &sa, &za);
    bcast__hlo_quant_param(b, k, &sb, &zb);
    if (sa != sb || za != zb) return 0;
  }
  return 1;
}

int bcast__hlo_quant_compatible(const bcast__hlo_quant *a,
                                const bcast__hlo_quant *b) {
  return a->storage_len == b->storage_len &&
         memcmp(a->storage, b->storage, a->storage_len) == 0 &&
         a->storage_min == b->storage_min &&
         a->storage_max == b->storage_max &&
         a->expressed_len == b->expressed_len &&
         memcmp(a->expressed, b->expressed, a->expressed_len) == 0 &&
         (a->axis >= 0) == (b->axis >= 0);
}

int bcast__hlo_bounds_parse(const char *enc, size_t n, int32_t rank,
                            int64_t *bounds) {
  static const char head[] = "#stablehlo.bounds<";
  for (int32_t d = 0; d < rank; d++) bounds[d] = BCAST_DIM_DYNAMIC;
  if (!enc) return 1;
  if (!starts_with(enc, n, head) || enc[n - 1] != '>') return 0;
  size_t i = bcast__skip_spaces(enc, n - 1, sizeof head - 1), end = n - 1;
  int32_t d = 0;
  if (i == end) return rank == 0;
  for (;;) {
    if (d >= rank) return 0;
    if (bcast__peek(enc, end, i) == '?') {
      i++;
    } else {
      int64_t v;
      if (!read_int(enc, end, &i, &v) || v < 0) return 0;
      bounds[d] = v;
    }
    d++;
    i = bcast__skip_spaces(enc, end, i);
    if (i == end) break;
    if (enc[i] != ',') return 0;
    i = bcast__skip_spaces(enc, end, i + 1);
  }
  return d == rank;
}
