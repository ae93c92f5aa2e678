/* bcast/mlir.h - MLIR types and operation lines.
 *
 * The parser reads just enough MLIR to check broadcasting: builtin shaped
 * types (tensor<...>, vector<...>, with a tensor's encoding such as
 * #stablehlo.bounds<...>) and operations in generic
 * (`%r = "tosa.add"(%a, %b) : (T0, T1) -> R`) or custom
 * (`%r = tosa.add %a, %b : (T0, T1) -> R`,
 * `%r = stablehlo.broadcast_in_dim %x, dims = [1] : (T) -> R`) form,
 * anywhere in a .mlir file.  Type and attribute aliases (`!t = tensor<..>`,
 * `#b = #stablehlo.bounds<..>` at the start of a line) are read as the
 * scan passes them and stand for their value after it.  Element types
 * (f32, complex<f32>, !quant.uniform<...>) are kept as text.  Nothing
 * allocates: parsed types point into the caller's text, which must outlive
 * them.
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
  /* A tensor's encoding attribute ("#stablehlo.bounds<10, ?>"), aliases
   * resolved; NULL when it has none. */
  const char *encoding;
  size_t encoding_len;
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
  const char *encoding; /* as in bcast_mlir_type */
  size_t encoding_len;
} bcast_mlir_type_ref;

#define BCAST_MLIR_MAX_OPERANDS 64
/* All dims of one op's operand and result types together. */
#define BCAST_MLIR_MAX_OP_DIMS 256

struct bcast_mlir_scanner;

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
  /* The custom form's text between the op name and the signature's ':'
   * (operands, keyword attributes such as "dims = [1]", the dictionary);
   * len 0 in generic form. */
  bcast_mlir_span custom;
  /* The scanner that found it: its text and the aliases defined before
   * the op.  Valid while the scanner is. */
  const struct bcast_mlir_scanner *scanner;
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

/* A type alias ("!t = tensor<2xf32>": sigil '!', name "t") or attribute
 * alias ("#b = #stablehlo.bounds<10>": sigil '#') as defined in the text. */
typedef struct bcast_mlir_alias {
  char sigil;
  const char *name; /* after the sigil */
  size_t name_len;
  const char *value;
  size_t value_len;
} bcast_mlir_alias;

#define BCAST_MLIR_MAX_ALIASES 128

typedef struct bcast_mlir_scanner {
  const char *text;
  size_t len;
  size_t pos;
  uint32_t line;
  size_t line_start;
  bcast_mlir_op_filter filter;
  void *filter_ctx;
  /* The aliases the scan has passed, in order (a later definition of a
   * name wins); aliases_dropped counts those beyond the table, whose uses
   * are parse errors naming the limit. */
  size_t n_aliases;
  size_t aliases_dropped;
  bcast_mlir_alias aliases[BCAST_MLIR_MAX_ALIASES];
} bcast_mlir_scanner;

/* The value of the alias sigil+name[0..len) the scan has passed (the
 * latest definition), or 0.  s may be NULL (no aliases). */
BCAST_API int bcast_mlir_alias_lookup(const bcast_mlir_scanner *s, char sigil,
                                      const char *name, size_t len,
                                      bcast_mlir_span *value);

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
 * the TOSA element-wise ops (bcast/op.h), StableHLO's broadcasting ops
 * (stablehlo.broadcast, stablehlo.broadcast_in_dim,
 * stablehlo.dynamic_broadcast_in_dim) and CHLO's ("chlo.broadcast_add",
 * ... every name starting "chlo.broadcast_"). */
BCAST_API int bcast_mlir_is_broadcasting_op(const char *name, size_t len);

/* The dialects whose broadcasting ops bcast checks by default, as bits
 * of bcast_mlir_verify_options.off_dialects. */
#define BCAST_MLIR_DIALECT_TOSA 1u
#define BCAST_MLIR_DIALECT_STABLEHLO 2u
#define BCAST_MLIR_DIALECT_CHLO 4u

/* The dialect bit of an op name ("stablehlo.add": STABLEHLO), 0 for any
 * other dialect. */
BCAST_API unsigned bcast_mlir_dialect_of(const char *name, size_t len);
/* The bit of a dialect name ("tosa", "stablehlo", "chlo"), 0 if unknown. */
BCAST_API unsigned bcast_mlir_dialect_parse(const char *name, size_t len);

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
  /* BCAST_MLIR_DIALECT_* bits: these dialects' ops are not checked by
   * default (still when named in ops or by a rule). */
  unsigned off_dialects;
  /* CHLO ops that carry broadcast_dimensions follow XLA's rule (the
   * strict reading: an illegal list is an error) instead of CHLO's
   * verifier, which infers an unranked result for an illegal list and so
   * accepts any result type. */
  int chlo_xla_rule;
  /* TOSA element-wise ops judged by the tosa profile also go through the
   * type-compliance checks of MLIR 22's validation pass, as mlir-opt
   * -tosa-attach-target="profiles=pro_int,pro_fp extensions=int16,int4,
   * bf16,fp8e4m3,fp8e5m2,..." -tosa-validate="strict-op-spec-alignment"
   * runs them (every extension but int64): an op that verifies is refused
   * when an element type is not TOSA's ("is not profile-aligned: element
   * type 'f64' is not legal"), when its signature needs the int64
   * extension, or when it is in no profile's or extension's table ("...
   * got (i1,i1,i1), did you mean (i32,i32,i32)? ..."), in mlir-opt's
   * words (docs/cli.md). */
  int tosa_validate;
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
 * attribute dictionary "{...}" (the properties first), or else in the
 * custom form's keyword StableHLO prints for it ("dims = [1]" for
 * broadcast_dimensions, "sizes = [2]" for broadcast_sizes): *key gets the
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

/* Whether op (tosa.clamp, tosa.maximum or tosa.minimum in the custom form)
 * carries a nan_mode that MLIR 22's parser drops, keeping PROPAGATE: a
 * value other than the enum, such as the older string "IGNORE" or a
 * number.  *value (may be NULL) gets the value as written.  verify and
 * lower follow MLIR 22 (PROPAGATE); the CLI warns about such an op. */
BCAST_API int bcast_mlir_nan_mode_dropped(const bcast_mlir_op *op,
                                          bcast_mlir_span *value);

/* Reads an MLIR attribute dictionary "{a = ..., b = ...}" (text[0] is
 * '{'; len may run past the closing brace) into attrs.  Entries for
 * attributes op reads are parsed as bcast_op_attr_set; every other entry
 * (a dialect op carries attributes bcast does not model) is skipped.
 * *used is the length through the closing '}' (may be NULL).  A nan_mode
 * other than the enum (the string "IGNORE") is skipped, as MLIR 22 drops
 * it.  Errors: BCAST_PARSE for a malformed dictionary or value. */
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
  /* The op is outside what bcast models (an encoding other than
   * #stablehlo.bounds, a quantized type it cannot read, ...): no verdict;
   * bcast_mlir_verify returns BCAST_UNSUPPORTED and diag says why. */
  int cannot_check;
  /* MLIR reports a second error at the op after the first: "failed to
   * infer returned types" (StableHLO's and CHLO's inferred result types). */
  int infer_failed;
} bcast_mlir_verdict;

/* Verifies an op.  StableHLO's broadcasting ops, its element-wise ops
 * (same shapes) and CHLO's chlo.broadcast_* ops are judged as their own
 * MLIR verifiers judge them, in their words (docs/stablehlo.md), unless a
 * rule of opts matches the op or, for a CHLO op with broadcast_dimensions,
 * opts->chlo_xla_rule is set; a type outside that model gives
 * BCAST_UNSUPPORTED with verdict->cannot_check set.  Other ops follow the
 * profile opts gives them (see bcast_mlir_verify_options), except that an
 * op other than a TOSA element-wise op that carries a broadcast_dimensions
 * attribute is judged by that attribute, under XLA's explicit rule:
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
  BCAST_MLIR_CANNOT_CHECK /* outside bcast's model (diag says why,
                            * "cannot check: ..."); not a failure */
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
  /* Of the skipped: ops of a dialect bcast checks (tosa, stablehlo, chlo)
   * that it does not model or that the options left out. */
  size_t skipped_known;
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
