/* Kernels of the unary ops except CAST (ew_k_cast.c).
 *
 * One list names every instance: (kernel name, op, flavour, input type,
 * result type, storage and value types, load, store, scalar function,
 * unpredictability test).  It is expanded twice: into the kernels and into
 * the table that finds them. */
#include "ew/ew_kernel.h"

/* An op whose result has the input's type / is bool. */
#define EW_U_SAME_(X, OP, op, ID, S, ST, VT, VS, LD, SD, ...)                 \
  X(ewk_##op##_##S, OP, ANY, ID, ID, ST, LD, VT, ST, SD, ew_##op##_##VS,      \
    ew_unpred_##op##_##VS)
#define EW_U_BOOL_(X, OP, op, ID, S, ST, VT, VS, LD, SD, ...)                 \
  X(ewk_##op##_##S, OP, ANY, ID, BOOL, ST, LD, VT, uint8_t, ew_st_same,       \
    ew_##op##_##VS, ew_unpred_##op##_##VS)
/* TOSA's saturating NEGATE with zero points. */
#define EW_U_NEGSAT_(X, ID, S, ST, VT, VS, LD, SD, ...)                       \
  X(ewk_negsat_##S, NEGATE, TOSA, ID, ID, ST, LD, VT, ST, SD,                 \
    ew_negate_sat_##S, ew_unpred_negate_sat_##S)

#define EW_UNARY_LIST(X)                                                      \
  EW_FOR_INT_BOOL(EW_U_SAME_, X, ABS, abs)                                    \
  EW_FOR_FLOAT(EW_U_SAME_, X, ABS, abs)                                       \
  EW_FOR_INT_BOOL(EW_U_SAME_, X, BITWISE_NOT, bitwise_not)                    \
  EW_FOR_FLOAT_FP8(EW_U_SAME_, X, CEIL, ceil)                                 \
  EW_FOR_NUM(EW_U_SAME_, X, CLAMP, clamp)                                     \
  EW_FOR_INT(EW_U_SAME_, X, CLZ, clz)                                         \
  EW_FOR_FLOAT_FP8(EW_U_SAME_, X, COS, cos)                                   \
  EW_FOR_FLOAT_FP8(EW_U_SAME_, X, ERF, erf)                                   \
  EW_FOR_FLOAT_FP8(EW_U_SAME_, X, EXP, exp)                                   \
  EW_FOR_FLOAT_FP8(EW_U_SAME_, X, FLOOR, floor)                               \
  EW_FOR_FLOAT_FP8(EW_U_SAME_, X, LOG, log)                                   \
  EW_FOR_ALL(EW_U_BOOL_, X, LOGICAL_NOT, logical_not)                         \
  EW_FOR_NUM(EW_U_SAME_, X, NEGATE, negate)                                   \
  EW_FOR_TOSA_SINT(EW_U_NEGSAT_, X)                                           \
  EW_FOR_NUM(EW_U_SAME_, X, RECIPROCAL, reciprocal)                           \
  EW_FOR_FLOAT_FP8(EW_U_SAME_, X, RSQRT, rsqrt)                               \
  EW_FOR_FLOAT(EW_U_SAME_, X, SIGMOID, sigmoid)                               \
  EW_FOR_FLOAT_FP8(EW_U_SAME_, X, SIN, sin)                                   \
  EW_FOR_FLOAT_FP8(EW_U_SAME_, X, TANH, tanh)                                 \
  EW_FOR_FLOAT(EW_U_SAME_, X, SQRT, sqrt)                                     \
  EW_FOR_NUM(EW_U_SAME_, X, SQUARE, square)                                   \
  EW_FP8_UNARY_LIST(X)

/* The 8-bit floats: MLIR 22 lowers the unary ops on them to arith / math
 * ops on the 8-bit type, each rounded once to it, as mlir-opt folds them
 * (math.absf, ceil, floor, arith.negf, divf, maximumf, minimumf) and as
 * its math-extend-to-supported-types legalizes the math ops (exp, log,
 * rsqrt, tanh, sin, cos, erf: the float32 op between arith.extf and
 * truncf).  So each is its float32 function, rounded once: the rows of
 * the list above taken for every float (EW_FOR_FLOAT_FP8).  Here the ones
 * that differ: abs and negate act on the stored bits, clamp is
 * ew_clamp_f8 and sigmoid rounds after each of its ops
 * (ew_sigmoid_<format>): see ew_scalar.h. */
#define EW_U_F8_SIGMOID_(X, OP, op, ID, S, ST, VT, VS, LD, SD, ...)           \
  X(ewk_##op##_##S, OP, ANY, ID, ID, ST, LD, VT, ST, SD, ew_##op##_##S,       \
    ew_unpred_##op##_##VS)
#define EW_U_F8BITS_(X, OP, op, ID, S, ST, ...)                               \
  X(ewk_##op##_##S, OP, ANY, ID, ID, ST, ew_ld_same, ST, ST, ew_st_same,      \
    ew_##op##_f8bits, ew_unpred_##op##_f8bits)
#define EW_FP8_UNARY_LIST(X)                                                  \
  EW_FOR_FP8(EW_U_F8BITS_, X, ABS, abs)                                       \
  EW_FOR_FP8(EW_F8_ROW_, X, CLAMP, clamp)                                     \
  EW_FOR_FP8(EW_U_F8BITS_, X, NEGATE, negate)                                 \
  EW_FOR_FP8(EW_U_F8_SIGMOID_, X, SIGMOID, sigmoid)                           \
  EW_FOR_FP8(EW_U_SAME_, X, RECIPROCAL, reciprocal)

#define EW_DEFINE_(NAME, OP, FL, IN, OUT, TA, LA, VA, TR, SR, FN, UN)         \
  EW_UNARY_(NAME, TA, LA, VA, TR, SR, FN, UN)
EW_UNARY_LIST(EW_DEFINE_)

EW_TABLE_(unary, EW_UNARY_LIST)
