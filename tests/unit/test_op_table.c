/* The op table is complete: every row of BCAST_OP_LIST fills every column
 * consistently, and what each column promises, the module that reads it
 * delivers.
 *   - name, arity, verifier and ODS wording: lookup finds the op by name;
 *   - type columns: the tosa list is within the numpy list, no strings;
 *   - attributes: within the attribute list, CAST reads "to" and only it;
 *   - emitter body: a body exists for every type the tosa profile admits;
 *   - unpredictable column: an op whose kernels can report an
 *     unpredictable result names why, and an op that names no reason has
 *     kernels that never report one (probed with extreme and random bit
 *     patterns). */
#include <stdlib.h>

#include "bcast/elementwise.h"
#include "emit/emit_internal.h"
#include "ew/ew_kernel.h"
#include "test.h"

TEST(op_table_rows_complete) {
  for (int k = 0; k < BCAST_OP_COUNT; k++) {
    const bcast_op op = (bcast_op)k;
    const bcast_op_info *info = bcast_op_get(op);
    CHECK(info != NULL);
    if (!info) continue;
    CHECK(info->name && info->name[0]);
    char name[64];
    snprintf(name, sizeof name, "tosa.%s", info->name);
    bcast_op found = BCAST_OP_COUNT;
    CHECK_INT(bcast_op_lookup(name, strlen(name), &found), BCAST_OK);
    CHECK_INT(found, op);
    CHECK(info->broadcast_operands >= 1 && info->broadcast_operands <= 3);
    CHECK_INT(bcast_op_arity(op), info->broadcast_operands);
    CHECK(info->extra_operands >= 0 && info->extra_operands <= 2);
    CHECK(info->verifier >= BCAST_VERIFY_BROADCAST &&
          info->verifier <= BCAST_VERIFY_MUL);
    CHECK(info->operand0_types && info->operand_types && info->result_types);
    /* NumPy's own ops (BCAST_NUMPY_OP_LIST) have no TOSA types. */
    CHECK(info->tosa_types != 0 || k >= BCAST_OP_SQRT);
    CHECK(info->numpy_types != 0);
    /* The 8-bit floats are tosa.cast's, not NumPy's. */
    CHECK((info->tosa_types & ~info->numpy_types & ~BCAST_TYPES_FP8) == 0);
    CHECK((info->numpy_types & BCAST_TYPE_BIT(STRING)) == 0);
    CHECK((info->attrs & ~((1u << BCAST_ATTR_COUNT) - 1)) == 0);
    CHECK_INT(!!(info->attrs & BCAST_ATTR_BIT(TO)),
              info->result == BCAST_RESULT_CAST);
    CHECK(info->unpredictable == NULL || info->unpredictable[0]);
    CHECK(info->summary && info->summary[0]);
    CHECK(info->example_args && info->example_args[0]);
    CHECK(info->example_result && info->example_result[0] == '[');
    CHECK(bcast_op_result_rule_text(info->result) != NULL);
    CHECK_INT(bcast_op_types_in(op, BCAST_PROFILE_TOSA,
                                BCAST_TYPE_TABLES_TOSA_1_0),
              info->tosa_types);
    CHECK_INT(bcast_op_types_in(op, BCAST_PROFILE_TRAIT,
                                BCAST_TYPE_TABLES_TOSA_1_0),
              info->tosa_types);
    /* MLIR 22's tables (the default) add to TOSA 1.0.2's, and only types
     * the numpy profile has kernels for (and the 8-bit floats). */
    const uint32_t mlir = bcast_op_types(op, BCAST_PROFILE_TOSA);
    CHECK_INT(bcast_op_types(op, BCAST_PROFILE_TRAIT), mlir);
    CHECK((info->tosa_types & ~mlir) == 0);
    CHECK((mlir & ~info->numpy_types & ~BCAST_TYPES_FP8) == 0);
    CHECK_INT(bcast_op_types(op, BCAST_PROFILE_NUMPY), info->numpy_types);
    CHECK_INT(bcast_op_types_in(op, BCAST_PROFILE_NUMPY,
                                BCAST_TYPE_TABLES_TOSA_1_0),
              info->numpy_types);
    CHECK_INT(bcast_op_types(op, BCAST_PROFILE_MLIR), 0);
    /* The emitter lowers the tosa profile: a body for each of its types. */
    for (int d = 0; d < BCAST_DTYPE_COUNT; d++)
      if (mlir & (1u << d))
        if (!bcast__emit_body_supports(op, (bcast_dtype)d))
          test_fail(t, __FILE__, __LINE__,
                    "tosa.%s has no emitter body for %s", info->name,
                    bcast_dtype_name((bcast_dtype)d));
  }
}

/* Bit patterns for one element of up to 8 bytes (little-endian): zero, all
 * ones, the signed maximum and minimum, one, and random bytes. */
#define N_FIXED 5
#define N_RANDOM 12
#define N_PATTERNS (N_FIXED + N_RANDOM)

static void pattern(int which, size_t size, uint64_t *rng, char *out) {
  memset(out, 0, 8);
  switch (which) {
  case 0:
    break;
  case 1:
    memset(out, 0xff, size);
    break;
  case 2:
    memset(out, 0xff, size);
    out[size - 1] = 0x7f;
    break;
  case 3:
    out[size - 1] = (char)0x80;
    break;
  case 4:
    out[0] = 1;
    break;
  default: {
    const uint64_t bits = test_rand(rng);
    memcpy(out, &bits, size);
  }
  }
}

/* Whether any probe makes the row's unpredictability test fire. */
static int row_reports(const ew_row *row, int arity, uint64_t *rng) {
  const size_t size = bcast_dtype_size(row->in);
  _Alignas(8) char value[3][8];
  char *in[3] = {value[0], value[1], value[2]};
  ew_params params[2];
  memset(params, 0, sizeof params);
  params[1].shift = 1;
  const int total = arity == 1   ? N_PATTERNS
                    : arity == 2 ? N_PATTERNS * N_PATTERNS
                                 : N_PATTERNS * N_PATTERNS * N_PATTERNS;
  for (int p = 0; p < 2; p++)
    for (int i = 0; i < total; i++) {
      int rest = i;
      for (int k = 0; k < arity; k++) {
        const int is_condition = row->op == BCAST_OP_SELECT && k == 0;
        pattern(rest % N_PATTERNS, is_condition ? 1 : size, rng, value[k]);
        if (is_condition) value[k][0] &= 1;
        rest /= N_PATTERNS;
      }
      if (row->unpred(in, &params[p])) return 1;
    }
  return 0;
}

TEST(op_table_unpredictable_column_matches_kernels) {
  uint64_t rng = test_seed();
  int reported[BCAST_OP_COUNT] = {0};
  for (size_t r = 0; r < bcast__ew_row_count(); r++) {
    const ew_row *row = bcast__ew_row_at(r);
    if (row_reports(row, bcast_op_arity(row->op), &rng)) reported[row->op] = 1;
  }
  for (int k = 0; k < BCAST_OP_COUNT; k++) {
    const bcast_op_info *info = bcast_op_get((bcast_op)k);
    if (reported[k] && !info->unpredictable)
      test_fail(t, __FILE__, __LINE__,
                "tosa.%s reports unpredictable results but its row names no "
                "reason",
                info->name);
    if (!reported[k] && info->unpredictable)
      test_fail(t, __FILE__, __LINE__,
                "tosa.%s names a reason (%s) but no probe made it fire",
                info->name, info->unpredictable);
  }
}

TEST(op_table_attribute_names) {
  static const char *const names[] = {
#define NAME_(id, name, ...) name,
      BCAST_ATTR_LIST(NAME_)
#undef NAME_
  };
  CHECK_INT(sizeof names / sizeof names[0], BCAST_ATTR_COUNT);
  for (int a = 0; a < BCAST_ATTR_COUNT; a++)
    for (int b = 0; b < a; b++) CHECK(strcmp(names[a], names[b]) != 0);
  /* Each attribute is read by some op. */
  uint32_t read = 0;
  for (int k = 0; k < BCAST_OP_COUNT; k++)
    read |= bcast_op_get((bcast_op)k)->attrs;
  CHECK_INT(read, (1u << BCAST_ATTR_COUNT) - 1);
}

/* NumPy's names of the ops (bcast_op_numpy_name) and the labels messages
 * use per profile (bcast_op_label). */
TEST(op_numpy_names_and_labels) {
  static const struct {
    bcast_op op;
    const char *numpy;
  } names[] = {{BCAST_OP_ADD, "add"},
               {BCAST_OP_SUB, "subtract"},
               {BCAST_OP_MUL, "multiply"},
               {BCAST_OP_SELECT, "where"},
               {BCAST_OP_BITWISE_NOT, "invert"},
               {BCAST_OP_ARITHMETIC_RIGHT_SHIFT, "right_shift"},
               {BCAST_OP_LOGICAL_LEFT_SHIFT, "left_shift"},
               {BCAST_OP_FLOOR_DIVIDE, "floor_divide"},
               {BCAST_OP_DIVIDE, "divide"},
               {BCAST_OP_REMAINDER, "remainder"},
               {BCAST_OP_POW, "power"}};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
    CHECK_STR(bcast_op_numpy_name(names[k].op), names[k].numpy);
  /* Every op's NumPy name looks up to the op itself. */
  for (int k = 0; k < BCAST_OP_COUNT; k++) {
    const char *name = bcast_op_numpy_name((bcast_op)k);
    bcast_op back;
    CHECK_INT(bcast_op_lookup(name, strlen(name), &back), BCAST_OK);
    CHECK_INT(back, k);
    CHECK_STR(bcast_op_label((bcast_op)k, BCAST_PROFILE_NUMPY), name);
  }
  CHECK_STR(bcast_op_label(BCAST_OP_SELECT, BCAST_PROFILE_TOSA),
            "tosa.select");
  CHECK_STR(bcast_op_label(BCAST_OP_FLOOR_DIVIDE, BCAST_PROFILE_TRAIT),
            "tosa.floor_divide");
  CHECK(bcast_op_numpy_name(BCAST_OP_COUNT) == NULL);
  CHECK(bcast_op_label(BCAST_OP_COUNT, BCAST_PROFILE_NUMPY) == NULL);
}

/* Each attribute's default column, read by the one parser for an op that
 * reads the attribute, gives what a zeroed bcast_op_attrs holds; NULL
 * stands for no value, which the zeroed struct holds too. */
TEST(op_table_attribute_defaults) {
  for (int a = 0; a < BCAST_ATTR_COUNT; a++) {
    CHECK(bcast_attr_summary((bcast_attr)a) != NULL);
    const char *text = bcast_attr_default((bcast_attr)a);
    if (!text) continue;
    int op = 0;
    while (op < BCAST_OP_COUNT && !bcast_op_reads_attr((bcast_op)op,
                                                        (bcast_attr)a))
      op++;
    bcast_op_attrs zeroed, set;
    memset(&zeroed, 0, sizeof zeroed);
    memset(&set, 0xA5, sizeof set);
    bcast_op_attrs_init(&set);
    const char *name = bcast_attr_name((bcast_attr)a);
    bcast_diag diag;
    CHECK_INT(bcast_op_attr_set(&set, (bcast_op)op, name, strlen(name), text,
                                strlen(text), &diag),
              BCAST_OK);
    CHECK(memcmp(&set, &zeroed, sizeof set) == 0);
  }
  CHECK(bcast_attr_default(BCAST_ATTR_COUNT) == NULL);
  CHECK(bcast_attr_summary(BCAST_ATTR_COUNT) == NULL);
}
