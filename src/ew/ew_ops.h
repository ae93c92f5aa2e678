/* Per-op data of the element-wise module: which element types each op takes
 * in each profile and how its result type follows from them.
 *
 * One row per bcast_op, keyed by the op table's ID (bcast/op.h).  Type sets
 * are bit masks over bcast_dtype.  "tosa" lists TOSA 1.0.2's types (PRO-INT,
 * PRO-FP, EXT-INT16 and EXT-BF16; used by the tosa and trait profiles);
 * "numpy" lists the types the numpy profile accepts.  For SELECT the sets
 * are those of the two values; its condition is always bool. */
#ifndef BCAST_EW_OPS_H
#define BCAST_EW_OPS_H

#include "bcast/elementwise.h"

#define EW_M(d) (1u << BCAST_##d)
/* The type classes, computed from the dtype table's kind and in-TOSA
 * columns: EW_KIND_MASK_(kind, tosa_only) is the mask of the types of one
 * kind, only those TOSA has if tosa_only.  They are enum constants rather
 * than macros so that they can be used inside another expansion of the
 * dtype table (a macro expanding BCAST_DTYPE_TABLE could not). */
#define EW_KIND_MASK_ROW_(K, tosa_only, ID, name, ctype, size, kind, npy,     \
                          mlir, S, VT, VS, coding, digits, tosa)              \
  | ((kind) == (K) && ((tosa) || !(tosa_only)) ? EW_M(ID) : 0u)
#define EW_KIND_MASK_(K, tosa_only)                                           \
  (0u BCAST_DTYPE_TABLE(EW_KIND_MASK_ROW_, K, tosa_only))
enum ew_type_class {
  EW_T_BOOL = EW_KIND_MASK_(BCAST_KIND_BOOL, 0),
  EW_T_I32 = EW_M(INT32),
  EW_T_TINT = EW_KIND_MASK_(BCAST_KIND_SIGNED, 1), /* int8, int16, int32 */
  EW_T_TFP = EW_KIND_MASK_(BCAST_KIND_FLOAT, 1),   /* f16, bf16, f32 */
  EW_T_SINT = EW_KIND_MASK_(BCAST_KIND_SIGNED, 0),
  EW_T_UINT = EW_KIND_MASK_(BCAST_KIND_UNSIGNED, 0),
  EW_T_INT = EW_T_SINT | EW_T_UINT,
  EW_T_FLOAT = EW_KIND_MASK_(BCAST_KIND_FLOAT, 0),
  EW_T_NUM = EW_T_INT | EW_T_FLOAT,
  EW_T_ALL = EW_T_NUM | EW_T_BOOL
};

/* How the result type follows from the input type. */
typedef enum ew_result_rule {
  EW_RESULT_SAME, /* the input type */
  EW_RESULT_BOOL, /* comparisons and logical ops */
  EW_RESULT_MUL,  /* tosa: int8/int16 widen to int32; numpy: the same */
  EW_RESULT_CAST  /* attrs->cast_to, from the cast tables */
} ew_result_rule;

/* X(ID, tosa input types, numpy input types, result rule) */
#define EW_OP_LIST(X)                                                          \
  X(ABS, EW_T_I32 | EW_T_TFP, EW_T_INT | EW_T_FLOAT, SAME)                     \
  X(BITWISE_NOT, EW_T_TINT, EW_T_INT | EW_T_BOOL, SAME)                        \
  X(CAST, EW_T_TINT | EW_T_BOOL | EW_T_TFP, EW_T_ALL, CAST)                    \
  X(CEIL, EW_T_TFP, EW_T_FLOAT, SAME)                                          \
  X(CLAMP, EW_M(INT8) | EW_M(INT16) | EW_T_TFP, EW_T_NUM, SAME)                \
  X(CLZ, EW_T_I32, EW_T_INT, SAME)                                             \
  X(ERF, EW_T_TFP, EW_T_FLOAT, SAME)                                           \
  X(EXP, EW_T_TFP, EW_T_FLOAT, SAME)                                           \
  X(FLOOR, EW_T_TFP, EW_T_FLOAT, SAME)                                         \
  X(LOG, EW_T_TFP, EW_T_FLOAT, SAME)                                           \
  X(LOGICAL_NOT, EW_T_BOOL, EW_T_ALL, BOOL)                                    \
  X(NEGATE, EW_T_TINT | EW_T_TFP, EW_T_NUM, SAME)                              \
  X(RECIPROCAL, EW_T_TFP, EW_T_FLOAT, SAME)                                    \
  X(RSQRT, EW_T_TFP, EW_T_FLOAT, SAME)                                         \
  X(SIGMOID, EW_T_TFP, EW_T_FLOAT, SAME)                                       \
  X(TANH, EW_T_TFP, EW_T_FLOAT, SAME)                                          \
  X(ADD, EW_T_I32 | EW_T_TFP, EW_T_NUM, SAME)                                  \
  X(ARITHMETIC_RIGHT_SHIFT, EW_T_TINT, EW_T_INT, SAME)                         \
  X(BITWISE_AND, EW_T_TINT, EW_T_INT | EW_T_BOOL, SAME)                        \
  X(BITWISE_OR, EW_T_TINT, EW_T_INT | EW_T_BOOL, SAME)                         \
  X(BITWISE_XOR, EW_T_TINT, EW_T_INT | EW_T_BOOL, SAME)                        \
  X(INTDIV, EW_T_I32, EW_T_INT, SAME)                                          \
  X(EQUAL, EW_T_I32 | EW_T_TFP, EW_T_ALL, BOOL)                                \
  X(GREATER, EW_T_I32 | EW_T_TFP, EW_T_ALL, BOOL)                              \
  X(GREATER_EQUAL, EW_T_I32 | EW_T_TFP, EW_T_ALL, BOOL)                        \
  X(LOGICAL_AND, EW_T_BOOL, EW_T_ALL, BOOL)                                    \
  X(LOGICAL_LEFT_SHIFT, EW_T_TINT, EW_T_INT, SAME)                             \
  X(LOGICAL_OR, EW_T_BOOL, EW_T_ALL, BOOL)                                     \
  X(LOGICAL_RIGHT_SHIFT, EW_T_TINT, EW_T_INT, SAME)                            \
  X(LOGICAL_XOR, EW_T_BOOL, EW_T_ALL, BOOL)                                    \
  X(MAXIMUM, EW_T_I32 | EW_T_TFP, EW_T_NUM, SAME)                              \
  X(MINIMUM, EW_T_I32 | EW_T_TFP, EW_T_NUM, SAME)                              \
  X(MUL, EW_T_TINT | EW_T_TFP, EW_T_NUM, MUL)                                  \
  X(POW, EW_T_TFP, EW_T_NUM, SAME)                                             \
  X(SUB, EW_T_I32 | EW_T_TFP, EW_T_NUM, SAME)                                  \
  X(SELECT, EW_T_TINT | EW_T_BOOL | EW_T_TFP, EW_T_ALL, SAME)

typedef struct ew_op_row {
  uint32_t tosa_types;
  uint32_t numpy_types;
  ew_result_rule result;
} ew_op_row;

/* Indexed by bcast_op. */
extern const ew_op_row bcast__ew_ops[BCAST_OP_COUNT];

/* CAST in the tosa profile: bit d of bcast__ew_tosa_cast[in] is set when
 * in -> d is a mode of TOSA 1.0.2's CAST table.  The numpy profile casts
 * every non-string type to every other. */
extern const uint32_t bcast__ew_tosa_cast[BCAST_DTYPE_COUNT];

/* The input type mask of op under a profile (tosa and trait share one). */
uint32_t bcast__ew_types(bcast_op op, bcast_profile profile);

#endif
