/* bcast/mlir.h - MLIR types and operation lines.
 *
 * The parser reads just enough MLIR to check broadcasting: builtin shaped
 * types (tensor<...>, vector<...>) and operations in generic
 * (`%r = "tosa.add"(%a, %b) : (T0, T1) -> R`) or custom
 * (`%r = tosa.add %a, %b : (T0, T1) -> R`) form, anywhere in a .mlir file.
 * Element types are kept as text.  Nothing allocates: parsed types point
 * into the caller's text, which must outlive them.
 */
#ifndef BCAST_MLIR_H
#define BCAST_MLIR_H

#include "bcast/export.h"
#include "bcast/op.h"
#include "bcast/shape.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bcast_container {
  BCAST_CONTAINER_NONE,   /* not a shaped type (i32, !foo.bar, ...) */
  BCAST_CONTAINER_TENSOR,
  BCAST_CONTAINER_VECTOR
} bcast_container;

typedef struct bcast_mlir_type {
  bcast_container container;
  bcast_shape shape;
  const char *text;      /* the whole type as written */
  size_t text_len;
  const char *elem;      /* element type text ("f32", "complex<f32>") */
  size_t elem_len;
} bcast_mlir_type;

/* Parses one type at the start of text[0..len); *consumed gets its length.
 * Malformed shaped types (truncated, negative or overflowing dims, ranks
 * over BCAST_MAX_RANK) give BCAST_PARSE / BCAST_RANK_LIMIT naming the
 * culprit. */
BCAST_API bcast_status bcast_mlir_type_parse(const char *text, size_t len,
                                   bcast_mlir_type *out, size_t *consumed,
                                   bcast_diag *diag);

/* Prints a type as MLIR does ("tensor<2x?xf32>") into buf (snprintf-like). */
BCAST_API size_t bcast_mlir_type_format(const bcast_mlir_type *type, char *buf,
                              size_t size);

/* A piece of the caller's text. */
typedef struct bcast_mlir_span {
  const char *text;
  size_t len;
} bcast_mlir_span;

/* A type of a scanned op's signature.  It says what bcast_mlir_type says,
 * but its dims live in the op's dim pool (op->dims[dims_at], rank of them),
 * so an op stays small; bcast_mlir_op_type gives the full type. */
typedef struct bcast_mlir_type_ref {
  bcast_container container;
  int32_t rank;          /* BCAST_RANK_UNRANKED for '*'; 0 when not shaped */
  uint32_t dims_at;      /* index of its outermost dim in op->dims */
  const char *text;      /* the whole type as written */
  size_t text_len;
  const char *elem;      /* element type text, NULL when not shaped */
  size_t elem_len;
} bcast_mlir_type_ref;

#define BCAST_MLIR_MAX_OPERANDS 64
/* All dims of one op's operand and result types together. */
#define BCAST_MLIR_MAX_OP_DIMS 256

/* One op statement as the scanner found it.  Offsets and spans point into
 * the scanned text.  The statement runs from its result list ("%r = ...")
 * to the end of its type signature: text[stmt_start, stmt_end). */
typedef struct bcast_mlir_op {
  const char *name;      /* "tosa.add" */
  size_t name_len;
  uint32_t line, col;    /* 1-based position of the op name */
  int generic;           /* written in generic form */
  size_t stmt_start, stmt_end;
  /* The values the statement defines: "%r" is 1, "%a, %b" and "%r:2" are
   * 2; results is the list as written, without the '='. */
  size_t n_results;
  bcast_mlir_span results;
  /* The SSA values the op uses, as written ("%a", "%arg0", "%r#1"), in
   * order; only the first BCAST_MLIR_MAX_OPERANDS are kept. */
  size_t n_operand_names;
  bcast_mlir_span operand_names[BCAST_MLIR_MAX_OPERANDS];
  /* The attribute dictionary "{...}" and the generic form's properties
   * "<{...}>" as written, with the brackets; len 0 when absent. */
  bcast_mlir_span attrs;
  bcast_mlir_span properties;
  /* The type signature. */
  size_t n_operands;
  bcast_mlir_type_ref operands[BCAST_MLIR_MAX_OPERANDS];
  bcast_mlir_type_ref result;
  int64_t dims[BCAST_MLIR_MAX_OP_DIMS]; /* the dim pool */
} bcast_mlir_op;

/* The full type behind a type of a scanned op (op->operands[k] or
 * op->result). */
BCAST_API void bcast_mlir_op_type(const bcast_mlir_op *op,
                                  const bcast_mlir_type_ref *ref,
                                  bcast_mlir_type *out);
/* Just its shape (rank 0 for a type that is not shaped). */
BCAST_API void bcast_mlir_op_shape(const bcast_mlir_op *op,
                                   const bcast_mlir_type_ref *ref,
                                   bcast_shape *out);

/* Which ops a scan returns: a callback the caller supplies. */
typedef int (*bcast_mlir_op_filter)(const char *name, size_t len, void *ctx);

typedef struct bcast_mlir_scanner {
  const char *text;
  size_t len;
  size_t pos;
  uint32_t line;
  size_t line_start;
  bcast_mlir_op_filter filter;
  void *filter_ctx;
} bcast_mlir_scanner;

BCAST_API void bcast_mlir_scanner_init(bcast_mlir_scanner *s, const char *text,
                             size_t len, bcast_mlir_op_filter filter,
                             void *filter_ctx);

/* Finds the next op the filter accepts, records its statement (results,
 * operand names, attributes) and parses its signature.  Returns
 * BCAST_OK with *found = 1 and op filled, BCAST_OK with *found = 0 at the
 * end of the text, or an error (op->line/col locate it) after which scanning
 * may continue with the next call. */
BCAST_API bcast_status bcast_mlir_scan_next(bcast_mlir_scanner *s, bcast_mlir_op *op,
                                  int *found, bcast_diag *diag);

/* The profile an op is judged by when the caller gives none: tosa.* ops by
 * BCAST_PROFILE_TOSA, everything else by BCAST_PROFILE_TRAIT. */
BCAST_API bcast_profile bcast_mlir_default_profile(const char *name, size_t len);

/* Verifies a parsed op's broadcasting under a profile.  For known TOSA ops
 * only the broadcast operands take part (tosa.mul's shift and
 * tosa.negate's zero points do not), and the tosa profile follows MLIR 22's
 * TOSA verifiers, message for message.  Other ops treat every operand as a
 * broadcast operand. */
BCAST_API bcast_status bcast_mlir_verify_op(const bcast_mlir_op *op,
                                  bcast_profile profile, bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_MLIR_H */
