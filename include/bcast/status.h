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

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One list, expanded into the enum, the names and the descriptions. */
#define BCAST_STATUS_LIST(X)                                                  \
  X(OK, "ok")                                                                 \
  X(INCOMPATIBLE, "shapes are not broadcast-compatible")                      \
  X(RESULT_MISMATCH, "result shape is not compatible with the inferred shape") \
  X(RANK_MISMATCH, "ranks do not match")                                      \
  X(RANK_LIMIT, "rank exceeds the supported limit")                           \
  X(INVALID_ARGUMENT, "invalid argument")                                     \
  X(PARSE, "malformed input")                                                 \
  X(OVERFLOW, "size overflows 64 bits")                                       \
  X(NO_MEMORY, "out of memory")                                               \
  X(IO, "input/output error")                                                 \
  X(UNSUPPORTED, "not supported")                                             \
  X(BUDGET, "exceeds the memory budget")                                      \
  X(RUNTIME_SHAPE, "runtime sizes violate the declared shape")                \
  X(TYPE, "element type mismatch")                                            \
  X(CHECKED, "checked arithmetic found an unpredictable result")

typedef enum bcast_status {
#define BCAST_STATUS_ENUM_(id, text) BCAST_##id,
  BCAST_STATUS_LIST(BCAST_STATUS_ENUM_)
#undef BCAST_STATUS_ENUM_
  BCAST_STATUS_COUNT
} bcast_status;

/* "BCAST_INCOMPATIBLE" style identifier for a status. */
const char *bcast_status_name(bcast_status status);
/* One-line description of a status ("shapes are not broadcast-compatible"). */
const char *bcast_status_text(bcast_status status);

/* Large enough for two rank-64 shapes of 20-digit sizes plus prose. */
#define BCAST_DIAG_TEXT_MAX 4096

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
typedef struct bcast_diag {
  bcast_status status;
  int operand[2];
  int axis;
  int operand_axis[2];
  int64_t size[2];
  int mlir_op_prefix;
  char message[BCAST_DIAG_TEXT_MAX];
  char mlir_message[BCAST_DIAG_TEXT_MAX];
} bcast_diag;

/* Resets a diagnostic to "no error". */
void bcast_diag_clear(bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_STATUS_H */
