/* Internal: reading an MLIR type into caller-chosen dim storage; positions
 * inside a scanned op. */
#ifndef BCAST_TYPE_MLIR_INTERNAL_H
#define BCAST_TYPE_MLIR_INTERNAL_H

#include "bcast/mlir.h"

/* bcast_mlir_type_parse with the dims written to dims[0..room): out->rank
 * is the full rank even when it exceeds room (then only room dims were
 * stored), so the scanner can parse straight into an op's dim pool and
 * refuse a pool overflow itself.  A rank over BCAST_MAX_RANK is refused as
 * bcast_mlir_type_parse refuses it.  out->dims_at is left to the caller. */
bcast_status bcast__mlir_type_read(const char *t, size_t len,
                                   bcast_mlir_type_ref *out, int64_t *dims,
                                   int32_t room, size_t *consumed,
                                   bcast_diag *diag);
/* The same with the aliases a scan has passed: "!t" stands for its value,
 * as do an element type "!q" and an encoding "#b" (s may be NULL). */
bcast_status bcast__mlir_type_read_in(const bcast_mlir_scanner *s,
                                      const char *t, size_t len,
                                      bcast_mlir_type_ref *out, int64_t *dims,
                                      int32_t room, size_t *consumed,
                                      bcast_diag *diag);

/* bcast_mlir_i64_list_parse; with brackets set it also reads the custom
 * form's "[0, 2]" (a keyword attribute's value). */
bcast_status bcast__mlir_i64_list_read(const char *t, size_t len, int brackets,
                                       int64_t *dims, size_t cap, size_t *n,
                                       bcast_diag *diag);

/* Whether an attribute bcast_mlir_op_attr found is a custom form's
 * keyword ("dims = [1]"), not a dictionary entry. */
static inline int bcast__mlir_attr_is_keyword(const bcast_mlir_op *op,
                                              bcast_mlir_span key) {
  const bcast_mlir_span *a = &op->attrs;
  return op->custom.len > 0 && key.text >= op->custom.text &&
         key.text < op->custom.text + op->custom.len &&
         !(a->len > 0 && key.text >= a->text && key.text < a->text + a->len);
}

/* How many alias hops a use may take ("!a = !b", "!b = tensor<..>"). */
#define BCAST__MLIR_ALIAS_DEPTH 8

/* Resolves an alias use sigil+name (the whole of text[0..len) must be
 * one alias name) through at most BCAST__MLIR_ALIAS_DEPTH hops: *out gets
 * the final value.  Returns 1 when text is an alias use that resolves, 0
 * when it is not an alias use (a dialect name with a '.' not defined as an
 * alias, or text not of that shape), -1 for an undefined alias or too
 * deep a chain (*why says which).  s NULL (no scan): always 0. */
int bcast__mlir_alias_resolve(const bcast_mlir_scanner *s, const char *text,
                              size_t len, bcast_mlir_span *out,
                              const char **why);

/* The line and column of a position at or after a scanned op's name. */
void bcast__mlir_op_position(const bcast_mlir_op *op, const char *at,
                             uint32_t *line, uint32_t *col);

/* Fails out with d's status and a located message: "LINE:COL: " and
 * bcast_mlir_diag_format's text of d for op, then " [P profile]" when op
 * is not NULL (an op that was read and judged by profile).  The message
 * of bcast_mlir_verify_text's and bcast_emit_lower_module's first
 * failure.  out NULL: just returns d's status. */
bcast_status bcast__mlir_failure(bcast_diag *out, uint32_t line, uint32_t col,
                                 const char *op, size_t op_len,
                                 bcast_profile profile, const bcast_diag *d);

/* Finds the statement defining value name[0..len) before op and, when it
 * is a constant ("stablehlo.constant dense<[2, 3]> : tensor<2xi64>",
 * arith.constant, tosa.const, or their generic forms), reads its integers
 * (at most cap into vals, *n of them).  Looks at most 64 KiB back and not
 * beyond the op's function (beyond that, as for any other producer:
 * unknown, 0). */
int bcast__mlir_constant_ints(const bcast_mlir_op *op, bcast_mlir_span name,
                              int64_t *vals, size_t cap, size_t *n);
/* The same constant's value as written: "dense<...> : TYPE" in *value. */
int bcast__mlir_constant_dense(const bcast_mlir_op *op, bcast_mlir_span name,
                               bcast_mlir_span *value);

/* The attribute and constant-operand rules of MLIR 22's TOSA verifiers
 * (src/type/tosa_attrs.c), each after the checks mlir-opt makes first:
 * tosa.clamp's bounds (after its shape and type traits), tosa.mul's float
 * shift (after its element types, before its shapes), tosa.negate's zero
 * points (after its shapes).  BCAST_INVALID_ARGUMENT with mlir-opt's
 * message. */
bcast_status bcast__tosa_clamp_bounds(const bcast_mlir_op *op,
                                      bcast_diag *diag);
bcast_status bcast__tosa_mul_shift(const bcast_mlir_op *op, bcast_diag *diag);
bcast_status bcast__tosa_negate_zero_points(const bcast_mlir_op *op,
                                            bcast_diag *diag);
/* What mlir-opt 22 refuses in an element-wise TOSA op's attributes before
 * its verifier runs: nan_mode as its parser reads it (an identifier naming
 * no mode in the custom form, a value other than the enum in the generic
 * form: BCAST_PARSE; the custom form's other values are dropped, see
 * bcast_mlir_nan_mode_dropped), a clamp bound typed as a float but written
 * as an integer (BCAST_PARSE), and arithmetic_right_shift's required bool
 * round (BCAST_INVALID_ARGUMENT).  In mlir-opt's words; *at (at may be
 * NULL) gets the position mlir-opt reports, or NULL for the op's. */
bcast_status bcast__tosa_attr_syntax(const bcast_mlir_op *op, const char **at,
                                     bcast_diag *diag);
/* The type-compliance checks of MLIR 22's -tosa-validate pass on a TOSA
 * element-wise op that verifies (src/type/tosa_validate.c; see
 * bcast_mlir_verify_options.tosa_validate): BCAST_TYPE with mlir-opt's
 * message; BCAST_OK for any other op. */
bcast_status bcast__tosa_validate(const bcast_mlir_op *op, bcast_diag *diag);
/* Whether a nan_mode value as written is one MLIR 22's custom form drops
 * (not the enum: a string, a number). */
int bcast__mlir_nan_mode_value_dropped(const char *text, size_t len);

#endif
