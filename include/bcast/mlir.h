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
  BCAST_CONTAINER_NONE, /* not a shaped type (i32, !foo.bar, ...) */
  BCAST_CONTAINER_TENSOR,
  BCAST_CONTAINER_VECTOR
} bcast_container;

typedef struct bcast_mlir_type {
  bcast_container container;
  bcast_shape shape;
  const char *text; /* the whole type as written */
  size_t text_len;
  const char *elem; /* element type text ("f32", "complex<f32>") */
  size_t elem_len;
} bcast_mlir_type;

/* Parses one type at the start of text[0..len); *consumed gets its length.
 * Malformed shaped types (truncated, negative or overflowing dims, ranks
 * over BCAST_MAX_RANK) give BCAST_PARSE / BCAST_RANK_LIMIT naming the
 * culprit. */
BCAST_API bcast_status bcast_mlir_type_parse(const char *text, size_t len,
                                             bcast_mlir_type *out,
                                             size_t *consumed,
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
  int32_t rank;     /* BCAST_RANK_UNRANKED for '*'; 0 when not shaped */
  uint32_t dims_at; /* index of its outermost dim in op->dims */
  const char *text; /* the whole type as written */
  size_t text_len;
  const char *elem; /* element type text, NULL when not shaped */
  size_t elem_len;
} bcast_mlir_type_ref;

#define BCAST_MLIR_MAX_OPERANDS 64
/* All dims of one op's operand and result types together. */
#define BCAST_MLIR_MAX_OP_DIMS 256

/* One op statement as the scanner found it.  Offsets and spans point into
 * the scanned text.  The statement runs from its result list ("%r = ...")
 * to the end of its type signature: text[stmt_start, stmt_end). */
typedef struct bcast_mlir_op {
  const char *name; /* "tosa.add" */
  size_t name_len;
  uint32_t line, col; /* 1-based position of the op name */
  int generic;        /* written in generic form */
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

/* Starts a scan of text[0..len) (not copied: it must outlive the scanner)
 * that reports the ops filter accepts (NULL: every op). */
BCAST_API void bcast_mlir_scanner_init(bcast_mlir_scanner *s, const char *text,
                                       size_t len, bcast_mlir_op_filter filter,
                                       void *filter_ctx);

/* Finds the next op the filter accepts, records its statement (results,
 * operand names, attributes) and parses its signature.  Returns
 * BCAST_OK with *found = 1 and op filled, BCAST_OK with *found = 0 at the
 * end of the text, or an error (op->line/col locate it) after which scanning
 * may continue with the next call. */
BCAST_API bcast_status bcast_mlir_scan_next(bcast_mlir_scanner *s,
                                            bcast_mlir_op *op, int *found,
                                            bcast_diag *diag);

/* The profile an op is judged by when the caller gives none: tosa.* ops by
 * BCAST_PROFILE_TOSA, everything else by BCAST_PROFILE_TRAIT. */
BCAST_API bcast_profile bcast_mlir_default_profile(const char *name,
                                                   size_t len);

/* Whether bcast checks ops of this name by default: "test.broadcastable",
 * the TOSA element-wise ops (bcast/op.h) and CHLO's broadcasting ops
 * ("chlo.broadcast_add", ... every name starting "chlo.broadcast_"). */
BCAST_API int bcast_mlir_is_broadcasting_op(const char *name, size_t len);

/* Profiles per op.  A rule maps ops to a profile by a pattern: an exact op
 * name ("mydialect.add"), a dialect ("tosa.*": every op whose name starts
 * "tosa.") or "*" (every op). */
typedef struct bcast_mlir_op_profile {
  const char *pattern;
  size_t pattern_len;
  bcast_profile profile;
} bcast_mlir_op_profile;

/* How bcast_mlir_verify picks an op's profile: the last rule whose pattern
 * matches wins; with no match, tosa.* ops follow BCAST_PROFILE_TOSA
 * (TOSA's rules: equal ranks, TOSA's types) and every other op follows
 * profile (BCAST_PROFILE_TRAIT unless the caller sets it). */
typedef struct bcast_mlir_verify_options {
  bcast_profile profile;
  const bcast_mlir_op_profile *rules;
  size_t n_rules;
  /* Which ops bcast_mlir_verify_text checks (bcast_mlir_verify ignores
   * the rest of these options): the ops bcast checks by default
   * (bcast_mlir_is_broadcasting_op), every op a rule names exactly (a
   * pattern without '*') and the ops named in ops[0..n_ops). */
  const bcast_mlir_span *ops;
  size_t n_ops;
  /* When set, only the ops it accepts among those are checked; the others
   * count as skipped (bcast_emit_lower_module narrows to the ops it
   * lowers this way).  NULL: all of them. */
  bcast_mlir_op_filter only;
  void *only_ctx;
} bcast_mlir_verify_options;

/* Defaults: no rules, other ops by BCAST_PROFILE_TRAIT, the default ops. */
BCAST_API void bcast_mlir_verify_options_init(bcast_mlir_verify_options *opts);

/* Reads one rule "PATTERN=PROFILE" ("tosa.*=trait"; spaces around '='
 * allowed).  out->pattern points into text.  Errors: BCAST_PARSE for a
 * missing '=', an empty pattern or a '*' anywhere but a whole "*" or a
 * final ".*"; BCAST_INVALID_ARGUMENT for an unknown profile. */
BCAST_API bcast_status bcast_mlir_op_profile_parse(const char *text,
                                                   size_t len,
                                                   bcast_mlir_op_profile *out,
                                                   bcast_diag *diag);

/* Whether a rule's pattern matches the op name. */
BCAST_API int bcast_mlir_op_pattern_matches(const char *pattern,
                                            size_t pattern_len,
                                            const char *name, size_t len);

/* The profile opts gives the op named name (opts may be NULL: defaults). */
BCAST_API bcast_profile bcast_mlir_op_profile_of(
    const bcast_mlir_verify_options *opts, const char *name, size_t len);

/* The value of attribute name in the op's properties "<{...}>" or
 * attribute dictionary "{...}" (the properties first): *key gets the
 * entry's name as written and *value its value, trimmed.  Returns 0 when
 * the op has no such entry (key and value untouched). */
BCAST_API int bcast_mlir_op_attr(const bcast_mlir_op *op, const char *name,
                                 bcast_mlir_span *key, bcast_mlir_span *value);

/* Parses a list of integers written as an MLIR attribute value:
 * "array<i64: 0, 2>", "array<i64>", "dense<[0, 2]> : tensor<2xi64>",
 * the splat "dense<1> : tensor<1xi64>" (as many copies as the type's one
 * dim) or "dense<> : tensor<0xi64>".  At most cap values go to dims.
 * Errors: BCAST_PARSE naming what is malformed, BCAST_RANK_LIMIT for more
 * than cap values. */
BCAST_API bcast_status bcast_mlir_i64_list_parse(const char *text, size_t len,
                                                 int64_t *dims, size_t cap,
                                                 size_t *n, bcast_diag *diag);

/* ------------------------------------------------------------------------ */
/* Op attributes (bcast_op_attrs, bcast/op.h) as MLIR writes them. */

/* Reads an MLIR attribute dictionary "{a = ..., b = ...}" (text[0] is
 * '{'; len may run past the closing brace) into attrs.  Entries for
 * attributes op reads are parsed as bcast_op_attr_set; every other entry
 * (a dialect op carries attributes bcast does not model) is skipped.
 * *used is the length through the closing '}' (may be NULL).  Errors:
 * BCAST_PARSE for a malformed dictionary or value. */
BCAST_API bcast_status bcast_op_attrs_parse_mlir(bcast_op_attrs *attrs,
                                                 bcast_op op, const char *text,
                                                 size_t len, size_t *used,
                                                 bcast_diag *diag);

/* Writes scalar as an MLIR literal of element type dtype into buf (cap
 * bytes, NUL-terminated), as arith.constant and TOSA attributes spell it:
 * integers in decimal ("-5"; bool "0" or "1"), floats rounded to dtype and
 * written exactly with a '.' ("-1.5", "6.0", "1.0000000000000001e-05"),
 * infinities as MLIR's hexadecimal bit pattern ("0xFF800000" for -inf in
 * f32).  The value must be one bcast_ew_result_dtype accepts as a CLAMP
 * bound of dtype (BCAST_INVALID_ARGUMENT otherwise, and for NONE);
 * BCAST_OVERFLOW when cap is too small. */
BCAST_API bcast_status bcast_scalar_format_mlir(const bcast_scalar *scalar,
                                                bcast_dtype dtype, char *buf,
                                                size_t cap, bcast_diag *diag);

/* ------------------------------------------------------------------------ */

/* What bcast_mlir_verify decided about one op. */
typedef struct bcast_mlir_verdict {
  /* The profile the op was judged by; BCAST_PROFILE_XLA when its own
   * broadcast_dimensions attribute decided. */
  bcast_profile profile;
  /* The op's broadcast_dimensions as read (n_dims 0 when absent). */
  int has_dims;
  size_t n_dims;
  int64_t dims[BCAST_MAX_RANK];
  /* Where a failure lies: the op name, or the broadcast_dimensions entry
   * when the attribute itself is invalid (1-based; the op's position when
   * the op verifies). */
  uint32_t line, col;
} bcast_mlir_verdict;

/* Verifies an op under the profile opts gives it (see
 * bcast_mlir_verify_options), except that an op other than a TOSA
 * element-wise op that carries a broadcast_dimensions attribute is judged
 * by that attribute, under XLA's explicit rule:
 *   two operands  XLA's binary rule (bcast_xla_binary_shape): the
 *                 lower-rank operand's dims go to the listed result dims
 *                 (one entry per dim of the lower rank, strictly
 *                 increasing, within the higher rank; equal ranks take no
 *                 list or the identity), the other dims become 1, then
 *                 size-1 dims broadcast; the result type must be that shape
 *                 (dynamic dims compatible);
 *   one operand   BroadcastInDim (StableHLO's rule: one entry per operand
 *                 dim, unique, any order; bcast_broadcast_in_dim_check);
 *   other counts  an error at the attribute.
 * An invalid attribute (malformed, wrong count, out of range, repeated,
 * not increasing) fails with BCAST_PARSE or BCAST_INVALID_ARGUMENT located
 * at the attribute (verdict line/col).  opts and verdict may be NULL. */
BCAST_API bcast_status bcast_mlir_verify(const bcast_mlir_op *op,
                                         const bcast_mlir_verify_options *opts,
                                         bcast_mlir_verdict *verdict,
                                         bcast_diag *diag);

/* Verifies a parsed op's broadcasting under a profile.  For known TOSA ops
 * only the broadcast operands take part (tosa.mul's shift and
 * tosa.negate's zero points do not), and the tosa profile follows MLIR 22's
 * TOSA verifiers, message for message.  Other ops treat every operand as a
 * broadcast operand. */
BCAST_API bcast_status bcast_mlir_verify_op(const bcast_mlir_op *op,
                                            bcast_profile profile,
                                            bcast_diag *diag);

/* ------------------------------------------------------------------------ */
/* Verifying a whole text: the one entry point of bcast verify, Python's
 * verify_mlir and bcast lower's verification. */

/* What became of one checked op. */
typedef enum bcast_mlir_outcome {
  BCAST_MLIR_PASSED,      /* the op verifies */
  BCAST_MLIR_FAILED,      /* it does not, or its statement cannot be read */
  BCAST_MLIR_CANNOT_CHECK /* bcast cannot judge it (diag says why); not a
                            * failure.  No op gives it yet. */
} bcast_mlir_outcome;

/* One checked op, as bcast_mlir_verify_text hands it to its callback.
 * The pointers are valid during the call only. */
typedef struct bcast_mlir_checked {
  /* The op as scanned: its name, position and statement always; its
   * signature only when read. */
  const bcast_mlir_op *op;
  /* 0: the statement could not be read (diag has the scanner's error,
   * without the op name in front; verdict.profile is the profile the op
   * would have had). */
  int read;
  bcast_mlir_outcome outcome;
  bcast_status status; /* BCAST_OK when passed */
  /* The profile the op was judged by, where the failure lies (line, col)
   * and the broadcast_dimensions read, as from bcast_mlir_verify. */
  bcast_mlir_verdict verdict;
  const bcast_diag *diag; /* why, when not passed; NULL when passed */
} bcast_mlir_checked;

/* Receives each checked op in source order; returns 0 to go on, anything
 * else to stop the run after this op. */
typedef int (*bcast_mlir_checked_fn)(void *ctx,
                                     const bcast_mlir_checked *checked);

/* How many ops a run met.  seen counts the op statements with results in
 * the text (ops without results, like func.return, are not seen); each
 * is either checked (selected: then passed, failed or cannot_check) or
 * skipped. */
typedef struct bcast_mlir_counts {
  size_t seen;
  size_t checked;
  size_t failed;
  size_t cannot_check;
  size_t skipped;
} bcast_mlir_counts;

/* Finds the ops of text[0..len) that opts selects (see
 * bcast_mlir_verify_options; NULL: the defaults), verifies each with
 * bcast_mlir_verify and hands it to on_op (may be NULL) with ctx.
 * counts (may be NULL) gets the tallies of the run.
 * Returns BCAST_OK when no checked op failed, also when none was checked
 * (counts->checked tells); otherwise the status of the first failure, and
 * diag gets "LINE:COL: " and its text (bcast_mlir_diag_format's, then
 * " [P profile]" when the op was read).  A run that on_op stops covers
 * the ops up to it.  BCAST_INVALID_ARGUMENT for a NULL text with len > 0.
 * Nothing allocates; the run keeps one op and one diagnostic (about 9 KB)
 * on the stack. */
BCAST_API bcast_status bcast_mlir_verify_text(
    const char *text, size_t len, const bcast_mlir_verify_options *opts,
    bcast_mlir_checked_fn on_op, void *ctx, bcast_mlir_counts *counts,
    bcast_diag *diag);

/* The text of a failed op's diagnostic as mlir-opt words it, into buf
 * (snprintf-like: returns the full length, writes at most size bytes
 * with the NUL): MLIR's message with "'OP' op " in front where MLIR puts
 * it (diag->mlir_op_prefix), or, where MLIR has no words for the failure,
 * "'OP' op " and bcast's message.  op NULL (a statement that could not be
 * read): bcast's message alone. */
BCAST_API size_t bcast_mlir_diag_format(const char *op, size_t op_len,
                                        const bcast_diag *diag, char *buf,
                                        size_t size);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_MLIR_H */
