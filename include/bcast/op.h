/* bcast/op.h - the element-wise ops of the TOSA-to-Linalg RFC.
 *
 * One list names every op once.  Its columns say how many operands take part
 * in broadcasting, how many further operands the op has (tosa.mul's shift,
 * tosa.negate's zero points), how MLIR 22's TOSA dialect verifies the op's
 * shapes, and the ODS type-constraint wording MLIR prints for its operands
 * and result.  Later modules (kernels, emitter) extend the same list.
 */
#ifndef BCAST_OP_H
#define BCAST_OP_H

#include "bcast/export.h"
#include "bcast/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How MLIR 22's TOSA dialect checks an op's shapes. */
typedef enum bcast_op_verifier {
  BCAST_VERIFY_BROADCAST,  /* ResultsBroadcastableShape + SameOperandsAndResultRank */
  BCAST_VERIFY_SAME_SHAPE, /* SameOperandsAndResultShape */
  BCAST_VERIFY_NEGATE,     /* input1 and output shapes compatible */
  BCAST_VERIFY_MUL         /* tosa.mul's own verifier */
} bcast_op_verifier;

/* ODS constraint wording: "tosa-conformant tensor of <...> values". */
#define BCAST_OP_TYPES_NUMBER "number"
#define BCAST_OP_TYPES_BOOL "1-bit signless integer"
#define BCAST_OP_TYPES_INT32_64 "32-bit signless integer or 64-bit signless integer"

/* X(ID, tosa name, broadcast operands, extra operands, verifier,
 *   first operand types, other operand types, result types) */
#define BCAST_OP_LIST(X)                                                      \
  X(ABS, "abs", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)                     \
  X(BITWISE_NOT, "bitwise_not", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)     \
  X(CAST, "cast", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)                   \
  X(CEIL, "ceil", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)                   \
  X(CLAMP, "clamp", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)                 \
  X(CLZ, "clz", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)                     \
  X(ERF, "erf", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)                     \
  X(EXP, "exp", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)                     \
  X(FLOOR, "floor", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)                 \
  X(LOG, "log", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)                     \
  X(LOGICAL_NOT, "logical_not", 1, 0, SAME_SHAPE, BOOL, BOOL, BOOL)           \
  X(NEGATE, "negate", 1, 2, NEGATE, NUMBER, NUMBER, NUMBER)                   \
  X(RECIPROCAL, "reciprocal", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)       \
  X(RSQRT, "rsqrt", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)                 \
  X(SIGMOID, "sigmoid", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)             \
  X(TANH, "tanh", 1, 0, SAME_SHAPE, NUMBER, NUMBER, NUMBER)                   \
  X(ADD, "add", 2, 0, BROADCAST, NUMBER, NUMBER, NUMBER)                      \
  X(ARITHMETIC_RIGHT_SHIFT, "arithmetic_right_shift", 2, 0, BROADCAST, NUMBER, NUMBER, NUMBER) \
  X(BITWISE_AND, "bitwise_and", 2, 0, BROADCAST, NUMBER, NUMBER, NUMBER)      \
  X(BITWISE_OR, "bitwise_or", 2, 0, BROADCAST, NUMBER, NUMBER, NUMBER)        \
  X(BITWISE_XOR, "bitwise_xor", 2, 0, BROADCAST, NUMBER, NUMBER, NUMBER)      \
  X(INTDIV, "intdiv", 2, 0, BROADCAST, INT32_64, INT32_64, INT32_64)          \
  X(EQUAL, "equal", 2, 0, BROADCAST, NUMBER, NUMBER, BOOL)                    \
  X(GREATER, "greater", 2, 0, BROADCAST, NUMBER, NUMBER, BOOL)                \
  X(GREATER_EQUAL, "greater_equal", 2, 0, BROADCAST, NUMBER, NUMBER, BOOL)    \
  X(LOGICAL_AND, "logical_and", 2, 0, BROADCAST, BOOL, BOOL, BOOL)            \
  X(LOGICAL_LEFT_SHIFT, "logical_left_shift", 2, 0, BROADCAST, NUMBER, NUMBER, NUMBER) \
  X(LOGICAL_OR, "logical_or", 2, 0, BROADCAST, BOOL, BOOL, BOOL)              \
  X(LOGICAL_RIGHT_SHIFT, "logical_right_shift", 2, 0, BROADCAST, NUMBER, NUMBER, NUMBER) \
  X(LOGICAL_XOR, "logical_xor", 2, 0, BROADCAST, BOOL, BOOL, BOOL)            \
  X(MAXIMUM, "maximum", 2, 0, BROADCAST, NUMBER, NUMBER, NUMBER)              \
  X(MINIMUM, "minimum", 2, 0, BROADCAST, NUMBER, NUMBER, NUMBER)              \
  X(MUL, "mul", 2, 1, MUL, NUMBER, NUMBER, NUMBER)                            \
  X(POW, "pow", 2, 0, BROADCAST, NUMBER, NUMBER, NUMBER)                      \
  X(SUB, "sub", 2, 0, BROADCAST, NUMBER, NUMBER, NUMBER)                      \
  X(SELECT, "select", 3, 0, BROADCAST, BOOL, NUMBER, NUMBER)

typedef enum bcast_op {
#define BCAST_OP_ENUM_(id, name, nb, nx, ver, t0, t1, tr) BCAST_OP_##id,
  BCAST_OP_LIST(BCAST_OP_ENUM_)
#undef BCAST_OP_ENUM_
  BCAST_OP_COUNT
} bcast_op;

typedef struct bcast_op_info {
  const char *name;             /* TOSA name without "tosa." */
  int broadcast_operands;       /* operands that take part in broadcasting */
  int extra_operands;           /* further operands (shift, zero points) */
  bcast_op_verifier verifier;
  const char *operand0_types;   /* ODS wording for operand #0 */
  const char *operand_types;    /* ... for the other broadcast operands */
  const char *result_types;     /* ... for result #0 */
} bcast_op_info;

BCAST_API const bcast_op_info *bcast_op_get(bcast_op op);

/* Looks an op up by name, with or without the "tosa." prefix.  Accepts the
 * names the op has had: "intdiv", "int_div" and "div" are all INTDIV. */
BCAST_API bcast_status bcast_op_lookup(const char *name, size_t len, bcast_op *out);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_OP_H */
