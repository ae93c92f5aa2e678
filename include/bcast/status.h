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

/* One list, expanded into the enum, the names, the descriptions, the
 * exit classes and the Python exceptions.  The exit class says what kind
 * of failure a status is, for a program that maps statuses to process exit
 * codes (the bcast CLI does):
 *   0  success;
 *   1  the input is well formed but refused: its shapes, ranks, types,
 *      attribute values or size fail a check (a "no" answer, like a failed
 *      verify; INVALID_ARGUMENT is one, e.g. clamp's min_val > max_val or
 *      a size-0 dim under TOSA);
 *   2  the call could not be answered: malformed text or files, out of
 *      memory, input/output errors.  (A program's own usage errors, found
 *      before any library call, are 2 as well.)
 * The Python exception is the class the Python module (python/) raises
 * for the status: one of its own (bcast.BroadcastError, ...) or a
 * built-in.  OK raises nothing: its SystemError would mean a failure
 * reported as success, a bug in bcast. */
#define BCAST_STATUS_LIST(X)                                                  \
  X(OK, "ok", 0, "SystemError")                                               \
  X(INCOMPATIBLE, "shapes are not broadcast-compatible", 1, "BroadcastError") \
  X(RESULT_MISMATCH,                                                          \
    "result shape is not compatible with the inferred shape", 1,              \
    "BroadcastError")                                                         \
  X(RANK_MISMATCH, "ranks do not match", 1, "BroadcastError")                 \
  X(RANK_LIMIT, "rank exceeds the supported limit", 1, "ValueError")          \
  X(INVALID_ARGUMENT, "invalid argument", 1, "ValueError")                    \
  X(PARSE, "malformed input", 2, "ValueError")                                \
  X(OVERFLOW, "size overflows 64 bits", 1, "OverflowError")                   \
  X(NO_MEMORY, "out of memory", 2, "MemoryError")                             \
  X(IO, "input/output error", 2, "OSError")                                   \
  X(UNSUPPORTED, "not supported", 1, "ValueError")                            \
  X(BUDGET, "exceeds the memory budget", 1, "BudgetError")                    \
  X(RUNTIME_SHAPE, "runtime sizes violate the declared shape", 1,             \
    "BroadcastError")                                                         \
  X(TYPE, "element type mismatch", 1, "TypeError")                            \
  X(CHECKED, "checked arithmetic found an unpredictable result", 1,           \
    "CheckedError")

typedef enum bcast_status {
#define BCAST_STATUS_ENUM_(id, text, exit_class, py_exception) BCAST_##id,
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
