/* MLIR builtin shaped types: tensor<...> and vector<...>.
 *
 * Grammar accepted (a superset of what bcast needs to read, a subset of
 * MLIR's):
 *   shaped  := ("tensor" | "vector") "<" dims elem ("," encoding)? ">"
 *   dims    := "*" "x" | (dim "x")*
 *   dim     := decimal | "?" | "[" decimal "]"      (scalable vector dim)
 *   elem    := any balanced text up to "," or ">" at depth 0
 * Any other type is read as one balanced token and reported as not shaped.
 */
#include <stdio.h>
#include <string.h>

#include "core/diag.h"
#include "type/mlir_internal.h"
#include "type/text.h"
#include "bcast/mlir.h"

/* Skips one balanced group or token of a type: identifiers, '!' dialect
 * types, and nested <...>, (...), [...], {...} with strings inside.  Stops
 * at ',' ')' '>' '}' ']' at depth 0.  "->" never closes a '<'. */
size_t bcast__skip_balanced(const char *t, size_t len, size_t i,
                            int stop_at_space) {
  int depth = 0;
  while (i < len) {
    char c = t[i];
    if (c == '"') {
      i = bcast__skip_string(t, len, i);
      continue;
    }
    if (c == '-' && bcast__peek(t, len, i + 1) == '>') {
      if (depth == 0) return i;
      i += 2;
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      depth++;
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (depth == 0) return i;
      depth--;
    } else if (depth == 0 &&
               (c == ',' || (stop_at_space && bcast__is_space(c)))) {
      return i;
    }
    i++;
  }
  return i;
}

size_t bcast__skip_string(const char *t, size_t len, size_t i) {
  i++; /* opening quote */
  while (i < len && t[i] != '"' && t[i] != '\n') {
    if (t[i] == '\\' && i + 1 < len) i++;
    i++;
  }
  return bcast__peek(t, len, i) == '"' ? i + 1 : i;
}

static bcast_status type_error(bcast_diag *diag, bcast_status st,
                               const char *t, size_t len, const char *what) {
  /* Quote the type up to its closing '>' (or the end of the line), at most
   * 200 bytes, so the message shows the culprit and not the rest of the op. */
  size_t n = 0;
  int depth = 0;
  while (n < len && n < 200 && t[n] != '\n') {
    char c = t[n++];
    if (c == '<')
      depth++;
    else if (c == '>' && !(n >= 2 && t[n - 2] == '-') && --depth <= 0)
      break;
    else if (depth <= 0 && (c == ',' || c == ')')) {
      n--;
      break;
    }
  }
  return bcast__fail(diag, st, "malformed type '%.*s': %s", (int)n, t, what);
}

/* An element type is one identifier ("f32", "i1", "index", "!quant.any")
 * optionally followed by one <...> group ("complex<f32>").  Text that
 * starts like a dimension ("x3xf32" from "2xx3xf32", "*xf32", "-?xf32") is
 * not one. */
static int valid_elem_type(const char *e, size_t n) {
  size_t i = 0;
  if (bcast__peek(e, n, i) == '!') i++;
  if (i >= n || !((e[i] >= 'a' && e[i] <= 'z') ||
                  (e[i] >= 'A' && e[i] <= 'Z') || e[i] == '_'))
    return 0;
  if (e[i] == 'x' && i == 0) return 0;
  while (i < n && (bcast__is_ident(e[i]) && e[i] != '-')) i++;
  if (bcast__peek(e, n, i) == '<') {
    size_t end = bcast__skip_balanced(e, n, i + 1, 0);
    while (bcast__peek(e, n, end) == ',')
      end = bcast__skip_balanced(e, n, end + 1, 0);
    if (end >= n || e[end] != '>') return 0;
    i = end + 1;
  }
  return i == n;
}

/* Whether a syntactically valid element type names a type MLIR 22 knows:
 * a dialect type ("!quant.uniform<...>"), a builtin integer ("i32", "si8",
 * "ui16"), "index", a builtin float ("f32", "bf16", "tf32", "f8E4M3FN",
 * ...), "complex<...>", "vector<...>" or "none".  Anything else
 * ("tensor<2xfoo>") is an unknown type, which mlir-opt rejects. */
static int known_elem_type(const char *e, size_t n) {
  static const char *const names[] = {"index", "none", "f16",  "bf16", "f32",
                                      "f64",   "f80",  "f128", "tf32"};
  static const char *const prefixes[] = {"!",   "complex<", "vector<",
                                         "f8E", "f6E",      "f4E"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
    if (strlen(names[k]) == n && memcmp(names[k], e, n) == 0) return 1;
  for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
    size_t p = strlen(prefixes[k]);
    if (n > p && memcmp(prefixes[k], e, p) == 0) return 1;
  }
  size_t i = 0;
  if (n >= 2 && (e[0] == 's' || e[0] == 'u') && e[1] == 'i')
    i = 2;
  else if (n >= 1 && e[0] == 'i')
    i = 1;
  else
    return 0;
  if (i == n || e[i] == '0') return 0;
  for (; i < n; i++)
    if (e[i] < '0' || e[i] > '9') return 0;
  return 1;
}

bcast_status bcast__mlir_type_read(const char *t, size_t len,
                                   bcast_mlir_type_ref *out, int64_t *dims,
                                   int32_t room, size_t *consumed,
                                   bcast_diag *diag) {
  size_t i = 0;
  out->text = t;
  out->text_len = 0;
  out->rank = 0;
  out->elem = NULL;
  out->elem_len = 0;
  if (len >= 7 && memcmp(t, "tensor<", 7) == 0) {
    out->container = BCAST_CONTAINER_TENSOR;
    i = 7;
  } else if (len >= 7 && memcmp(t, "vector<", 7) == 0) {
    out->container = BCAST_CONTAINER_VECTOR;
    i = 7;
  } else {
    /* Not a shaped type: read it whole so the caller can name it. */
    out->container = BCAST_CONTAINER_NONE;
    size_t end = bcast__skip_balanced(t, len, 0, 1);
    if (end == 0)
      return type_error(diag, BCAST_PARSE, t, len, "expected a type");
    out->text_len = end;
    out->rank = BCAST_RANK_UNRANKED;
    *consumed = end;
    return BCAST_OK;
  }

  i = bcast__skip_spaces(t, len, i);
  if (bcast__peek(t, len, i) == '*') {
    if (out->container == BCAST_CONTAINER_VECTOR)
      return type_error(diag, BCAST_PARSE, t, len,
                        "vectors cannot be unranked");
    i = bcast__skip_spaces(t, len, i + 1);
    if (i >= len || t[i] != 'x')
      return type_error(diag, BCAST_PARSE, t, len, "expected 'x' after '*'");
    i = bcast__skip_spaces(t, len, i + 1);
    out->rank = BCAST_RANK_UNRANKED;
  } else {
    for (;;) {
      int64_t dim;
      size_t start = i;
      int scalable = bcast__peek(t, len, i) == '[';
      if (scalable) i++;
      if (bcast__peek(t, len, i) == '?' && !scalable) {
        dim = BCAST_DIM_DYNAMIC;
        i++;
      } else if (bcast__is_digit(bcast__peek(t, len, i))) {
        size_t end;
        bcast_status st = bcast__parse_size(t, len, i, &dim, &end);
        if (st != BCAST_OK) {
          char what[160];
          snprintf(what, sizeof what,
                   "dimension '%.*s' is larger than the largest size, %lld",
                   (int)(end - i > 40 ? 40 : end - i), t + i,
                   (long long)INT64_MAX);
          return type_error(diag, BCAST_OVERFLOW, t, len, what);
        }
        i = end;
        if (scalable) {
          if (i >= len || t[i] != ']')
            return type_error(diag, BCAST_PARSE, t, len,
                              "expected ']' after a scalable dimension");
          i++;
        }
      } else if (bcast__peek(t, len, i) == '-' &&
                 bcast__is_digit(bcast__peek(t, len, i + 1))) {
        size_t end = i + 1;
        while (bcast__is_digit(bcast__peek(t, len, end))) end++;
        char what[96];
        snprintf(what, sizeof what, "negative dimension '%.*s'",
                 (int)(end - i > 40 ? 40 : end - i), t + i);
        return type_error(diag, BCAST_PARSE, t, len, what);
      } else {
        if (scalable)
          return type_error(diag, BCAST_PARSE, t, len,
                            "expected a size inside '[...]'");
        i = start;
        break; /* the element type starts here */
      }
      size_t after = bcast__skip_spaces(t, len, i);
      if (after >= len || t[after] != 'x') {
        if (after >= len)
          return type_error(diag, BCAST_PARSE, t, len,
                            "truncated: missing '>'");
        return type_error(diag, BCAST_PARSE, t, len,
                          "expected 'x' after a dimension");
      }
      if (out->rank == BCAST_MAX_RANK) {
        char what[96];
        snprintf(what, sizeof what, "rank exceeds the limit of %d dimensions",
                 BCAST_MAX_RANK);
        return type_error(diag, BCAST_RANK_LIMIT, t, len, what);
      }
      if (out->rank < room) dims[out->rank] = dim;
      out->rank++;
      i = bcast__skip_spaces(t, len, after + 1);
    }
  }

  size_t elem_end = bcast__skip_balanced(t, len, i, 0);
  size_t trimmed = elem_end;
  while (trimmed > i && bcast__is_space(t[trimmed - 1])) trimmed--;
  if (trimmed == i) {
    if (elem_end >= len)
      return type_error(diag, BCAST_PARSE, t, len, "truncated: missing '>'");
    return type_error(diag, BCAST_PARSE, t, len, "missing element type");
  }
  if (!valid_elem_type(t + i, trimmed - i))
    return type_error(diag, BCAST_PARSE, t, len,
                      "expected a dimension ('4', '?') followed by 'x', or "
                      "an element type");
  out->elem = t + i;
  out->elem_len = trimmed - i;
  i = elem_end;
  if (bcast__peek(t, len, i) == ',') {
    if (out->container == BCAST_CONTAINER_VECTOR)
      return type_error(diag, BCAST_PARSE, t, len,
                        "vectors take no encoding attribute");
    i = bcast__skip_balanced(t, len, i + 1, 0);
  }
  if (i >= len || t[i] != '>')
    return type_error(diag, BCAST_PARSE, t, len,
                      i >= len ? "truncated: missing '>'" : "expected '>'");
  if (!known_elem_type(out->elem, out->elem_len)) {
    char what[96];
    snprintf(what, sizeof what, "unknown element type '%.*s'",
             (int)(out->elem_len > 60 ? 60 : out->elem_len), out->elem);
    return type_error(diag, BCAST_PARSE, t, len, what);
  }
  i++;
  out->text_len = i;
  *consumed = i;
  return BCAST_OK;
}

bcast_status bcast_mlir_type_parse(const char *t, size_t len,
                                   bcast_mlir_type *out, size_t *consumed,
                                   bcast_diag *diag) {
  bcast_mlir_type_ref ref;
  bcast_status st = bcast__mlir_type_read(t, len, &ref, out->shape.dims,
                                          BCAST_MAX_RANK, consumed, diag);
  out->container = ref.container;
  out->shape.rank = ref.rank;
  out->text = ref.text;
  out->text_len = ref.text_len;
  out->elem = ref.elem;
  out->elem_len = ref.elem_len;
  return st;
}

size_t bcast_mlir_type_format(const bcast_mlir_type *type, char *buf,
                              size_t size) {
  char text[BCAST_MAX_RANK * 21 + 512];
  size_t len = 0;
  text[0] = '\0';
  if (type->container == BCAST_CONTAINER_NONE) {
    /* Written over several lines, it prints on one: runs of white space
     * become one space, so a message stays one line. */
    int space = 0;
    for (size_t i = 0; i < type->text_len && len + 2 < sizeof text; i++) {
      char c = type->text[i];
      if (bcast__is_space(c)) {
        space = 1;
        continue;
      }
      if (space) text[len++] = ' ';
      space = 0;
      text[len++] = c;
    }
    text[len] = '\0';
  } else {
    bcast__append(text, sizeof text, &len, "%s<",
                  type->container == BCAST_CONTAINER_TENSOR ? "tensor"
                                                            : "vector");
    if (type->shape.rank == BCAST_RANK_UNRANKED) {
      bcast__append(text, sizeof text, &len, "*x");
    } else {
      for (int32_t d = 0; d < type->shape.rank; d++) {
        int64_t v = type->shape.dims[d];
        if (BCAST_DIM_IS_DYNAMIC(v))
          bcast__append(text, sizeof text, &len, "?x");
        else
          bcast__append(text, sizeof text, &len, "%lldx", (long long)v);
      }
    }
    bcast__append(text, sizeof text, &len, "%.*s>", (int)type->elem_len,
                  type->elem);
  }
  if (size > 0) {
    size_t n = len < size - 1 ? len : size - 1;
    memcpy(buf, text, n);
    buf[n] = '\0';
  }
  return len;
}
