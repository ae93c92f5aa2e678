/* The emitter's library contract: output only through the sink, nothing
 * written on failure, deterministic names that avoid the input's, sink
 * errors returned. */
#include <stdlib.h>
#include <string.h>

#include "bcast/emit.h"
#include "test.h"

typedef struct mem_sink {
  char buf[1 << 16];
  size_t len;
  int fail_after; /* fail the write after this many calls; < 0: never */
  int calls;
} mem_sink;

static bcast_status mem_write(void *ctx, const char *data, size_t len) {
  mem_sink *s = ctx;
  if (s->fail_after >= 0 && s->calls++ >= s->fail_after) return BCAST_IO;
  if (s->len + len >= sizeof s->buf) return BCAST_IO;
  memcpy(s->buf + s->len, data, len);
  s->len += len;
  s->buf[s->len] = '\0';
  return BCAST_OK;
}

/* A sink whose writes all succeed; free it. */
static mem_sink *new_sink(void) {
  mem_sink *s = calloc(1, sizeof *s);
  s->fail_after = -1;
  return s;
}

static const char *ADD =
    "func.func @f(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {\n"
    "  %0 = tosa.add %a, %b : (tensor<?xf32>, tensor<?xf32>) -> "
    "tensor<?xf32>\n"
    "  return %0 : tensor<?xf32>\n}\n";

static bcast_status lower(const char *text, const bcast_emit_options *o,
                          mem_sink *s, bcast_emit_stats *stats,
                          bcast_diag *d) {
  s->len = 0;
  s->buf[0] = '\0';
  s->calls = 0;
  return bcast_emit_lower_module(text, strlen(text), o, mem_write, s, stats,
                                 d);
}

/* Lowers text with *o (NULL: the default options), checks that it
 * succeeds and returns the sink that holds the output (free it). */
static mem_sink *lower_ok(test_ctx *t, const char *text,
                          const bcast_emit_options *o) {
  bcast_emit_options defaults;
  bcast_emit_options_init(&defaults);
  mem_sink *s = new_sink();
  CHECK_INT(lower(text, o ? o : &defaults, s, NULL, NULL), BCAST_OK);
  return s;
}

/* Lowers text with the default options and checks that it succeeds and
 * that the output contains each of the NULL-terminated wants. */
static void lowers_to(test_ctx *t, const char *text,
                      const char *const *wants) {
  mem_sink *s = lower_ok(t, text, NULL);
  for (; *wants; wants++) CHECK_CONTAINS(s->buf, *wants);
  free(s);
}

/* Lowers text with the default options and checks that it fails with
 * status, writes nothing, and says want in its message. */
static void lower_fails(test_ctx *t, const char *text, bcast_status status,
                        const char *want) {
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  mem_sink *s = new_sink();
  bcast_diag d;
  CHECK_INT(lower(text, &o, s, NULL, &d), status);
  CHECK_INT(s->len, 0);
  CHECK_CONTAINS(d.message, want);
  free(s);
}

TEST(emit_lowers_dynamic_add) {
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  mem_sink *s = new_sink();
  bcast_diag d;
  bcast_emit_stats st;
  CHECK_INT(lower(ADD, &o, s, &st, &d), BCAST_OK);
  CHECK_CONTAINS(s->buf, "#bcast_map0 = affine_map<(d0) -> (0)>");
  CHECK_CONTAINS(s->buf, "arith.maxui");
  CHECK_CONTAINS(s->buf, "scf.if");
  CHECK_CONTAINS(s->buf, "%0 = linalg.generic");
  CHECK_CONTAINS(s->buf, "arith.addf %bc0_a0, %bc0_a1 : f32");
  CHECK(strstr(s->buf, "tosa.add") == NULL);
  CHECK_INT(st.ops_lowered, 1);
  CHECK_INT(st.copies, 2);
  CHECK_INT(st.asserts, 0);
  /* Deterministic. */
  char *first = malloc(s->len + 1);
  memcpy(first, s->buf, s->len + 1);
  CHECK_INT(lower(ADD, &o, s, &st, &d), BCAST_OK);
  CHECK_STR(s->buf, first);
  free(first);
  /* Assertions on request. */
  o.assert_broadcast = 1;
  o.source_name = "m.mlir";
  CHECK_INT(lower(ADD, &o, s, &st, &d), BCAST_OK);
  CHECK_INT(st.asserts, 2);
  CHECK_CONTAINS(
      s->buf,
      "cf.assert %bc0_ok0_0, \"m.mlir:2:8: 'tosa.add' op operand #0 dim 0");
  free(s);
}

TEST(emit_names_avoid_the_input) {
  const char *text =
      "#bcast_map0 = affine_map<(d0) -> (d0)>\n"
      "func.func @f(%bc0: tensor<3xi32>) -> tensor<3xi32> {\n"
      "  %bc_1 = tosa.abs %bc0 : (tensor<3xi32>) -> tensor<3xi32>\n"
      "  return %bc_1 : tensor<3xi32>\n}\n";
  lowers_to(t, text,
            (const char *const[]){"#bcast_map_0_0 = affine_map<(d0) -> (d0)>",
                                  "%bc_0_0_empty = tensor.empty()",
                                  "%bc_1 = linalg.generic", NULL});
}

/* The prefixes the old emitter tried in turn ("bc", "bc_", "bc__", ...
 * up to its buffer) and the new one's "bc_<k>_" all in use: the names it
 * picks are one past the largest k, and a k that cannot be passed is an
 * error, never a reused name. */
TEST(emit_names_avoid_every_used_prefix) {
  const char *text =
      "#bcast_map_7_ = affine_map<(d0) -> (d0)>\n"
      "func.func @f(%bc: tensor<3xi32>, %bc_: tensor<3xi32>,\n"
      "    %bc______________: tensor<3xi32>, %bc_0_: tensor<3xi32>,\n"
      "    %bc_41_x: tensor<3xi32>) -> tensor<3xi32> {\n"
      "  %bc_2_0 = tosa.abs %bc : (tensor<3xi32>) -> tensor<3xi32>\n"
      "  return %bc_2_0 : tensor<3xi32>\n}\n";
  lowers_to(t, text,
            (const char *const[]){"#bcast_map_8_0 = affine_map<(d0) -> (d0)>",
                                  "%bc_42_0_empty = tensor.empty()", NULL});
  const char *full = "func.func @f(%bc_18446744073709551615_: tensor<3xi32>) "
                     "-> tensor<3xi32> {\n"
                     "  %0 = tosa.abs %bc_18446744073709551615_ : "
                     "(tensor<3xi32>) -> tensor<3xi32>\n"
                     "  return %0 : tensor<3xi32>\n}\n";
  lower_fails(t, full, BCAST_INVALID_ARGUMENT, "cannot choose fresh names");
}

TEST(emit_failures_write_nothing) {
  const char *bad =
      "func.func @f(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {\n"
      "  %0 = tosa.add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> "
      "tensor<3xf32>\n"
      "  return %0 : tensor<3xf32>\n}\n";
  lower_fails(t, bad, BCAST_INCOMPATIBLE,
              "2:8: 'tosa.add' op operands don't have broadcast-compatible "
              "shapes");
  /* A failing sink's status comes back. */
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  mem_sink *s = new_sink();
  bcast_diag d;
  s->fail_after = 0;
  CHECK_INT(lower(ADD, &o, s, NULL, &d), BCAST_IO);
  CHECK_INT(bcast_emit_lower_module(NULL, 0, &o, mem_write, s, NULL, NULL),
            BCAST_INVALID_ARGUMENT);
  free(s);
}

/* bcast lower's first failure reads as bcast_mlir_verify_text's: one
 * formatter, also where MLIR's words carry no "'OP' op " prefix. */
TEST(emit_failure_worded_as_verify_text) {
  static const char *const texts[] = {
      "%0 = tosa.add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> "
      "tensor<3xf32>\n",
      "%0 = tosa.add %a, %b : (tensor<2xf32>, vector<2xf32>) -> "
      "tensor<2xf32>\n",
      "%0 = tosa.sub %a, %b\n",
  };
  static const char *const want[] = {
      ("1:6: 'tosa.add' op operands don't have broadcast-compatible shapes "
       "[tosa profile]"),
      "1:6: cannot broadcast vector with tensor [tosa profile]",
      "1:6: 'tosa.sub' op: expected ':' and a type signature",
  };
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  mem_sink *s = new_sink();
  for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
    bcast_diag lowered, verified;
    CHECK(lower(texts[k], &o, s, NULL, &lowered) != BCAST_OK);
    CHECK(bcast_mlir_verify_text(texts[k], strlen(texts[k]), NULL, NULL, NULL,
                                 NULL, &verified) == lowered.status);
    CHECK_STR(lowered.message, want[k]);
    CHECK_STR(verified.message, want[k]);
  }
  free(s);
}

TEST(emit_only_selected_ops) {
  const char *text =
      "func.func @f(%a: tensor<3xf32>) -> tensor<3xf32> {\n"
      "  %0 = tosa.exp %a : (tensor<3xf32>) -> tensor<3xf32>\n"
      "  %1 = \"tosa.floor\"(%0) : (tensor<3xf32>) -> tensor<3xf32>\n"
      "  return %1 : tensor<3xf32>\n}\n";
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  bcast_op only = BCAST_OP_FLOOR;
  o.only = &only;
  o.n_only = 1;
  mem_sink *s = lower_ok(t, text, &o);
  CHECK_CONTAINS(s->buf,
                 "%0 = tosa.exp %a : (tensor<3xf32>) -> tensor<3xf32>\n");
  CHECK_CONTAINS(s->buf, "math.floor %bc0_a0 : f32");
  free(s);
}

/* Clamp bounds go through the library's attribute parser and bound rule,
 * the same as bcast run's: values of the input's type, min <= max, a
 * number; the lowering writes the parsed bound back as an MLIR literal. */
TEST(emit_clamp_attributes_follow_the_library_rule) {
  static const struct {
    const char *attrs, *type, *want; /* want: message part, or output part */
    bcast_status status;
  } cases[] = {
      {"{min_val = 0.0 : f32, max_val = 6.0 : f32}", "f32",
       "arith.constant 6.0 : f32", BCAST_OK},
      {"<{max_val = 9 : i8, min_val = -5 : i8}>", "i8",
       "arith.constant -5 : i8", BCAST_OK},
      {"{min_val = -300 : i8, max_val = 9 : i8}", "i8",
       "2:8: 'tosa.clamp' op min_val -300 is outside int8's range -128..127",
       BCAST_INVALID_ARGUMENT},
      {"{min_val = 9 : i8, max_val = -3 : i8}", "i8",
       /* MLIR 22's verifier, which lower runs first, in its words */
       "'tosa.clamp' op expected min_val <= max_val, got min_val=9 : i8, "
       "max_val=-3 : i8",
       BCAST_INVALID_ARGUMENT},
      {"{min_val = bogus : i8, max_val = 1 : i8}", "i8",
       "'tosa.clamp' op min_val = 'bogus : i8': expected a number",
       BCAST_PARSE},
      {"{max_val = 1 : i8}", "i8", "needs min_val and max_val attributes",
       BCAST_PARSE},
  };
  mem_sink *s = new_sink();
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char text[1024];
    const int generic = cases[i].attrs[0] == '<';
    snprintf(text, sizeof text,
             "func.func @f(%%a: tensor<3x%s>) -> tensor<3x%s> {\n"
             "  %%1 = %s%s %s : (tensor<3x%s>) -> tensor<3x%s>\n"
             "  return %%1 : tensor<3x%s>\n}\n",
             cases[i].type, cases[i].type,
             generic ? "\"tosa.clamp\"(%a) " : "tosa.clamp %a ", "",
             cases[i].attrs, cases[i].type, cases[i].type, cases[i].type);
    bcast_diag d;
    const bcast_status st = lower(text, &o, s, NULL, &d);
    CHECK_INT(st, cases[i].status);
    if (st == BCAST_OK)
      CHECK_CONTAINS(s->buf, cases[i].want);
    else
      CHECK_CONTAINS(d.message, cases[i].want);
  }
  free(s);
}

/* The partial form's function: the output through the sink only, a
 * failing sink's status back, nothing but a diagnostic for bad input. */
TEST(emit_partial_contract) {
  static const int64_t dims[2] = {0, 2};
  const bcast_dim_size sizes[1] = {{1, BCAST_DIM_DYNAMIC}};
  bcast_emit_partial p;
  bcast_emit_partial_init(&p);
  p.operand.rank = 2;
  p.operand.dims[0] = BCAST_DIM_DYNAMIC;
  p.operand.dims[1] = 3;
  p.dims = dims;
  p.n_dims = 2;
  p.sizes = sizes;
  p.n_sizes = 1;
  mem_sink *s = new_sink();
  bcast_diag d;
  CHECK_INT(bcast_emit_broadcast_in_dim_partial(&p, mem_write, s, &d),
            BCAST_OK);
  CHECK(strstr(s->buf, "func.func @broadcast_in_dim(%operand: "
                       "tensor<?x3xf32>, %size1: index) -> "
                       "tensor<?x?x3xf32>") != NULL);
  CHECK(strstr(s->buf, "tensor.empty(%bc_d0, %size1)") != NULL);
  s->len = 0;
  s->calls = 0;
  s->fail_after = 0;
  CHECK_INT(bcast_emit_broadcast_in_dim_partial(&p, mem_write, s, &d),
            BCAST_IO);
  s->fail_after = -1;
  p.func_name = "no spaces";
  CHECK_INT(bcast_emit_broadcast_in_dim_partial(&p, mem_write, s, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK(strstr(d.message, "'no spaces' is not an MLIR identifier") != NULL);
  p.func_name = NULL;
  p.elem = "uint16";
  CHECK_INT(bcast_emit_broadcast_in_dim_partial(&p, mem_write, s, &d),
            BCAST_TYPE);
  p.elem = NULL;
  p.n_dims = 1; /* operand dim 1 unmapped */
  CHECK(bcast_emit_broadcast_in_dim_partial(&p, mem_write, s, &d) !=
        BCAST_OK);
  CHECK_INT(s->len, 0);
  CHECK_INT(bcast_emit_broadcast_in_dim_partial(NULL, mem_write, s, &d),
            BCAST_INVALID_ARGUMENT);
  free(s);
}

/* The element-type tables: MLIR 22's by default (an int64 intdiv lowers
 * to arith.divsi), TOSA 1.0.2's by name (refused), and a value outside
 * bcast_type_tables is an argument error. */
TEST(emit_type_tables) {
  static const char *div64 =
      "func.func @f(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> "
      "{\n"
      "  %0 = tosa.intdiv %a, %b : (tensor<4xi64>, tensor<4xi64>) -> "
      "tensor<4xi64>\n"
      "  return %0 : tensor<4xi64>\n}\n";
  mem_sink *s = lower_ok(t, div64, NULL);
  CHECK_CONTAINS(s->buf, "arith.divsi");
  free(s);
  bcast_emit_options o;
  bcast_emit_options_init(&o);
  o.tables = BCAST_TYPE_TABLES_TOSA_1_0;
  s = new_sink();
  bcast_diag d;
  CHECK_INT(lower(div64, &o, s, NULL, &d), BCAST_TYPE);
  CHECK_CONTAINS(d.message, "does not take int64 in the tosa profile with "
                            "the tosa-1.0 tables");
  o.tables = BCAST_TYPE_TABLES_COUNT;
  CHECK_INT(lower(div64, &o, s, NULL, &d), BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "unknown type tables");
  CHECK_INT(s->len, 0);
  free(s);
}
