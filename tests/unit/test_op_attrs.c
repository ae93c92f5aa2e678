/* Op attributes: the attribute list and which op reads what, the one
 * parser in both spellings (command line and MLIR) and every error it
 * reports, the clamp-bound rule per element type, the MLIR literal
 * formatter, and the signature and XLA placement logic that moved out of
 * the CLI. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bcast/elementwise.h"
#include "bcast/mlir.h"
#include "bcast/tensor.h"
#include "test.h"

static bcast_op_attrs defaults(void) {
  bcast_op_attrs a;
  bcast_op_attrs_init(&a);
  return a;
}

/* Parses one "NAME=VALUE" / "name = value : type" entry for op. */
static bcast_status entry(bcast_op_attrs *a, bcast_op op, const char *text,
                          bcast_diag *diag) {
  return bcast_op_attr_parse(a, op, text, strlen(text), diag);
}

/* The entry parses into the attributes `a` in scope and sets a.field to
 * want (CHECK_PARSE), or makes cond true (CHECK_PARSE_THEN). */
#define CHECK_PARSE(op, text, field, want)                                    \
  do {                                                                        \
    CHECK_INT(entry(&a, op, text, NULL), BCAST_OK);                           \
    CHECK_INT(a.field, want);                                                 \
  } while (0)
#define CHECK_PARSE_THEN(op, text, cond)                                      \
  do {                                                                        \
    CHECK_INT(entry(&a, op, text, NULL), BCAST_OK);                           \
    CHECK(cond);                                                              \
  } while (0)

#define CHECK_PARSE_TO(text, want)                                            \
  CHECK_PARSE_THEN(BCAST_OP_CAST, text, a.cast_to &&*a.cast_to == (want))

/* Library messages speak of attributes, never of command-line flags. */
static int mentions_flag(const char *message) {
  return strstr(message, "--") != NULL;
}

/* A clamp bound entry and the scalar it must set: max_val when the entry
 * names it, else min_val. */
typedef struct bound_case {
  const char *text;
  bcast_scalar want;
} bound_case;

#define FLOAT_BOUND(x)                                                        \
  { .kind = BCAST_SCALAR_FLOAT, .v.f = (x) }
#define INT_BOUND(x)                                                          \
  { .kind = BCAST_SCALAR_INT, .v.i = (x) }
#define UINT_BOUND(x)                                                         \
  { .kind = BCAST_SCALAR_UINT, .v.u = (x) }

/* Parses each entry for tosa.clamp and checks the bound's kind and value
 * (a NaN matches a NaN). */
static void check_bounds(test_ctx *t, const bound_case *cases, size_t n) {
  for (size_t k = 0; k < n; k++) {
    bcast_op_attrs a = defaults();
    CHECK_INT(entry(&a, BCAST_OP_CLAMP, cases[k].text, NULL), BCAST_OK);
    const bcast_scalar *got =
        strstr(cases[k].text, "max_val") ? &a.max_val : &a.min_val;
    const bcast_scalar *want = &cases[k].want;
    int same = got->kind == want->kind;
    if (same && want->kind == BCAST_SCALAR_FLOAT)
      same = isnan(want->v.f) ? isnan(got->v.f) : got->v.f == want->v.f;
    else if (same && want->kind == BCAST_SCALAR_INT)
      same = got->v.i == want->v.i;
    else if (same)
      same = got->v.u == want->v.u;
    if (!same)
      test_fail(t, __FILE__, __LINE__, "'%s' set the wrong bound",
                cases[k].text);
  }
}

TEST(op_attrs_list_names_and_which_op_reads_what) {
  CHECK_STR(bcast_attr_name(BCAST_ATTR_SHIFT), "shift");
  CHECK_STR(bcast_attr_name(BCAST_ATTR_INPUT_ZP), "input_zp");
  CHECK_STR(bcast_attr_name(BCAST_ATTR_TO), "to");
  CHECK(bcast_attr_name(BCAST_ATTR_COUNT) == NULL);
  bcast_attr a;
  CHECK_INT(bcast_attr_lookup("input1_zp", 9, &a), BCAST_OK);
  CHECK_INT(a, BCAST_ATTR_INPUT_ZP);
  CHECK_INT(bcast_attr_lookup("max_val", 7, &a), BCAST_OK);
  CHECK_INT(a, BCAST_ATTR_MAX_VAL);
  CHECK(bcast_attr_lookup("max_va", 6, &a) != BCAST_OK);
  CHECK(bcast_attr_lookup("output1_zp", 10, &a) != BCAST_OK);
  /* The expected pairs, everything else read by no op. */
  int pairs = 0;
  for (int op = 0; op < BCAST_OP_COUNT; op++)
    for (int at = 0; at < BCAST_ATTR_COUNT; at++) {
      int want = 0;
      switch (op) {
      case BCAST_OP_MUL:
        want = at == BCAST_ATTR_SHIFT;
        break;
      case BCAST_OP_ARITHMETIC_RIGHT_SHIFT:
        want = at == BCAST_ATTR_ROUND;
        break;
      case BCAST_OP_CLAMP:
        want = at == BCAST_ATTR_MIN_VAL || at == BCAST_ATTR_MAX_VAL ||
               at == BCAST_ATTR_NAN_MODE;
        break;
      case BCAST_OP_MAXIMUM:
      case BCAST_OP_MINIMUM:
        want = at == BCAST_ATTR_NAN_MODE;
        break;
      case BCAST_OP_NEGATE:
        want = at == BCAST_ATTR_INPUT_ZP || at == BCAST_ATTR_OUTPUT_ZP;
        break;
      case BCAST_OP_CAST:
        want = at == BCAST_ATTR_TO;
        break;
      default:
        break;
      }
      const int got = bcast_op_reads_attr((bcast_op)op, (bcast_attr)at);
      pairs += got;
      if (got != want)
        test_fail(t, __FILE__, __LINE__, "tosa.%s reads %s: %d, expected %d",
                  bcast_op_get((bcast_op)op)->name,
                  bcast_attr_name((bcast_attr)at), got, want);
    }
  CHECK_INT(pairs, 10);
  CHECK_INT(bcast_op_reads_attr(BCAST_OP_COUNT, BCAST_ATTR_SHIFT), 0);
  CHECK_INT(bcast_op_reads_attr(BCAST_OP_MUL, BCAST_ATTR_COUNT), 0);
}

TEST(op_attrs_parse_command_line_spelling) {
  bcast_op_attrs a = defaults();
  CHECK_INT(a.min_val.kind, BCAST_SCALAR_NONE);
  CHECK_PARSE(BCAST_OP_MUL, "shift=3", shift, 3);
  static const struct {
    const char *text;
    int round;
  } rounds[] = {{"round=true", 1}, {"round=false", 0}, {"round=1", 1},
                {"round=0", 0},    {"round=True", 1},  {"round=False", 0}};
  for (size_t i = 0; i < sizeof rounds / sizeof rounds[0]; i++) {
    a.round = !rounds[i].round;
    CHECK_PARSE(BCAST_OP_ARITHMETIC_RIGHT_SHIFT, rounds[i].text, round,
                rounds[i].round);
  }
  static const bound_case bounds[] = {
      {"min_val=-1.5", FLOAT_BOUND(-1.5)},
      {"max_val=inf", FLOAT_BOUND(INFINITY)},
      {"min_val=-inf", FLOAT_BOUND(-INFINITY)},
      {"min_val=nan", FLOAT_BOUND(NAN)},
      {"min_val=-300", INT_BOUND(-300)},
      {"min_val=-9223372036854775808", INT_BOUND(INT64_MIN)},
      {"max_val=18446744073709551615", UINT_BOUND(UINT64_MAX)},
      /* Beyond 64 bits an integer is kept as a float; the type check
       * decides. */
      {"max_val=18446744073709551616", FLOAT_BOUND(18446744073709551616.0)},
      {"max_val=1e20", FLOAT_BOUND(1e20)},
  };
  check_bounds(t, bounds, sizeof bounds / sizeof bounds[0]);
  CHECK_PARSE(BCAST_OP_CLAMP, "nan_mode=ignore", nan_mode, BCAST_NAN_IGNORE);
  CHECK_PARSE(BCAST_OP_MAXIMUM, "nan_mode=PROPAGATE", nan_mode,
              BCAST_NAN_PROPAGATE);
  CHECK_PARSE(BCAST_OP_MINIMUM, "nan_mode=IGNORE", nan_mode, BCAST_NAN_IGNORE);
  CHECK_PARSE(BCAST_OP_NEGATE, "input_zp=3", input_zp, 3);
  CHECK_PARSE(BCAST_OP_NEGATE, "input1_zp=-4", input_zp, -4);
  CHECK_PARSE(BCAST_OP_NEGATE, "output_zp=-7", output_zp, -7);
  CHECK_PARSE_TO("to=int8", BCAST_INT8);
  CHECK_PARSE_TO("to=f32", BCAST_FLOAT32);
  CHECK_PARSE_TO("to=i1", BCAST_BOOL);
  CHECK_PARSE_TO("to=bfloat16", BCAST_BFLOAT16);
}

TEST(op_attrs_parse_mlir_spelling) {
  bcast_op_attrs a = defaults();
  static const bound_case bounds[] = {
      {"min_val = -1.5 : f32", FLOAT_BOUND(-1.5)},
      {"max_val = 3 : i8", INT_BOUND(3)},
      {"min_val = 0x7F800000 : f32", FLOAT_BOUND(INFINITY)},
      {"min_val = 0xFC00 : f16", FLOAT_BOUND(-INFINITY)},
      {"min_val = 0xFF80 : bf16", FLOAT_BOUND(-INFINITY)},
      {"max_val = 0x7FF8000000000000 : f64", FLOAT_BOUND(NAN)},
      /* A hexadecimal integer stays an integer. */
      {"max_val = 0x7F : i8", INT_BOUND(127)},
  };
  check_bounds(t, bounds, sizeof bounds / sizeof bounds[0]);
  const char *modes[] = {"nan_mode = \"IGNORE\"",
                         "nan_mode = #tosa.nan_mode<IGNORE>",
                         "nan_mode=ignore"};
  for (size_t i = 0; i < 3; i++) {
    a.nan_mode = BCAST_NAN_PROPAGATE;
    CHECK_PARSE(BCAST_OP_CLAMP, modes[i], nan_mode, BCAST_NAN_IGNORE);
  }
  CHECK_PARSE(BCAST_OP_MAXIMUM, "nan_mode = #tosa.nan_mode<PROPAGATE>",
              nan_mode, BCAST_NAN_PROPAGATE);
  CHECK_PARSE(BCAST_OP_ARITHMETIC_RIGHT_SHIFT, "round = true", round, 1);
  CHECK_PARSE(BCAST_OP_MUL, "shift = 3 : i8", shift, 3);
  CHECK_PARSE(BCAST_OP_NEGATE, "input1_zp = -128 : i8", input_zp, -128);
  CHECK_PARSE(BCAST_OP_NEGATE, "output_zp = 127 : i8", output_zp, 127);
  CHECK_PARSE_TO("to = i16", BCAST_INT16);
  CHECK_PARSE_TO("to = \"float16\"", BCAST_FLOAT16);
  /* bcast_op_attr_set with separate spans, not NUL-terminated. */
  const char name[] = "min_valXX", value[] = "2.5 : f32YY";
  CHECK_INT(bcast_op_attr_set(&a, BCAST_OP_CLAMP, name, 7, value, 9, NULL),
            BCAST_OK);
  CHECK(a.min_val.v.f == 2.5);
}

TEST(op_attrs_parse_errors_leave_attrs_unchanged) {
  /* Each row: the entries that fail for op with status and message. */
  static const struct {
    bcast_op op;
    bcast_status status;
    const char *message;
    const char *texts[5]; /* up to the first NULL */
  } bad[] = {
      {BCAST_OP_MUL,
       BCAST_INVALID_ARGUMENT,
       "unknown attribute 'frobnicate' (shift, round, min_val, max_val, "
       "nan_mode, input_zp, output_zp, to)",
       {"frobnicate=1"}},
      {BCAST_OP_ADD,
       BCAST_INVALID_ARGUMENT,
       "attribute 'shift' does not apply to tosa.add",
       {"shift=1"}},
      {BCAST_OP_MAXIMUM,
       BCAST_INVALID_ARGUMENT,
       "does not apply to tosa.maximum",
       {"min_val=1"}},
      {BCAST_OP_CLAMP,
       BCAST_INVALID_ARGUMENT,
       "does not apply to tosa.clamp",
       {"to=i8"}},
      {BCAST_OP_MUL, BCAST_PARSE, "expected NAME=VALUE", {"shift", "=3"}},
      {BCAST_OP_MUL,
       BCAST_PARSE,
       "tosa.mul: shift = 'abc': expected an integer",
       {"shift=abc"}},
      {BCAST_OP_MUL,
       BCAST_PARSE,
       "expected an integer",
       {"shift=", "shift=1.5", "shift=4294967296"}},
      {BCAST_OP_MUL, BCAST_PARSE, "a type after ':'", {"shift = 3 :"}},
      {BCAST_OP_ARITHMETIC_RIGHT_SHIFT,
       BCAST_PARSE,
       "expected true or false",
       {"round=maybe"}},
      {BCAST_OP_CLAMP,
       BCAST_PARSE,
       "tosa.clamp: min_val = 'abc': expected a number",
       {"min_val=abc"}},
      {BCAST_OP_CLAMP,
       BCAST_PARSE,
       "expected a number",
       {"min_val=", "max_val=1.5.2", "max_val=0x1p3",
        "max_val=0x123456789 : f32"}},
      {BCAST_OP_CLAMP,
       BCAST_PARSE,
       "expected PROPAGATE or IGNORE",
       {"nan_mode=sometimes", "nan_mode = #tosa.nan_mode<SOMETIMES>"}},
      {BCAST_OP_NEGATE,
       BCAST_PARSE,
       "expected an integer",
       {"input_zp=1.5", "output_zp=9223372036854775808"}},
      {BCAST_OP_CAST,
       BCAST_PARSE,
       "expected an element type",
       {"to=string", "to=int7"}},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    for (size_t k = 0; k < 5 && bad[i].texts[k]; k++) {
      const char *text = bad[i].texts[k];
      bcast_op_attrs a = defaults(), before = defaults();
      bcast_diag diag;
      const bcast_status st = entry(&a, bad[i].op, text, &diag);
      if (st != bad[i].status)
        test_fail(t, __FILE__, __LINE__, "'%s': status %d, expected %d", text,
                  (int)st, (int)bad[i].status);
      CHECK_CONTAINS(diag.message, bad[i].message);
      CHECK(!mentions_flag(diag.message));
      CHECK(memcmp(&a, &before, sizeof a) == 0);
    }
}

/* The attribute dictionaries of the clamp/mul/negate/arithmetic_right_shift
 * /cast examples in tests/data/lower and the lowering tests. */
TEST(mlir_attrs_parse_dictionaries) {
  bcast_op_attrs a = defaults();
  bcast_diag diag;
  size_t used = 0;
  const char *clamp =
      "{min_val = 0.0 : f32, max_val = 6.0 : f32, nan_mode = "
      "#tosa.nan_mode<IGNORE>} : (tensor<2x3xf32>) -> tensor<2x3xf32>";
  CHECK_INT(bcast_op_attrs_parse_mlir(&a, BCAST_OP_CLAMP, clamp, strlen(clamp),
                                      &used, &diag),
            BCAST_OK);
  CHECK_INT(used, strchr(clamp, '}') + 1 - clamp);
  CHECK(a.min_val.kind == BCAST_SCALAR_FLOAT && a.min_val.v.f == 0.0);
  CHECK(a.max_val.kind == BCAST_SCALAR_FLOAT && a.max_val.v.f == 6.0);
  CHECK_INT(a.nan_mode, BCAST_NAN_IGNORE);

  a = defaults();
  const char *clamp_i8 = "{min_val = -5 : i8, max_val = 9 : i8}";
  CHECK_INT(bcast_op_attrs_parse_mlir(&a, BCAST_OP_CLAMP, clamp_i8,
                                      strlen(clamp_i8), &used, NULL),
            BCAST_OK);
  CHECK_INT(used, strlen(clamp_i8));
  CHECK(a.min_val.kind == BCAST_SCALAR_INT && a.min_val.v.i == -5);
  CHECK(a.max_val.kind == BCAST_SCALAR_INT && a.max_val.v.i == 9);
  CHECK_INT(a.nan_mode, BCAST_NAN_PROPAGATE);

  a = defaults();
  const char *ars = "{round = true}";
  CHECK_INT(bcast_op_attrs_parse_mlir(&a, BCAST_OP_ARITHMETIC_RIGHT_SHIFT, ars,
                                      strlen(ars), NULL, NULL),
            BCAST_OK);
  CHECK_INT(a.round, 1);

  /* Entries the op does not read, unknown or not, are skipped whatever
   * their value looks like: a dialect op carries attributes of its own. */
  a = defaults();
  const char *mixed =
      "{ \"quoted key\" = \"a, b}\", unit_attr, map = affine_map<(d0, d1) -> "
      "(d1, d0)>, values = dense<[1, 2]> : tensor<2xi8>, round = junk, "
      "shift = 3 : i8 }";
  CHECK_INT(bcast_op_attrs_parse_mlir(&a, BCAST_OP_MUL, mixed, strlen(mixed),
                                      &used, &diag),
            BCAST_OK);
  CHECK_INT(used, strlen(mixed));
  CHECK_INT(a.shift, 3);
  CHECK_INT(a.round, 0);

  /* negate's zero points as TOSA 1.0 spells them; cast reads no entry. */
  a = defaults();
  const char *neg = "{input1_zp = 3 : i8, output_zp = -7 : i8}";
  CHECK_INT(bcast_op_attrs_parse_mlir(&a, BCAST_OP_NEGATE, neg, strlen(neg),
                                      NULL, NULL),
            BCAST_OK);
  CHECK_INT(a.input_zp, 3);
  CHECK_INT(a.output_zp, -7);
  a = defaults();
  CHECK_INT(bcast_op_attrs_parse_mlir(&a, BCAST_OP_CAST, "{}", 2, &used, NULL),
            BCAST_OK);
  CHECK_INT(used, 2);
  CHECK(a.cast_to == NULL);

  /* Malformed dictionaries, and a malformed value of an entry the op
   * reads; attrs stay unchanged. */
  static const char *bad[] = {
      "min_val = 1}",
      "{min_val = 1",
      "{min_val = 1 max_val = 2}",
      "{min_val = 1,}",
      "{min_val = dense<[1, 2}",
      "{, min_val = 1}",
      "{min_val = abc : f32}",
      "{nan_mode = #tosa.nan_mode<MAYBE>}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    bcast_op_attrs b = defaults(), before = defaults();
    const bcast_status st = bcast_op_attrs_parse_mlir(
        &b, BCAST_OP_CLAMP, bad[i], strlen(bad[i]), &used, &diag);
    if (st != BCAST_PARSE)
      test_fail(t, __FILE__, __LINE__, "'%s': status %d, expected PARSE",
                bad[i], (int)st);
    CHECK(memcmp(&b, &before, sizeof b) == 0);
    CHECK(!mentions_flag(diag.message));
  }
}

/* The clamp-bound rule, one row per case: bounds, data type, profile, and
 * the expected status and message. */
TEST(op_attrs_clamp_bounds_must_be_values_of_the_data_type) {
  static const struct {
    bcast_scalar lo, hi;
    bcast_dtype type;
    bcast_profile profile;
    bcast_status status;
    const char *message;
  } rows[] = {
      {{BCAST_SCALAR_INT, {.i = -128}},
       {BCAST_SCALAR_INT, {.i = 127}},
       BCAST_INT8,
       BCAST_PROFILE_TOSA,
       BCAST_OK,
       ""},
      {{BCAST_SCALAR_INT, {.i = 300}},
       {BCAST_SCALAR_NONE, {.i = 0}},
       BCAST_INT8,
       BCAST_PROFILE_TOSA,
       BCAST_INVALID_ARGUMENT,
       "tosa.clamp: min_val 300 is outside int8's range -128..127"},
      {{BCAST_SCALAR_NONE, {.i = 0}},
       {BCAST_SCALAR_INT, {.i = -129}},
       BCAST_INT8,
       BCAST_PROFILE_TOSA,
       BCAST_INVALID_ARGUMENT,
       "tosa.clamp: max_val -129 is outside int8's range -128..127"},
      {{BCAST_SCALAR_INT, {.i = 32768}},
       {BCAST_SCALAR_NONE, {.i = 0}},
       BCAST_INT16,
       BCAST_PROFILE_TOSA,
       BCAST_INVALID_ARGUMENT,
       "min_val 32768 is outside int16's range -32768..32767"},
      {{BCAST_SCALAR_FLOAT, {.f = 3.0}},
       {BCAST_SCALAR_FLOAT, {.f = 4.0}},
       BCAST_INT8,
       BCAST_PROFILE_TOSA,
       BCAST_OK,
       ""},
      {{BCAST_SCALAR_FLOAT, {.f = 1.5}},
       {BCAST_SCALAR_NONE, {.i = 0}},
       BCAST_INT8,
       BCAST_PROFILE_TOSA,
       BCAST_INVALID_ARGUMENT,
       "min_val 1.5 is not an integer; int8 data needs an integer bound "
       "within int8's range -128..127"},
      {{BCAST_SCALAR_FLOAT, {.f = -INFINITY}},
       {BCAST_SCALAR_NONE, {.i = 0}},
       BCAST_INT16,
       BCAST_PROFILE_TOSA,
       BCAST_INVALID_ARGUMENT,
       "min_val -inf is not an integer"},
      {{BCAST_SCALAR_FLOAT, {.f = 200.0}},
       {BCAST_SCALAR_NONE, {.i = 0}},
       BCAST_INT8,
       BCAST_PROFILE_TOSA,
       BCAST_INVALID_ARGUMENT,
       "min_val 200 is outside int8's range"},
      {{BCAST_SCALAR_INT, {.i = -1}},
       {BCAST_SCALAR_NONE, {.i = 0}},
       BCAST_UINT8,
       BCAST_PROFILE_NUMPY,
       BCAST_INVALID_ARGUMENT,
       "min_val -1 is outside uint8's range 0..255"},
      {{BCAST_SCALAR_INT, {.i = 0}},
       {BCAST_SCALAR_UINT, {.u = UINT64_MAX}},
       BCAST_UINT64,
       BCAST_PROFILE_NUMPY,
       BCAST_OK,
       ""},
      {{BCAST_SCALAR_UINT, {.u = UINT64_MAX}},
       {BCAST_SCALAR_NONE, {.i = 0}},
       BCAST_INT64,
       BCAST_PROFILE_NUMPY,
       BCAST_INVALID_ARGUMENT,
       "min_val 18446744073709551615 is outside int64's range "
       "-9223372036854775808..9223372036854775807"},
      {{BCAST_SCALAR_FLOAT, {.f = 18446744073709551616.0}},
       {BCAST_SCALAR_NONE, {.i = 0}},
       BCAST_UINT64,
       BCAST_PROFILE_NUMPY,
       BCAST_INVALID_ARGUMENT,
       "outside uint64's range 0..18446744073709551615"},
      {{BCAST_SCALAR_INT, {.i = INT64_MIN}},
       {BCAST_SCALAR_INT, {.i = INT64_MAX}},
       BCAST_INT64,
       BCAST_PROFILE_NUMPY,
       BCAST_OK,
       ""},
      {{BCAST_SCALAR_INT, {.i = 5}},
       {BCAST_SCALAR_INT, {.i = -5}},
       BCAST_INT8,
       BCAST_PROFILE_TOSA,
       BCAST_INVALID_ARGUMENT,
       "tosa.clamp: min_val 5 is greater than max_val -5"},
      {{BCAST_SCALAR_UINT, {.u = UINT64_MAX}},
       {BCAST_SCALAR_INT, {.i = 7}},
       BCAST_UINT64,
       BCAST_PROFILE_NUMPY,
       BCAST_INVALID_ARGUMENT,
       "min_val 18446744073709551615 is greater than max_val 7"},
      {{BCAST_SCALAR_FLOAT, {.f = 2.0}},
       {BCAST_SCALAR_FLOAT, {.f = 1.0}},
       BCAST_FLOAT32,
       BCAST_PROFILE_TOSA,
       BCAST_INVALID_ARGUMENT,
       "min_val 2 is greater than max_val 1"},
      {{BCAST_SCALAR_FLOAT, {.f = NAN}},
       {BCAST_SCALAR_NONE, {.i = 0}},
       BCAST_FLOAT32,
       BCAST_PROFILE_TOSA,
       BCAST_INVALID_ARGUMENT,
       "tosa.clamp: min_val is NaN; a float32 bound must be a number"},
      {{BCAST_SCALAR_NONE, {.i = 0}},
       {BCAST_SCALAR_FLOAT, {.f = NAN}},
       BCAST_FLOAT16,
       BCAST_PROFILE_TOSA,
       BCAST_INVALID_ARGUMENT,
       "max_val is NaN"},
      /* Any other number suits float data, rounded to the type. */
      {{BCAST_SCALAR_FLOAT, {.f = -1e300}},
       {BCAST_SCALAR_INT, {.i = 70000}},
       BCAST_FLOAT16,
       BCAST_PROFILE_TOSA,
       BCAST_OK,
       ""},
      {{BCAST_SCALAR_UINT, {.u = UINT64_MAX}},
       {BCAST_SCALAR_FLOAT, {.f = INFINITY}},
       BCAST_FLOAT64,
       BCAST_PROFILE_NUMPY,
       BCAST_OK,
       ""},
      {{BCAST_SCALAR_INT, {.i = 0}},
       {BCAST_SCALAR_INT, {.i = 2}},
       BCAST_INT8,
       BCAST_PROFILE_TOSA,
       BCAST_OK,
       ""},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    bcast_op_attrs a = defaults();
    a.min_val = rows[i].lo;
    a.max_val = rows[i].hi;
    bcast_dtype out;
    bcast_diag diag;
    memset(&diag, 0, sizeof diag);
    const bcast_status st = bcast_ew_result_dtype(
        BCAST_OP_CLAMP, rows[i].profile, 1, &rows[i].type, &a, &out, &diag);
    if (st != rows[i].status)
      test_fail(t, __FILE__, __LINE__, "row %zu: status %d, expected %d (%s)",
                i, (int)st, (int)rows[i].status, diag.message);
    if (rows[i].status != BCAST_OK) {
      CHECK_CONTAINS(diag.message, rows[i].message);
      CHECK(!mentions_flag(diag.message));
    }
  }
}

TEST(ew_attrs_clamp_bounds_run_as_the_data_type) {
  /* An integral float bound clamps integer data; float16 bounds round. */
  const int8_t x[4] = {-128, -3, 5, 127};
  bcast_op_attrs a = defaults();
  CHECK_INT(entry(&a, BCAST_OP_CLAMP, "min_val = -2.0 : f32", NULL), BCAST_OK);
  CHECK_INT(entry(&a, BCAST_OP_CLAMP, "max_val=4", NULL), BCAST_OK);
  int64_t n = 4;
  bcast_tensor in, out;
  bcast_tensor_wrap(&in, BCAST_INT8, 1, &n, NULL, (void *)(uintptr_t)x, NULL);
  CHECK_INT(bcast_ew_compute(BCAST_OP_CLAMP, &a, 1, &in, &out, NULL, NULL),
            BCAST_OK);
  const int8_t *r = out.data;
  CHECK(r[0] == -2 && r[1] == -2 && r[2] == 4 && r[3] == 4);
  bcast_tensor_release(&out);
  /* Only an upper bound: the lower side is the type's minimum. */
  a = defaults();
  a.max_val = bcast_scalar_int(0);
  CHECK_INT(bcast_ew_compute(BCAST_OP_CLAMP, &a, 1, &in, &out, NULL, NULL),
            BCAST_OK);
  r = out.data;
  CHECK(r[0] == -128 && r[1] == -3 && r[2] == 0 && r[3] == 0);
  bcast_tensor_release(&out);
  /* Out of range: refused by the op, no output. */
  a.max_val = bcast_scalar_int(128);
  bcast_diag diag;
  CHECK_INT(bcast_ew_compute(BCAST_OP_CLAMP, &a, 1, &in, &out, NULL, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message,
                 "max_val 128 is outside int8's range -128..127");
}

TEST(mlir_attrs_format_scalar_as_literal) {
  static const struct {
    bcast_scalar value;
    bcast_dtype type;
    const char *text;
  } rows[] = {
      {{BCAST_SCALAR_FLOAT, {.f = -1.5}}, BCAST_FLOAT32, "-1.5"},
      {{BCAST_SCALAR_INT, {.i = 6}}, BCAST_FLOAT32, "6.0"},
      {{BCAST_SCALAR_FLOAT, {.f = 0.0}}, BCAST_FLOAT16, "0.0"},
      /* The exact value of the rounded bound, shortest in double. */
      {{BCAST_SCALAR_FLOAT, {.f = 0.1}}, BCAST_FLOAT32, "0.10000000149011612"},
      {{BCAST_SCALAR_FLOAT, {.f = 0.1}}, BCAST_FLOAT16, "0.0999755859375"},
      {{BCAST_SCALAR_FLOAT, {.f = 0.1}}, BCAST_FLOAT64, "0.1"},
      {{BCAST_SCALAR_FLOAT, {.f = 1e20}}, BCAST_FLOAT64, "1.0e+20"},
      {{BCAST_SCALAR_FLOAT, {.f = 70000.0}}, BCAST_FLOAT16, "0x7C00"},
      {{BCAST_SCALAR_FLOAT, {.f = -INFINITY}}, BCAST_FLOAT32, "0xFF800000"},
      {{BCAST_SCALAR_FLOAT, {.f = INFINITY}}, BCAST_BFLOAT16, "0x7F80"},
      {{BCAST_SCALAR_FLOAT, {.f = -INFINITY}},
       BCAST_FLOAT64,
       "0xFFF0000000000000"},
      {{BCAST_SCALAR_INT, {.i = -5}}, BCAST_INT8, "-5"},
      {{BCAST_SCALAR_FLOAT, {.f = 3.0}}, BCAST_INT16, "3"},
      {{BCAST_SCALAR_UINT, {.u = UINT64_MAX}},
       BCAST_UINT64,
       "18446744073709551615"},
      {{BCAST_SCALAR_INT, {.i = 1}}, BCAST_BOOL, "1"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char buf[64];
    CHECK_INT(bcast_scalar_format_mlir(&rows[i].value, rows[i].type, buf,
                                       sizeof buf, NULL),
              BCAST_OK);
    CHECK_STR(buf, rows[i].text);
    /* What the formatter writes, the parser reads back (rounded). */
    bcast_op_attrs a = defaults();
    const char *mlir = bcast_dtype_mlir_name(rows[i].type);
    char entry_text[128];
    snprintf(entry_text, sizeof entry_text, "min_val = %s : %s", buf, mlir);
    CHECK_INT(entry(&a, BCAST_OP_CLAMP, entry_text, NULL), BCAST_OK);
    char again[64];
    CHECK_INT(bcast_scalar_format_mlir(&a.min_val, rows[i].type, again,
                                       sizeof again, NULL),
              BCAST_OK);
    CHECK_STR(again, buf);
  }
  bcast_diag diag;
  char buf[8];
  bcast_scalar none = {BCAST_SCALAR_NONE, {.i = 0}};
  CHECK_INT(
      bcast_scalar_format_mlir(&none, BCAST_INT8, buf, sizeof buf, &diag),
      BCAST_INVALID_ARGUMENT);
  bcast_scalar big = bcast_scalar_int(300);
  CHECK_INT(bcast_scalar_format_mlir(&big, BCAST_INT8, buf, sizeof buf, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "300 is outside int8's range");
  bcast_scalar nan_value = bcast_scalar_float(NAN);
  CHECK_INT(bcast_scalar_format_mlir(&nan_value, BCAST_FLOAT32, buf,
                                     sizeof buf, &diag),
            BCAST_INVALID_ARGUMENT);
  bcast_scalar long_value = bcast_scalar_float(0.1);
  CHECK_INT(
      bcast_scalar_format_mlir(&long_value, BCAST_FLOAT64, buf, 3, &diag),
      BCAST_OVERFLOW);
}

/* ------------------------------------------------------------------------ */
/* Logic moved out of bcast run. */

TEST(ew_attrs_declared_element_types_bind_to_the_inputs) {
  const int32_t a[2] = {1, 2}, b[2] = {3, 4};
  int64_t n = 2;
  bcast_tensor in[2], out;
  bcast_tensor_wrap(&in[0], BCAST_INT32, 1, &n, NULL, (void *)(uintptr_t)a,
                    NULL);
  bcast_tensor_wrap(&in[1], BCAST_INT32, 1, &n, NULL, (void *)(uintptr_t)b,
                    NULL);
  bcast_ew_options o;
  bcast_ew_options_init(&o);
  bcast_dtype declared[2] = {BCAST_INT32, BCAST_FLOAT32};
  bcast_dtype result = BCAST_INT32;
  o.declared_dtypes = declared;
  o.declared_result_dtype = &result;
  bcast_diag diag;
  CHECK_INT(bcast_ew_compute(BCAST_OP_ADD, NULL, 2, in, &out, &o, &diag),
            BCAST_TYPE);
  CHECK_CONTAINS(diag.message,
                 "tosa.add: operand #1 is int32, but the signature declares "
                 "float32");
  CHECK_INT(diag.operand[0], 1);
  declared[1] = BCAST_INT32;
  CHECK_INT(bcast_ew_compute(BCAST_OP_ADD, NULL, 2, in, &out, &o, &diag),
            BCAST_OK);
  CHECK_INT(((int32_t *)out.data)[1], 6);
  bcast_tensor_release(&out);
  /* The declared result type must be the op's. */
  result = BCAST_BOOL;
  CHECK_INT(bcast_ew_compute(BCAST_OP_ADD, NULL, 2, in, &out, &o, &diag),
            BCAST_TYPE);
  CHECK_CONTAINS(diag.message,
                 "tosa.add gives int32 here, but the signature declares a "
                 "bool result");
  /* CAST without a target takes the declared result type; a target that
   * disagrees with it is refused. */
  result = BCAST_FLOAT32;
  CHECK_INT(bcast_ew_compute(BCAST_OP_CAST, NULL, 1, in, &out, &o, &diag),
            BCAST_OK);
  CHECK_INT(out.dtype, BCAST_FLOAT32);
  CHECK(((float *)out.data)[1] == 2.0f);
  bcast_tensor_release(&out);
  bcast_op_attrs at = defaults();
  at.cast_to = &(const bcast_dtype){BCAST_INT8};
  CHECK_INT(bcast_ew_compute(BCAST_OP_CAST, &at, 1, in, &out, &o, &diag),
            BCAST_TYPE);
  CHECK_CONTAINS(diag.message, "gives int8 here");
  /* Without declared types nothing is checked. */
  o.declared_dtypes = NULL;
  o.declared_result_dtype = NULL;
  CHECK_INT(bcast_ew_compute(BCAST_OP_CAST, NULL, 1, in, &out, &o, &diag),
            BCAST_INVALID_ARGUMENT);
}

TEST(ew_attrs_xla_binary_views_place_the_lower_rank_operand) {
  int32_t m[6] = {1, 2, 3, 4, 5, 6}, v[3] = {7, 8, 9}, s = 10;
  int64_t ms[2] = {2, 3}, vs[1] = {3};
  bcast_tensor mt, vt, st, views[2];
  bcast_tensor_wrap(&mt, BCAST_INT32, 2, ms, NULL, m, NULL);
  bcast_tensor_wrap(&vt, BCAST_INT32, 1, vs, NULL, v, NULL);
  bcast_tensor_wrap(&st, BCAST_INT32, 0, NULL, NULL, &s, NULL);
  /* (2x3) + (3) under (1): the vector becomes 1x3 (stride 0 on dim 0). */
  const int64_t d1[1] = {1};
  CHECK_INT(bcast_xla_binary_views(views, &mt, &vt, d1, 1, NULL), BCAST_OK);
  CHECK_INT(views[0].rank, 2);
  CHECK(views[0].shape[0] == 2 && views[0].shape[1] == 3);
  CHECK(views[0].data == (void *)m);
  CHECK_INT(views[1].rank, 2);
  CHECK(views[1].shape[0] == 1 && views[1].shape[1] == 3);
  CHECK_INT(views[1].stride_bytes[1], 4);
  CHECK(views[1].data == (void *)v);
  bcast_tensor_release(&views[0]);
  bcast_tensor_release(&views[1]);
  /* (3) + (2x3) under (0): 3 against 2 at dim 0 is incompatible. */
  const int64_t d0[1] = {0};
  bcast_diag diag;
  CHECK_INT(bcast_xla_binary_views(views, &vt, &mt, d0, 1, &diag),
            BCAST_INCOMPATIBLE);
  CHECK(!mentions_flag(diag.message));
  /* A scalar with an empty map becomes 1x1, on either side. */
  CHECK_INT(bcast_xla_binary_views(views, &st, &mt, NULL, 0, NULL), BCAST_OK);
  CHECK(views[0].rank == 2 && views[0].shape[0] == 1 &&
        views[0].shape[1] == 1);
  CHECK(views[1].rank == 2 && views[1].shape[0] == 2);
  bcast_tensor_release(&views[0]);
  bcast_tensor_release(&views[1]);
  /* Decreasing dims break XLA's rule. */
  int64_t hs[3] = {3, 1, 2};
  bcast_tensor ht;
  int32_t h[6] = {0};
  bcast_tensor_wrap(&ht, BCAST_INT32, 3, hs, NULL, h, NULL);
  const int64_t dd[2] = {2, 0};
  int64_t ls[2] = {2, 3};
  bcast_tensor lt;
  bcast_tensor_wrap(&lt, BCAST_INT32, 2, ls, NULL, m, NULL);
  CHECK(bcast_xla_binary_views(views, &ht, &lt, dd, 2, &diag) != BCAST_OK);
  CHECK_CONTAINS(diag.message, "strictly increasing");
  /* Equal ranks: the tensors themselves. */
  CHECK_INT(bcast_xla_binary_views(views, &mt, &mt, NULL, 0, NULL), BCAST_OK);
  CHECK(views[0].rank == 2 && views[1].rank == 2);
  bcast_tensor_release(&views[0]);
  bcast_tensor_release(&views[1]);
}
