/* bcast/emit.h - lowering TOSA element-wise ops, StableHLO's
 * broadcast_in_dim family and CHLO's broadcasting ops to linalg.
 *
 * The emitter reads an MLIR module as text and writes it back with every
 * TOSA element-wise op (the 36 ops of bcast/op.h, generic or custom form)
 * replaced by the IR the TOSA-to-Linalg RFC specifies: tensor.empty sized
 * from the inferred broadcast shape (tensor.dim for dynamic dims), one
 * linalg.generic whose indexing maps use a constant 0 result for each
 * statically broadcast dim, arith.maxui / arith.cmpi / scf.if with a
 * broadcasting copy for each dynamic dim that may be 1 at run time,
 * tensor.expand_shape for rank expansion (profiles that allow it),
 * tensor.cast when the declared result type differs from the inferred one.
 * Everything else in the text is copied through byte for byte.
 *
 * StableHLO's broadcast_in_dim, dynamic_broadcast_in_dim and broadcast
 * become tensor.empty (dynamic sizes from tensor.dim of the operand, or
 * tensor.extract of output_dimensions) and one linalg.broadcast, or one
 * linalg.generic reading the operand through a map with constant 0 for
 * dims that expand, or, where a dynamic operand dim expands only if its
 * runtime size is 1, one linalg.generic whose body selects index 0 for it
 * and reads with tensor.extract.  CHLO's broadcast_add, _subtract,
 * _multiply, _divide, _remainder, _maximum, _minimum, _and, _or, _xor,
 * _power, _atan2 and _compare (EQ NE GE GT LE LT; not TOTALORDER) take the
 * TOSA ops' structure with a one-instruction body (docs/cli.md, `bcast
 * lower`, lists the instructions); broadcast_dimensions places the
 * lower-rank operand.  opts->only (TOSA ops) leaves them out.
 *
 * Output goes through a caller-supplied sink; the library opens no files.
 * Output is deterministic: SSA names are "%<prefix><op number>_<role>",
 * where the prefix is the first of "bc", "bc_", "bc__", ... that the input
 * never uses after a '%', and affine maps are aliases "#bcast_map<N>"
 * (likewise made unique) numbered in order of first use and written at the
 * top of the output.
 *
 * Design notes.
 *   Numerics: the scalar bodies follow TOSA 1.0.2 and, where MLIR 22's own
 *   tosa-to-linalg makes a choice, the same one (src/emit/body.c says which).
 *   tosa.mul of i32 with a shift does not use tosa.apply_scale: it computes
 *   (a*b + 2^(shift-1)) >> shift in i64 and keeps the low 32 bits, so the
 *   output needs no TOSA pass.  The shift and negate's zero points are read
 *   once with tensor.extract and captured by the body.
 *   Runtime sizes: a dynamic dim that may be 1 is materialized as in the RFC
 *   (scf.if + broadcasting copy).  There is no --no-materialize: a generic
 *   whose maps depend on a runtime test needs one linalg.generic per
 *   combination of outcomes (2^k for k dims in question) and was not worth
 *   its code size here; the copy is only taken when a size really is 1.
 *   Size-0 runtime dims are outside TOSA (the RFC's arith.maxui treats 0
 *   with 1 as 1); --assert-broadcast reports them.
 *   Running the output: tests/diff/test_lower_e2e.py compiles it with
 *   mlir-opt 22's pipeline
 *     func.func(tosa-to-arith{include-apply-rescale=true}),
 *     one-shot-bufferize{bufferize-function-boundaries},
 *     func.func(convert-linalg-to-loops), convert-scf-to-cf,
 *     expand-strided-metadata, lower-affine, finalize-memref-to-llvm,
 *     convert-math-to-llvm, convert-math-to-libm, convert-arith-to-llvm,
 *     convert-index-to-llvm, convert-cf-to-llvm, convert-func-to-llvm,
 *     reconcile-unrealized-casts
 *   (math-to-llvm must come before math-to-libm, which otherwise rejects
 *   math.ctlz) and runs it with mlir-runner.
 */
#ifndef BCAST_EMIT_H
#define BCAST_EMIT_H

#include "bcast/explicit.h"
#include "bcast/export.h"
#include "bcast/mlir.h"
#include "bcast/op.h"
#include "bcast/shape.h"
#include "bcast/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Receives output text.  Returns BCAST_OK, or an error that stops the
 * emitter and is returned to the caller (BCAST_IO for a failed write). */
typedef bcast_status (*bcast_emit_write_fn)(void *ctx, const char *data,
                                            size_t len);

/* One op that cannot be lowered, as bcast verify reports it: the op, where
 * the failure lies, the profile it was judged by and the diagnostic (from
 * bcast_mlir_verify when verified == 0, with its mlir_message; from the
 * lowering's own checks when verified == 1).  op_name is NULL for a
 * statement the scanner could not read. */
typedef struct bcast_emit_failure {
  const char *op_name;
  size_t op_name_len;
  uint32_t line, col;
  bcast_profile profile;
  int verified;
  const bcast_diag *diag;
} bcast_emit_failure;

/* Receives each failure in source order. */
typedef void (*bcast_emit_failure_fn)(void *ctx,
                                      const bcast_emit_failure *failure);

typedef struct bcast_emit_options {
  /* Shape rules, as bcast_mlir_verify_options picks them: the last rule
   * of rules[0..n_rules) matching the op's name wins; otherwise tosa.* ops
   * follow the tosa profile (equal ranks) and other ops profile (used only
   * when profile_given).  The trait, mlir and numpy profiles allow
   * operands of lower rank, which are expanded with tensor.expand_shape. */
  int profile_given;
  bcast_profile profile;
  const bcast_mlir_op_profile *rules;
  size_t n_rules;
  /* Called for every op that cannot be lowered; the emitter then goes on
   * to the next op and writes nothing at the end.  NULL: stop at the first
   * failure. */
  bcast_emit_failure_fn on_failure;
  void *failure_ctx;
  /* Lower only these ops (NULL / 0: all of the op table's TOSA ops). */
  const bcast_op *only;
  size_t n_only;
  /* Emit cf.assert checks that every dynamic dim that takes part in a
   * broadcast is 1 or the broadcast size at run time (the RFC leaves two
   * different sizes > 1 undefined). */
  int assert_broadcast;
  /* Name used in assertion messages ("model.mlir"); NULL: "<input>". */
  const char *source_name;
  /* The element-type tables of TOSA ops: BCAST_TYPE_TABLES_MLIR (default,
   * 0: what MLIR 22's tosa-to-linalg lowers) or BCAST_TYPE_TABLES_TOSA_1_0
   * (bcast/op.h). */
  bcast_type_tables tables;
} bcast_emit_options;

/* Defaults: per-op profile, all ops, no assertions.  Every default is
 * zero: `bcast_emit_options o = {0};` gives the same options. */
BCAST_API void bcast_emit_options_init(bcast_emit_options *opts);

typedef struct bcast_emit_stats {
  size_t ops_lowered; /* op statements replaced */
  size_t maps;        /* distinct affine maps written */
  size_t copies;      /* scf.if broadcasting copies emitted */
  size_t asserts;     /* cf.assert checks emitted */
} bcast_emit_stats;

/* Lowers the module text[0..len) and writes the result through write.
 * Nothing is written unless every selected op lowers: on failure the
 * diagnostic names the first failing op by line and column ("3:10:
 * 'tosa.add' op ..."), after opts->on_failure (when set) has received
 * every failure.
 * Errors: BCAST_PARSE (an op statement bcast cannot read), the shape
 * statuses of bcast_shape_verify (an op that does not verify under its
 * profile), BCAST_TYPE (element types the op does not support in the tosa
 * profile, or a declared result element type that is not the op's),
 * BCAST_UNSUPPORTED (unranked or vector operands, a result of another rank
 * than the inferred one), BCAST_NO_MEMORY, BCAST_OVERFLOW, and whatever the
 * sink returns.  stats may be NULL. */
BCAST_API bcast_status bcast_emit_lower_module(const char *text, size_t len,
                                               const bcast_emit_options *opts,
                                               bcast_emit_write_fn write,
                                               void *ctx,
                                               bcast_emit_stats *stats,
                                               bcast_diag *diag);

/* ------------------------------------------------------------------------ */
/* PyTensor's partial form of broadcast_in_dim, as a function of its own. */

typedef enum bcast_emit_form {
  BCAST_EMIT_LINALG,   /* linalg, as bcast_emit_lower_module lowers it */
  BCAST_EMIT_STABLEHLO /* stablehlo.dynamic_broadcast_in_dim (generic form)
                        * of a tensor.from_elements of the sizes */
} bcast_emit_form;

typedef struct bcast_emit_partial {
  bcast_shape operand; /* dims BCAST_DIM_DYNAMIC ('?') or sizes */
  const char *elem;    /* element type ("f32", "int8", ...); NULL: f32 */
  const int64_t *dims; /* broadcast_dimensions, one per operand dim */
  size_t n_dims;
  /* The sizes of the new output dims and of operand dims of size 1 that
   * expand (bcast_broadcast_in_dim_partial); BCAST_DIM_DYNAMIC: the size
   * is an index argument of the function. */
  const bcast_dim_size *sizes;
  size_t n_sizes;
  bcast_emit_form form;
  int assert_broadcast; /* linalg: cf.assert each dynamic operand dim that
                         * may expand is 1 or its output size */
  const char *func_name; /* NULL: "broadcast_in_dim" */
} bcast_emit_partial;

/* All zero: an f32 operand of rank 0, no dims, linalg. */
BCAST_API void bcast_emit_partial_init(bcast_emit_partial *p);

/* Writes one function
 *   func.func @NAME(%operand: tensor<..>, %size<O>: index, ...)
 *       -> tensor<..>
 * whose result is the partial form's broadcast: output dims the operand
 * gives have its sizes (tensor.dim for dynamic ones), the others the sizes
 * given, '?' ones from the index argument %size<O> (O: the output dim),
 * in output-dim order.  In the linalg form the operand dims the form
 * knows expand (static 1s given a size) read index 0 and dims it knows
 * keep their size read straight; a dynamic operand dim given a size
 * expands at run time when it is 1.  The stablehlo form records the same
 * knowledge in known_expanding_dimensions /
 * known_nonexpanding_dimensions.  Map aliases come first.
 * Errors: those of bcast_broadcast_in_dim_partial, BCAST_TYPE for an
 * element type bcast does not lower (unsigned, strings),
 * BCAST_INVALID_ARGUMENT for a symbolic dim or a function name that is
 * not an MLIR identifier, BCAST_NO_MEMORY and the sink's status. */
BCAST_API bcast_status bcast_emit_broadcast_in_dim_partial(
    const bcast_emit_partial *p, bcast_emit_write_fn write, void *ctx,
    bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_EMIT_H */
