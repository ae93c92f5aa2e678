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

/* The names too, so that every entry of a table is a string. */
void bcast_symbols_init(bcast_symbols *symbols) {
  memset(symbols, 0, sizeof *symbols);
}

static int is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* A name at t[*i]: looked up in symbols, added when new.  Its first 40
 * bytes are copied into name (NUL-terminated), the most any message or
 * table entry shows; every byte is read through bcast__peek. */
#define NAME_SHOWN 40
static bcast_status parse_name(const char *t, size_t len, size_t *i,
                               bcast_symbols *symbols, int64_t *dim,
                               bcast_diag *diag) {
  char name[NAME_SHOWN + 1] = {0};
  size_t n = 0;
  for (char c = bcast__peek(t, len, *i);
       is_name_start(c) || bcast__is_digit(c); c = bcast__peek(t, len, *i)) {
    if (n < NAME_SHOWN) name[n] = c;
    n++;
    (*i)++;
  }
  name[n < NAME_SHOWN ? n : NAME_SHOWN] = '\0';
  if (!symbols) {
    char what[96];
    snprintf(what, sizeof what,
             "named dim '%s' is not accepted here (only sizes and '?')", name);
    return shape_error(diag, BCAST_PARSE, t, len, what);
  }
  if (n >= BCAST_SYMBOL_NAME_MAX) {
    char what[96];
    snprintf(what, sizeof what, "a dim name is longer than %d characters",
             BCAST_SYMBOL_NAME_MAX - 1);
    return shape_error(diag, BCAST_PARSE, t, len, what);
  }
  /* A table holds at most BCAST_MAX_SYMBOLS names; the second bound
   * keeps a table with a wrong count from being read past its end. */
  for (int32_t k = 0; k < symbols->count && k < BCAST_MAX_SYMBOLS; k++) {
    /* name is n bytes and its NUL, n < BCAST_SYMBOL_NAME_MAX: an entry
     * equals it exactly when its first n + 1 bytes do (an entry is a
     * string within its row), and they are always within the row. */
    if (memcmp(symbols->names[k], name, n + 1) == 0) {
      *dim = BCAST_DIM_SYMBOL(k);
      return BCAST_OK;
    }
  }
  if (symbols->count >= BCAST_MAX_SYMBOLS) {
    char what[96];
    snprintf(what, sizeof what, "more than %d distinct dim names",
             BCAST_MAX_SYMBOLS);
    return shape_error(diag, BCAST_PARSE, t, len, what);
  }
  memcpy(symbols->names[symbols->count], name, n + 1);
  symbols->names[symbols->count][BCAST_SYMBOL_NAME_MAX - 1] = '\0';
  *dim = BCAST_DIM_SYMBOL(symbols->count);
  symbols->count++;
  return BCAST_OK;
}

/* One dim at t[*i]: a size, '?', or (in brackets) a name. */
static bcast_status parse_dim(const char *t, size_t len, size_t *i,
                              int64_t *dim, int names_allowed,
                              bcast_symbols *symbols, bcast_diag *diag) {
  if (names_allowed && is_name_start(bcast__peek(t, len, *i)))
    return parse_name(t, len, i, symbols, dim, diag);
  if (bcast__peek(t, len, *i) == '?') {
    *dim = BCAST_DIM_DYNAMIC;
    (*i)++;
    return BCAST_OK;
  }
  if (bcast__peek(t, len, *i) == '-')
    return shape_error(
        diag, BCAST_PARSE, t, len,
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

static bcast_status parse_shape(const char *t, size_t len,
                                bcast_symbols *symbols, bcast_shape *out,
                                bcast_diag *diag) {
  size_t i = bcast__skip_spaces(t, len, 0);
  while (len > i && bcast__is_space(t[len - 1])) len--;
  if (i >= len) return shape_error(diag, BCAST_PARSE, t, len, "empty");
  /* For the EVA run (docs/proofs.md): the MLIR type below is read as the
   * len - i bytes at t + i, and the analysis sees that they are within the
   * text only with one state for each value of i. */
  /*@ split i; */
  if (i + 7 <= len &&
      (memcmp(t + i, "tensor<", 7) == 0 || memcmp(t + i, "vector<", 7) == 0)) {
    bcast_mlir_type type;
    size_t used = 0;
    bcast_status st =
        bcast_mlir_type_parse(t + i, len - i, &type, &used, diag);
    if (st != BCAST_OK) return st;
    if (i + used != len)
      return shape_error(diag, BCAST_PARSE, t, len, "text after the type");
    *out = type.shape;
    return BCAST_OK;
  }
  /*@ merge i; */
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
    if (bcast__peek(t, len, i) == close) {
      if (i + 1 != len)
        return shape_error(diag, BCAST_PARSE, t, len, "text after the shape");
      return BCAST_OK;
    }
  }
  for (;;) {
    int64_t dim = 0;
    bcast_status st = parse_dim(t, len, &i, &dim, bracketed, symbols, diag);
    if (st != BCAST_OK) return st;
    if (out->rank >= BCAST_MAX_RANK) {
      char what[64];
      snprintf(what, sizeof what, "rank exceeds the limit of %d dimensions",
               BCAST_MAX_RANK);
      return shape_error(diag, BCAST_RANK_LIMIT, t, len, what);
    }
    out->dims[out->rank++] = dim;
    i = bcast__skip_spaces(t, len, i);
    if (bcast__peek(t, len, i) == sep) {
      i = bcast__skip_spaces(t, len, i + 1);
      /* A trailing comma closes a Python tuple: "(3,)". */
      if (bracketed && bcast__peek(t, len, i) == close && i + 1 == len)
        return BCAST_OK;
      continue;
    }
    if (bracketed) {
      if (bcast__peek(t, len, i) == close && i + 1 == len) return BCAST_OK;
      return shape_error(diag, BCAST_PARSE, t, len,
                         i >= len ? "missing closing bracket"
                                  : "expected ',' or the closing bracket");
    }
    if (i == len) return BCAST_OK;
    return shape_error(diag, BCAST_PARSE, t, len,
                       "expected 'x' between sizes");
  }
}

bcast_status bcast_shape_parse(const char *t, size_t len, bcast_shape *out,
                               bcast_diag *diag) {
  return parse_shape(t, len, NULL, out, diag);
}

bcast_status bcast_shape_parse_symbolic(const char *t, size_t len,
                                        bcast_symbols *symbols,
                                        bcast_shape *out, bcast_diag *diag) {
  return parse_shape(t, len, symbols, out, diag);
}
