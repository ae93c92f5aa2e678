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

/* X(ID, name, C storage type, element bytes, kind, npy kind char, MLIR name) */
#define BCAST_DTYPE_LIST(X)                                                   \
  X(BOOL, "bool", uint8_t, 1, BCAST_KIND_BOOL, 'b', "i1")                      \
  X(INT8, "int8", int8_t, 1, BCAST_KIND_SIGNED, 'i', "i8")                     \
  X(INT16, "int16", int16_t, 2, BCAST_KIND_SIGNED, 'i', "i16")                 \
  X(INT32, "int32", int32_t, 4, BCAST_KIND_SIGNED, 'i', "i32")                 \
  X(INT64, "int64", int64_t, 8, BCAST_KIND_SIGNED, 'i', "i64")                 \
  X(UINT8, "uint8", uint8_t, 1, BCAST_KIND_UNSIGNED, 'u', "ui8")               \
  X(UINT16, "uint16", uint16_t, 2, BCAST_KIND_UNSIGNED, 'u', "ui16")           \
  X(UINT32, "uint32", uint32_t, 4, BCAST_KIND_UNSIGNED, 'u', "ui32")           \
  X(UINT64, "uint64", uint64_t, 8, BCAST_KIND_UNSIGNED, 'u', "ui64")           \
  X(FLOAT16, "float16", uint16_t, 2, BCAST_KIND_FLOAT, 'f', "f16")             \
  X(BFLOAT16, "bfloat16", uint16_t, 2, BCAST_KIND_FLOAT, 0, "bf16")            \
  X(FLOAT32, "float32", float, 4, BCAST_KIND_FLOAT, 'f', "f32")                \
  X(FLOAT64, "float64", double, 8, BCAST_KIND_FLOAT, 'f', "f64")               \
  X(STRING, "string", bcast_string, sizeof(bcast_string), BCAST_KIND_STRING, 0, "!string")

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

BCAST_API const char *bcast_dtype_name(bcast_dtype dtype);
BCAST_API size_t bcast_dtype_size(bcast_dtype dtype);
BCAST_API bcast_dtype_kind bcast_dtype_kind_of(bcast_dtype dtype);
/* MLIR element type spelling ("f32", "i1", "ui8"). */
BCAST_API const char *bcast_dtype_mlir_name(bcast_dtype dtype);
/* Looks a dtype up by name ("float32") or MLIR spelling ("f32"). */
BCAST_API bcast_status bcast_dtype_parse(const char *name, size_t len, bcast_dtype *out);

/* IEEE binary16 and bfloat16 conversions.  float -> half rounds to nearest
 * even, overflows to infinity, keeps NaN (quiet) and signed zero; subnormals
 * are exact where representable. */
BCAST_API float bcast_half_to_float(uint16_t h);
BCAST_API uint16_t bcast_float_to_half(float f);
BCAST_API uint16_t bcast_double_to_half(double d);
BCAST_API float bcast_bf16_to_float(uint16_t b);
BCAST_API uint16_t bcast_float_to_bf16(float f);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_DTYPE_H */
