/* bcast/status.h - status codes and the structured diagnostic.
 *
 * Every library call returns a bcast_status; BCAST_OK (0) is always success.
 * A call that can fail also takes an optional bcast_diag *, which it fills on
 * failure with the operands, dimensions and sizes involved and a sentence the
 * caller may print.  The library never prints, aborts or keeps global error
 * state.  Passing NULL for the diagnostic skips all message formatting.
 */
#ifndef BCAST_STATUS_H
#define BCAST_STATUS_H

#include "bcast/export.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One list, expanded into the enum, the names, the descriptions and the
 * exit classes.  The exit class says what kind of failure a status is, for
 * a program that maps statuses to process exit codes (the bcast CLI does):
 *   0  success;
 *   1  the input is well formed but refused: its shapes, ranks, types,
 *      attribute values or size fail a check (a "no" answer, like a failed
 *      verify; INVALID_ARGUMENT is one, e.g. clamp's min_val > max_val or
 *      a size-0 dim under TOSA);
 *   2  the call could not be answered: malformed text or files, out of
 *      memory, input/output errors.  (A program's own usage errors, found
 *      before any library call, are 2 as well.) */
#define BCAST_STATUS_LIST(X)                                                  \
  X(OK, "ok", 0)                                                              \
  X(INCOMPATIBLE, "shapes are not broadcast-compatible", 1)                   \
  X(RESULT_MISMATCH,                                                          \
    "result shape is not compatible with the inferred shape", 1)              \
  X(RANK_MISMATCH, "ranks do not match", 1)                                   \
  X(RANK_LIMIT, "rank exceeds the supported limit", 1)                        \
  X(INVALID_ARGUMENT, "invalid argument", 1)                                  \
  X(PARSE, "malformed input", 2)                                              \
  X(OVERFLOW, "size overflows 64 bits", 1)                                    \
  X(NO_MEMORY, "out of memory", 2)                                            \
  X(IO, "input/output error", 2)                                              \
  X(UNSUPPORTED, "not supported", 1)                                          \
  X(BUDGET, "exceeds the memory budget", 1)                                   \
  X(RUNTIME_SHAPE, "runtime sizes violate the declared shape", 1)             \
  X(TYPE, "element type mismatch", 1)                                        \
  X(CHECKED, "checked arithmetic found an unpredictable result", 1)

typedef enum bcast_status {
#define BCAST_STATUS_ENUM_(id, text, exit_class) BCAST_##id,
  BCAST_STATUS_LIST(BCAST_STATUS_ENUM_)
#undef BCAST_STATUS_ENUM_
  BCAST_STATUS_COUNT
} bcast_status;

/* "BCAST_INCOMPATIBLE" style identifier for a status. */
BCAST_API const char *bcast_status_name(bcast_status status);
/* One-line description of a status ("shapes are not broadcast-compatible"). */
BCAST_API const char *bcast_status_text(bcast_status status);
/* The status's exit class from BCAST_STATUS_LIST: 0 for BCAST_OK, 1 for a
 * refused input, 2 for a call that could not be answered.  An unknown
 * status is 2. */
BCAST_API int bcast_status_exit_class(bcast_status status);

/* Sizes of the diagnostic's two message buffers, including the
 * terminating NUL.  They keep a bcast_diag small enough for a caller's stack
 * (about 2.2 KB) and hold any message about shapes up to rank 16 or so; a
 * longer message is cut at a character boundary and ends in "...". */
#define BCAST_DIAG_TEXT_MAX 1024
#define BCAST_DIAG_MLIR_TEXT_MAX 512

/* Operand index used in a diagnostic to mean "the result". */
#define BCAST_DIAG_RESULT (-2)
/* Operand index / axis used in a diagnostic to mean "not applicable". */
#define BCAST_DIAG_NONE (-1)

/* What went wrong, for a caller that wants more than a status code.
 *
 * operand[0..1] name the operands involved (an index, BCAST_DIAG_RESULT, or
 * BCAST_DIAG_NONE).  axis is the dimension in the aligned (broadcast result)
 * numbering; operand_axis[k] is the same dimension in operand[k]'s own
 * numbering; size[k] is operand[k]'s size there (BCAST_DIM_DYNAMIC for '?').
 * message is bcast's own explanation; mlir_message, when not empty, is the
 * text MLIR's verifier prints for the same failure (without the
 * "'op-name' op " prefix, which the caller adds when mlir_op_prefix is set).
 */
/* The most dims an element index in a diagnostic has (BCAST_MAX_RANK). */
#define BCAST_DIAG_INDEX_MAX 64

/* The output element a BCAST_CHECKED failure stopped at (the first in C
 * order whose result is unpredictable): flat is its C-order position
 * (-1 when the diagnostic is about no element), index[0..rank) its
 * index; dtype[k] (a bcast_dtype) and value[k] (its bytes as stored, in
 * the machine's order) are operand k's type and value there for k <
 * operands, and at k == operands the result type and the value an
 * unchecked run writes. */
typedef struct bcast_diag_element {
  int64_t flat;
  int32_t rank;
  int32_t operands;
  int64_t index[BCAST_DIAG_INDEX_MAX];
  int32_t dtype[4];
  unsigned char value[4][16];
} bcast_diag_element;

typedef struct bcast_diag {
  bcast_status status;
  int operand[2];
  int axis;
  int operand_axis[2];
  int64_t size[2];
  int mlir_op_prefix;
  char message[BCAST_DIAG_TEXT_MAX];
  char mlir_message[BCAST_DIAG_MLIR_TEXT_MAX];
  bcast_diag_element element;
} bcast_diag;

/* Resets a diagnostic to "no error". */
BCAST_API void bcast_diag_clear(bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_STATUS_H */
