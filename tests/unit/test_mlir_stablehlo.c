/* StableHLO and CHLO as engineers write them: the reader's pretty forms,
 * aliases, encodings and element types (issue 21). */
#include <stdlib.h>

#include "test.h"
#include "bcast/bcast.h"

static int accept_all(const char *name, size_t len, void *ctx) {
  (void)name, (void)len, (void)ctx;
  return 1;
}

/* The first op of text the scanner reports, with its scan status; the
 * scanner stays valid for the op's aliases (one per test at a time). */
static bcast_mlir_scanner scanner;
static bcast_mlir_op *first_op(const char *text, bcast_status *st,
                               bcast_diag *d) {
  bcast_mlir_op *op = malloc(sizeof *op);
  bcast_mlir_scanner_init(&scanner, text, strlen(text), accept_all, NULL);
  int found = 0;
  *st = bcast_mlir_scan_next(&scanner, op, &found, d);
  if (!found) *st = BCAST_STATUS_COUNT;
  return op;
}

static void type_text(const bcast_mlir_op *op, const bcast_mlir_type_ref *r,
                      char *buf, size_t size) {
  bcast_mlir_type type;
  bcast_mlir_op_type(op, r, &type);
  bcast_mlir_type_format(&type, buf, size);
}

/* StableHLO's printer writes broadcast_in_dim as
 * "stablehlo.broadcast_in_dim %x, dims = [..] : (T) -> R"; the keyword
 * stands for broadcast_dimensions. */
TEST(stablehlo_pretty_broadcast_in_dim) {
  bcast_status st;
  bcast_diag d;
  bcast_mlir_op *op =
      first_op("%r = stablehlo.broadcast_in_dim %x, dims = [1, 2] : "
               "(tensor<2x3xi32>) -> tensor<1x2x3xi32>\n",
               &st, &d);
  CHECK_INT(st, BCAST_OK);
  CHECK_INT(op->n_operands, 1);
  CHECK_INT(op->n_operand_names, 1);
  bcast_mlir_span key, value;
  CHECK(bcast_mlir_op_attr(op, "broadcast_dimensions", &key, &value));
  CHECK(value.len == 6 && memcmp(value.text, "[1, 2]", 6) == 0);
  bcast_mlir_verdict v;
  CHECK_INT(bcast_mlir_verify(op, NULL, &v, &d), BCAST_OK);
  CHECK_INT(v.n_dims, 2);
  free(op);
}

/* dynamic_broadcast_in_dim names two values before its keyword; the
 * statement that follows is not taken for a keyword. */
TEST(stablehlo_pretty_dynamic_broadcast_in_dim) {
  bcast_status st;
  bcast_diag d;
  bcast_mlir_op *op =
      first_op("%r = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : "
               "(tensor<4xf32>, tensor<2xi64>) -> tensor<?x4xf32>\n"
               "%q = stablehlo.add %r, %r : tensor<?x4xf32>\n",
               &st, &d);
  CHECK_INT(st, BCAST_OK);
  CHECK_INT(op->n_operands, 2);
  CHECK_INT(op->n_operand_names, 2);
  CHECK(op->custom.len > 0);
  free(op);
  /* Without a signature the next statement's "%q =" ends the search. */
  op = first_op("%r = stablehlo.broadcast %x, sizes = [2]\n"
                "%q = stablehlo.add %r, %r : tensor<2xf32>\n",
                &st, &d);
  CHECK_INT(st, BCAST_PARSE);
  CHECK_CONTAINS(d.message, "expected ':'");
  free(op);
}

/* "!t = ..." and "#b = ..." at the start of a line stand for their value
 * after it: in an op's types, as an element type and as an encoding. */
TEST(stablehlo_aliases) {
  bcast_status st;
  bcast_diag d;
  char text[256];
  bcast_mlir_op *op = first_op(
      "!bounded = tensor<?xf64, #b>\n"
      "#b = #stablehlo.bounds<10>\n"
      "!q = !quant.uniform<i8:f32, 2.0:15>\n"
      "!t = tensor<2x!q>\n"
      "!u = !t\n"
      "%r = chlo.broadcast_add %a, %b : (!bounded, !u) -> tensor<2x!q>\n",
      &st, &d);
  CHECK_INT(st, BCAST_OK);
  CHECK_INT(scanner.n_aliases, 5);
  CHECK_INT(op->operands[0].rank, 1);
  /* Uses resolve against the definitions before the op, in any order. */
  type_text(op, &op->operands[0], text, sizeof text);
  CHECK_STR(text, "tensor<?xf64, #stablehlo.bounds<10>>");
  type_text(op, &op->operands[1], text, sizeof text);
  CHECK_STR(text, "tensor<2x!quant.uniform<i8:f32, 2.0:15>>");
  type_text(op, &op->result, text, sizeof text);
  CHECK_STR(text, "tensor<2x!quant.uniform<i8:f32, 2.0:15>>");
  free(op);
  op = first_op("#b = #stablehlo.bounds<10>\n"
                "%r = chlo.broadcast_add %a, %b : (tensor<?xf32, #b>, "
                "tensor<f32>) -> tensor<?xf32, #b>\n",
                &st, &d);
  CHECK_INT(st, BCAST_OK);
  type_text(op, &op->result, text, sizeof text);
  CHECK_STR(text, "tensor<?xf32, #stablehlo.bounds<10>>");
  free(op);
}

/* A use of an alias the text never defines is a parse error naming it;
 * a dialect type ("!stablehlo.token") is not an alias. */
TEST(stablehlo_alias_errors_and_dialect_types) {
  bcast_status st;
  bcast_diag d;
  bcast_mlir_op *op =
      first_op("%r = chlo.broadcast_add %a, %b : (!nope, tensor<f32>) -> "
               "tensor<f32>\n",
               &st, &d);
  CHECK_INT(st, BCAST_PARSE);
  CHECK_CONTAINS(d.message, "undefined type alias '!nope'");
  free(op);
  op = first_op("%r = chlo.broadcast_add %a, %b : (tensor<2x!q>, "
                "tensor<f32>) -> tensor<f32>\n",
                &st, &d);
  CHECK_INT(st, BCAST_PARSE);
  CHECK_CONTAINS(d.message, "'!q'");
  free(op);
  op = first_op("!a = !b\n!b = !a\n"
                "%r = chlo.broadcast_add %x, %y : (!a, tensor<f32>) -> "
                "tensor<f32>\n",
                &st, &d);
  CHECK_INT(st, BCAST_PARSE);
  CHECK_CONTAINS(d.message, "alias chain");
  free(op);
  op = first_op(
      "%r = \"stablehlo.broadcast_in_dim\"(%t) {broadcast_dimensions "
      "= array<i64>} : (!stablehlo.token) -> tensor<*xcomplex<f32>>\n",
      &st, &d);
  CHECK_INT(st, BCAST_OK);
  CHECK_INT(op->operands[0].container, BCAST_CONTAINER_NONE);
  CHECK_INT(op->result.rank, BCAST_RANK_UNRANKED);
  CHECK(op->result.elem_len == 12 &&
        memcmp(op->result.elem, "complex<f32>", 12) == 0);
  free(op);
}

/* Per-axis quantized element types carry braces and nested storage
 * ranges; they are read whole. */
TEST(stablehlo_quantized_element_types) {
  bcast_status st;
  bcast_diag d;
  bcast_mlir_op *op = first_op(
      "%r = \"stablehlo.broadcast_in_dim\"(%a) {broadcast_dimensions = "
      "array<i64: 0, 1>} : (tensor<1x2x!quant.uniform<i8<-128:127>:f32:1, "
      "{0.1:-30, 0.5:-20}>>) -> tensor<1x2x!quant.uniform<i8:f32:1, "
      "{0.1:-30, 0.5:-20}>>\n",
      &st, &d);
  CHECK_INT(st, BCAST_OK);
  CHECK_INT(op->operands[0].rank, 2);
  CHECK(op->operands[0].elem_len > 20 &&
        memcmp(op->operands[0].elem, "!quant.uniform<i8<-128:127>", 27) == 0);
  free(op);
}

/* The table of aliases is bounded: a use of one beyond it is refused by
 * name, not guessed. */
TEST(stablehlo_alias_table_bounded) {
  size_t cap = (BCAST_MLIR_MAX_ALIASES + 2) * 32 + 256;
  char *text = malloc(cap);
  size_t n = 0;
  for (int k = 0; k < BCAST_MLIR_MAX_ALIASES + 1; k++)
    n += (size_t)snprintf(text + n, cap - n, "!a%d = tensor<%dxf32>\n", k,
                          k + 1);
  snprintf(text + n, cap - n,
           "%%r = chlo.broadcast_add %%x, %%y : (!a%d, !a0) -> "
           "tensor<1xf32>\n",
           BCAST_MLIR_MAX_ALIASES);
  bcast_status st;
  bcast_diag d;
  bcast_mlir_op *op = first_op(text, &st, &d);
  CHECK_INT(st, BCAST_PARSE);
  CHECK_CONTAINS(d.message, "more aliases than bcast keeps");
  CHECK_INT(scanner.aliases_dropped, 1);
  free(op);
  free(text);
}
