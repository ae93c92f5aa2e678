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

/* Names an op has had in MLIR's history. */
static const struct {
  const char *alias;
  bcast_op op;
} op_aliases[] = {
    {"int_div", BCAST_OP_INTDIV},
    {"div", BCAST_OP_INTDIV},
    /* NumPy's names for the ops that already have NumPy's semantics under
     * the numpy profile (bcast/op.h, BCAST_NUMPY_OP_LIST). */
    {"subtract", BCAST_OP_SUB},
    {"multiply", BCAST_OP_MUL},
    {"negative", BCAST_OP_NEGATE},
    {"absolute", BCAST_OP_ABS},
    {"power", BCAST_OP_POW},
    {"true_divide", BCAST_OP_DIVIDE},
    {"mod", BCAST_OP_REMAINDER},
    {"where", BCAST_OP_SELECT},
    {"invert", BCAST_OP_BITWISE_NOT},
    {"left_shift", BCAST_OP_LOGICAL_LEFT_SHIFT},
    {"right_shift", BCAST_OP_ARITHMETIC_RIGHT_SHIFT},
};

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
