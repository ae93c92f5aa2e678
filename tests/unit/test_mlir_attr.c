/* An op's own attributes (broadcast_dimensions), profiles per op, and the
 * emitter's report of every failing op. */
#include <stdio.h>
#include <stdlib.h>

#include "test.h"
#include "bcast/bcast.h"
#include "bcast/emit.h"

static int accept_checked(const char *name, size_t len, void *ctx) {
  (void)ctx;
  return bcast_mlir_is_broadcasting_op(name, len) ||
         (len == 6 && memcmp(name, "my.bin", 6) == 0);
}

/* The first op of text; NULL (reported) when none scans cleanly. */
static bcast_mlir_op *first_op(test_ctx *t, int line, const char *text) {
  bcast_mlir_op *op = malloc(sizeof *op);
  bcast_mlir_scanner s;
  bcast_mlir_scanner_init(&s, text, strlen(text), accept_checked, NULL);
  int found = 0;
  if (!op || bcast_mlir_scan_next(&s, op, &found, NULL) != BCAST_OK ||
      !found) {
    test_fail(t, __FILE__, line, "no op scanned");
    free(op);
    return NULL;
  }
  return op;
}

static void check_list(test_ctx *t, int line, const char *text,
                       bcast_status want, size_t n_want,
                       const int64_t *want_dims) {
  int64_t dims[8];
  size_t n = 99;
  bcast_diag d;
  bcast_status st =
      bcast_mlir_i64_list_parse(text, strlen(text), dims, 8, &n, &d);
  if (st != want) {
    test_fail(t, __FILE__, line, "'%s': status %d, expected %d (%s)", text,
              (int)st, (int)want, st ? d.message : "");
    return;
  }
  if (st != BCAST_OK) return;
  if (n != n_want) {
    test_fail(t, __FILE__, line, "'%s': %zu values, expected %zu", text, n,
              n_want);
    return;
  }
  for (size_t i = 0; i < n; i++)
    if (dims[i] != want_dims[i])
      test_fail(t, __FILE__, line, "'%s': value %zu is %lld, expected %lld",
                text, i, (long long)dims[i], (long long)want_dims[i]);
}
#define LIST(text, st, n, ...)                                                \
  do {                                                                        \
    static const int64_t want_[] = {0, __VA_ARGS__};                          \
    check_list(t, __LINE__, text, st, n, want_ + 1);                          \
  } while (0)

TEST(mlir_i64_list_forms) {
  LIST("array<i64: 0, 2>", BCAST_OK, 2, 0, 2);
  LIST("array<i64>", BCAST_OK, 0, 0);
  LIST("  array<i64:3>  ", BCAST_OK, 1, 3);
  LIST("array<i64: -1>", BCAST_OK, 1, -1);
  LIST("dense<[1, 2]> : tensor<2xi64>", BCAST_OK, 2, 1, 2);
  LIST("dense<1> : tensor<3xi64>", BCAST_OK, 3, 1, 1, 1);
  LIST("dense<> : tensor<0xi64>", BCAST_OK, 0, 0);
  LIST("dense<[]> : tensor<0xi64>", BCAST_OK, 0, 0);
  LIST("array<i64 0>", BCAST_PARSE, 0, 0);
  LIST("array<i64: 0,>", BCAST_PARSE, 0, 0);
  LIST("array<i64: 0> x", BCAST_PARSE, 0, 0);
  LIST("array<f32: 0>", BCAST_PARSE, 0, 0);
  LIST("array<i64: 99999999999999999999>", BCAST_PARSE, 0, 0);
  LIST("dense<[0]>", BCAST_PARSE, 0, 0);
  LIST("dense<[0]> : tensor<2xi64>", BCAST_PARSE, 0, 0);
  LIST("dense<[0]> : tensor<?xi64>", BCAST_PARSE, 0, 0);
  LIST("dense<[0]> : tensor<1xf32>", BCAST_PARSE, 0, 0);
  LIST("[0, 1]", BCAST_PARSE, 0, 0);
  LIST("", BCAST_PARSE, 0, 0);
  LIST("array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8>", BCAST_RANK_LIMIT, 0, 0);
  LIST("dense<0> : tensor<9xi64>", BCAST_RANK_LIMIT, 0, 0);
}

TEST(mlir_op_attr_finds_entries) {
  bcast_mlir_op *op = first_op(
      t, __LINE__,
      "%r = \"my.bin\"(%a, %b) <{x = \"a, b}\", broadcast_dimensions = "
      "dense<[0]> : tensor<1xi64>}> {y = affine_map<(d0) -> (d0)>, "
      "\"quoted\" = 1, broadcast_dimensions = array<i64: 1>} : "
      "(tensor<2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n");
  if (!op) return;
  bcast_mlir_span key, value;
  CHECK(bcast_mlir_op_attr(op, "broadcast_dimensions", &key, &value));
  /* The properties come first. */
  CHECK_INT(value.len, strlen("dense<[0]> : tensor<1xi64>"));
  CHECK(memcmp(value.text, "dense<[0]>", 10) == 0);
  CHECK(bcast_mlir_op_attr(op, "quoted", &key, &value));
  CHECK(value.len == 1 && value.text[0] == '1');
  CHECK(bcast_mlir_op_attr(op, "y", &key, &value));
  CHECK_INT(value.len, strlen("affine_map<(d0) -> (d0)>"));
  CHECK(!bcast_mlir_op_attr(op, "broadcast", &key, &value));
  free(op);
}

/* One walk reads every attribute dictionary: what bcast_mlir_op_attr finds
 * for an entry is what bcast_op_attrs_parse_mlir reads from it, whatever
 * stands before the entry (a function type, whose "->" sits outside any
 * bracket of the dictionary; a quoted name with an escaped quote; a unit
 * attribute).  The dictionaries are the generic form's properties
 * "<{...}>", where MLIR writes a function_type. */
TEST(mlir_attrs_lookup_and_parser_walk_alike) {
  static const struct {
    const char *dict;
    int32_t shift;
  } rows[] = {
      {"{shift = 3 : i8}", 3},
      {"{fn = (i32) -> i32, shift = 5 : i8}", 5},
      {"{\"quoted \\\" key\" = 1, shift = 7 : i8}", 7},
      {"{m = affine_map<(d0) -> (d0)>, shift = 2 : i8}", 2},
      {"{flag, shift = 4 : i8}", 4},
  };
  for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
    char text[256];
    snprintf(
        text, sizeof text,
        "%%r = \"my.bin\"(%%a, %%b) <%s> : (tensor<2xi32>, tensor<2xi32>) "
        "-> tensor<2xi32>\n",
        rows[k].dict);
    bcast_mlir_op *op = first_op(t, __LINE__, text);
    if (!op) continue;
    CHECK_INT(op->properties.len, strlen(rows[k].dict) + 2);
    bcast_mlir_span key, value;
    bcast_op_attrs found, parsed;
    bcast_op_attrs_init(&found);
    bcast_op_attrs_init(&parsed);
    bcast_diag d;
    if (!bcast_mlir_op_attr(op, "shift", &key, &value))
      test_fail(t, __FILE__, __LINE__, "%s: the lookup misses shift",
                rows[k].dict);
    else
      CHECK_INT(bcast_op_attr_set(&found, BCAST_OP_MUL, key.text, key.len,
                                  value.text, value.len, &d),
                BCAST_OK);
    const bcast_status st = bcast_op_attrs_parse_mlir(
        &parsed, BCAST_OP_MUL, op->properties.text + 1, op->properties.len - 2,
        NULL, &d);
    if (st != BCAST_OK)
      test_fail(t, __FILE__, __LINE__, "%s: the parser fails: %s",
                rows[k].dict, d.message);
    CHECK_INT(found.shift, rows[k].shift);
    CHECK_INT(parsed.shift, rows[k].shift);
    free(op);
  }
}

TEST(mlir_op_profiles_last_rule_wins) {
  bcast_mlir_op_profile rules[3];
  bcast_diag d;
  const char *texts[] = {"tosa.*=trait", " tosa.add = numpy", "*=mlir"};
  for (int k = 0; k < 3; k++)
    CHECK_INT(
        bcast_mlir_op_profile_parse(texts[k], strlen(texts[k]), &rules[k], &d),
        BCAST_OK);
  CHECK_INT(rules[1].pattern_len, 8);
  CHECK_INT(rules[1].profile, BCAST_PROFILE_NUMPY);
  bcast_mlir_verify_options o;
  bcast_mlir_verify_options_init(&o);
  /* No rules: tosa.* by tosa, the rest by the default profile. */
  CHECK_INT(bcast_mlir_op_profile_of(&o, "tosa.add", 8), BCAST_PROFILE_TOSA);
  CHECK_INT(bcast_mlir_op_profile_of(&o, "my.add", 6), BCAST_PROFILE_TRAIT);
  o.profile = BCAST_PROFILE_NUMPY;
  CHECK_INT(bcast_mlir_op_profile_of(&o, "tosa.add", 8), BCAST_PROFILE_TOSA);
  CHECK_INT(bcast_mlir_op_profile_of(&o, "my.add", 6), BCAST_PROFILE_NUMPY);
  CHECK_INT(bcast_mlir_op_profile_of(NULL, "tosa.sub", 8), BCAST_PROFILE_TOSA);
  o.rules = rules;
  o.n_rules = 2;
  CHECK_INT(bcast_mlir_op_profile_of(&o, "tosa.add", 8), BCAST_PROFILE_NUMPY);
  CHECK_INT(bcast_mlir_op_profile_of(&o, "tosa.sub", 8), BCAST_PROFILE_TRAIT);
  CHECK_INT(bcast_mlir_op_profile_of(&o, "tosax.sub", 9), BCAST_PROFILE_NUMPY);
  o.n_rules = 3;
  CHECK_INT(bcast_mlir_op_profile_of(&o, "tosa.add", 8), BCAST_PROFILE_MLIR);
  CHECK(!bcast_mlir_op_pattern_matches("tosa.*", 6, "tosa.", 5));
  CHECK(bcast_mlir_op_pattern_matches("tosa.*", 6, "tosa.a", 6));
  CHECK(!bcast_mlir_op_pattern_matches("tosa.add", 8, "tosa.addx", 9));
  const char *bad[] = {
      "tosa.add",   "=trait", "tosa*=trait", "*.add=trait",
      "a.*.b=tosa", "x=",     "x=bogus",     "x=traitttttttttttttttttt"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
    CHECK(bcast_mlir_op_profile_parse(bad[k], strlen(bad[k]), &rules[0], &d) !=
          BCAST_OK);
}

TEST(mlir_verify_broadcast_dimensions) {
  static const struct {
    const char *text;
    bcast_status want;
    uint32_t line, col; /* of the failure */
  } cases[] = {
      {"%r = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 0>}"
       " : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>",
       BCAST_OK, 1, 6},
      {"%r = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>}"
       " : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>",
       BCAST_INCOMPATIBLE, 1, 6},
      {"%r = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 0>}"
       " : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x4xf32>",
       BCAST_RESULT_MISMATCH, 1, 6},
      {"%r = \"chlo.broadcast_add\"(%a, %b) {\n   broadcast_dimensions = "
       "array<i64: 2>}"
       " : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>",
       BCAST_INVALID_ARGUMENT, 2, 4},
      {"%r = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 0, "
       "1>}"
       " : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>",
       BCAST_INVALID_ARGUMENT, 1, 33},
      {"%r = chlo.broadcast_add %a, %b {broadcast_dimensions = oops}"
       " : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>",
       BCAST_PARSE, 1, 33},
      /* Equal ranks: the identity. */
      {"%r = my.bin %a, %b {broadcast_dimensions = array<i64: 1, 0>}"
       " : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>",
       BCAST_INVALID_ARGUMENT, 1, 21},
      /* A TOSA op ignores the attribute: the tosa profile decides. */
      {"%r = tosa.add %a, %b {broadcast_dimensions = array<i64: 1>}"
       " : (tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>",
       BCAST_RANK_MISMATCH, 1, 6},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    bcast_mlir_op *op = first_op(t, __LINE__, cases[k].text);
    if (!op) continue;
    bcast_mlir_verdict v;
    bcast_diag d;
    bcast_status st = bcast_mlir_verify(op, NULL, &v, &d);
    if (st != cases[k].want || v.line != cases[k].line ||
        v.col != cases[k].col)
      test_fail(t, __FILE__, __LINE__,
                "case %zu: status %d at %u:%u, expected %d at %u:%u (%s)", k,
                (int)st, v.line, v.col, (int)cases[k].want, cases[k].line,
                cases[k].col, st ? d.message : "");
    if (k < 3) {
      CHECK_INT(v.profile, BCAST_PROFILE_XLA);
      CHECK(v.has_dims && v.n_dims == 1);
    }
    if (st == BCAST_INVALID_ARGUMENT || st == BCAST_PARSE)
      CHECK_CONTAINS(d.message, "invalid broadcast_dimensions");
    /* Without a diagnostic or a verdict the status is the same. */
    CHECK_INT(bcast_mlir_verify(op, NULL, NULL, NULL), cases[k].want);
    free(op);
  }
}

typedef struct seen {
  int n;
  uint32_t lines[8];
  int verified[8];
} seen;

static void on_failure(void *ctx, const bcast_emit_failure *f) {
  seen *s = ctx;
  if (s->n < 8) {
    s->lines[s->n] = f->line;
    s->verified[s->n] = f->verified;
  }
  s->n++;
}

static bcast_status no_write(void *ctx, const char *data, size_t len) {
  (void)data;
  *(size_t *)ctx += len;
  return BCAST_OK;
}

TEST(emit_reports_every_failing_op) {
  const char *text =
      "func.func @f(%a: tensor<3xf32>, %b: tensor<2x3xf32>, %i: "
      "tensor<2x3xi32>) {\n"
      "  %0 = tosa.add %a, %b : (tensor<3xf32>, tensor<2x3xf32>) -> "
      "tensor<2x3xf32>\n"
      "  %1 = tosa.sub %b, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> "
      "tensor<2x3xf32>\n"
      "  %2 = tosa.exp %i : (tensor<2x3xi32>) -> tensor<2x3xi32>\n"
      "  %3 = tosa.maximum %b, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> "
      "tensor<2x4xf32>\n"
      "  return\n}\n";
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  seen s = {0, {0}, {0}};
  o.on_failure = on_failure;
  o.failure_ctx = &s;
  size_t written = 0;
  bcast_diag d;
  bcast_status st = bcast_emit_lower_module(text, strlen(text), &o, no_write,
                                            &written, NULL, &d);
  CHECK_INT(st, BCAST_RANK_MISMATCH); /* the first failure's */
  CHECK_CONTAINS(d.message, "2:8: 'tosa.add' op");
  CHECK_INT(written, 0);
  CHECK_INT(s.n, 3);
  CHECK_INT(s.lines[0], 2);
  CHECK_INT(s.lines[1], 4);
  CHECK_INT(s.lines[2], 5);
  CHECK_INT(s.verified[0], 0);
  CHECK_INT(s.verified[1], 1); /* MLIR 22 verifies it; TOSA has no
                                  integer exp to lower it to */
  CHECK_INT(s.verified[2], 0);
  /* A rule lets tosa.add expand ranks; without a callback the first
   * failure stops the lowering. */
  bcast_mlir_op_profile rule = {"tosa.add", 8, BCAST_PROFILE_TRAIT};
  o.rules = &rule;
  o.n_rules = 1;
  o.on_failure = NULL;
  st = bcast_emit_lower_module(text, strlen(text), &o, no_write, &written,
                               NULL, &d);
  CHECK_INT(st, BCAST_TYPE);
  CHECK_CONTAINS(d.message, "4:8: 'tosa.exp' op");
  CHECK_INT(written, 0);
}
