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

/* ------------------------------------------------------------------------ */
/* The models: each case names the StableHLO spec constraint (docs/spec.md)
 * or the verifier behaviour (TypeInference.cpp, ChloOps.cpp) it mirrors.
 * The texts are written here, in the spirit of upstream's tests. */

/* What one checked op came to. */
typedef struct one_op {
  int n;
  bcast_mlir_outcome outcome;
  bcast_status status;
  int infer_failed;
  char text[1024];
} one_op;

static int keep_last(void *ctx, const bcast_mlir_checked *c) {
  one_op *o = ctx;
  o->n++;
  o->outcome = c->outcome;
  o->status = c->status;
  o->infer_failed = c->verdict.infer_failed;
  o->text[0] = '\0';
  if (c->diag)
    bcast_mlir_diag_format(c->op->name, c->op->name_len, c->diag, o->text,
                           sizeof o->text);
  return 0;
}

/* Verifies text (its last checked op is the one judged) with opts. */
static one_op judge(const char *text, const bcast_mlir_verify_options *opts) {
  one_op o;
  memset(&o, 0, sizeof o);
  bcast_mlir_verify_text(text, strlen(text), opts, keep_last, &o, NULL, NULL);
  return o;
}

/* A case: the op text, and the message's expected substring (NULL: the op
 * verifies; "cannot check: ..." for no verdict). */
typedef struct model_case {
  const char *what; /* the constraint it checks */
  const char *text;
  const char *want;
} model_case;

static void run_cases(test_ctx *t, const model_case *cases, size_t n,
                      const bcast_mlir_verify_options *opts) {
  for (size_t k = 0; k < n; k++) {
    one_op o = judge(cases[k].text, opts);
    const char *want = cases[k].want;
    int ok = o.n >= 1;
    if (ok && !want) ok = o.outcome == BCAST_MLIR_PASSED;
    if (ok && want) {
      int cannot = strncmp(want, "cannot check", 12) == 0;
      ok = o.outcome ==
               (cannot ? BCAST_MLIR_CANNOT_CHECK : BCAST_MLIR_FAILED) &&
           strstr(o.text, want) != NULL;
    }
    if (!ok)
      test_fail(t, __FILE__, __LINE__, "%s: got outcome %d '%s', want '%s'",
                cases[k].what, (int)o.outcome, o.text, want ? want : "pass");
  }
}

#define BID(ops, dims, in, out)                                               \
  "%r = stablehlo.broadcast_in_dim %x, dims = [" dims "] : (" in ") -> " out  \
  "\n"

TEST(stablehlo_broadcast_in_dim_constraints) {
  static const model_case cases[] = {
      {"C5 holds (size 1 and equal sizes)",
       BID(1, "0, 2", "tensor<1x3xf32>", "tensor<2x4x3xf32>"), NULL},
      {"dims in any order (a transpose)",
       BID(1, "1, 0", "tensor<2x3xf32>", "tensor<3x2xf32>"), NULL},
      {"C2: one entry per operand dim",
       BID(1, "1", "tensor<1x2xi32>", "tensor<1x2x3xi32>"),
       "broadcast_dimensions size (1) does not match operand rank (2)"},
      {"C4 before C3: duplicates",
       BID(1, "5, 5", "tensor<1x2xi32>", "tensor<2x2xi32>"),
       "broadcast_dimensions should not have duplicates"},
      {"C3: negative entries",
       BID(1, "-1", "tensor<3xi32>", "tensor<2x3xi32>"),
       "broadcast_dimensions contains invalid value -1 for result with rank "
       "2"},
      {"C5: size neither 1 nor the result's",
       BID(1, "1", "tensor<3xi32>", "tensor<1x2x3xi32>"),
       "size of operand dimension 0 (3) is not equal to 1 or size of result "
       "dimension 1 (2)"},
      {"C5 skips a dynamic operand dim",
       BID(1, "1", "tensor<?xi32>", "tensor<1x3xi32>"), NULL},
      {"the result: static or one bounded dynamic dim",
       BID(1, "1", "tensor<3xi32>", "tensor<?x3xi32>"),
       "result #0 must be statically shaped or single bounded dimension "
       "tensor"},
      {"bounded dynamism: one bounded dim",
       BID(1, "0, 1", "tensor<1x?xf32, #stablehlo.bounds<?, 5>>",
           "tensor<2x1x?xf32, #stablehlo.bounds<?, ?, 5>>"),
       NULL},
      {"bounded dynamism: two bounded dims are refused",
       BID(1, "0, 1", "tensor<?x?xf32, #stablehlo.bounds<5, 5>>",
           "tensor<2x?x?xf32, #stablehlo.bounds<?, 5, 5>>"),
       "must be statically shaped or single bounded dimension tensor"},
      {"C1: compatible element types",
       BID(1, "0", "tensor<3xf32>", "tensor<3xf64>"),
       "requires compatible element types for all operands and results"},
      {"C1: per-tensor quantization keeps scale and zero point",
       BID(1, "0", "tensor<1x!quant.uniform<i8:f32, 0.2:-30>>",
           "tensor<2x!quant.uniform<i8:f32, 0.1:-30>>"),
       "expect same quantization scale and zero_point"},
      {"C1: quant's unsigned storage type u8",
       BID(1, "0", "tensor<1x!quant.uniform<u8:f32, 0.5:3>>",
           "tensor<2x!quant.uniform<u8<0:255>:f32, 0.5:3>>"),
       NULL},
      {"C1: one scale spelled two ways is one scale",
       BID(1, "0", "tensor<1x!quant.uniform<i8:f32, 0.2:-30>>",
           "tensor<2x!quant.uniform<i8<-128:127>:f32, 2.0e-1:-30>>"),
       NULL},
      {"C6: the quantization dimension follows broadcast_dimensions",
       BID(1, "0, 1, 2", "tensor<1x2x1x!quant.uniform<i8:f32:2, {0.1:-30}>>",
           "tensor<1x2x3x2x!quant.uniform<i8:f32:3, {0.1:-30, 0.1:-30}>>"),
       "result quantization_dimension 3 not same as broadcast_dimensions[2] "
       "= 2"},
      {"C6: a size-1 quantized dim repeats its scale",
       BID(1, "0, 1, 3", "tensor<1x2x1x!quant.uniform<i8:f32:2, {0.1:-30}>>",
           "tensor<1x2x3x2x!quant.uniform<i8:f32:3, {0.2:2, 0.5:-20}>>"),
       "mismatch result scale 0 (2.000000e-01) and operand scale 0 "
       "(1.000000e-01)"},
      {"C6: ... and its zero point",
       BID(1, "0, 1, 3", "tensor<1x2x1x!quant.uniform<i8:f32:2, {0.1:-30}>>",
           "tensor<1x2x3x2x!quant.uniform<i8:f32:3, {0.1:-30, 0.1:-20}>>"),
       "mismatch result zero_point 1 (-20) and operand zero_point 0 (-30)"},
      {"C6 holds",
       BID(1, "0, 1, 3",
           "tensor<1x2x2x!quant.uniform<i8:f32:2, {0.1:-30, 0.5:-20}>>",
           "tensor<1x2x3x2x!quant.uniform<i8:f32:3, {0.1:-30, 0.5:-20}>>"),
       NULL},
      {"broadcast_dimensions is required",
       "%r = \"stablehlo.broadcast_in_dim\"(%x) : (tensor<3xf32>) -> "
       "tensor<2x3xf32>\n",
       "requires attribute 'broadcast_dimensions'"},
      {"a token is no tensor", BID(1, "", "!stablehlo.token", "tensor<f32>"),
       "operand #0 must be ranked tensor"},
      {"an encoding outside the model: no verdict",
       BID(1, "0", "tensor<3xf32, #sparse<1>>", "tensor<3xf32>"),
       "cannot check: tensor encoding '#sparse<1>'"},
      {"an element type StableHLO does not name: no verdict",
       BID(1, "0", "tensor<3xindex>", "tensor<3xindex>"),
       "cannot check: element type 'index'"},
      {"generic form and aliases",
       "!t = tensor<1x2xi32>\n#b = array<i64: 1, 2>\n"
       "%r = \"stablehlo.broadcast_in_dim\"(%x) {broadcast_dimensions = "
       "array<i64: 1, 2>} : (!t) -> tensor<1x2x2xi32>\n",
       NULL},
  };
  run_cases(t, cases, sizeof cases / sizeof cases[0], NULL);
}

#define DBID(dims, attrs, in, shape, out)                                     \
  "%r = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [" dims "] " attrs  \
  " : (" in ", " shape ") -> " out "\n"

TEST(stablehlo_dynamic_broadcast_in_dim_constraints) {
  static const model_case cases[] = {
      {"output_dimensions is a shape operand, not a data operand",
       DBID("1, 2", "", "tensor<?x?xi32>", "tensor<3xi64>",
            "tensor<?x?x?xi32>"),
       NULL},
      {"C1: compatible element types",
       DBID("1, 2", "", "tensor<?x?xi32>", "tensor<3xi64>",
            "tensor<?x?x?xi64>"),
       "expects operand and result to have compatible element type"},
      {"C2",
       DBID("1", "", "tensor<?x?xi32>", "tensor<3xi64>", "tensor<?x?x?xi32>"),
       "broadcast_dimensions size (1) does not match operand rank (2)"},
      {"C3: the result rank",
       DBID("0, 1", "", "tensor<2x3xi32>", "tensor<1xi64>", "tensor<?xi32>"),
       "result rank (1) is less than operand rank (2)"},
      {"C4",
       DBID("1, 1", "", "tensor<?x?xi32>", "tensor<3xi64>",
            "tensor<?x?x?xi32>"),
       "broadcast_dimensions should not have duplicates"},
      {"C5: range",
       DBID("3", "", "tensor<1xf32>", "tensor<3xi64>", "tensor<7x8x9xf32>"),
       "broadcast_dimensions contains invalid value 3 for result with rank 3"},
      {"C5: sizes",
       DBID("2", "", "tensor<32xf32>", "tensor<3xi64>", "tensor<7x8x9xf32>"),
       "size of operand dimension 0 (32) is not compatible with size of "
       "result dimension 2 (9)"},
      {"C5: a dynamic result dim is compatible",
       DBID("2", "", "tensor<32xf32>", "tensor<3xi64>", "tensor<?x?x?xf32>"),
       NULL},
      {"C7: output_dimensions' length is the result rank",
       DBID("1", "", "tensor<4xf32>", "tensor<3xi64>", "tensor<?x?xf32>"),
       "output_dimensions has 3 elements but the result has rank 2"},
      {"output_dimensions must be statically shaped",
       DBID("1, 2", "", "tensor<?x?xi32>", "tensor<?xi64>",
            "tensor<7x8x9xi32>"),
       "operand #1 must be statically shaped"},
      {"C7: a constant operand against the result",
       "%s = stablehlo.constant dense<[1, 4]> : tensor<2xi64>\n" DBID(
           "1", "", "tensor<4xf32>", "tensor<2xi64>", "tensor<3x4xf32>"),
       "output shape [1, 4] is incompatible with return type of operation "
       "'tensor<3x4xf32>'"},
      {"C7: a negative constant size",
       "%s = arith.constant dense<[-1, 4]> : tensor<2xi64>\n" DBID(
           "1", "", "tensor<4xf32>", "tensor<2xi64>", "tensor<?x4xf32>"),
       "output shape [-1, 4] is incompatible"},
      {"C7: a matching constant",
       "%s = stablehlo.constant dense<[3, 4]> : tensor<2xi64>\n" DBID(
           "1", "", "tensor<4xf32>", "tensor<2xi64>", "tensor<?x?xf32>"),
       NULL},
      {"C5 against a constant output_dimensions",
       "%s = stablehlo.constant dense<[2, 3, 1]> : tensor<3xi32>\n" DBID(
           "1, 2", "", "tensor<1x3xi32>", "tensor<3xi32>",
           "tensor<?x?x?xi32>"),
       "size of operand dimension 1 (3) is not equal to 1 or value of shape "
       "at index 2 (1)"},
      {"C8: no dim named by both hints",
       DBID("1, 2",
            "{known_expanding_dimensions = array<i64: 0>, "
            "known_nonexpanding_dimensions = array<i64: 0>}",
            "tensor<?x?xi32>", "tensor<3xi64>", "tensor<?x?x?xi32>"),
       "duplicate expansion hint for at least one operand dimension"},
      {"C9: hints name operand dims",
       DBID("1, 2", "{known_expanding_dimensions = array<i64: 3>}",
            "tensor<?x?xi32>", "tensor<3xi64>", "tensor<?x?x?xi32>"),
       "hint for expanding dimension 3 does not refer to a valid operand "
       "dimension"},
      {"C10 holds",
       DBID("1, 2", "{known_nonexpanding_dimensions = array<i64: 1>}",
            "tensor<?x?xi32>", "tensor<3xi64>", "tensor<?x?x?xi32>"),
       NULL},
  };
  run_cases(t, cases, sizeof cases / sizeof cases[0], NULL);
}

TEST(stablehlo_broadcast_sizes) {
  static const model_case cases[] = {
      {"broadcast_sizes, then the operand's dims",
       "%r = stablehlo.broadcast %x, sizes = [1, 2] : (tensor<3xi32>) -> "
       "tensor<1x2x3xi32>\n",
       NULL},
      {"a result that is not sizes ++ operand shape",
       "%r = \"stablehlo.broadcast\"(%x) {broadcast_sizes = array<i64: 2>} : "
       "(tensor<3xi32>) -> tensor<2x1xi32>\n",
       "inferred type(s) 'tensor<2x3xi32>' are incompatible with return "
       "type(s) of operation 'tensor<2x1xi32>'"},
      {"a dynamic operand dim",
       "%r = stablehlo.broadcast %x, sizes = [1, 2] : (tensor<?xi32>) -> "
       "tensor<1x2x?xi32>\n",
       NULL},
      {"a negative size",
       "%r = stablehlo.broadcast %x, sizes = [-2] : (tensor<3xi32>) -> "
       "tensor<2x3xi32>\n",
       "Broadcast with negative dimension size -2"},
      {"one element type",
       "%r = stablehlo.broadcast %x, sizes = [2] : (tensor<3xi32>) -> "
       "tensor<2x3xi64>\n",
       "requires the same element type for all operands and results"},
  };
  run_cases(t, cases, sizeof cases / sizeof cases[0], NULL);
  /* Type inference reports twice, as StableHLO does. */
  one_op o = judge(cases[1].text, NULL);
  CHECK_INT(o.infer_failed, 1);
}

#define CHLO(op, attrs, a, b, r)                                              \
  "%r = chlo." op " %a, %b " attrs " : (" a ", " b ") -> " r "\n"

static const model_case chlo_cases[] = {
    {"numpy broadcasting",
     CHLO("broadcast_add", "", "tensor<?xf32>", "tensor<?x3xf32>",
          "tensor<?x3xf32>"),
     NULL},
    {"an incompatible result",
     CHLO("broadcast_add", "", "tensor<2xf32>", "tensor<3x2xf32>",
          "tensor<3x3xf32>"),
     "inferred type(s) 'tensor<3x2xf32>' are incompatible with return "
     "type(s) of operation 'tensor<3x3xf32>'"},
    {"a clash of static sizes is getNumpyBroadcastShape's error",
     CHLO("broadcast_add", "", "tensor<2xf32>", "tensor<3xf32>",
          "tensor<7xf32>"),
     "incompatible shapes for broadcasting 2 and 3"},
    {"a bound counts as its size, and must meet a bound",
     CHLO("broadcast_add", "", "tensor<4xf32>",
          "tensor<?xf32, #stablehlo.bounds<4>>", "tensor<4xf32>"),
     "cannot mix bounded and static dimensions in broadcast"},
    {"a clash beside an unbounded dim infers an unranked result: any "
     "result matches",
     CHLO("broadcast_add", "", "tensor<?x2xf32>", "tensor<3xf32>",
          "tensor<7xf32>"),
     NULL},
    {"an illegal broadcast_dimensions infers an unranked result",
     CHLO("broadcast_compare",
          "{broadcast_dimensions = array<i64: 1>, comparison_direction = "
          "#chlo<comparison_direction EQ>}",
          "tensor<2x3x4xf32>", "tensor<2x3x4xf32>", "tensor<2x3x4xi1>"),
     NULL},
    {"a legal broadcast_dimensions places the lower-rank operand",
     CHLO("broadcast_add", "{broadcast_dimensions = array<i64: 1>}",
          "tensor<1xi32>", "tensor<1x2xi32>", "tensor<1x3xi32>"),
     "inferred type(s) 'tensor<1x2xi32>'"},
    {"compatible quantized element types (scales may differ)",
     CHLO("broadcast_add", "", "tensor<2x!quant.uniform<i8:f32, 2.0:15>>",
          "tensor<2x!quant.uniform<i8:f32, 3.0:15>>",
          "tensor<2x!quant.uniform<i8:f32, 2.0:15>>"),
     NULL},
    {"another storage type is not compatible",
     CHLO("broadcast_maximum", "", "tensor<2x!quant.uniform<i8:f32, 2.0:15>>",
          "tensor<2x!quant.uniform<i8:f32, 3.0:15>>",
          "tensor<2x!quant.uniform<i16:f32, 2.0:15>>"),
     "requires compatible element types for all operands and results"},
    {"broadcast_complex of f64 and f32",
     CHLO("broadcast_complex", "", "tensor<2xf64>", "tensor<2xf32>",
          "tensor<2xcomplex<f32>>"),
     "mismatched operand types"},
    {"broadcast_complex gives complex<lhs>",
     CHLO("broadcast_complex", "", "tensor<?xf32>", "tensor<?x?xf32>",
          "tensor<?x?xcomplex<f64>>"),
     "are incompatible with return type(s)"},
    {"broadcast_compare gives i1",
     CHLO("broadcast_compare",
          "{comparison_direction = #chlo<comparison_direction EQ>}",
          "tensor<?xf32>", "tensor<?x?xf32>", "tensor<?x?xi1>"),
     NULL},
    {"logical ops take pred or integers",
     CHLO("broadcast_and", "", "tensor<2xf32>", "tensor<2xf32>",
          "tensor<2xf32>"),
     "operand #0 must be tensor of pred or integer"},
    {"unranked operands infer an unranked result",
     CHLO("broadcast_compare",
          "{comparison_direction = #chlo<comparison_direction EQ>}",
          "tensor<*xf32>", "tensor<*xf32>", "tensor<*xi1>"),
     NULL},
    {"a bound survives a size-1 dim",
     CHLO("broadcast_add", "", "tensor<?xf64, #stablehlo.bounds<10>>",
          "tensor<f64>", "tensor<?xf64, #stablehlo.bounds<10>>"),
     NULL},
    {"a bounded dim meeting an unbounded one is not bounded",
     CHLO("broadcast_add", "", "tensor<?xf64, #stablehlo.bounds<10>>",
          "tensor<?xf64, #stablehlo.bounds<?>>", "tensor<12xf64>"),
     NULL},
    {"a static size over the inferred bound",
     CHLO("broadcast_add", "", "tensor<?xf64, #stablehlo.bounds<10>>",
          "tensor<1xf64>", "tensor<12xf64>"),
     "are incompatible with return type(s)"},
    {"broadcast_select: on_true and on_false of one element type",
     "%r = chlo.broadcast_select %p, %a, %b : (tensor<2xi1>, tensor<2xi32>, "
     "tensor<2xf32>) -> tensor<2xi32>\n",
     "mismatched operand types"},
    {"broadcast_select broadcasts all three",
     "%r = chlo.broadcast_select %p, %a, %b : (tensor<i1>, tensor<?xi32>, "
     "tensor<2x1xi32>) -> tensor<2x?xi32>\n",
     NULL},
};

TEST(chlo_inferred_types_and_element_rules) {
  run_cases(t, chlo_cases, sizeof chlo_cases / sizeof chlo_cases[0], NULL);
}

/* XLA's rule, on request: CHLO's lenient case is an error there. */
TEST(chlo_xla_rule_is_strict) {
  bcast_mlir_verify_options o;
  bcast_mlir_verify_options_init(&o);
  o.chlo_xla_rule = 1;
  one_op r = judge(chlo_cases[5].text, &o);
  CHECK_INT(r.outcome, BCAST_MLIR_FAILED);
  CHECK_CONTAINS(r.text, "invalid broadcast_dimensions");
  r = judge(chlo_cases[5].text, NULL);
  CHECK_INT(r.outcome, BCAST_MLIR_PASSED);
}

/* StableHLO's and CHLO's broadcasting ops are checked by default; a
 * dialect can be turned off; ops of known dialects that bcast does not
 * check are counted. */
TEST(stablehlo_selection_and_counts) {
  static const char text[] =
      "%c = stablehlo.constant dense<1.0> : tensor<f32>\n"
      "%0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> "
      "tensor<2xf32>\n"
      "%1 = stablehlo.add %0, %0 : tensor<2xf32>\n"
      "%2 = chlo.broadcast_add %1, %0 : (tensor<2xf32>, tensor<1xf32>) -> "
      "tensor<2xf32>\n"
      "%3 = arith.addf %a, %b : f32\n";
  bcast_mlir_counts n;
  CHECK_INT(
      bcast_mlir_verify_text(text, strlen(text), NULL, NULL, NULL, &n, NULL),
      BCAST_OK);
  CHECK_INT(n.seen, 5);
  CHECK_INT(n.checked, 2);
  CHECK_INT(n.skipped, 3);
  CHECK_INT(n.skipped_known, 2); /* stablehlo.constant and stablehlo.add */
  bcast_mlir_verify_options o;
  bcast_mlir_verify_options_init(&o);
  o.off_dialects = BCAST_MLIR_DIALECT_STABLEHLO;
  bcast_mlir_verify_text(text, strlen(text), &o, NULL, NULL, &n, NULL);
  CHECK_INT(n.checked, 1);
  CHECK_INT(n.skipped_known, 3);
  /* Named with --op, an element-wise op is checked for one shape. */
  bcast_mlir_span add = {"stablehlo.add", 13};
  o.off_dialects = 0;
  o.ops = &add;
  o.n_ops = 1;
  static const char bad[] =
      "%1 = stablehlo.add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> "
      "tensor<2xf32>\n";
  one_op r = judge(bad, &o);
  CHECK_INT(r.outcome, BCAST_MLIR_FAILED);
  CHECK_CONTAINS(r.text, "requires compatible shapes");
  CHECK_INT(bcast_mlir_dialect_parse("chlo", 4), BCAST_MLIR_DIALECT_CHLO);
  CHECK_INT(bcast_mlir_dialect_parse("mhlo", 4), 0);
  CHECK_INT(bcast_mlir_dialect_of("tosa.add", 8), BCAST_MLIR_DIALECT_TOSA);
}

/* "cannot check" is counted, not failed. */
TEST(stablehlo_cannot_check_is_counted) {
  static const char text[] =
      "%0 = stablehlo.broadcast_in_dim %x, dims = [0] : "
      "(tensor<3xf32, #my.enc>) -> tensor<3xf32>\n"
      "%1 = stablehlo.broadcast_in_dim %x, dims = [0] : "
      "(tensor<3x!quant.calibrated<f32<-1.0:1.0>>>) -> tensor<3xf32>\n";
  bcast_mlir_counts n;
  bcast_diag d;
  CHECK_INT(
      bcast_mlir_verify_text(text, strlen(text), NULL, NULL, NULL, &n, &d),
      BCAST_OK);
  CHECK_INT(n.checked, 2);
  CHECK_INT(n.cannot_check, 2);
  CHECK_INT(n.failed, 0);
}
