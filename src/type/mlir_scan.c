/* Finding and reading operations in MLIR text.
 *
 * The scanner walks the text once.  It skips comments and strings, and at
 * every SSA result list ("%r =", "%a, %b =", "%r:2 =") reads the op name
 * that follows, generic ("tosa.add" in quotes) or custom (bare).  Ops the
 * caller's filter accepts get their type signature parsed; the rest are
 * passed over, so functions, constants and other dialects around the
 * interesting ops cost one pass of character tests.  Ops may span lines. */
#include <string.h>

#include "core/diag.h"
#include "type/text.h"
#include "bcast/mlir.h"

void bcast_mlir_scanner_init(bcast_mlir_scanner *s, const char *text,
                             size_t len, bcast_mlir_op_filter filter,
                             void *filter_ctx) {
  s->text = text;
  s->len = len;
  s->pos = 0;
  s->line = 1;
  s->line_start = 0;
  s->filter = filter;
  s->filter_ctx = filter_ctx;
}

/* Moves the scanner to position to, counting the lines it passes. */
static void advance_to(bcast_mlir_scanner *s, size_t to) {
  const char *t = s->text;
  for (size_t i = s->pos; i < to; i++) {
    if (t[i] == '\n') {
      s->line++;
      s->line_start = i + 1;
    }
  }
  s->pos = to;
}

/* Reads "%name(:N)?" at t[i]; returns the position after it or 0. */
static size_t read_result(const char *t, size_t len, size_t i) {
  if (i >= len || t[i] != '%') return 0;
  size_t j = i + 1;
  while (j < len && bcast__is_ident(t[j])) j++;
  if (j == i + 1) return 0;
  if (j < len && t[j] == ':') {
    size_t k = j + 1;
    while (k < len && bcast__is_digit(t[k])) k++;
    if (k > j + 1) j = k;
  }
  return j;
}

/* Reads a result list and '=' starting at t[i] == '%'; returns the position
 * of the op name, or 0 when this is not a result list (a use of a value).
 * On failure *stop is where reading stopped: no '%' before it can start a
 * result list either, since it would lead along the same comma chain to the
 * same end, so the caller resumes there and a long list of uses is read
 * once, not once per value. */
static size_t read_result_list(const char *t, size_t len, size_t i,
                               size_t *stop) {
  for (;;) {
    size_t j = read_result(t, len, i);
    if (!j) {
      *stop = i + 1;
      return 0;
    }
    j = bcast__skip_trivia(t, len, j);
    if (j < len && t[j] == ',') {
      i = bcast__skip_trivia(t, len, j + 1);
      continue;
    }
    if (j < len && t[j] == '=' && !(j + 1 < len && t[j + 1] == '='))
      return bcast__skip_trivia(t, len, j + 1);
    *stop = j > i ? j : i + 1;
    return 0;
  }
}

static bcast_status op_error(bcast_diag *diag, const bcast_mlir_op *op,
                             const char *what) {
  return bcast__fail(diag, BCAST_PARSE, "'%.*s' op: %s", (int)op->name_len,
                     op->name, what);
}

/* Parses a type at t[*i] into *type, with the op named in errors. */
static bcast_status parse_type(const char *t, size_t len, size_t *i,
                               bcast_mlir_type *type, bcast_diag *diag) {
  size_t used = 0;
  bcast_status st = bcast_mlir_type_parse(t + *i, len - *i, type, &used, diag);
  if (st == BCAST_OK) *i += used;
  return st;
}

/* Parses ": (T0, T1, ...) -> R", ": (T...) -> (R)" or ": T" starting after
 * the colon.  n_uses is how many operand values the custom form named, for
 * the single-type form. */
static bcast_status parse_signature(const char *t, size_t len, size_t i,
                                    size_t n_uses, bcast_mlir_op *op,
                                    size_t *end, bcast_diag *diag) {
  bcast_status st;
  i = bcast__skip_trivia(t, len, i);
  op->n_operands = 0;
  if (i < len && t[i] == '(') {
    i = bcast__skip_trivia(t, len, i + 1);
    if (i < len && t[i] == ')') {
      i++;
    } else {
      for (;;) {
        if (op->n_operands == BCAST_MLIR_MAX_OPERANDS)
          return op_error(diag, op, "more than 64 operands");
        if ((st = parse_type(t, len, &i, &op->operands[op->n_operands], diag)) !=
            BCAST_OK)
          return st;
        op->n_operands++;
        i = bcast__skip_trivia(t, len, i);
        if (i < len && t[i] == ',') {
          i = bcast__skip_trivia(t, len, i + 1);
          continue;
        }
        if (i < len && t[i] == ')') {
          i++;
          break;
        }
        return op_error(diag, op, "expected ',' or ')' in the operand types");
      }
    }
    i = bcast__skip_trivia(t, len, i);
    if (!(i + 1 < len && t[i] == '-' && t[i + 1] == '>'))
      return op_error(diag, op, "expected '->' and the result type");
    i = bcast__skip_trivia(t, len, i + 2);
    int parenthesized = i < len && t[i] == '(';
    if (parenthesized) i = bcast__skip_trivia(t, len, i + 1);
    if (i >= len || (parenthesized && t[i] == ')'))
      return op_error(diag, op, "expected one result type");
    if ((st = parse_type(t, len, &i, &op->result, diag)) != BCAST_OK) return st;
    if (parenthesized) {
      i = bcast__skip_trivia(t, len, i);
      if (i < len && t[i] == ',')
        return op_error(diag, op, "has more than one result; broadcasting ops have one");
      if (i >= len || t[i] != ')')
        return op_error(diag, op, "expected ')' after the result type");
      i++;
    }
  } else {
    /* One type for every operand and the result. */
    if ((st = parse_type(t, len, &i, &op->result, diag)) != BCAST_OK) return st;
    if (n_uses > BCAST_MLIR_MAX_OPERANDS)
      return op_error(diag, op, "more than 64 operands");
    for (size_t k = 0; k < n_uses; k++) op->operands[k] = op->result;
    op->n_operands = n_uses;
  }
  *end = i;
  return BCAST_OK;
}

/* Finds the ':' that starts the signature, skipping balanced groups and
 * strings; counts the %values used at depth 0.  Returns the colon's
 * position, or len when the op has none before the next statement. */
static size_t find_signature(const char *t, size_t len, size_t i,
                             size_t *n_uses) {
  *n_uses = 0;
  while (i < len) {
    char c = t[i];
    if (c == ':') return i;
    if (c == '"') {
      i = bcast__skip_string(t, len, i);
    } else if (c == '/' && i + 1 < len && t[i + 1] == '/') {
      while (i < len && t[i] != '\n') i++;
    } else if (c == '(' || c == '{' || c == '[' || c == '<') {
      size_t j = bcast__skip_balanced(t, len, i + 1, 0);
      /* skip_balanced stops at ',' at depth 0: keep going to the closer. */
      while (j < len && t[j] == ',') j = bcast__skip_balanced(t, len, j + 1, 0);
      if (c == '(') {
        /* Generic form operands: count the uses inside. */
        for (size_t k = i + 1; k < j; k++)
          if (t[k] == '%') (*n_uses)++;
      }
      i = j < len ? j + 1 : len;
    } else if (c == '%') {
      (*n_uses)++;
      i++;
    } else if (c == '=' || c == '}' || c == ')' || c == ']') {
      return len; /* the next statement or the end of a block */
    } else {
      i++;
    }
  }
  return len;
}

bcast_status bcast_mlir_scan_next(bcast_mlir_scanner *s, bcast_mlir_op *op,
                                  int *found, bcast_diag *diag) {
  const char *t = s->text;
  size_t len = s->len, i = s->pos;
  *found = 0;
  while (i < len) {
    char c = t[i];
    if (c == '/' && i + 1 < len && t[i + 1] == '/') {
      while (i < len && t[i] != '\n') i++;
      continue;
    }
    if (c == '"') {
      i = bcast__skip_string(t, len, i);
      continue;
    }
    if (c != '%' || (i > 0 && bcast__is_ident(t[i - 1]))) {
      i++;
      continue;
    }
    size_t stop = i + 1;
    size_t name_at = read_result_list(t, len, i, &stop);
    if (!name_at) {
      i = stop;
      continue;
    }
    /* The op name, generic or custom. */
    size_t name_start, name_end, after_name;
    int generic = t[name_at] == '"';
    if (generic) {
      name_start = name_at + 1;
      name_end = name_start;
      while (name_end < len && t[name_end] != '"' && t[name_end] != '\n')
        name_end++;
      if (name_end >= len || t[name_end] != '"') {
        i = name_at + 1;
        continue;
      }
      after_name = name_end + 1;
    } else {
      name_start = name_at;
      name_end = name_at;
      while (name_end < len && bcast__is_ident(t[name_end])) name_end++;
      after_name = name_end;
    }
    if (name_end == name_start ||
        !s->filter(t + name_start, name_end - name_start, s->filter_ctx)) {
      i = after_name > i ? after_name : i + 1;
      continue;
    }
    advance_to(s, name_at);
    op->name = t + name_start;
    op->name_len = name_end - name_start;
    op->line = s->line;
    op->col = (uint32_t)(name_at - s->line_start + 1);
    op->generic = generic;
    op->n_operands = 0;
    *found = 1;

    size_t n_uses;
    size_t colon = find_signature(t, len, after_name, &n_uses);
    size_t end = after_name;
    bcast_status st;
    if (colon >= len) {
      st = op_error(diag, op, "expected ':' and a type signature");
    } else {
      st = parse_signature(t, len, colon + 1, n_uses, op, &end, diag);
    }
    if (st != BCAST_OK) end = after_name; /* resume right after the name */
    advance_to(s, end);
    return st;
  }
  advance_to(s, len);
  return BCAST_OK;
}
