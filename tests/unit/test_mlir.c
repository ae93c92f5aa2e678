/* The MLIR scanner and the op-level verifier. */
#include <stdlib.h>

#include "test.h"
#include "bcast/bcast.h"

static int accept_broadcasting(const char *name, size_t len, void *ctx) {
  (void)ctx;
  bcast_op op;
  if (len == 18 && memcmp(name, "test.broadcastable", 18) == 0) return 1;
  return len > 5 && memcmp(name, "tosa.", 5) == 0 &&
         bcast_op_lookup(name, len, &op) == BCAST_OK;
}

/* Scans text and returns the ops found (at most max), with statuses. */
static size_t scan_all(const char *text, bcast_mlir_op *ops, bcast_status *st,
                       size_t max) {
  bcast_mlir_scanner s;
  bcast_mlir_scanner_init(&s, text, strlen(text), accept_broadcasting, NULL);
  size_t n = 0;
  while (n < max) {
    int found;
    bcast_status r = bcast_mlir_scan_next(&s, &ops[n], &found, NULL);
    if (!found) break;
    st[n++] = r;
  }
  return n;
}

/* Scans text, which must hold exactly n ops that all scan without error,
 * and returns them (free them); a failure names the caller's line. */
static bcast_mlir_op *scan_ok(test_ctx *t, int line, const char *text,
                              size_t n) {
  bcast_mlir_op *ops = malloc(8 * sizeof *ops);
  bcast_status st[8];
  size_t got = scan_all(text, ops, st, 8);
  if (got != n)
    test_fail(t, __FILE__, line, "%zu ops scanned, expected %zu", got, n);
  for (size_t i = 0; i < got; i++)
    if (st[i] != BCAST_OK)
      test_fail(t, __FILE__, line, "op %zu: status %d, expected BCAST_OK", i,
                (int)st[i]);
  return ops;
}
#define SCAN_OK(text, n) scan_ok(t, __LINE__, text, n)

TEST(mlir_scan_forms_and_positions) {
  const char *text =
      "// a comment with %0 = \"tosa.add\"(%a, %b) in it\n"
      "func.func @f(%a: tensor<1x2xf32>, %b: tensor<2xf32>) -> "
      "tensor<1x2xf32> {\n"
      "  %c = arith.constant dense<0.0> : tensor<2xf32>\n"
      "  %0 = \"tosa.add\"(%a, %b) : (tensor<1x2xf32>, tensor<2xf32>) -> "
      "tensor<1x2xf32>\n"
      "  %1 = tosa.sub %0, %a : (tensor<1x2xf32>, tensor<1x2xf32>) -> "
      "tensor<1x2xf32>\n"
      "  %2 = tosa.clamp %1 {min_val = 0.0 : f32, max_val = 6.0 : f32}\n"
      "         : (tensor<1x2xf32>) -> tensor<1x2xf32>\n"
      "  %3 = \"test.broadcastable\"(%1, %2) <{p = \"x: y\"}> {a = "
      "affine_map<(d0) -> (d0)>}"
      " : (tensor<1x2xf32>, tensor<?x2xf32>) -> (tensor<?x2xf32>)\n"
      "  %4 = tosa.int_div %x, %y : (tensor<2xi32>, tensor<2xi32>) -> "
      "tensor<2xi32>\n"
      "  %5 = arith.addf %1, %1 : tensor<1x2xf32>\n"
      "  return %0 : tensor<1x2xf32>\n"
      "}\n";
  bcast_mlir_op *ops = SCAN_OK(text, 5);
  CHECK_INT(ops[0].line, 4);
  CHECK_INT(ops[0].col, 8);
  CHECK_INT(ops[0].generic, 1);
  CHECK_INT(ops[0].n_operands, 2);
  CHECK_INT(ops[0].operands[1].rank, 1);
  CHECK_INT(ops[1].line, 5);
  CHECK_INT(ops[1].generic, 0);
  CHECK_INT(ops[2].n_operands, 1); /* multi-line, attribute dict with ':' */
  CHECK_INT(ops[2].line, 6);
  CHECK_INT(ops[3].n_operands, 2);
  CHECK_INT(ops[3].dims[ops[3].result.dims_at], BCAST_DIM_DYNAMIC);
  CHECK_INT(ops[4].line, 9);
  free(ops);
}

TEST(mlir_scan_single_type_form_and_errors) {
  const char *text = "%0 = tosa.add %a, %b : tensor<2xf32>\n"
                     "%1 = tosa.add %a, %b\n"
                     "%2 = tosa.add %a, %b : (tensor<2xf32>, tensor<-1xf32>) "
                     "-> tensor<2xf32>\n"
                     "%3 = tosa.add %a, %b : (tensor<2xf32>, tensor<3xf32>) "
                     "-> tensor<3xf32>\n";
  bcast_mlir_op *ops = malloc(8 * sizeof *ops);
  bcast_status st[8];
  size_t n = scan_all(text, ops, st, 8);
  CHECK_INT(n, 4);
  CHECK_INT(st[0], BCAST_OK);
  CHECK_INT(ops[0].n_operands, 2);
  CHECK_INT(st[1], BCAST_PARSE); /* no signature before the next statement */
  CHECK_INT(ops[1].line, 2);
  CHECK_INT(st[2], BCAST_PARSE);
  CHECK_INT(st[3], BCAST_OK);
  CHECK_INT(ops[3].line, 4);
  free(ops);
}

/* Verifies the single op in text under a profile; returns the status and
 * fills the diagnostic. */
static bcast_status verify_text(const char *text, bcast_profile profile,
                                bcast_diag *d) {
  bcast_mlir_op *op = malloc(sizeof *op);
  bcast_status st;
  size_t n = scan_all(text, op, &st, 1);
  if (n != 1 || st != BCAST_OK) {
    free(op);
    return BCAST_PARSE;
  }
  st = bcast_mlir_verify_op(op, profile, d);
  free(op);
  return st;
}

TEST(mlir_verify_tosa_op_verifiers) {
  static const struct {
    const char *text;
    bcast_profile profile;
    bcast_status want;
    const char *mlir_message; /* the whole MLIR message, or NULL */
    const char *message;      /* part of bcast's message, or NULL */
  } rows[] = {
      {"%0 = tosa.mul %a, %b, %s : (tensor<3xi32>, tensor<1x3xi32>, "
       "tensor<1xi8>) -> tensor<1x3xi32>",
       BCAST_PROFILE_TOSA, BCAST_RANK_MISMATCH,
       "a and b operands don't have matching ranks, got 1 and 2", NULL},
      {"%0 = tosa.mul %a, %b, %s : (tensor<3xi32>, tensor<2xi32>, "
       "tensor<1xi8>) -> tensor<3xi32>",
       BCAST_PROFILE_TOSA, BCAST_INCOMPATIBLE,
       "a and b operands don't have broadcast-compatible shapes, got "
       "'tensor<3xi32>' and 'tensor<2xi32>'",
       NULL},
      /* MLIR 22's tosa.mul does not compare result dims with the broadcast. */
      {"%0 = tosa.mul %a, %b, %s : (tensor<1x3xi32>, tensor<1x3xi32>, "
       "tensor<1xi8>) -> tensor<2x3xi32>",
       BCAST_PROFILE_TOSA, BCAST_OK, NULL, NULL},
      /* ...but the trait profile does, on the two broadcast operands only. */
      {"%0 = tosa.mul %a, %b, %s : (tensor<1x3xi32>, tensor<1x3xi32>, "
       "tensor<1xi8>) -> tensor<2x3xi32>",
       BCAST_PROFILE_TRAIT, BCAST_RESULT_MISMATCH, NULL, NULL},
      {"%0 = tosa.abs %a : (tensor<2x3xf32>) -> tensor<4x3xf32>",
       BCAST_PROFILE_TOSA, BCAST_RESULT_MISMATCH,
       "requires the same shape for all operands and results", NULL},
      {"%0 = tosa.abs %a : (tensor<?x3xf32>) -> tensor<2x3xf32>",
       BCAST_PROFILE_TOSA, BCAST_OK, NULL, NULL},
      {"%0 = tosa.negate %a, %z, %y : (tensor<2x3xi32>, tensor<1xi32>, "
       "tensor<1xi32>) -> tensor<4x3xi32>",
       BCAST_PROFILE_TOSA, BCAST_RESULT_MISMATCH,
       "requires the same shape for input1 and output", NULL},
      {"%0 = tosa.equal %a, %b : (tensor<3xi32>, tensor<3xi32>) -> "
       "tensor<0xi1>",
       BCAST_PROFILE_TOSA, BCAST_INVALID_ARGUMENT,
       "result #0 must be tosa-conformant tensor of 1-bit signless integer "
       "values, but got 'tensor<0xi1>'",
       NULL},
      {"%0 = tosa.add %a : (tensor<3xi32>) -> tensor<3xi32>",
       BCAST_PROFILE_TOSA, BCAST_INVALID_ARGUMENT, NULL, "takes 2 operands"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    bcast_diag d;
    bcast_status st = verify_text(rows[i].text, rows[i].profile, &d);
    if (st != rows[i].want) {
      test_fail(t, __FILE__, __LINE__, "%s: status %d, expected %d",
                rows[i].text, (int)st, (int)rows[i].want);
      continue;
    }
    if (rows[i].mlir_message) CHECK_STR(d.mlir_message, rows[i].mlir_message);
    if (rows[i].message) CHECK_CONTAINS(d.message, rows[i].message);
  }
}

TEST(mlir_verify_containers) {
  bcast_diag d;
  CHECK_INT(
      verify_text("%0 = \"test.broadcastable\"(%a, %b) : (vector<2xf32>, "
                  "tensor<2xf32>) -> tensor<2xf32>",
                  BCAST_PROFILE_TRAIT, &d),
      BCAST_TYPE);
  CHECK_STR(d.mlir_message, "cannot broadcast vector with tensor");
  CHECK_INT(d.mlir_op_prefix, 0);
  CHECK_INT(
      verify_text("%0 = \"test.broadcastable\"(%a, %b) : (vector<1x2xf32>, "
                  "vector<3x1xf32>) -> vector<3x2xf32>",
                  BCAST_PROFILE_TRAIT, &d),
      BCAST_OK);
  /* MLIR 22 lets vectors through unchecked; the document does not. */
  const char *vec = "%0 = \"test.broadcastable\"(%a, %b) : (vector<3xf32>, "
                    "vector<2xf32>) -> vector<3xf32>";
  CHECK_INT(verify_text(vec, BCAST_PROFILE_MLIR, &d), BCAST_OK);
  CHECK_INT(verify_text(vec, BCAST_PROFILE_TRAIT, &d), BCAST_INCOMPATIBLE);
  CHECK_INT(
      verify_text("%0 = \"test.broadcastable\"(%a) : (i32) -> tensor<2xf32>",
                  BCAST_PROFILE_TRAIT, &d),
      BCAST_TYPE);
  CHECK_CONTAINS(d.message, "operand #0 has type 'i32'");
}

TEST(mlir_op_table_names) {
  bcast_op op;
  CHECK_INT(bcast_op_lookup("tosa.intdiv", 11, &op), BCAST_OK);
  CHECK_INT(op, BCAST_OP_INTDIV);
  CHECK_INT(bcast_op_lookup("tosa.int_div", 12, &op), BCAST_OK);
  CHECK_INT(op, BCAST_OP_INTDIV);
  CHECK_INT(bcast_op_lookup("div", 3, &op), BCAST_OK);
  CHECK_INT(op, BCAST_OP_INTDIV);
  CHECK_INT(bcast_op_lookup("tosa.matmul", 11, &op), BCAST_INVALID_ARGUMENT);
  int unary = 0, binary = 0, ternary = 0;
  for (int k = 0; k < BCAST_OP_COUNT; k++) {
    const bcast_op_info *info = bcast_op_get((bcast_op)k);
    if (!info->tosa_types) continue; /* NumPy's own ops */
    unary += info->broadcast_operands == 1;
    binary += info->broadcast_operands == 2;
    ternary += info->broadcast_operands == 3;
  }
  CHECK_INT(unary, 16);
  CHECK_INT(binary, 19);
  CHECK_INT(ternary, 1);
}

/* Is the span exactly the text want? */
static int span_is(bcast_mlir_span span, const char *want) {
  return span.len == strlen(want) && memcmp(span.text, want, span.len) == 0;
}

/* Is text[start, end) exactly want? */
static int range_is(const char *text, size_t start, size_t end,
                    const char *want) {
  return end >= start && end - start == strlen(want) &&
         memcmp(text + start, want, end - start) == 0;
}

TEST(mlir_scan_records_generic_statements) {
  const char *text = "func.func @f() {\n"
                     "  %r = \"tosa.clamp\"(%arg0) <{max_val = 6.0 : f32, "
                     "min_val = 0.0 : f32}>\n"
                     "      {note = \"a: b\"} // why\n"
                     "      : (tensor<2x?xf32>) -> tensor<2x?xf32>\n"
                     "  %s = \"tosa.add\"(%r, %x#1) : (tensor<2x?xf32>, "
                     "tensor<1xf32>) -> (tensor<2x?xf32>)\n"
                     "}\n";
  bcast_mlir_op *ops = SCAN_OK(text, 2);
  const bcast_mlir_op *a = &ops[0], *b = &ops[1];
  CHECK(range_is(text, a->stmt_start, a->stmt_end,
                 "%r = \"tosa.clamp\"(%arg0) <{max_val = 6.0 : f32, min_val = "
                 "0.0 : f32}>\n"
                 "      {note = \"a: b\"} // why\n"
                 "      : (tensor<2x?xf32>) -> tensor<2x?xf32>"));
  CHECK_INT(a->n_results, 1);
  CHECK(span_is(a->results, "%r"));
  CHECK_INT(a->n_operand_names, 1);
  CHECK(span_is(a->operand_names[0], "%arg0"));
  CHECK(
      span_is(a->properties, "<{max_val = 6.0 : f32, min_val = 0.0 : f32}>"));
  CHECK(span_is(a->attrs, "{note = \"a: b\"}"));
  CHECK(range_is(
      text, b->stmt_start, b->stmt_end,
      "%s = \"tosa.add\"(%r, %x#1) : (tensor<2x?xf32>, tensor<1xf32>) -> "
      "(tensor<2x?xf32>)"));
  CHECK_INT(b->n_operand_names, 2);
  CHECK(span_is(b->operand_names[0], "%r"));
  CHECK(span_is(b->operand_names[1], "%x#1"));
  CHECK_INT(b->attrs.len, 0);
  CHECK_INT(b->properties.len, 0);
  /* The dims of every type sit in the pool, one type after the other. */
  bcast_shape s;
  bcast_mlir_op_shape(b, &b->operands[0], &s);
  CHECK_INT(s.rank, 2);
  CHECK_INT(s.dims[0], 2);
  CHECK_INT(s.dims[1], BCAST_DIM_DYNAMIC);
  bcast_mlir_type ty;
  bcast_mlir_op_type(b, &b->operands[1], &ty);
  CHECK_INT(ty.container, BCAST_CONTAINER_TENSOR);
  CHECK_INT(ty.shape.rank, 1);
  CHECK_INT(ty.shape.dims[0], 1);
  CHECK_INT((int)ty.elem_len, 3);
  CHECK(memcmp(ty.elem, "f32", 3) == 0);
  CHECK_INT((int)ty.text_len, (int)strlen("tensor<1xf32>"));
  CHECK_INT(b->operands[1].dims_at, 2);
  CHECK_INT(b->result.dims_at, 3);
  free(ops);
}

TEST(mlir_scan_records_custom_statements) {
  const char *text = "%0 = tosa.add %a, %b // the operands\n"
                     "  // a whole comment line with %c = tosa.sub %x\n"
                     "  : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>\n"
                     "%1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 6.0 "
                     ": f32} : tensor<3xf32>\n"
                     "%2, %3 = tosa.sub %a, %b : tensor<3xf32>\n"
                     "%4:2 = tosa.sub %a, %b : tensor<3xf32>\n";
  bcast_mlir_op *ops = SCAN_OK(text, 4);
  CHECK(range_is(text, ops[0].stmt_start, ops[0].stmt_end,
                 "%0 = tosa.add %a, %b // the operands\n"
                 "  // a whole comment line with %c = tosa.sub %x\n"
                 "  : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>"));
  CHECK_INT(ops[0].n_operand_names, 2);
  CHECK(span_is(ops[0].operand_names[0], "%a"));
  CHECK(span_is(ops[0].operand_names[1], "%b"));
  CHECK_INT(ops[0].attrs.len, 0);
  CHECK(span_is(ops[1].attrs, "{min_val = 0.0 : f32, max_val = 6.0 : f32}"));
  CHECK_INT(ops[1].properties.len, 0);
  CHECK(range_is(
      text, ops[1].stmt_start, ops[1].stmt_end,
      "%1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 6.0 : f32} : "
      "tensor<3xf32>"));
  /* The single-type form: every operand shares the result's pooled dims. */
  CHECK_INT(ops[1].n_operands, 1);
  CHECK_INT(ops[1].operands[0].dims_at, ops[1].result.dims_at);
  CHECK_INT(ops[2].n_results, 2);
  CHECK(span_is(ops[2].results, "%2, %3"));
  CHECK_INT(ops[3].n_results, 2);
  CHECK(span_is(ops[3].results, "%4:2"));
  free(ops);
}

TEST(mlir_scan_op_is_small_and_its_pool_bounded) {
  CHECK(sizeof(bcast_mlir_op) <= 8 * 1024);
  /* Five rank-64 operands need 320 dims in the pool: refused by name. */
  char *text = malloc(8192);
  size_t len = 0;
  len += (size_t)sprintf(
      text + len, "%%0 = test.broadcastable %%a, %%b, %%c, %%d, %%e : (");
  for (int k = 0; k < 5; k++) {
    len += (size_t)sprintf(text + len, "%stensor<", k ? ", " : "");
    for (int d = 0; d < 64; d++) len += (size_t)sprintf(text + len, "1x");
    len += (size_t)sprintf(text + len, "f32>");
  }
  len += (size_t)sprintf(text + len, ") -> tensor<2xf32>\n");
  bcast_mlir_op *op = malloc(sizeof *op);
  bcast_mlir_scanner s;
  bcast_mlir_scanner_init(&s, text, len, accept_broadcasting, NULL);
  bcast_diag d;
  int found = 0;
  CHECK_INT(bcast_mlir_scan_next(&s, op, &found, &d), BCAST_PARSE);
  CHECK_INT(found, 1);
  CHECK_CONTAINS(d.message, "more than 256 dims");
  free(op);
  free(text);
}
