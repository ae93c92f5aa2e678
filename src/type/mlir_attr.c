/* Attributes of MLIR text: the one walk over attribute dictionaries, and
 * what reads and writes attribute values as MLIR spells them.
 *
 * An op's "{...}" and "<{...}>" dictionaries (the scanner records their
 * spans) are walked by dict_next alone: bcast_mlir_op_attr finds one entry
 * with it, and bcast_op_attrs_parse_mlir hands each entry an element-wise
 * op reads to the op module's value parser (bcast_op_attr_set).  An
 * entry's value ends at the first ',' or '}' outside quotes and brackets,
 * so values with nested brackets, strings and affine maps are passed over
 * whole.  Also here: integer-list values (broadcast_dimensions) and
 * bcast_scalar_format_mlir, a bound printed as an MLIR literal. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/diag.h"
#include "op/op_attrs.h"
#include "type/mlir_internal.h"
#include "type/text.h"
#include "bcast/mlir.h"

/* ------------------------------------------------------------------------ */
/* The dictionary walk. */

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
    if (c == '(' || c == '[' || c == '{' || c == '<')
      depth++;
    else if (c == ')' || c == ']' || c == '>' || (c == '}' && depth > 0))
      depth--;
    else if (depth == 0 && (c == ',' || c == '}'))
      return i;
    if (depth < 0) return len;
  }
  return len;
}

/* Why a walk ended: at the closing '}', or short of it. */
typedef enum dict_end {
  DICT_CLOSED,            /* at the closing '}' */
  DICT_UNTERMINATED_NAME, /* a quoted name does not close */
  DICT_NO_NAME,           /* no name where an entry starts */
  DICT_NO_SEPARATOR,      /* neither ',' nor '}' after an entry */
  DICT_NO_CLOSE           /* the text ends inside a value */
} dict_end;

/* A walk over the dictionary t[0..len) (t[0] is '{'; len may run past the
 * closing '}').  i is where the walk goes on: after '{', or at the
 * separator after the last entry; when it has ended, where (the closing
 * '}', or the offending offset). */
typedef struct dict_walk {
  const char *t;
  size_t len, i;
  int entries; /* entries returned so far */
  int ended;
  dict_end end;
} dict_walk;

/* One entry: its name (without quotes) and its value, trimmed; a unit
 * attribute ("name" alone) has no value. */
typedef struct dict_entry {
  const char *key, *value;
  size_t key_len, value_len;
  int has_value;
} dict_entry;

static void dict_begin(dict_walk *w, const char *t, size_t len) {
  memset(w, 0, sizeof *w);
  w->t = t;
  w->len = len;
  w->i = 1;
}

static int dict_stop(dict_walk *w, dict_end end, size_t at) {
  w->ended = 1;
  w->end = end;
  w->i = at;
  return 0;
}

/* The next entry into *e: 1, or 0 when the walk has ended (w->end says
 * how).  The separator after an entry is looked at by the next call, so
 * a caller sees an entry before any fault after it. */
static int dict_next(dict_walk *w, dict_entry *e) {
  const char *t = w->t;
  const size_t len = w->len;
  if (w->ended) return 0;
  size_t i = w->i;
  if (w->entries > 0) {
    if (bcast__peek(t, len, i) == '}') return dict_stop(w, DICT_CLOSED, i);
    if (bcast__peek(t, len, i) != ',')
      return dict_stop(w, DICT_NO_SEPARATOR, i);
    i++;
  }
  i = bcast__skip_trivia(t, len, i);
  if (w->entries == 0 && bcast__peek(t, len, i) == '}')
    return dict_stop(w, DICT_CLOSED, i);
  /* A name: a bare identifier or a quoted string. */
  size_t k0 = i, k1;
  if (bcast__peek(t, len, i) == '"') {
    size_t j = i + 1;
    while (j < len && t[j] != '"' && t[j] != '\n') j += t[j] == '\\' ? 2 : 1;
    if (j >= len || t[j] != '"')
      return dict_stop(w, DICT_UNTERMINATED_NAME, i);
    k0 = i + 1;
    k1 = j;
    i = j + 1;
  } else {
    while (bcast__is_ident(bcast__peek(t, len, i))) i++;
    k1 = i;
  }
  if (k1 == k0) return dict_stop(w, DICT_NO_NAME, i);
  i = bcast__skip_trivia(t, len, i);
  size_t v0 = i, v1 = i;
  e->has_value = bcast__peek(t, len, i) == '=';
  if (e->has_value) {
    v0 = bcast__skip_trivia(t, len, i + 1);
    i = value_end(t, len, v0);
    if (i >= len) return dict_stop(w, DICT_NO_CLOSE, len);
    v1 = i;
    while (v1 > v0 && bcast__is_space(t[v1 - 1])) v1--;
  }
  e->key = t + k0;
  e->key_len = k1 - k0;
  e->value = t + v0;
  e->value_len = v1 - v0;
  w->i = i;
  w->entries++;
  return 1;
}

/* Looks for name in one dictionary "{...}" (or "<{...}>"). */
static int dict_find(bcast_mlir_span dict, const char *name, size_t name_len,
                     bcast_mlir_span *key, bcast_mlir_span *value) {
  const char *t = dict.text;
  size_t len = dict.len;
  if (len >= 2 && t[0] == '<') {
    t++;
    len -= 2;
  }
  if (len == 0 || t[0] != '{') return 0;
  dict_walk w;
  dict_entry e;
  dict_begin(&w, t, len);
  while (dict_next(&w, &e)) {
    if (e.key_len == name_len && memcmp(e.key, name, name_len) == 0) {
      key->text = e.key;
      key->len = e.key_len;
      value->text = e.value;
      value->len = e.value_len;
      return 1;
    }
  }
  return 0;
}

int bcast_mlir_op_attr(const bcast_mlir_op *op, const char *name,
                       bcast_mlir_span *key, bcast_mlir_span *value) {
  size_t n = strlen(name);
  return dict_find(op->properties, name, n, key, value) ||
         dict_find(op->attrs, name, n, key, value);
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
  /* Parsed into a copy, so that attrs stay unchanged on failure. */
  bcast_op_attrs next = *attrs;
  dict_walk w;
  dict_entry e;
  dict_begin(&w, text, len);
  while (dict_next(&w, &e)) {
    bcast_attr attr;
    if (!e.has_value ||
        bcast_attr_lookup(e.key, e.key_len, &attr) != BCAST_OK ||
        !bcast_op_reads_attr(op, attr))
      continue;
    bcast_status status = bcast_op_attr_set(&next, op, e.key, e.key_len,
                                            e.value, e.value_len, diag);
    if (status != BCAST_OK) return status;
  }
  switch (w.end) {
  case DICT_CLOSED:
    break;
  case DICT_UNTERMINATED_NAME:
    return bcast__fail(diag, BCAST_PARSE,
                       "attribute dictionary: unterminated quoted name at "
                       "offset %zu",
                       w.i);
  case DICT_NO_NAME:
    return bcast__fail(diag, BCAST_PARSE,
                       "attribute dictionary: expected a name at offset %zu",
                       w.i);
  case DICT_NO_SEPARATOR:
    return bcast__fail(diag, BCAST_PARSE,
                       "attribute dictionary: expected ',' or '}' at offset "
                       "%zu",
                       w.i);
  default:
    return bcast__fail(diag, BCAST_PARSE,
                       "attribute dictionary: no closing '}'");
  }
  if (used) *used = w.i + 1;
  *attrs = next;
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* Values: MLIR literals and integer lists. */

/* MLIR's bit pattern of an infinity of a floating type. */
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
  bcast_status status = bcast__op_bound_value(scalar, "the value", dtype,
                                              &as_int, &as_uint, &as_fp, diag);
  if (status != BCAST_OK) return status;
  char text[64];
  switch (bcast_dtype_kind_of(dtype)) {
  case BCAST_KIND_FLOAT:
    if (isinf(as_fp)) {
      snprintf(text, sizeof text, "%s", mlir_infinity(dtype, as_fp < 0));
    } else {
      /* MLIR's float literal needs a '.' before any exponent. */
      char digits[48];
      bcast__format_double(as_fp, digits, sizeof digits);
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

/* Whether t[i..] starts with word. */
static int starts(const char *t, size_t len, size_t i, const char *word) {
  size_t n = strlen(word);
  return i + n <= len && memcmp(t + i, word, n) == 0;
}

static bcast_status list_error(bcast_diag *diag, const char *t, size_t len,
                               const char *what) {
  return bcast__fail(diag, BCAST_PARSE, "'%.*s': %s",
                     (int)(len > 200 ? 200 : len), t, what);
}

/* Reads "int, int, ..." from t[*i] up to the closer; one optional '-' per
 * value.  Leaves *i at the closer. */
static bcast_status read_ints(const char *t, size_t len, size_t *i,
                              char closer, int64_t *dims, size_t cap,
                              size_t *n, bcast_diag *diag) {
  size_t j = bcast__skip_trivia(t, len, *i);
  *n = 0;
  if (bcast__peek(t, len, j) == closer) {
    *i = j;
    return BCAST_OK;
  }
  for (;;) {
    int neg = bcast__peek(t, len, j) == '-';
    if (neg) j++;
    if (j >= len || !bcast__is_digit(t[j]))
      return list_error(diag, t, len, "expected an integer");
    int64_t v;
    if (bcast__parse_size(t, len, j, &v, &j) != BCAST_OK)
      return list_error(diag, t, len, "an integer does not fit in 64 bits");
    if (*n == cap)
      return bcast__fail(diag, BCAST_RANK_LIMIT,
                         "'%.*s': more than %zu values",
                         (int)(len > 200 ? 200 : len), t, cap);
    dims[(*n)++] = neg ? -v : v;
    j = bcast__skip_trivia(t, len, j);
    if (bcast__peek(t, len, j) == ',') {
      j = bcast__skip_trivia(t, len, j + 1);
      continue;
    }
    if (bcast__peek(t, len, j) == closer) {
      *i = j;
      return BCAST_OK;
    }
    return list_error(diag, t, len,
                      closer == ']' ? "expected ',' or ']'"
                                    : "expected ',' or '>'");
  }
}

/* "dense<...>" followed by ": tensor<Nxi..>"; t[i] is past "dense<". */
static bcast_status read_dense(const char *t, size_t len, size_t i,
                               int64_t *dims, size_t cap, size_t *n,
                               bcast_diag *diag) {
  bcast_status st;
  int splat = 0;
  i = bcast__skip_trivia(t, len, i);
  if (bcast__peek(t, len, i) == '[') {
    i++;
    if ((st = read_ints(t, len, &i, ']', dims, cap, n, diag)) != BCAST_OK)
      return st;
    i = bcast__skip_trivia(t, len, i + 1);
  } else if (bcast__peek(t, len, i) == '>') {
    *n = 0;
  } else {
    if ((st = read_ints(t, len, &i, '>', dims, cap ? 1 : 0, n, diag)) !=
        BCAST_OK)
      return st;
    if (*n != 1) return list_error(diag, t, len, "expected one splat value");
    splat = 1;
  }
  if (i >= len || t[i] != '>') return list_error(diag, t, len, "expected '>'");
  i = bcast__skip_trivia(t, len, i + 1);
  if (i >= len || t[i] != ':')
    return list_error(diag, t, len,
                      "a dense value needs its type, ': tensor<Nxi64>'");
  i = bcast__skip_trivia(t, len, i + 1);
  bcast_mlir_type type;
  size_t used;
  bcast_diag d;
  if (bcast_mlir_type_parse(t + i, len - i, &type, &used, &d) != BCAST_OK ||
      type.container != BCAST_CONTAINER_TENSOR || type.shape.rank != 1 ||
      BCAST_DIM_IS_DYNAMIC(type.shape.dims[0]) || type.elem_len < 2 ||
      (type.elem[0] != 'i' && type.elem[0] != 'u' && type.elem[0] != 's'))
    return list_error(diag, t, len,
                      "the type of a dense value must be a static rank-1 "
                      "integer tensor");
  if (bcast__skip_trivia(t, len, i + used) != len)
    return list_error(diag, t, len, "unexpected text after the type");
  int64_t count = type.shape.dims[0];
  if (splat) {
    if ((uint64_t)count > cap)
      return bcast__fail(diag, BCAST_RANK_LIMIT,
                         "'%.*s': more than %zu values",
                         (int)(len > 200 ? 200 : len), t, cap);
    for (int64_t k = 1; k < count; k++) dims[k] = dims[0];
    *n = (size_t)count;
  } else if ((uint64_t)count != *n) {
    return bcast__fail(diag, BCAST_PARSE,
                       "'%.*s': the type says %lld values but the list has "
                       "%zu",
                       (int)(len > 200 ? 200 : len), t, (long long)count, *n);
  }
  return BCAST_OK;
}

bcast_status bcast_mlir_i64_list_parse(const char *t, size_t len,
                                       int64_t *dims, size_t cap, size_t *n,
                                       bcast_diag *diag) {
  bcast_status st;
  size_t i = bcast__skip_trivia(t, len, 0);
  while (len > i && bcast__is_space(t[len - 1])) len--;
  *n = 0;
  if (starts(t, len, i, "dense<"))
    return read_dense(t, len, i + 6, dims, cap, n, diag);
  if (!starts(t, len, i, "array<"))
    return list_error(diag, t, len,
                      "expected array<i64: ...> or dense<...> : tensor<...>");
  i = bcast__skip_trivia(t, len, i + 6);
  size_t e = i;
  while (bcast__is_ident(bcast__peek(t, len, e))) e++;
  if (e - i < 2 || (t[i] != 'i' && t[i] != 'u' && t[i] != 's'))
    return list_error(diag, t, len,
                      "expected an integer element type after 'array<'");
  i = bcast__skip_trivia(t, len, e);
  if (bcast__peek(t, len, i) == ':') {
    i++;
    if ((st = read_ints(t, len, &i, '>', dims, cap, n, diag)) != BCAST_OK)
      return st;
  }
  if (i >= len || t[i] != '>')
    return list_error(diag, t, len, "expected ':' or '>'");
  if (i + 1 != len)
    return list_error(diag, t, len, "unexpected text after '>'");
  return BCAST_OK;
}

void bcast__mlir_op_position(const bcast_mlir_op *op, const char *at,
                             uint32_t *line, uint32_t *col) {
  /* op->col counts from the name as written: the quote of the generic
   * form. */
  const char *from = op->name - (op->generic ? 1 : 0);
  *line = op->line;
  *col = op->col;
  if (at < from) return;
  for (const char *p = from; p < at; p++) {
    if (*p == '\n') {
      (*line)++;
      *col = 1;
    } else {
      (*col)++;
    }
  }
}
