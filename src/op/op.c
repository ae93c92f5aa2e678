/* The op table and its lookup by name.  The op-level verifier that reads
 * the table is in src/type/mlir_verify.c. */
#include <string.h>

#include "bcast/op.h"

static const bcast_op_info op_table[] = {
#define EXAMPLE(args, result) args, result
#define ROW_(id, name, nb, nx, ver, elem, t0, t1, tr, tosa, numpy, rule,      \
             attrs, body, unpred, summary, example)                           \
  {name,                                                                      \
   nb,                                                                        \
   nx,                                                                        \
   BCAST_VERIFY_##ver,                                                        \
   BCAST_OP_TYPES_##t0,                                                       \
   BCAST_OP_TYPES_##t1,                                                       \
   BCAST_OP_TYPES_##tr,                                                       \
   tosa,                                                                      \
   numpy,                                                                     \
   BCAST_RESULT_##rule,                                                       \
   attrs,                                                                     \
   unpred,                                                                    \
   BCAST_##elem,                                                              \
   summary,                                                                   \
   example},
    BCAST_OP_LIST(ROW_)
#undef ROW_
#undef EXAMPLE
};

const bcast_op_info *bcast_op_get(bcast_op op) {
  if ((unsigned)op >= BCAST_OP_COUNT) return NULL;
  return &op_table[op];
}

/* Names an op has had in MLIR's history, and NumPy's names for ops bcast
 * has with NumPy's semantics; numpy marks the one NumPy's ufunc bears
 * (np.subtract.__name__ is "subtract"), which the numpy profile's
 * messages use (bcast_op_numpy_name). */
static const struct {
  const char *alias;
  bcast_op op;
  int numpy;
} op_aliases[] = {
    {"int_div", BCAST_OP_INTDIV, 0},
    {"div", BCAST_OP_INTDIV, 0},
    /* NumPy's names for the ops that already have NumPy's semantics under
     * the numpy profile (bcast/op.h, BCAST_NUMPY_OP_LIST). */
    {"subtract", BCAST_OP_SUB, 1},
    {"multiply", BCAST_OP_MUL, 1},
    {"negative", BCAST_OP_NEGATE, 1},
    {"absolute", BCAST_OP_ABS, 1},
    {"power", BCAST_OP_POW, 1},
    {"true_divide", BCAST_OP_DIVIDE, 0}, /* np.true_divide is np.divide */
    {"mod", BCAST_OP_REMAINDER, 0},      /* np.mod is np.remainder */
    {"where", BCAST_OP_SELECT, 1},
    {"invert", BCAST_OP_BITWISE_NOT, 1},
    {"left_shift", BCAST_OP_LOGICAL_LEFT_SHIFT, 1},
    {"right_shift", BCAST_OP_ARITHMETIC_RIGHT_SHIFT, 1},
};

/* "tosa.<name>" of every op, as the tosa and trait profiles' messages
 * name it. */
static const char *const tosa_labels[] = {
#define TOSA_LABEL_(id, name, ...) "tosa." name,
    BCAST_OP_LIST(TOSA_LABEL_)
#undef TOSA_LABEL_
};

const char *bcast_op_numpy_name(bcast_op op) {
  if ((unsigned)op >= BCAST_OP_COUNT) return NULL;
  for (size_t k = 0; k < sizeof op_aliases / sizeof op_aliases[0]; k++)
    if (op_aliases[k].numpy && op_aliases[k].op == op)
      return op_aliases[k].alias;
  return op_table[op].name;
}

const char *bcast_op_label(bcast_op op, bcast_profile profile) {
  if ((unsigned)op >= BCAST_OP_COUNT) return NULL;
  return profile == BCAST_PROFILE_NUMPY ? bcast_op_numpy_name(op)
                                        : tosa_labels[op];
}

/* Is name[0..len) the NUL-terminated want?  Compares one character at a
 * time and stops at the first difference, so a lookup over the table reads
 * about one character of most names rather than measuring each. */
static int name_is(const char *name, size_t len, const char *want) {
  size_t k = 0;
  while (k < len && want[k] != '\0' && want[k] == name[k]) k++;
  return k == len && want[k] == '\0';
}

const char *bcast_op_alias(size_t k, bcast_op *op) {
  if (k >= sizeof op_aliases / sizeof op_aliases[0]) return NULL;
  if (op) *op = op_aliases[k].op;
  return op_aliases[k].alias;
}

bcast_status bcast_op_lookup(const char *name, size_t len, bcast_op *out) {
  if (len > 5 && memcmp(name, "tosa.", 5) == 0) {
    name += 5;
    len -= 5;
  }
  for (int k = 0; k < BCAST_OP_COUNT; k++) {
    if (name_is(name, len, op_table[k].name)) {
      *out = (bcast_op)k;
      return BCAST_OK;
    }
  }
  for (size_t k = 0; k < sizeof op_aliases / sizeof op_aliases[0]; k++) {
    if (name_is(name, len, op_aliases[k].alias)) {
      *out = op_aliases[k].op;
      return BCAST_OK;
    }
  }
  return BCAST_INVALID_ARGUMENT;
}
