/* Finding and reading operations in MLIR text.
 *
 * The scanner walks the text once.  It skips comments and strings, and at
 * every SSA result list ("%r =", "%a, %b =", "%r:2 =") reads the op name
 * that follows, generic ("tosa.add" in quotes) or custom (bare).  Ops the
 * caller's filter accepts get their type signature parsed; the rest are
 * passed over, so functions, constants and other dialects around the
 * interesting ops cost one pass of character tests.  Ops may span lines.
 *
 * For each accepted op the scanner records what a rewriter needs to replace
 * the statement: its byte range, its results, the names of the values it
 * uses and its attribute spans, all pointing into the caller's text.  The
 * signature's dims go to the op's dim pool, so the op stays a few KB. */
#include <stdint.h>
#include <string.h>

#include "core/diag.h"
#include "type/mlir_internal.h"
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
  s->n_aliases = 0;
  s->aliases_dropped = 0;
}

/* Whether t[i] starts its line (only blanks before it). */
static int at_line_start(const char *t, size_t i) {
  while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t')) i--;
  return i == 0 || t[i - 1] == '\n';
}

/* Reads an alias definition "!name = VALUE" or "#name = VALUE" at t[i]
 * (the start of a line) into the scanner's table; returns the position
 * after it, or i + 1 when none starts there.  The value runs to white
 * space at bracket depth 0 ("tensor<?xf32, #stablehlo.bounds<10>>"). */
static size_t read_alias(bcast_mlir_scanner *s, size_t i) {
  const char *t = s->text;
  size_t len = s->len, j = i + 1;
  while (bcast__is_ident(bcast__peek(t, len, j))) j++;
  size_t name_end = j;
  j = bcast__skip_spaces(t, len, j);
  if (name_end == i + 1 || bcast__peek(t, len, j) != '=' ||
      bcast__peek(t, len, j + 1) == '=')
    return i + 1;
  size_t v0 = bcast__skip_spaces(t, len, j + 1);
  size_t v1 = bcast__skip_balanced(t, len, v0, 1);
  if (v1 == v0) return i + 1;
  if (s->n_aliases == BCAST_MLIR_MAX_ALIASES) {
    s->aliases_dropped++;
    return v1;
  }
  bcast_mlir_alias *a = &s->aliases[s->n_aliases++];
  a->sigil = t[i];
  a->name = t + i + 1;
  a->name_len = name_end - i - 1;
  a->value = t + v0;
  a->value_len = v1 - v0;
  return v1;
}

void bcast_mlir_op_shape(const bcast_mlir_op *op,
                         const bcast_mlir_type_ref *ref, bcast_shape *out) {
  out->rank = ref->rank;
  if (ref->rank > 0)
    memcpy(out->dims, &op->dims[ref->dims_at],
           (size_t)ref->rank * sizeof out->dims[0]);
}

void bcast_mlir_op_type(const bcast_mlir_op *op,
                        const bcast_mlir_type_ref *ref, bcast_mlir_type *out) {
  out->container = ref->container;
  bcast_mlir_op_shape(op, ref, &out->shape);
  out->text = ref->text;
  out->text_len = ref->text_len;
  out->elem = ref->elem;
  out->elem_len = ref->elem_len;
  out->encoding = ref->encoding;
  out->encoding_len = ref->encoding_len;
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

/* Reads "%name(:N)?" at t[i]; returns the position after it or 0.  *count
 * gets how many values it defines: N, or 1 without ":N". */
static size_t read_result(const char *t, size_t len, size_t i, size_t *count) {
  if (i >= len || t[i] != '%') return 0;
  size_t j = i + 1;
  while (bcast__is_ident(bcast__peek(t, len, j))) j++;
  if (j == i + 1) return 0;
  *count = 1;
  if (bcast__peek(t, len, j) == ':') {
    size_t k = j + 1;
    int64_t n = 0;
    if (bcast__parse_size(t, len, k, &n, &k) == BCAST_OK && n > 0 &&
        (uint64_t)n <= (uint64_t)SIZE_MAX / 2)
      *count = (size_t)n;
    if (k > j + 1) j = k;
  }
  return j;
}

/* Reads a result list and '=' starting at t[i] == '%'; returns the position
 * of the op name, or 0 when this is not a result list (a use of a value).
 * *n_results counts the values it defines ("%r:2" defines 2) and *list_end
 * is the end of the last result.  On failure *stop is where reading
 * stopped: no '%' before it can start a result list either, since it would
 * lead along the same comma chain to the same end, so the caller resumes
 * there and a long list of uses is read once, not once per value. */
static size_t read_result_list(const char *t, size_t len, size_t i,
                               size_t *n_results, size_t *list_end,
                               size_t *stop) {
  *n_results = 0;
  for (;;) {
    size_t count = 1;
    size_t j = read_result(t, len, i, &count);
    if (!j) {
      *stop = i + 1;
      return 0;
    }
    *n_results += count;
    *list_end = j;
    j = bcast__skip_trivia(t, len, j);
    if (bcast__peek(t, len, j) == ',') {
      i = bcast__skip_trivia(t, len, j + 1);
      continue;
    }
    if (bcast__peek(t, len, j) == '=' && bcast__peek(t, len, j + 1) != '=')
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

/* Parses a type at t[*i] into *ref, its dims straight into the op's pool. */
static bcast_status parse_type(const char *t, size_t len, size_t *i,
                               bcast_mlir_op *op, uint32_t *pool_used,
                               bcast_mlir_type_ref *ref, bcast_diag *diag) {
  size_t used = 0;
  int32_t room = (int32_t)(BCAST_MLIR_MAX_OP_DIMS - *pool_used);
  bcast_status st =
      bcast__mlir_type_read_in(op->scanner, t + *i, len - *i, ref,
                               &op->dims[*pool_used], room, &used, diag);
  if (st != BCAST_OK) return st;
  if (ref->rank > room)
    return op_error(diag, op, "more than 256 dims in the type signature");
  ref->dims_at = *pool_used;
  if (ref->rank > 0) *pool_used += (uint32_t)ref->rank;
  *i += used;
  return BCAST_OK;
}

/* Parses ": (T0, T1, ...) -> R", ": (T...) -> (R)" or ": T" starting after
 * the colon.  n_uses is how many operand values the custom form named, for
 * the single-type form. */
static bcast_status parse_signature(const char *t, size_t len, size_t i,
                                    size_t n_uses, bcast_mlir_op *op,
                                    size_t *end, bcast_diag *diag) {
  bcast_status st;
  uint32_t pool_used = 0;
  i = bcast__skip_trivia(t, len, i);
  op->n_operands = 0;
  if (bcast__peek(t, len, i) == '(') {
    i = bcast__skip_trivia(t, len, i + 1);
    if (bcast__peek(t, len, i) == ')') {
      i++;
    } else {
      for (;;) {
        if (op->n_operands == BCAST_MLIR_MAX_OPERANDS)
          return op_error(diag, op, "more than 64 operands");
        st = parse_type(t, len, &i, op, &pool_used,
                        &op->operands[op->n_operands], diag);
        if (st != BCAST_OK) return st;
        op->n_operands++;
        i = bcast__skip_trivia(t, len, i);
        if (bcast__peek(t, len, i) == ',') {
          i = bcast__skip_trivia(t, len, i + 1);
          continue;
        }
        if (bcast__peek(t, len, i) == ')') {
          i++;
          break;
        }
        return op_error(diag, op, "expected ',' or ')' in the operand types");
      }
    }
    i = bcast__skip_trivia(t, len, i);
    if (bcast__peek(t, len, i) != '-' || bcast__peek(t, len, i + 1) != '>')
      return op_error(diag, op, "expected '->' and the result type");
    i = bcast__skip_trivia(t, len, i + 2);
    int parenthesized = bcast__peek(t, len, i) == '(';
    if (parenthesized) i = bcast__skip_trivia(t, len, i + 1);
    if (i >= len || (parenthesized && t[i] == ')'))
      return op_error(diag, op, "expected one result type");
    if ((st = parse_type(t, len, &i, op, &pool_used, &op->result, diag)) !=
        BCAST_OK)
      return st;
    if (parenthesized) {
      i = bcast__skip_trivia(t, len, i);
      if (bcast__peek(t, len, i) == ',')
        return op_error(diag, op,
                        "has more than one result; broadcasting ops have one");
      if (i >= len || t[i] != ')')
        return op_error(diag, op, "expected ')' after the result type");
      i++;
    }
  } else {
    /* One type for every operand and the result. */
    if ((st = parse_type(t, len, &i, op, &pool_used, &op->result, diag)) !=
        BCAST_OK)
      return st;
    if (n_uses > BCAST_MLIR_MAX_OPERANDS)
      return op_error(diag, op, "more than 64 operands");
    for (size_t k = 0; k < n_uses; k++) op->operands[k] = op->result;
    op->n_operands = n_uses;
  }
  *end = i;
  return BCAST_OK;
}

/* Reads "%name" (with "#N" or ":N" suffixes) at t[i]; returns its end, or
 * i when no value starts there. */
static size_t read_value(const char *t, size_t len, size_t i) {
  if (i >= len || t[i] != '%') return i;
  size_t j = i + 1;
  while (j < len && (bcast__is_ident(t[j]) || t[j] == '#')) j++;
  return j > i + 1 ? j : i;
}

/* Counts a use of a value at t[i] == '%' and records its name. */
static void record_use(const char *t, size_t len, size_t i,
                       bcast_mlir_op *op) {
  if (op->n_operand_names < BCAST_MLIR_MAX_OPERANDS) {
    bcast_mlir_span *name = &op->operand_names[op->n_operand_names];
    name->text = t + i;
    name->len = read_value(t, len, i) - i;
  }
  op->n_operand_names++;
}

/* Whether the '=' at t[i] follows a bare keyword ("dims ="), not a value
 * ("%r =", a result list of the next statement). */
static int keyword_before(const char *t, size_t i) {
  size_t j = i;
  while (j > 0 && bcast__is_space(t[j - 1])) j--;
  size_t end = j;
  while (j > 0 && bcast__is_ident(t[j - 1])) j--;
  if (j == end) return 0;
  if (!((t[j] >= 'a' && t[j] <= 'z') || (t[j] >= 'A' && t[j] <= 'Z') ||
        t[j] == '_'))
    return 0;
  return j == 0 || (t[j - 1] != '%' && t[j - 1] != '#' && t[j - 1] != '!' &&
                    t[j - 1] != '^');
}

/* Finds the ':' that starts the signature, skipping balanced groups and
 * strings.  On the way it records the %values used at depth 0 (the custom
 * form) or inside a parenthesized group (the generic form's operand list),
 * the first "{...}" at depth 0 as the attribute dictionary and the first
 * "<{...}>" as the properties.  Returns the colon's position, or len when
 * the op has none before the next statement. */
static size_t find_signature(const char *t, size_t len, size_t i,
                             bcast_mlir_op *op) {
  while (i < len) {
    char c = t[i];
    if (c == ':') return i;
    if (c == '"') {
      i = bcast__skip_string(t, len, i);
    } else if (c == '/' && bcast__peek(t, len, i + 1) == '/') {
      while (i < len && t[i] != '\n') i++;
    } else if (c == '(' || c == '{' || c == '[' || c == '<') {
      size_t j = bcast__skip_balanced(t, len, i + 1, 0);
      /* skip_balanced stops at ',' at depth 0: keep going to the closer. */
      while (bcast__peek(t, len, j) == ',')
        j = bcast__skip_balanced(t, len, j + 1, 0);
      if (c == '(') {
        /* Generic form operands: record the uses inside. */
        for (size_t k = i + 1; k < j; k++)
          if (t[k] == '%') record_use(t, len, k, op);
      }
      size_t end = j < len ? j + 1 : len;
      if (c == '{' && op->attrs.len == 0) {
        op->attrs.text = t + i;
        op->attrs.len = end - i;
      } else if (c == '<' && bcast__peek(t, len, i + 1) == '{' &&
                 op->properties.len == 0) {
        op->properties.text = t + i;
        op->properties.len = end - i;
      }
      i = end;
    } else if (c == '%') {
      record_use(t, len, i, op);
      i++;
    } else if (c == '=' && !op->generic && keyword_before(t, i)) {
      i++; /* a custom form's keyword attribute: "dims = [1]" */
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
    if (c == '/' && bcast__peek(t, len, i + 1) == '/') {
      while (i < len && t[i] != '\n') i++;
      continue;
    }
    if (c == '"') {
      i = bcast__skip_string(t, len, i);
      continue;
    }
    if ((c == '!' || c == '#') && at_line_start(t, i)) {
      i = read_alias(s, i);
      continue;
    }
    if (c != '%' || (i > 0 && bcast__is_ident(t[i - 1]))) {
      i++;
      continue;
    }
    size_t stop = i + 1, n_results = 0, list_end = i;
    size_t name_at = read_result_list(t, len, i, &n_results, &list_end, &stop);
    if (!name_at) {
      i = stop;
      continue;
    }
    /* The op name, generic or custom. */
    size_t name_start, name_end, after_name;
    int generic = bcast__peek(t, len, name_at) == '"';
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
      while (bcast__is_ident(bcast__peek(t, len, name_end))) name_end++;
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
    op->stmt_start = i;
    op->stmt_end = after_name;
    op->n_results = n_results;
    op->results.text = t + i;
    op->results.len = list_end - i;
    op->n_operand_names = 0;
    op->attrs.text = op->properties.text = NULL;
    op->attrs.len = op->properties.len = 0;
    op->custom.text = NULL;
    op->custom.len = 0;
    op->scanner = s;
    op->n_operands = 0;
    *found = 1;

    size_t colon = find_signature(t, len, after_name, op);
    if (!generic && colon < len) {
      op->custom.text = t + after_name;
      op->custom.len = colon - after_name;
    }
    size_t end = after_name;
    bcast_status st;
    if (colon >= len) {
      st = op_error(diag, op, "expected ':' and a type signature");
    } else {
      st = parse_signature(t, len, colon + 1, op->n_operand_names, op, &end,
                           diag);
    }
    if (st == BCAST_OK)
      op->stmt_end = end;
    else
      end = after_name; /* resume right after the name */
    advance_to(s, end);
    return st;
  }
  advance_to(s, len);
  return BCAST_OK;
}

/* The constant that defines an SSA value, for the verifiers that compare
 * one with a type (StableHLO's output_dimensions, TOSA's shift and zero
 * points): see mlir_internal.h. */
int bcast__mlir_constant_dense(const bcast_mlir_op *op, bcast_mlir_span name,
                               bcast_mlir_span *value) {
  const bcast_mlir_scanner *s = op->scanner;
  if (!s || name.len < 2) return 0;
  const char *t = s->text;
  size_t end = op->stmt_start, from = end > 65536 ? end - 65536 : 0;
  /* A value is defined in its own function: start after the last function
   * head or split marker before the op, so a name another function (or
   * another part of the file) defines is never taken for this one. */
  static const char *const scopes[] = {"func.func", "// -----"};
  for (size_t i = from; i < end; i++)
    for (size_t k = 0; k < sizeof scopes / sizeof scopes[0]; k++) {
      size_t l = strlen(scopes[k]);
      if (i + l <= end && memcmp(t + i, scopes[k], l) == 0) from = i + l;
    }
  size_t def = SIZE_MAX;
  for (size_t i = from; i + name.len <= end; i++) {
    if (t[i] != '%' || memcmp(t + i, name.text, name.len) != 0) continue;
    if (i > 0 && bcast__is_ident(t[i - 1])) continue;
    size_t j = i + name.len;
    if (j < end && (bcast__is_ident(t[j]) || t[j] == '#')) continue;
    j = bcast__skip_spaces(t, end, j);
    if (bcast__peek(t, end, j) == '=' && bcast__peek(t, end, j + 1) != '=')
      def = j + 1;
  }
  if (def == SIZE_MAX) return 0;
  /* The rest of its line must be a constant op with a dense value. */
  size_t eol = def;
  while (eol < end && t[eol] != '\n') eol++;
  const char *line = t + def;
  size_t ll = eol - def;
  static const char *const consts[] = {
      "stablehlo.constant",     "arith.constant",     "tosa.const",
      "\"stablehlo.constant\"", "\"arith.constant\"", "\"tosa.const\""};
  size_t at = bcast__skip_spaces(line, ll, 0), k;
  for (k = 0; k < sizeof consts / sizeof consts[0]; k++) {
    size_t cl = strlen(consts[k]);
    if (ll - at >= cl && memcmp(line + at, consts[k], cl) == 0) break;
  }
  if (k == sizeof consts / sizeof consts[0]) return 0;
  const char *dense = NULL;
  for (size_t i = at; i + 6 <= ll; i++)
    if (memcmp(line + i, "dense<", 6) == 0) {
      dense = line + i;
      break;
    }
  if (!dense) return 0;
  size_t dl = (size_t)(line + ll - dense);
  size_t v = bcast__skip_balanced(dense, dl, 0, 1); /* "dense<...>" */
  v = bcast__skip_spaces(dense, dl, v);
  if (bcast__peek(dense, dl, v) != ':') return 0;
  v = bcast__skip_spaces(dense, dl, v + 1);
  v = bcast__skip_balanced(dense, dl, v, 1); /* its type */
  value->text = dense;
  value->len = v;
  return 1;
}

int bcast__mlir_constant_ints(const bcast_mlir_op *op, bcast_mlir_span name,
                              int64_t *vals, size_t cap, size_t *n) {
  bcast_mlir_span dense;
  return bcast__mlir_constant_dense(op, name, &dense) &&
         bcast_mlir_i64_list_parse(dense.text, dense.len, vals, cap, n,
                                   NULL) == BCAST_OK;
}
