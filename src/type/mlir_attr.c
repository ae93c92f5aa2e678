/* Attributes of a scanned op: finding one entry of its dictionaries, and
 * reading an integer-list value (broadcast_dimensions).
 *
 * The scanner records an op's "{...}" and "<{...}>" spans; an entry's value
 * ends where bcast__skip_balanced stops (',' or the closing '}' at depth
 * 0), so values with nested brackets, strings and affine maps are passed
 * over whole.  The TOSA attributes an element-wise op reads go through
 * bcast_op_attrs_parse_mlir (src/ew), which turns values into kernel
 * parameters; this file only locates entries and reads integer lists. */
#include <string.h>

#include "core/diag.h"
#include "type/mlir_internal.h"
#include "type/text.h"
#include "bcast/mlir.h"

static int is_key_char(char c) { return bcast__is_ident(c); }

/* Looks for name in one dictionary "{...}" (or "<{...}>"). */
static int dict_find(bcast_mlir_span dict, const char *name, size_t name_len,
                     bcast_mlir_span *key, bcast_mlir_span *value) {
  const char *t = dict.text;
  size_t len = dict.len, i = 0;
  if (len >= 2 && t[0] == '<') {
    t++;
    len -= 2;
  }
  if (len == 0 || t[0] != '{') return 0;
  i = 1;
  for (;;) {
    i = bcast__skip_trivia(t, len, i);
    size_t k0 = i, k1;
    if (bcast__peek(t, len, i) == '"') {
      /* A quoted name that does not close ends the lookup. */
      size_t j = k0 + 1;
      while (j < len && t[j] != '"' && t[j] != '\n') j += t[j] == '\\' ? 2 : 1;
      if (j >= len || t[j] != '"') return 0;
      k0++;
      k1 = j;
      i = j + 1;
    } else {
      while (is_key_char(bcast__peek(t, len, i))) i++;
      k1 = i;
    }
    if (k1 == k0) return 0;
    i = bcast__skip_trivia(t, len, i);
    size_t v0 = i, v1 = i;
    if (bcast__peek(t, len, i) == '=') {
      v0 = bcast__skip_trivia(t, len, i + 1);
      i = bcast__skip_balanced(t, len, v0, 0);
      v1 = i;
      while (v1 > v0 && bcast__is_space(t[v1 - 1])) v1--;
    }
    if (k1 - k0 == name_len && memcmp(t + k0, name, name_len) == 0) {
      key->text = t + k0;
      key->len = k1 - k0;
      value->text = t + v0;
      value->len = v1 - v0;
      return 1;
    }
    if (bcast__peek(t, len, i) == ',') {
      i++;
      continue;
    }
    return 0;
  }
}

int bcast_mlir_op_attr(const bcast_mlir_op *op, const char *name,
                       bcast_mlir_span *key, bcast_mlir_span *value) {
  size_t n = strlen(name);
  return dict_find(op->properties, name, n, key, value) ||
         dict_find(op->attrs, name, n, key, value);
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
    return list_error(diag, t, len, closer == ']'
                                        ? "expected ',' or ']'"
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
    if ((st = read_ints(t, len, &i, '>', dims, cap ? 1 : 0, n, diag)) != BCAST_OK)
      return st;
    if (*n != 1) return list_error(diag, t, len, "expected one splat value");
    splat = 1;
  }
  if (i >= len || t[i] != '>') return list_error(diag, t, len, "expected '>'");
  i = bcast__skip_trivia(t, len, i + 1);
  if (i >= len || t[i] != ':')
    return list_error(diag, t, len, "a dense value needs its type, ': tensor<Nxi64>'");
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
  if (starts(t, len, i, "dense<")) return read_dense(t, len, i + 6, dims, cap, n, diag);
  if (!starts(t, len, i, "array<"))
    return list_error(diag, t, len,
                      "expected array<i64: ...> or dense<...> : tensor<...>");
  i = bcast__skip_trivia(t, len, i + 6);
  size_t e = i;
  while (bcast__is_ident(bcast__peek(t, len, e))) e++;
  if (e - i < 2 || (t[i] != 'i' && t[i] != 'u' && t[i] != 's'))
    return list_error(diag, t, len, "expected an integer element type after 'array<'");
  i = bcast__skip_trivia(t, len, e);
  if (bcast__peek(t, len, i) == ':') {
    i++;
    if ((st = read_ints(t, len, &i, '>', dims, cap, n, diag)) != BCAST_OK) return st;
  }
  if (i >= len || t[i] != '>') return list_error(diag, t, len, "expected ':' or '>'");
  if (i + 1 != len) return list_error(diag, t, len, "unexpected text after '>'");
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
