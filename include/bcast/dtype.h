/* bcast/dtype.h - element types.
 *
 * One list drives the enum, the names, the sizes, the .npy descriptors and
 * every per-type dispatch in the library.  Strings are variable-length UTF-8
 * byte strings: an element is a bcast_string (pointer + length) whose bytes
 * are owned by the tensor's buffer (see bcast/tensor.h).
 */
#ifndef BCAST_DTYPE_H
#define BCAST_DTYPE_H

#include "bcast/export.h"
#include "bcast/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bcast_dtype_kind {
  BCAST_KIND_BOOL,
  BCAST_KIND_SIGNED,
  BCAST_KIND_UNSIGNED,
  BCAST_KIND_FLOAT,
  BCAST_KIND_STRING
} bcast_dtype_kind;

/* The element type table: the one list of element types.  Everything per
 * type in the library (the enum, names, sizes, .npy descriptors, the
 * element-wise kernels and their type classes, value printing) is generated
 * from it, so adding a type is one row here.
 *
 *   R(..., ID, name, C storage type, element bytes, kind, npy kind char,
 *     MLIR name, short name, value type, value short name, coding,
 *     round-trip digits, in TOSA)
 *
 * short name        suffix of per-type identifiers ("i8", "f16").
 * value type        the C type a value is computed in: float16 and bfloat16
 *                   are stored in 16 bits and computed as float.
 * value short name  the short name of the value type ("f32" for float16).
 * coding            how stored bits become a value: PLAIN (as they are),
 *                   BOOL (nonzero is 1), HALF (IEEE binary16), BF16
 *                   (bfloat16), F8E4M3FN and F8E5M2 (the 8-bit floats of
 *                   MLIR and ml_dtypes: E4M3FN has no infinity and one NaN
 *                   per sign, 0x7f and 0xff; E5M2 is IEEE-like).
 * round-trip digits significant decimal digits that print a float so that
 *                   it reads back exactly (NumPy's repr); 0 for the other
 *                   kinds.
 * in TOSA           1 if TOSA 1.0.2 has the type (PRO-INT, PRO-FP,
 *                   EXT-INT16, EXT-BF16); CAST_ONLY for the fp8 types
 *                   (TOSA's EXT-FP8E4M3 / EXT-FP8E5M2), which the tosa-1.0
 *                   tables take in tosa.cast only, the MLIR 22 tables in
 *                   the float ops too (bcast run computing those whose
 *                   lowering mlir-opt folds), and which the numpy profile
 *                   does not have; 0 for the rest.  BCAST_DTYPE_IN_TOSA(v) and BCAST_DTYPE_ARITH(v)
 *                   read it as numbers.
 *
 * The leading arguments "..." are passed unchanged to every row, so a row
 * macro can carry its caller's macro and arguments along.  Rows are ordered
 * by kind: bool, signed, unsigned, float, string. */
#define BCAST_DTYPE_TABLE(R, ...)                                             \
  R(__VA_ARGS__, BOOL, "bool", uint8_t, 1, BCAST_KIND_BOOL, 'b', "i1", b,     \
    uint8_t, b, BOOL, 0, 1)                                                   \
  R(__VA_ARGS__, INT8, "int8", int8_t, 1, BCAST_KIND_SIGNED, 'i', "i8", i8,   \
    int8_t, i8, PLAIN, 0, 1)                                                  \
  R(__VA_ARGS__, INT16, "int16", int16_t, 2, BCAST_KIND_SIGNED, 'i', "i16",   \
    i16, int16_t, i16, PLAIN, 0, 1)                                           \
  R(__VA_ARGS__, INT32, "int32", int32_t, 4, BCAST_KIND_SIGNED, 'i', "i32",   \
    i32, int32_t, i32, PLAIN, 0, 1)                                           \
  R(__VA_ARGS__, INT64, "int64", int64_t, 8, BCAST_KIND_SIGNED, 'i', "i64",   \
    i64, int64_t, i64, PLAIN, 0, 0)                                           \
  R(__VA_ARGS__, UINT8, "uint8", uint8_t, 1, BCAST_KIND_UNSIGNED, 'u', "ui8", \
    u8, uint8_t, u8, PLAIN, 0, 0)                                             \
  R(__VA_ARGS__, UINT16, "uint16", uint16_t, 2, BCAST_KIND_UNSIGNED, 'u',     \
    "ui16", u16, uint16_t, u16, PLAIN, 0, 0)                                  \
  R(__VA_ARGS__, UINT32, "uint32", uint32_t, 4, BCAST_KIND_UNSIGNED, 'u',     \
    "ui32", u32, uint32_t, u32, PLAIN, 0, 0)                                  \
  R(__VA_ARGS__, UINT64, "uint64", uint64_t, 8, BCAST_KIND_UNSIGNED, 'u',     \
    "ui64", u64, uint64_t, u64, PLAIN, 0, 0)                                  \
  R(__VA_ARGS__, FLOAT16, "float16", uint16_t, 2, BCAST_KIND_FLOAT, 'f',      \
    "f16", f16, float, f32, HALF, 5, 1)                                       \
  R(__VA_ARGS__, BFLOAT16, "bfloat16", uint16_t, 2, BCAST_KIND_FLOAT, 0,      \
    "bf16", bf16, float, f32, BF16, 4, 1)                                     \
  R(__VA_ARGS__, FLOAT32, "float32", float, 4, BCAST_KIND_FLOAT, 'f', "f32",  \
    f32, float, f32, PLAIN, 9, 1)                                             \
  R(__VA_ARGS__, FLOAT64, "float64", double, 8, BCAST_KIND_FLOAT, 'f', "f64", \
    f64, double, f64, PLAIN, 17, 0)                                           \
  R(__VA_ARGS__, FLOAT8_E4M3FN, "float8_e4m3fn", uint8_t, 1,                  \
    BCAST_KIND_FLOAT, 0, "f8E4M3FN", f8e4m3fn, float, f32, F8E4M3FN, 3,       \
    CAST_ONLY)                                                                \
  R(__VA_ARGS__, FLOAT8_E5M2, "float8_e5m2", uint8_t, 1, BCAST_KIND_FLOAT, 0, \
    "f8E5M2", f8e5m2, float, f32, F8E5M2, 2, CAST_ONLY)                       \
  R(__VA_ARGS__, STRING, "string", bcast_string, sizeof(bcast_string),        \
    BCAST_KIND_STRING, 0, "!string", str, bcast_string, str, PLAIN, 0, 0)

/* The "in TOSA" column as numbers: in TOSA's profiles (1 or 0), and a type
 * the ops compute in (every row but the CAST_ONLY ones). */
#define BCAST_DTYPE_IN_TOSA(v) BCAST_DTYPE_IN_TOSA_##v
#define BCAST_DTYPE_IN_TOSA_0 0
#define BCAST_DTYPE_IN_TOSA_1 1
#define BCAST_DTYPE_IN_TOSA_CAST_ONLY 0
#define BCAST_DTYPE_ARITH(v) BCAST_DTYPE_ARITH_##v
#define BCAST_DTYPE_ARITH_0 1
#define BCAST_DTYPE_ARITH_1 1
#define BCAST_DTYPE_ARITH_CAST_ONLY 0

/* The table's first seven columns, for X-macros that need only those:
 * X(ID, name, C storage type, element bytes, kind, npy kind char, MLIR
 * name). */
#define BCAST_DTYPE_LIST(X) BCAST_DTYPE_TABLE(BCAST_DTYPE_LIST_ROW_, X)
#define BCAST_DTYPE_LIST_ROW_(X, id, name, ctype, size, kind, npy, mlir, ...) \
  X(id, name, ctype, size, kind, npy, mlir)

/* A string element: len bytes of UTF-8 at ptr (not NUL-terminated). */
typedef struct bcast_string {
  const char *ptr;
  size_t len;
} bcast_string;

typedef enum bcast_dtype {
#define BCAST_DTYPE_ENUM_(id, name, ctype, size, kind, npy, mlir) BCAST_##id,
  BCAST_DTYPE_LIST(BCAST_DTYPE_ENUM_)
#undef BCAST_DTYPE_ENUM_
      BCAST_DTYPE_COUNT
} bcast_dtype;

/* A type's NumPy name ("float32", "bool"), its size in bytes and its kind. */
BCAST_API const char *bcast_dtype_name(bcast_dtype dtype);
BCAST_API size_t bcast_dtype_size(bcast_dtype dtype);
BCAST_API bcast_dtype_kind bcast_dtype_kind_of(bcast_dtype dtype);
/* MLIR element type spelling ("f32", "i1", "ui8"). */
BCAST_API const char *bcast_dtype_mlir_name(bcast_dtype dtype);
/* One element as text, as NumPy prints it: integers in decimal, bool as
 * True / False, floats with %.Ng where N is the table's round-trip digits
 * (float16 and bfloat16 as their values), strings quoted like Python's repr
 * ('a\'b').  Writes at most cap bytes including the NUL, like snprintf,
 * and returns the length the whole text needs (without the NUL).  An
 * unknown dtype prints as "?". */
BCAST_API size_t bcast_dtype_format_value(bcast_dtype dtype, const void *elem,
                                          char *buf, size_t cap);
/* Looks a dtype up by name ("float32") or MLIR spelling ("f32"). */
BCAST_API bcast_status bcast_dtype_parse(const char *name, size_t len,
                                         bcast_dtype *out);

/* NumPy's type promotion for arrays (numpy.result_type): the type two or
 * more operands of these types are computed in.  bool < integers < floats;
 * two types of one kind give the larger; signed with unsigned gives a
 * signed type wider than the unsigned one (int8 + uint8 -> int16; uint64
 * with a signed type -> float64); an integer with a float gives the float
 * joined with the smallest float holding the integer (int8 -> float16,
 * int16 -> float32, 32 and 64 bits -> float64).  bfloat16 (not in NumPy)
 * follows ml_dtypes: bfloat16 + float16 -> float32, bfloat16 + float32 ->
 * float32.  N-ary: with a float among the types, each integer joins the
 * floats on its own (int8, uint8, float16 -> float16), as NumPy does;
 * without one, the binary rule folded.  Errors:
 * BCAST_TYPE for a string or invalid type, BCAST_INVALID_ARGUMENT for
 * n == 0. */
BCAST_API bcast_status bcast_dtype_promote(bcast_dtype a, bcast_dtype b,
                                           bcast_dtype *out, bcast_diag *diag);
BCAST_API bcast_status bcast_dtype_result_type(size_t n,
                                               const bcast_dtype *types,
                                               bcast_dtype *out,
                                               bcast_diag *diag);

/* IEEE binary16 and bfloat16 conversions.  Narrowing (float or double ->
 * half or bfloat16) rounds once, to nearest even, overflows to infinity,
 * keeps NaN (quiet) and signed zero; subnormals are exact where
 * representable. */
BCAST_API float bcast_half_to_float(uint16_t h);
BCAST_API uint16_t bcast_float_to_half(float f);
BCAST_API uint16_t bcast_double_to_half(double d);
BCAST_API float bcast_bf16_to_float(uint16_t b);
BCAST_API uint16_t bcast_float_to_bf16(float f);
BCAST_API uint16_t bcast_double_to_bf16(double d);

/* The 8-bit floats, as MLIR's APFloat converts them (arith.extf, truncf,
 * sitofp).  Widening is exact; a NaN widens to a quiet NaN with the sign
 * and the mantissa bits at the top of the payload (E4M3FN's 0x7f gives
 * 0x7ff00000 as a float).  Narrowing rounds once to nearest even and
 * keeps signed zero; float8_e5m2 overflows to infinity and keeps a NaN's
 * sign and top payload bit (quiet); float8_e4m3fn, which has no
 * infinity, gives its NaN (0x7f, or 0xff when negative) for a NaN, an
 * infinity and every magnitude that rounds beyond 448 (from 464 up). */
BCAST_API float bcast_f8e4m3fn_to_float(uint8_t b);
BCAST_API uint8_t bcast_double_to_f8e4m3fn(double d);
BCAST_API float bcast_f8e5m2_to_float(uint8_t b);
BCAST_API uint8_t bcast_double_to_f8e5m2(double d);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_DTYPE_H */
