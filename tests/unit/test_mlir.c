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
static size_t scan_all(const char *text, bcast_mlir_op *ops,
                       bcast_status *st, size_t max) {
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

TEST(mlir_scan_forms_and_positions) {
  const char *text =
      "// a comment with %0 = \"tosa.add\"(%a, %b) in it\n"
      "func.func @f(%a: tensor<1x2xf32>, %b: tensor<2xf32>) -> tensor<1x2xf32> {\n"
      "  %c = arith.constant dense<0.0> : tensor<2xf32>\n"
      "  %0 = \"tosa.add\"(%a, %b) : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>\n"
      "  %1 = tosa.sub %0, %a : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>\n"
      "  %2 = tosa.clamp %1 {min_val = 0.0 : f32, max_val = 6.0 : f32}\n"
      "         : (tensor<1x2xf32>) -> tensor<1x2xf32>\n"
      "  %3 = \"test.broadcastable\"(%1, %2) <{p = \"x: y\"}> {a = affine_map<(d0) -> (d0)>}"
      " : (tensor<1x2xf32>, tensor<?x2xf32>) -> (tensor<?x2xf32>)\n"
      "  %4 = tosa.int_div %x, %y : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>\n"
      "  %5 = arith.addf %1, %1 : tensor<1x2xf32>\n"
      "  return %0 : tensor<1x2xf32>\n"
      "}\n";
  bcast_mlir_op *ops = malloc(8 * sizeof *ops);
  bcast_status st[8];
  size_t n = scan_all(text, ops, st, 8);
  CHECK_INT(n, 5);
  for (size_t i = 0; i < n; i++) CHECK_INT(st[i], BCAST_OK);
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
  const char *text =
      "%0 = tosa.add %a, %b : tensor<2xf32>\n"
      "%1 = tosa.add %a, %b\n"
      "%2 = tosa.add %a, %b : (tensor<2xf32>, tensor<-1xf32>) -> tensor<2xf32>\n"
      "%3 = tosa.add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<3xf32>\n";
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
  bcast_diag d;
  CHECK_INT(verify_text("%0 = tosa.mul %a, %b, %s : (tensor<3xi32>, tensor<1x3xi32>, "
                        "tensor<1xi8>) -> tensor<1x3xi32>",
                        BCAST_PROFILE_TOSA, &d),
            BCAST_RANK_MISMATCH);
  CHECK_STR(d.mlir_message, "a and b operands don't have matching ranks, got 1 and 2");
  CHECK_INT(verify_text("%0 = tosa.mul %a, %b, %s : (tensor<3xi32>, tensor<2xi32>, "
                        "tensor<1xi8>) -> tensor<3xi32>",
                        BCAST_PROFILE_TOSA, &d),
            BCAST_INCOMPATIBLE);
  CHECK_STR(d.mlir_message,
            "a and b operands don't have broadcast-compatible shapes, got "
            "'tensor<3xi32>' and 'tensor<2xi32>'");
  /* MLIR 22's tosa.mul does not compare result dims with the broadcast. */
  CHECK_INT(verify_text("%0 = tosa.mul %a, %b, %s : (tensor<1x3xi32>, tensor<1x3xi32>, "
                        "tensor<1xi8>) -> tensor<2x3xi32>",
                        BCAST_PROFILE_TOSA, &d),
            BCAST_OK);
  /* ...but the trait profile does, on the two broadcast operands only. */
  CHECK_INT(verify_text("%0 = tosa.mul %a, %b, %s : (tensor<1x3xi32>, tensor<1x3xi32>, "
                        "tensor<1xi8>) -> tensor<2x3xi32>",
                        BCAST_PROFILE_TRAIT, &d),
            BCAST_RESULT_MISMATCH);
  CHECK_INT(verify_text("%0 = tosa.abs %a : (tensor<2x3xf32>) -> tensor<4x3xf32>",
                        BCAST_PROFILE_TOSA, &d),
            BCAST_RESULT_MISMATCH);
  CHECK_STR(d.mlir_message, "requires the same shape for all operands and results");
  CHECK_INT(verify_text("%0 = tosa.abs %a : (tensor<?x3xf32>) -> tensor<2x3xf32>",
                        BCAST_PROFILE_TOSA, &d),
            BCAST_OK);
  CHECK_INT(verify_text("%0 = tosa.negate %a, %z, %y : (tensor<2x3xi32>, tensor<1xi32>, "
                        "tensor<1xi32>) -> tensor<4x3xi32>",
                        BCAST_PROFILE_TOSA, &d),
            BCAST_RESULT_MISMATCH);
  CHECK_STR(d.mlir_message, "requires the same shape for input1 and output");
  CHECK_INT(verify_text("%0 = tosa.equal %a, %b : (tensor<3xi32>, tensor<3xi32>) -> "
                        "tensor<0xi1>",
                        BCAST_PROFILE_TOSA, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK_STR(d.mlir_message,
            "result #0 must be tosa-conformant tensor of 1-bit signless integer "
            "values, but got 'tensor<0xi1>'");
  CHECK_INT(verify_text("%0 = tosa.add %a : (tensor<3xi32>) -> tensor<3xi32>",
                        BCAST_PROFILE_TOSA, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "takes 2 operands");
}

TEST(mlir_verify_containers) {
  bcast_diag d;
  CHECK_INT(verify_text("%0 = \"test.broadcastable\"(%a, %b) : (vector<2xf32>, "
                        "tensor<2xf32>) -> tensor<2xf32>",
                        BCAST_PROFILE_TRAIT, &d),
            BCAST_TYPE);
  CHECK_STR(d.mlir_message, "cannot broadcast vector with tensor");
  CHECK_INT(d.mlir_op_prefix, 0);
  CHECK_INT(verify_text("%0 = \"test.broadcastable\"(%a, %b) : (vector<1x2xf32>, "
                        "vector<3x1xf32>) -> vector<3x2xf32>",
                        BCAST_PROFILE_TRAIT, &d),
            BCAST_OK);
  /* MLIR 22 lets vectors through unchecked; the document does not. */
  const char *vec = "%0 = \"test.broadcastable\"(%a, %b) : (vector<3xf32>, "
                    "vector<2xf32>) -> vector<3xf32>";
  CHECK_INT(verify_text(vec, BCAST_PROFILE_MLIR, &d), BCAST_OK);
  CHECK_INT(verify_text(vec, BCAST_PROFILE_TRAIT, &d), BCAST_INCOMPATIBLE);
  CHECK_INT(verify_text("%0 = \"test.broadcastable\"(%a) : (i32) -> tensor<2xf32>",
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
    unary += info->broadcast_operands == 1;
    binary += info->broadcast_operands == 2;
    ternary += info->broadcast_operands == 3;
  }
  CHECK_INT(unary, 16);
  CHECK_INT(binary, 19);
  CHECK_INT(ternary, 1);
}
