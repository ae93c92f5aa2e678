/* Kernels of the binary ops.  As in ew_k_unary.c, one list of instances is
 * expanded into the kernels and into their table. */
#include "ew/ew_kernel.h"

#define EW_B_SAME_(X, OP, op, ID, S, ST, VT, VS, LD, SD, ...)                 \
  X(ewk_##op##_##S, OP, ANY, ID, ID, ST, LD, VT, ST, SD, ew_##op##_##VS,      \
    ew_unpred_##op##_##VS)
#define EW_B_BOOL_(X, OP, op, ID, S, ST, VT, VS, LD, SD, ...)                 \
  X(ewk_##op##_##S, OP, ANY, ID, BOOL, ST, LD, VT, uint8_t, ew_st_same,       \
    ew_##op##_##VS, ew_unpred_##op##_##VS)
/* maximum, minimum, fmax, fmin: float16 on its stored bits, as NumPy's
 * float16 loops (ew_scalar.h, ew_maximum_f16); every other type as the
 * other ops, by the row's coding. */
#define EW_B_EXTREMUM_(X, OP, op, ID, S, ST, VT, VS, LD, SD, kind, coding)    \
  EW_B_EXT_##coding(X, OP, op, ID, S, ST, VT, VS, LD, SD, kind, coding)
#define EW_B_EXT_PLAIN EW_B_SAME_
#define EW_B_EXT_BOOL EW_B_SAME_
#define EW_B_EXT_BF16 EW_B_SAME_
#define EW_B_EXT_HALF(X, OP, op, ID, S, ST, ...)                              \
  X(ewk_##op##_##S, OP, ANY, ID, ID, ST, ew_ld_same, ST, ST, ew_st_same,      \
    ew_##op##_f16, ew_unpred_##op##_f16)
/* TOSA's MUL of int8 / int16 into int32. */
#define EW_B_MULWIDE_(X, ID, S, T)                                            \
  X(ewk_mulwide_##S, MUL, ANY, ID, INT32, T, ew_ld_same, T, int32_t,          \
    ew_st_same, ew_mul_wide_##S, ew_unpred_mul_wide_##S)

#define EW_BINARY_LIST(X)                                                     \
  EW_FOR_ALL(EW_B_SAME_, X, ADD, add)                                         \
  EW_FOR_INT(EW_B_SAME_, X, ARITHMETIC_RIGHT_SHIFT, arithmetic_right_shift)   \
  EW_FOR_INT_BOOL(EW_B_SAME_, X, BITWISE_AND, bitwise_and)                    \
  EW_FOR_INT_BOOL(EW_B_SAME_, X, BITWISE_OR, bitwise_or)                      \
  EW_FOR_INT_BOOL(EW_B_SAME_, X, BITWISE_XOR, bitwise_xor)                    \
  EW_FOR_INT(EW_B_SAME_, X, INTDIV, intdiv)                                   \
  EW_FOR_ALL(EW_B_BOOL_, X, EQUAL, equal)                                     \
  EW_FOR_ALL(EW_B_BOOL_, X, GREATER, greater)                                 \
  EW_FOR_ALL(EW_B_BOOL_, X, GREATER_EQUAL, greater_equal)                     \
  EW_FOR_ALL(EW_B_BOOL_, X, LOGICAL_AND, logical_and)                         \
  EW_FOR_INT(EW_B_SAME_, X, LOGICAL_LEFT_SHIFT, logical_left_shift)           \
  EW_FOR_ALL(EW_B_BOOL_, X, LOGICAL_OR, logical_or)                           \
  EW_FOR_INT(EW_B_SAME_, X, LOGICAL_RIGHT_SHIFT, logical_right_shift)         \
  EW_FOR_ALL(EW_B_BOOL_, X, LOGICAL_XOR, logical_xor)                         \
  EW_FOR_ALL(EW_B_EXTREMUM_, X, MAXIMUM, maximum)                             \
  EW_FOR_ALL(EW_B_EXTREMUM_, X, MINIMUM, minimum)                             \
  EW_FOR_ALL(EW_B_SAME_, X, MUL, mul)                                         \
  EW_B_MULWIDE_(X, INT8, i8, int8_t)                                          \
  EW_B_MULWIDE_(X, INT16, i16, int16_t)                                       \
  EW_FOR_NUM(EW_B_SAME_, X, POW, pow)                                         \
  EW_FOR_NUM(EW_B_SAME_, X, SUB, sub)                                         \
  EW_FOR_FLOAT(EW_B_SAME_, X, DIVIDE, divide)                                 \
  EW_FOR_NUM(EW_B_SAME_, X, FLOOR_DIVIDE, floor_divide)                       \
  EW_FOR_NUM(EW_B_SAME_, X, REMAINDER, remainder)                             \
  EW_FOR_ALL(EW_B_BOOL_, X, LESS, less)                                       \
  EW_FOR_ALL(EW_B_BOOL_, X, LESS_EQUAL, less_equal)                           \
  EW_FOR_ALL(EW_B_BOOL_, X, NOT_EQUAL, not_equal)                             \
  EW_FOR_ALL(EW_B_EXTREMUM_, X, FMAX, fmax)                                   \
  EW_FOR_ALL(EW_B_EXTREMUM_, X, FMIN, fmin)                                   \
  EW_FP8_BINARY_LIST(X)

/* The 8-bit floats: the binary ops MLIR 22 lowers on them to arith ops
 * that mlir-opt folds (arith.addf, subf, mulf, maximumf, minimumf, cmpf),
 * computed in float32 and rounded once to the type, as the folds round
 * (the ew_*_f8 functions of ew_scalar.h where APFloat's zeros and NaNs
 * differ from float32's), and tosa.pow to math.powf, which MLIR's
 * math-extend-to-supported-types computes as float32 powf rounded once. */
#define EW_B_F8BITS_(X, OP, op, ID, S, ST, ...)                               \
  X(ewk_##op##_##S, OP, ANY, ID, ID, ST, ew_ld_same, ST, ST, ew_st_same,      \
    ew_##op##_##S, ew_unpred_##op##_##S)
#define EW_FP8_BINARY_LIST(X)                                                 \
  EW_FOR_FP8(EW_F8_ROW_, X, ADD, add)                                         \
  EW_FOR_FP8(EW_F8_ROW_, X, SUB, sub)                                         \
  EW_FOR_FP8(EW_F8_ROW_, X, MUL, mul)                                         \
  EW_FOR_FP8(EW_B_F8BITS_, X, MAXIMUM, maximum)                               \
  EW_FOR_FP8(EW_B_F8BITS_, X, MINIMUM, minimum)                               \
  EW_FOR_FP8(EW_B_SAME_, X, POW, pow)                                         \
  EW_FOR_FP8(EW_B_BOOL_, X, EQUAL, equal)                                     \
  EW_FOR_FP8(EW_B_BOOL_, X, GREATER, greater)                                 \
  EW_FOR_FP8(EW_B_BOOL_, X, GREATER_EQUAL, greater_equal)

#define EW_DEFINE_(NAME, OP, FL, IN, OUT, TA, LA, VA, TR, SR, FN, UN)         \
  EW_BINARY_(NAME, TA, LA, VA, TR, SR, FN, UN)
EW_BINARY_LIST(EW_DEFINE_)

EW_TABLE_(binary, EW_BINARY_LIST)
