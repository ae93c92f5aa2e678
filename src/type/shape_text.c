/* Shapes written by people: "[2,?,1]", "[]", "*", "2x?x1", or MLIR types. */
#include <stdio.h>
#include <string.h>

#include "core/diag.h"
#include "type/text.h"
#include "bcast/mlir.h"

static bcast_status shape_error(bcast_diag *diag, bcast_status st,
                                const char *text, size_t len,
                                const char *what) {
  return bcast__fail(diag, st, "malformed shape '%.*s': %s",
                     (int)(len > 200 ? 200 : len), text, what);
}

/* One dim at t[*i]: a size or '?'. */
static bcast_status parse_dim(const char *t, size_t len, size_t *i,
                              int64_t *dim, bcast_diag *diag) {
  if (*i < len && t[*i] == '?') {
    *dim = BCAST_DIM_DYNAMIC;
    (*i)++;
    return BCAST_OK;
  }
  if (*i < len && t[*i] == '-')
    return shape_error(diag, BCAST_PARSE, t, len,
                       "sizes cannot be negative (use '?' for a dynamic size)");
  if (*i >= len || !bcast__is_digit(t[*i]))
    return shape_error(diag, BCAST_PARSE, t, len, "expected a size or '?'");
  size_t end;
  if (bcast__parse_size(t, len, *i, dim, &end) != BCAST_OK)
    return shape_error(diag, BCAST_OVERFLOW, t, len,
                       "a size is larger than 9223372036854775807");
  *i = end;
  return BCAST_OK;
}

bcast_status bcast_shape_parse(const char *t, size_t len, bcast_shape *out,
                               bcast_diag *diag) {
  size_t i = bcast__skip_spaces(t, len, 0);
  while (len > i && bcast__is_space(t[len - 1])) len--;
  if (i >= len) return shape_error(diag, BCAST_PARSE, t, len, "empty");
  if ((len - i >= 7) &&
      (memcmp(t + i, "tensor<", 7) == 0 || memcmp(t + i, "vector<", 7) == 0)) {
    bcast_mlir_type type;
    size_t used;
    bcast_status st = bcast_mlir_type_parse(t + i, len - i, &type, &used, diag);
    if (st != BCAST_OK) return st;
    if (i + used != len)
      return shape_error(diag, BCAST_PARSE, t, len, "text after the type");
    *out = type.shape;
    return BCAST_OK;
  }
  if (t[i] == '*' && i + 1 == len) {
    out->rank = BCAST_RANK_UNRANKED;
    return BCAST_OK;
  }
  out->rank = 0;
  int bracketed = t[i] == '[' || t[i] == '(';
  char close = t[i] == '[' ? ']' : ')';
  char sep = bracketed ? ',' : 'x';
  if (bracketed) {
    i = bcast__skip_spaces(t, len, i + 1);
    if (i < len && t[i] == close) {
      if (i + 1 != len)
        return shape_error(diag, BCAST_PARSE, t, len, "text after the shape");
      return BCAST_OK;
    }
  }
  for (;;) {
    int64_t dim = 0;
    bcast_status st = parse_dim(t, len, &i, &dim, diag);
    if (st != BCAST_OK) return st;
    if (out->rank == BCAST_MAX_RANK) {
      char what[64];
      snprintf(what, sizeof what, "rank exceeds the limit of %d dimensions",
               BCAST_MAX_RANK);
      return shape_error(diag, BCAST_RANK_LIMIT, t, len, what);
    }
    out->dims[out->rank++] = dim;
    i = bcast__skip_spaces(t, len, i);
    if (i < len && t[i] == sep) {
      i = bcast__skip_spaces(t, len, i + 1);
      /* A trailing comma closes a Python tuple: "(3,)". */
      if (bracketed && i < len && t[i] == close && i + 1 == len) return BCAST_OK;
      continue;
    }
    if (bracketed) {
      if (i < len && t[i] == close && i + 1 == len) return BCAST_OK;
      return shape_error(diag, BCAST_PARSE, t, len,
                         i >= len ? "missing closing bracket"
                                  : "expected ',' or the closing bracket");
    }
    if (i == len) return BCAST_OK;
    return shape_error(diag, BCAST_PARSE, t, len, "expected 'x' between sizes");
  }
}
