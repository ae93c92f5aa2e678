/* bcast/op.h - the element-wise ops of the TOSA-to-Linalg RFC.
 *
 * One list names every op once, with every column the modules need: how
 * many operands take part in broadcasting and how many further operands
 * the op has (tosa.mul's shift, tosa.negate's zero points), how MLIR 22's
 * TOSA dialect verifies its shapes and the ODS wording it prints, the
 * element types each profile accepts and the result type's rule, the
 * attributes the op reads, the emitter's scalar body, and what TOSA leaves
 * unpredictable.  The verifier (bcast/mlir.h), the kernels
 * (bcast/elementwise.h) and the emitter (bcast/emit.h) read this list and
 * keep no per-op tables of their own.
 */
#ifndef BCAST_OP_H
#define BCAST_OP_H

#include "bcast/dtype.h"
#include "bcast/export.h"
#include "bcast/shape.h"
#include "bcast/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How MLIR 22's TOSA dialect checks an op's shapes. */
typedef enum bcast_op_verifier {
  BCAST_VERIFY_BROADCAST, /* ResultsBroadcastableShape + SameOperandsAndResultRank */
  BCAST_VERIFY_SAME_SHAPE, /* SameOperandsAndResultShape */
  BCAST_VERIFY_NEGATE,     /* input1 and output shapes compatible */
  BCAST_VERIFY_MUL         /* tosa.mul's own verifier */
} bcast_op_verifier;

/* How MLIR 22's TOSA dialect checks an op's element types by default
 * (mlir-opt without --tosa-validate), after the ODS constraints of the
 * columns below.  Checked against mlir-opt 22 by
 * tests/diff/test_tosa_element_types.py. */
typedef enum bcast_op_elem_rule {
  BCAST_ELEM_SAME,    /* SameOperandsAndResultElementType: "requires the
                         same element type for all operands and results" */
  BCAST_ELEM_COMPARE, /* SameOperandsElementType: "requires the same element
                         type for all operands" (the result is i1 by ODS) */
  BCAST_ELEM_ANY,     /* tosa.cast: any pair of types */
  BCAST_ELEM_MUL,     /* tosa.mul's verifier: an integer result as wide as
                         the operands or wider, else all types the same */
  BCAST_ELEM_NEGATE,  /* tosa.negate's verifier: input, output and their
                         zero points of one type */
  BCAST_ELEM_SELECT   /* tosa.select's verifier, after its shapes: the
                         values and the result of one type */
} bcast_op_elem_rule;

/* ODS constraint wording: "tosa-conformant tensor of <...> values". */
#define BCAST_OP_TYPES_NUMBER "number"
#define BCAST_OP_TYPES_BOOL "1-bit signless integer"
#define BCAST_OP_TYPES_FLOAT "floating-point"
#define BCAST_OP_TYPES_INT32_64                                               \
  "32-bit signless integer or 64-bit signless integer"

/* Sets of element types, as bit masks over bcast_dtype (bit d set: dtype d
 * is in the set), computed from the dtype table's kind and TOSA columns
 * (bcast/dtype.h): TINT and TFP are TOSA 1.0.2's integer and floating-point
 * types (PRO-INT, PRO-FP, EXT-INT16, EXT-BF16).  The kind sets leave out
 * the CAST_ONLY rows (the fp8 types), which are FP8.  They are enum constants
 * rather than macros so that they can be used inside another expansion of
 * the dtype table. */
#define BCAST_TYPE_BIT(d) (1u << BCAST_##d)
#define BCAST_TYPES_KIND_ROW_(K, tosa_only, ID, name, ctype, size, kind, npy, \
                              mlir, S, VT, VS, coding, digits, tosa)          \
  | ((kind) == (K) && BCAST_DTYPE_ARITH(tosa) &&                              \
             (BCAST_DTYPE_IN_TOSA(tosa) || !(tosa_only))                      \
         ? BCAST_TYPE_BIT(ID)                                                 \
         : 0u)
#define BCAST_TYPES_OF_KIND_(K, tosa_only)                                    \
  (0u BCAST_DTYPE_TABLE(BCAST_TYPES_KIND_ROW_, K, tosa_only))
#define BCAST_TYPES_CAST_ONLY_ROW_(unused, ID, name, ctype, size, kind, npy,  \
                                   mlir, S, VT, VS, coding, digits, tosa)     \
  | (BCAST_DTYPE_ARITH(tosa) ? 0u : BCAST_TYPE_BIT(ID))
enum bcast_type_set {
  BCAST_TYPES_BOOL = BCAST_TYPES_OF_KIND_(BCAST_KIND_BOOL, 0),
  BCAST_TYPES_I32 = BCAST_TYPE_BIT(INT32),
  BCAST_TYPES_TINT = BCAST_TYPES_OF_KIND_(BCAST_KIND_SIGNED, 1),
  BCAST_TYPES_TFP = BCAST_TYPES_OF_KIND_(BCAST_KIND_FLOAT, 1),
  BCAST_TYPES_SINT = BCAST_TYPES_OF_KIND_(BCAST_KIND_SIGNED, 0),
  BCAST_TYPES_UINT = BCAST_TYPES_OF_KIND_(BCAST_KIND_UNSIGNED, 0),
  BCAST_TYPES_INT = BCAST_TYPES_SINT | BCAST_TYPES_UINT,
  BCAST_TYPES_FLOAT = BCAST_TYPES_OF_KIND_(BCAST_KIND_FLOAT, 0),
  BCAST_TYPES_NUM = BCAST_TYPES_INT | BCAST_TYPES_FLOAT,
  BCAST_TYPES_ALL = BCAST_TYPES_NUM | BCAST_TYPES_BOOL,
  /* The 8-bit floats (not in ALL, FLOAT, TFP): tosa.cast's in the
   * tosa-1.0 tables, every float op's in MLIR 22's (src/op/op_types.c). */
  BCAST_TYPES_FP8 = (0u BCAST_DTYPE_TABLE(BCAST_TYPES_CAST_ONLY_ROW_, 0))
};

/* The attributes an op may read (bcast_op_attrs in bcast/elementwise.h),
 * with the names MLIR and `bcast run --attr` give them: X(ID, name, alias
 * or NULL, default, what it means).  The default is written as
 * bcast_op_attr_set reads it, NULL where the default is no value (no
 * bound, no type); it is the value a zeroed bcast_op_attrs holds.
 * input_zp is also spelled input1_zp (TOSA 1.0's name). */
#define BCAST_ATTR_LIST(X)                                                    \
  X(SHIFT, "shift", NULL, "0",                                                \
    "right shift of an int32 product, rounded (0..63; tosa)")                 \
  X(ROUND, "round", NULL, "false",                                            \
    "add the last bit shifted out (rounding half up)")                        \
  X(MIN_VAL, "min_val", NULL, NULL, "the lower bound, a value of x's type")   \
  X(MAX_VAL, "max_val", NULL, NULL, "the upper bound, a value of x's type")   \
  X(NAN_MODE, "nan_mode", NULL, "propagate",                                  \
    "'propagate': a NaN operand gives NaN; 'ignore': the other one wins")     \
  X(INPUT_ZP, "input_zp", "input1_zp", "0",                                   \
    "zero point subtracted from x (tosa, int8 only)")                         \
  X(OUTPUT_ZP, "output_zp", NULL, "0",                                        \
    "zero point added to the result (tosa, int8 only)")                       \
  X(TO, "to", NULL, NULL, "the result's element type")

typedef enum bcast_attr {
#define BCAST_ATTR_ENUM_(id, ...) BCAST_ATTR_##id,
  BCAST_ATTR_LIST(BCAST_ATTR_ENUM_)
#undef BCAST_ATTR_ENUM_
      BCAST_ATTR_COUNT
} bcast_attr;

#define BCAST_ATTR_BIT(a) (1u << BCAST_ATTR_##a)

/* How an op's result element type follows from its input type. */
typedef enum bcast_op_result_rule {
  BCAST_RESULT_SAME,    /* the input type */
  BCAST_RESULT_BOOL,    /* comparisons and logical ops */
  BCAST_RESULT_MUL,     /* tosa: int8/int16 widen to int32; numpy: the same */
  BCAST_RESULT_CAST,    /* the attribute "to", from the cast tables */
  BCAST_RESULT_TRUE_DIV /* numpy's divide: integers and bool in float64 */
} bcast_op_result_rule;

/* The op table: one row per op, every column every module needs.
 *
 * X(ID, tosa name, broadcast operands, extra operands, verifier,
 *   element-type rule, ODS types of operand #0, of the other operands, of the result,
 *   input types in the tosa and trait profiles, in the numpy profile,
 *   result rule, attributes read,
 *   scalar body for the emitter, why a result may be unpredictable,
 *   what the op computes, an example)
 *
 * Input types are those of the data operands (SELECT: of its two values;
 * its condition is bool).  The emitter's body is either
 * ARITH(float op, integer op), one arith / math op applied to the operands
 * (NULL where the op takes no such type; "arith.cmpf oeq" carries its
 * predicate), or BODY(name), a function of the emitter's for ops whose
 * element needs several instructions.  The last column says what TOSA
 * leaves unpredictable about the op's result (checked mode reports it), or
 * NULL when every result is defined.  What the op computes is a phrase
 * in the terms of its inputs x, y (SELECT: cond, x, y).  The example is
 * EXAMPLE(arguments, result): the arguments of a call under the numpy
 * profile as Python writes them (lists, scalars, then positional
 * attributes) and the result as the list it gives (ndarray.tolist());
 * Python's docstrings show it, and tests/python/test_introspection.py
 * runs it.  Adding an op is a row here plus its scalar function
 * (src/ew/ew_scalar.h) and kernel list entry. */
#define BCAST_OP_LIST(X)                                                      \
  X(ABS, "abs", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER,          \
    BCAST_TYPES_I32 | BCAST_TYPES_TFP, BCAST_TYPES_ALL, SAME, 0, BODY(abs),   \
    "|x| overflows the type", "the absolute value |x|",                       \
    EXAMPLE("[-2, 0, 3]", "[2, 0, 3]"))                                       \
  X(BITWISE_NOT, "bitwise_not", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER,  \
    NUMBER, BCAST_TYPES_TINT, BCAST_TYPES_INT | BCAST_TYPES_BOOL, SAME, 0,    \
    BODY(bitwise_not), NULL, "the bitwise complement ~x (bool: not x)",       \
    EXAMPLE("[0, 5, -1]", "[-1, -6, 0]"))                                     \
  X(CAST, "cast", 1, 0, SAME_SHAPE, ELEM_ANY, NUMBER, NUMBER, NUMBER,         \
    BCAST_TYPES_TINT | BCAST_TYPES_BOOL | BCAST_TYPES_TFP | BCAST_TYPES_FP8,  \
    BCAST_TYPES_ALL,                                                          \
    CAST, BCAST_ATTR_BIT(TO), BODY(cast),                                     \
    "NaN or out of range for the integer type",                               \
    "x converted to the element type to names",                               \
    EXAMPLE("[0, 1, 2], 'bool'", "[False, True, True]"))                      \
  X(CEIL, "ceil", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER,        \
    BCAST_TYPES_TFP, BCAST_TYPES_FLOAT, SAME, 0, ARITH("math.ceil", NULL),    \
    NULL, "the smallest integer not below x",                                 \
    EXAMPLE("[-1.5, 0.25, 2.0]", "[-1.0, 1.0, 2.0]"))                         \
  X(CLAMP, "clamp", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER,      \
    BCAST_TYPE_BIT(INT8) | BCAST_TYPE_BIT(INT16) | BCAST_TYPES_TFP,           \
    BCAST_TYPES_NUM, SAME,                                                    \
    BCAST_ATTR_BIT(MIN_VAL) | BCAST_ATTR_BIT(MAX_VAL) |                       \
        BCAST_ATTR_BIT(NAN_MODE),                                             \
    BODY(clamp), NULL, "x limited to [min_val, max_val]",                     \
    EXAMPLE("[-5, 0, 7], 0, 5", "[0, 0, 5]"))                                 \
  X(CLZ, "clz", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER,          \
    BCAST_TYPES_I32, BCAST_TYPES_INT, SAME, 0, ARITH(NULL, "math.ctlz"),      \
    NULL, "the number of leading zero bits of x",                             \
    EXAMPLE("[1, 255, 0]", "[63, 56, 64]"))                                   \
  X(COS, "cos", 1, 0, SAME_SHAPE, ELEM_SAME, FLOAT, FLOAT, FLOAT,             \
    BCAST_TYPES_TFP, BCAST_TYPES_FLOAT, SAME, 0, ARITH("math.cos", NULL),     \
    NULL, "the cosine of x (radians)", EXAMPLE("[0.0]", "[1.0]"))             \
  X(ERF, "erf", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER,          \
    BCAST_TYPES_TFP, BCAST_TYPES_FLOAT, SAME, 0, ARITH("math.erf", NULL),     \
    NULL, "the error function erf(x)", EXAMPLE("[0.0]", "[0.0]"))             \
  X(EXP, "exp", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER,          \
    BCAST_TYPES_TFP, BCAST_TYPES_FLOAT, SAME, 0, ARITH("math.exp", NULL),     \
    NULL, "e to the power x", EXAMPLE("[0.0]", "[1.0]"))                      \
  X(FLOOR, "floor", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER,      \
    BCAST_TYPES_TFP, BCAST_TYPES_FLOAT, SAME, 0, ARITH("math.floor", NULL),   \
    NULL, "the largest integer not above x",                                  \
    EXAMPLE("[-1.5, 0.25, 2.0]", "[-2.0, 0.0, 2.0]"))                         \
  X(LOG, "log", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER,          \
    BCAST_TYPES_TFP, BCAST_TYPES_FLOAT, SAME, 0, ARITH("math.log", NULL),     \
    NULL, "the natural logarithm of x", EXAMPLE("[1.0]", "[0.0]"))            \
  X(LOGICAL_NOT, "logical_not", 1, 0, SAME_SHAPE, ELEM_SAME, BOOL, BOOL,      \
    BOOL, BCAST_TYPES_BOOL, BCAST_TYPES_ALL, BOOL, 0, BODY(logical_not),      \
    NULL, "not x", EXAMPLE("[True, False]", "[False, True]"))                 \
  X(NEGATE, "negate", 1, 2, NEGATE, ELEM_NEGATE, NUMBER, NUMBER, NUMBER,      \
    BCAST_TYPES_TINT | BCAST_TYPES_TFP, BCAST_TYPES_NUM, SAME,                \
    BCAST_ATTR_BIT(INPUT_ZP) | BCAST_ATTR_BIT(OUTPUT_ZP), BODY(negate),       \
    "-x overflows the type",                                                  \
    "-x (tosa: -(x - input_zp) + output_zp, clipped to the type)",            \
    EXAMPLE("[1, -2, 0]", "[-1, 2, 0]"))                                      \
  X(RECIPROCAL, "reciprocal", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER,    \
    NUMBER, BCAST_TYPES_TFP, BCAST_TYPES_NUM, SAME, 0, BODY(reciprocal),      \
    "an integer reciprocal of 0 (numpy)", "1 / x",                            \
    EXAMPLE("[2.0, 0.5]", "[0.5, 2.0]"))                                      \
  X(RSQRT, "rsqrt", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER,      \
    BCAST_TYPES_TFP, BCAST_TYPES_FLOAT, SAME, 0, ARITH("math.rsqrt", NULL),   \
    NULL, "1 / sqrt(x)", EXAMPLE("[4.0, 0.25]", "[0.5, 2.0]"))                \
  X(SIGMOID, "sigmoid", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER,  \
    BCAST_TYPES_TFP, BCAST_TYPES_FLOAT, SAME, 0, BODY(sigmoid), NULL,         \
    "the logistic function 1 / (1 + exp(-x))", EXAMPLE("[0.0]", "[0.5]"))     \
  X(SIN, "sin", 1, 0, SAME_SHAPE, ELEM_SAME, FLOAT, FLOAT, FLOAT,             \
    BCAST_TYPES_TFP, BCAST_TYPES_FLOAT, SAME, 0, ARITH("math.sin", NULL),     \
    NULL, "the sine of x (radians)", EXAMPLE("[0.0]", "[0.0]"))               \
  X(TANH, "tanh", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER,        \
    BCAST_TYPES_TFP, BCAST_TYPES_FLOAT, SAME, 0, ARITH("math.tanh", NULL),    \
    NULL, "the hyperbolic tangent of x", EXAMPLE("[0.0]", "[0.0]"))           \
  X(ADD, "add", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER, NUMBER,           \
    BCAST_TYPES_I32 | BCAST_TYPES_TFP, BCAST_TYPES_ALL, SAME, 0,              \
    ARITH("arith.addf", "arith.addi"), "the sum overflows the type", "x + y", \
    EXAMPLE("[[1], [2]], [10, 20, 30]", "[[11, 21, 31], [12, 22, 32]]"))      \
  X(ARITHMETIC_RIGHT_SHIFT, "arithmetic_right_shift", 2, 0, BROADCAST,        \
    ELEM_SAME, NUMBER, NUMBER, NUMBER, BCAST_TYPES_TINT, BCAST_TYPES_INT,     \
    SAME, BCAST_ATTR_BIT(ROUND), BODY(arithmetic_right_shift),                \
    "the shift count is outside [0, bits-1]",                                 \
    "x >> y, copies of the sign bit shifted in (round: plus the last bit "    \
    "shifted out)",                                                           \
    EXAMPLE("[-8, 7, 16], 1", "[-4, 3, 8]"))                                  \
  X(BITWISE_AND, "bitwise_and", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER,   \
    NUMBER, BCAST_TYPES_TINT, BCAST_TYPES_INT | BCAST_TYPES_BOOL, SAME, 0,    \
    ARITH(NULL, "arith.andi"), NULL, "the bitwise and x & y",                 \
    EXAMPLE("[12, 10], 6", "[4, 2]"))                                         \
  X(BITWISE_OR, "bitwise_or", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER,     \
    NUMBER, BCAST_TYPES_TINT, BCAST_TYPES_INT | BCAST_TYPES_BOOL, SAME, 0,    \
    ARITH(NULL, "arith.ori"), NULL, "the bitwise or x | y",                   \
    EXAMPLE("[12, 10], 6", "[14, 14]"))                                       \
  X(BITWISE_XOR, "bitwise_xor", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER,   \
    NUMBER, BCAST_TYPES_TINT, BCAST_TYPES_INT | BCAST_TYPES_BOOL, SAME, 0,    \
    ARITH(NULL, "arith.xori"), NULL, "the bitwise exclusive or x ^ y",        \
    EXAMPLE("[12, 10], 6", "[10, 12]"))                                       \
  X(INTDIV, "intdiv", 2, 0, BROADCAST, ELEM_SAME, INT32_64, INT32_64,         \
    INT32_64, BCAST_TYPES_I32, BCAST_TYPES_INT, SAME, 0,                      \
    ARITH(NULL, "arith.divsi"), "division by zero or overflow",               \
    "x / y rounded toward zero", EXAMPLE("[7, -7], 2", "[3, -3]"))            \
  X(EQUAL, "equal", 2, 0, BROADCAST, ELEM_COMPARE, NUMBER, NUMBER, BOOL,      \
    BCAST_TYPES_I32 | BCAST_TYPES_TFP, BCAST_TYPES_ALL, BOOL, 0,              \
    ARITH("arith.cmpf oeq", "arith.cmpi eq"), NULL, "x == y",                 \
    EXAMPLE("[1, 2, 3], 2", "[False, True, False]"))                          \
  X(GREATER, "greater", 2, 0, BROADCAST, ELEM_COMPARE, NUMBER, NUMBER, BOOL,  \
    BCAST_TYPES_I32 | BCAST_TYPES_TFP, BCAST_TYPES_ALL, BOOL, 0,              \
    ARITH("arith.cmpf ogt", "arith.cmpi sgt"), NULL, "x > y",                 \
    EXAMPLE("[1, 2, 3], 2", "[False, False, True]"))                          \
  X(GREATER_EQUAL, "greater_equal", 2, 0, BROADCAST, ELEM_COMPARE, NUMBER,    \
    NUMBER, BOOL, BCAST_TYPES_I32 | BCAST_TYPES_TFP, BCAST_TYPES_ALL, BOOL,   \
    0, ARITH("arith.cmpf oge", "arith.cmpi sge"), NULL, "x >= y",             \
    EXAMPLE("[1, 2, 3], 2", "[False, True, True]"))                           \
  X(LOGICAL_AND, "logical_and", 2, 0, BROADCAST, ELEM_SAME, BOOL, BOOL, BOOL, \
    BCAST_TYPES_BOOL, BCAST_TYPES_ALL, BOOL, 0, ARITH(NULL, "arith.andi"),    \
    NULL, "x and y",                                                          \
    EXAMPLE("[True, True, False], [True, False, False]",                      \
            "[True, False, False]"))                                          \
  X(LOGICAL_LEFT_SHIFT, "logical_left_shift", 2, 0, BROADCAST, ELEM_SAME,     \
    NUMBER, NUMBER, NUMBER, BCAST_TYPES_TINT, BCAST_TYPES_INT, SAME, 0,       \
    ARITH(NULL, "arith.shli"), "the shift count is outside [0, bits-1]",      \
    "x << y, zeros shifted in", EXAMPLE("[1, 3], 2", "[4, 12]"))              \
  X(LOGICAL_OR, "logical_or", 2, 0, BROADCAST, ELEM_SAME, BOOL, BOOL, BOOL,   \
    BCAST_TYPES_BOOL, BCAST_TYPES_ALL, BOOL, 0, ARITH(NULL, "arith.ori"),     \
    NULL, "x or y",                                                           \
    EXAMPLE("[True, True, False], [True, False, False]",                      \
            "[True, True, False]"))                                           \
  X(LOGICAL_RIGHT_SHIFT, "logical_right_shift", 2, 0, BROADCAST, ELEM_SAME,   \
    NUMBER, NUMBER, NUMBER, BCAST_TYPES_TINT, BCAST_TYPES_INT, SAME, 0,       \
    ARITH(NULL, "arith.shrui"), "the shift count is outside [0, bits-1]",     \
    "x >> y, zeros shifted in", EXAMPLE("[8, 17], 2", "[2, 4]"))              \
  X(LOGICAL_XOR, "logical_xor", 2, 0, BROADCAST, ELEM_SAME, BOOL, BOOL, BOOL, \
    BCAST_TYPES_BOOL, BCAST_TYPES_ALL, BOOL, 0, ARITH(NULL, "arith.xori"),    \
    NULL, "x != y for truth values",                                          \
    EXAMPLE("[True, True, False], [True, False, False]",                      \
            "[False, True, False]"))                                          \
  X(MAXIMUM, "maximum", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER, NUMBER,   \
    BCAST_TYPES_I32 | BCAST_TYPES_TFP, BCAST_TYPES_ALL, SAME,                 \
    BCAST_ATTR_BIT(NAN_MODE), BODY(maximum), NULL,                            \
    "the larger of x and y (a NaN wins unless nan_mode='ignore')",            \
    EXAMPLE("[1, 5], [3, 2]", "[3, 5]"))                                      \
  X(MINIMUM, "minimum", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER, NUMBER,   \
    BCAST_TYPES_I32 | BCAST_TYPES_TFP, BCAST_TYPES_ALL, SAME,                 \
    BCAST_ATTR_BIT(NAN_MODE), BODY(minimum), NULL,                            \
    "the smaller of x and y (a NaN wins unless nan_mode='ignore')",           \
    EXAMPLE("[1, 5], [3, 2]", "[1, 2]"))                                      \
  X(MUL, "mul", 2, 1, MUL, ELEM_MUL, NUMBER, NUMBER, NUMBER,                  \
    BCAST_TYPES_TINT | BCAST_TYPES_TFP, BCAST_TYPES_ALL, MUL,                 \
    BCAST_ATTR_BIT(SHIFT), BODY(mul), "the shifted product is outside int32", \
    "x * y (tosa: an integer product shifted right by shift, rounded)",       \
    EXAMPLE("[[1], [2]], [3, 4]", "[[3, 4], [6, 8]]"))                        \
  X(POW, "pow", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER, NUMBER,           \
    BCAST_TYPES_TFP, BCAST_TYPES_NUM, SAME, 0, ARITH("math.powf", NULL),      \
    "outside the domain (a >= 0, a > 0 or b > 0, finite operands)",           \
    "x to the power y", EXAMPLE("[2, 3], 2", "[4, 9]"))                       \
  X(SUB, "sub", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER, NUMBER,           \
    BCAST_TYPES_I32 | BCAST_TYPES_TFP, BCAST_TYPES_NUM, SAME, 0,              \
    ARITH("arith.subf", "arith.subi"), "the difference overflows the type",   \
    "x - y", EXAMPLE("[10, 20], [1, 2]", "[9, 18]"))                          \
  X(SELECT, "select", 3, 0, BROADCAST, ELEM_SELECT, BOOL, NUMBER, NUMBER,     \
    BCAST_TYPES_TINT | BCAST_TYPES_BOOL | BCAST_TYPES_TFP, BCAST_TYPES_ALL,   \
    SAME, 0, BODY(select), NULL, "x where cond is true, else y",              \
    EXAMPLE("[True, False, True], [1, 2, 3], [10, 20, 30]", "[1, 20, 3]"))    \
  BCAST_NUMPY_OP_LIST(X)

/* NumPy's ops that differ from every TOSA op: rows of BCAST_OP_LIST with
 * no TOSA types (the tosa and trait profiles refuse them, naming the numpy
 * profile; bcast lower has no body for them).  NumPy's names for ops bcast
 * already has with NumPy's semantics are aliases (bcast_op_lookup):
 * subtract, multiply, negative, absolute, power, true_divide, mod, where,
 * invert, left_shift, right_shift (src/op/op.c). */
#define BCAST_NUMPY_OP_LIST(X)                                                \
  X(SQRT, "sqrt", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER, 0,     \
    BCAST_TYPES_FLOAT, SAME, 0, ARITH(NULL, NULL), NULL,                      \
    "the square root of x", EXAMPLE("[4.0, 9.0]", "[2.0, 3.0]"))              \
  X(SQUARE, "square", 1, 0, SAME_SHAPE, ELEM_SAME, NUMBER, NUMBER, NUMBER, 0, \
    BCAST_TYPES_NUM, SAME, 0, ARITH(NULL, NULL), NULL, "x * x",               \
    EXAMPLE("[-3, 4]", "[9, 16]"))                                            \
  X(DIVIDE, "divide", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER, NUMBER, 0,  \
    BCAST_TYPES_FLOAT, TRUE_DIV, 0, ARITH(NULL, NULL), NULL,                  \
    "x / y (integers and bool divide in float64)",                            \
    EXAMPLE("[1, 3], 2", "[0.5, 1.5]"))                                       \
  X(FLOOR_DIVIDE, "floor_divide", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER, \
    NUMBER, 0, BCAST_TYPES_NUM, SAME, 0, ARITH(NULL, NULL),                   \
    "integer division by zero or overflow",                                   \
    "x / y rounded toward minus infinity (x // y)",                           \
    EXAMPLE("[7, -7], 2", "[3, -4]"))                                         \
  X(REMAINDER, "remainder", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER,       \
    NUMBER, 0, BCAST_TYPES_NUM, SAME, 0, ARITH(NULL, NULL),                   \
    "integer division by zero",                                               \
    "x - y * floor(x / y): the remainder with the sign of y (x % y)",         \
    EXAMPLE("[7, -7], 3", "[1, 2]"))                                          \
  X(LESS, "less", 2, 0, BROADCAST, ELEM_COMPARE, NUMBER, NUMBER, BOOL, 0,     \
    BCAST_TYPES_ALL, BOOL, 0, ARITH(NULL, NULL), NULL, "x < y",               \
    EXAMPLE("[1, 2, 3], 2", "[True, False, False]"))                          \
  X(LESS_EQUAL, "less_equal", 2, 0, BROADCAST, ELEM_COMPARE, NUMBER, NUMBER,  \
    BOOL, 0, BCAST_TYPES_ALL, BOOL, 0, ARITH(NULL, NULL), NULL, "x <= y",     \
    EXAMPLE("[1, 2, 3], 2", "[True, True, False]"))                           \
  X(NOT_EQUAL, "not_equal", 2, 0, BROADCAST, ELEM_COMPARE, NUMBER, NUMBER,    \
    BOOL, 0, BCAST_TYPES_ALL, BOOL, 0, ARITH(NULL, NULL), NULL, "x != y",     \
    EXAMPLE("[1, 2, 3], 2", "[True, False, True]"))                           \
  X(FMAX, "fmax", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER, NUMBER, 0,      \
    BCAST_TYPES_ALL, SAME, 0, ARITH(NULL, NULL), NULL,                        \
    "the larger of x and y, a NaN losing to a number",                        \
    EXAMPLE("[1.0, float('nan')], [2.0, 0.5]", "[2.0, 0.5]"))                 \
  X(FMIN, "fmin", 2, 0, BROADCAST, ELEM_SAME, NUMBER, NUMBER, NUMBER, 0,      \
    BCAST_TYPES_ALL, SAME, 0, ARITH(NULL, NULL), NULL,                        \
    "the smaller of x and y, a NaN losing to a number",                       \
    EXAMPLE("[1.0, float('nan')], [2.0, 0.5]", "[1.0, 0.5]"))

typedef enum bcast_op {
#define BCAST_OP_ENUM_(id, ...) BCAST_OP_##id,
  BCAST_OP_LIST(BCAST_OP_ENUM_)
#undef BCAST_OP_ENUM_
      BCAST_OP_COUNT
} bcast_op;

typedef struct bcast_op_info {
  const char *name;       /* TOSA name without "tosa." */
  int broadcast_operands; /* operands that take part in broadcasting */
  int extra_operands;     /* further operands (shift, zero points) */
  bcast_op_verifier verifier;
  const char *operand0_types; /* ODS wording for operand #0 */
  const char *operand_types;  /* ... for the other broadcast operands */
  const char *result_types;   /* ... for result #0 */
  uint32_t tosa_types;        /* input types, tosa and trait profiles */
  uint32_t numpy_types;       /* input types, numpy profile */
  bcast_op_result_rule result;
  uint32_t attrs;               /* BCAST_ATTR_BIT(...) of the attrs read */
  const char *unpredictable;    /* why a result may be unpredictable, or
                                   NULL */
  bcast_op_elem_rule elem_rule; /* MLIR 22's element-type check */
  const char *summary;          /* what it computes ("x + y") */
  const char *example_args;     /* an example's arguments, in Python */
  const char *example_result;   /* ... and its result, as a list */
} bcast_op_info;

/* The op table's row of op (its name, arity, types, attributes...). */
BCAST_API const bcast_op_info *bcast_op_get(bcast_op op);

/* Number of data inputs of op (1, 2 or 3: its broadcast operands), 0 for
 * an unknown op. */
BCAST_API int bcast_op_arity(bcast_op op);

/* The element-type tables the tosa and trait profiles follow
 * (docs/profiles.md).  The default is MLIR 22's TOSA dialect, so that
 * `bcast run` and `bcast lower` take what mlir-opt verifies and lowers;
 * TOSA 1.0.2's profile tables stay available by name. */
/*   mlir      MLIR 22's dialect as its tosa-to-linalg lowers it: the TOSA
 *             types plus int64 and float64 wherever the op takes an integer
 *             or a float (intdiv: int32 and int64 only), every signed
 *             integer where it takes one (minimum of int8, clamp of
 *             int64), mul's result in its input type as well as int32, and
 *             CAST between any two of bool, int8..int64, float16, bfloat16,
 *             float32, float64; on unsigned types, CLAMP, ADD, SUB, MUL,
 *             the bitwise ops, the logical shifts, SELECT and the CASTs
 *             docs/profiles.md lists, on the signless view.
 *   tosa-1.0  TOSA 1.0.2's profiles (PRO-INT, PRO-FP, EXT-INT16, EXT-BF16)
 *             and its CAST table. */
#define BCAST_TYPE_TABLES_LIST(X)                                             \
  X(MLIR, "mlir")                                                             \
  X(TOSA_1_0, "tosa-1.0")

typedef enum bcast_type_tables {
#define BCAST_TYPE_TABLES_ENUM_(id, name) BCAST_TYPE_TABLES_##id,
  BCAST_TYPE_TABLES_LIST(BCAST_TYPE_TABLES_ENUM_)
#undef BCAST_TYPE_TABLES_ENUM_
      BCAST_TYPE_TABLES_COUNT
} bcast_type_tables;

/* The tables' name ("mlir", "tosa-1.0"); NULL for an unknown value. */
BCAST_API const char *bcast_type_tables_name(bcast_type_tables tables);
/* Looks tables up by name; BCAST_INVALID_ARGUMENT if unknown. */
BCAST_API bcast_status bcast_type_tables_parse(const char *name,
                                               bcast_type_tables *out);

/* The input types of op under a profile (tosa and trait share one list),
 * as a bit mask over bcast_dtype; 0 for an unknown op or a profile that
 * does not execute ops.  bcast_op_types follows the default tables
 * (BCAST_TYPE_TABLES_MLIR); the numpy profile has one list whatever the
 * tables. */
BCAST_API uint32_t bcast_op_types(bcast_op op, bcast_profile profile);
BCAST_API uint32_t bcast_op_types_in(bcast_op op, bcast_profile profile,
                                     bcast_type_tables tables);

/* The result types CAST offers from input type in under a profile, as a bit
 * mask over bcast_dtype (tosa and trait: the tables' CAST modes; numpy:
 * every non-string type). */
BCAST_API uint32_t bcast_op_cast_targets(bcast_dtype in,
                                         bcast_profile profile);
BCAST_API uint32_t bcast_op_cast_targets_in(bcast_dtype in,
                                            bcast_profile profile,
                                            bcast_type_tables tables);

/* The element-type rule of op: whether it takes inputs of these types
 * under the profile (tosa, trait or numpy), and if so the result type in
 * *out.  Checks the input count, that the inputs share one type (SELECT:
 * its condition is bool and its two values share one type; in the numpy
 * profile they are first converted by bcast_op_operand_dtypes), the
 * profile's type list, and for CAST that cast_to (ignored by other ops) is one of
 * the profile's modes.  Attributes other than cast_to are not looked at.
 * Errors: BCAST_TYPE for an unsupported or mismatched type,
 * BCAST_INVALID_ARGUMENT for an unknown op, a bad count or profile, or a
 * CAST without a result type. */
BCAST_API bcast_status
bcast_op_result_dtype(bcast_op op, bcast_profile profile, size_t n_inputs,
                      const bcast_dtype *inputs, bcast_dtype cast_to,
                      bcast_dtype *out, bcast_diag *diag);
/* The same under the given tables.  With BCAST_TYPE_TABLES_MLIR, MUL of
 * int8 or int16 gives the input type when cast_to names it (MLIR 22's
 * relaxed result), else int32. */
BCAST_API bcast_status bcast_op_result_dtype_in(
    bcast_op op, bcast_profile profile, bcast_type_tables tables,
    size_t n_inputs, const bcast_dtype *inputs, bcast_dtype cast_to,
    bcast_dtype *out, bcast_diag *diag);

/* The element type each input is converted to before op runs: in the
 * numpy profile, NumPy's: the inputs' result type (bcast_dtype_result_type;
 * SELECT: of its two values, its condition to bool); ops that take floats
 * only compute integer and bool inputs in the smallest float holding them
 * (sqrt of int8 is float16, of int32 float64), and divide in float64.  In
 * the tosa and trait profiles every input keeps its type, and inputs of
 * different types are BCAST_TYPE (the message names the numpy profile's
 * promotion).  Whether the op takes the converted type is
 * bcast_op_result_dtype's check; this only converts. */
BCAST_API bcast_status bcast_op_operand_dtypes(
    bcast_op op, bcast_profile profile, size_t n_inputs,
    const bcast_dtype *inputs, bcast_dtype *converted, bcast_diag *diag);

/* The attribute's name ("min_val"); NULL for an out-of-range id. */
BCAST_API const char *bcast_attr_name(bcast_attr attr);

/* The attribute's default as bcast_op_attr_set reads it ("0", "false",
 * "propagate"), NULL when the default is no value (CLAMP's bounds, CAST's
 * type) or for an out-of-range id. */
BCAST_API const char *bcast_attr_default(bcast_attr attr);

/* What the attribute means, a phrase for listings and docstrings; NULL for
 * an out-of-range id. */
BCAST_API const char *bcast_attr_summary(bcast_attr attr);

/* The result type's rule in words ("bool", "the input type (numpy: the
 * promoted type)"), for listings and docstrings; NULL for an unknown
 * rule. */
BCAST_API const char *bcast_op_result_rule_text(bcast_op_result_rule rule);

/* Looks an attribute up by name or alias; BCAST_INVALID_ARGUMENT if unknown. */
BCAST_API bcast_status bcast_attr_lookup(const char *name, size_t len,
                                         bcast_attr *out);

/* Nonzero when op reads attr: the op table's attributes column. */
BCAST_API int bcast_op_reads_attr(bcast_op op, bcast_attr attr);

/* Looks an op up by name, with or without the "tosa." prefix.  Accepts the
 * names the op has had: "intdiv", "int_div" and "div" are all INTDIV. */
BCAST_API bcast_status bcast_op_lookup(const char *name, size_t len,
                                       bcast_op *out);
/* The k-th other name bcast_op_lookup accepts (k from 0), with the op it
 * names in *op; NULL past the last.  For listings and bindings. */
BCAST_API const char *bcast_op_alias(size_t k, bcast_op *op);
/* NumPy's name of op (its ufunc's __name__): "subtract" for SUB, "where"
 * for SELECT, "right_shift" for ARITHMETIC_RIGHT_SHIFT, ...; the table's
 * name where NumPy has the same one or none.  NULL for an unknown op. */
BCAST_API const char *bcast_op_numpy_name(bcast_op op);
/* How the library's messages name op under profile: its NumPy name under
 * the numpy profile ("floor_divide", "where"), "tosa.<name>" under the
 * others ("tosa.select").  NULL for an unknown op. */
BCAST_API const char *bcast_op_label(bcast_op op, bcast_profile profile);

/* ------------------------------------------------------------------------ */
/* Scalars: an attribute value that may be an integer, an unsigned integer
 * beyond INT64_MAX, or a floating-point number, or absent; also a Python
 * scalar operand (bcast_scalar_weak_dtype in bcast/elementwise.h).  A
 * zeroed bcast_scalar is BCAST_SCALAR_NONE. */

typedef enum bcast_scalar_kind {
  BCAST_SCALAR_NONE,  /* no value (an attribute's default applies) */
  BCAST_SCALAR_INT,   /* i */
  BCAST_SCALAR_UINT,  /* u: for values above INT64_MAX */
  BCAST_SCALAR_FLOAT, /* f */
  BCAST_SCALAR_BOOL   /* i (0 or 1): a Python bool operand; not a bound */
} bcast_scalar_kind;

typedef struct bcast_scalar {
  bcast_scalar_kind kind;
  union {
    int64_t i;
    uint64_t u;
    double f;
  } v;
} bcast_scalar;

/* Tagged scalar values, for attributes such as clamp's bounds. */
BCAST_API bcast_scalar bcast_scalar_int(int64_t value);
BCAST_API bcast_scalar bcast_scalar_uint(uint64_t value);
BCAST_API bcast_scalar bcast_scalar_float(double value);
/* A bool scalar: value != 0 is true. */
BCAST_API bcast_scalar bcast_scalar_bool(int value);

/* ------------------------------------------------------------------------ */
/* Attribute values.  One struct holds what every op reads; the op table's
 * attributes column says which op reads which.  The text parser is
 * bcast_op_attr_set; an MLIR dictionary is read by
 * bcast_op_attrs_parse_mlir (bcast/mlir.h), and a bound is printed as an
 * MLIR literal by bcast_scalar_format_mlir (bcast/mlir.h). */

/* NaN handling of CLAMP, MAXIMUM and MINIMUM. */
typedef enum bcast_nan_mode {
  BCAST_NAN_PROPAGATE, /* a NaN operand gives NaN (TOSA's default) */
  BCAST_NAN_IGNORE     /* the non-NaN operand wins; CLAMP(NaN) = min_val */
} bcast_nan_mode;

/* The attributes of every op in one struct; an op reads only its own.
 * The defaults given here are all zero: `bcast_op_attrs a = {0};` and
 * bcast_op_attrs_init(&a) give the same attributes. */
typedef struct bcast_op_attrs {
  /* MUL: right shift of the product, 0..63, with rounding half up
   * ((a*b + 2^(shift-1)) >> shift computed in 64 bits).  Nonzero only for
   * int32 inputs.  Default 0. */
  int32_t shift;
  /* ARITHMETIC_RIGHT_SHIFT: nonzero adds 1 when the last bit shifted out is
   * 1 (rounding half toward +inf).  Default 0. */
  int round;
  /* CLAMP bounds; BCAST_SCALAR_NONE (default) means no bound on that side.
   * TOSA gives min_val and max_val the input's element type, so a bound
   * must be a value of the data type:
   *   integer data  an integer within the type's range (a float bound must
   *                 be integral and within it); bool data 0 or 1;
   *   float data    any number but NaN (infinities included), rounded to
   *                 the type (round to nearest even);
   * and min_val <= max_val.  Anything else is BCAST_INVALID_ARGUMENT,
   * naming the attribute, its value and the type's range (checked by
   * bcast_ew_result_dtype and by bcast lower). */
  bcast_scalar min_val, max_val;
  /* CLAMP, MAXIMUM, MINIMUM.  Default BCAST_NAN_PROPAGATE. */
  bcast_nan_mode nan_mode;
  /* NEGATE zero points: result = clip(-(x - input_zp) + output_zp).  Tosa:
   * nonzero only for int8 (then within -128..127); numpy: must be 0.
   * Default 0. */
  int64_t input_zp, output_zp;
  /* CAST: the result type, read during the call only (a plan keeps the
   * type, not the pointer).  Default NULL, meaning "not set": CAST then
   * fails with BCAST_INVALID_ARGUMENT, unless the options declare a result
   * type (see bcast_ew_options).  A pointer, so that a zeroed struct cannot
   * name a type by accident (BCAST_BOOL is 0):
   *   bcast_dtype to = BCAST_INT8;  attrs.cast_to = &to; */
  const bcast_dtype *cast_to;
} bcast_op_attrs;

/* Sets *attrs to "no attribute given" (the same as zeroing it). */
BCAST_API void bcast_op_attrs_init(bcast_op_attrs *attrs);

/* Sets one attribute of op from text.  name is an attribute name or alias;
 * value may be written as on a command line or as an MLIR attribute value,
 * with an optional ": TYPE" suffix (ignored: MLIR writes the bounds with
 * the input's type, checked when the op is planned):
 *   shift, input_zp, output_zp  an integer ("3", "-128", "3 : i8")
 *   round                       true, false, 1 or 0 (also True, False)
 *   min_val, max_val            a number ("-1.5", "inf", "nan", "300",
 *                               "18446744073709551615", "0.0 : f32", and
 *                               MLIR's bit patterns "0x7F800000 : f32")
 *   nan_mode                    PROPAGATE or IGNORE, in any case, quoted
 *                               or as #tosa.nan_mode<IGNORE>
 *   to                          an element type ("int8", "f32", "i1")
 * Whether a bound fits the data type is checked when the op is planned
 * (bcast_ew_result_dtype), not here.  Errors (attrs unchanged):
 * BCAST_INVALID_ARGUMENT for an unknown name (the message lists the known
 * ones) or an attribute op does not read, BCAST_PARSE for a malformed
 * value. */
BCAST_API bcast_status bcast_op_attr_set(bcast_op_attrs *attrs, bcast_op op,
                                         const char *name, size_t name_len,
                                         const char *value, size_t value_len,
                                         bcast_diag *diag);

/* Sets one attribute from a whole entry "NAME=VALUE" or "name = value :
 * type" (spaces around '=' allowed), as bcast_op_attr_set. */
BCAST_API bcast_status bcast_op_attr_parse(bcast_op_attrs *attrs, bcast_op op,
                                           const char *text, size_t len,
                                           bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_OP_H */
