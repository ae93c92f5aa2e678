/* bcast/emit.h - lowering TOSA element-wise ops to linalg.generic.
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
  /* Lower only these ops (NULL / 0: all 36). */
  const bcast_op *only;
  size_t n_only;
  /* Emit cf.assert checks that every dynamic dim that takes part in a
   * broadcast is 1 or the broadcast size at run time (the RFC leaves two
   * different sizes > 1 undefined). */
  int assert_broadcast;
  /* Name used in assertion messages ("model.mlir"); NULL: "<input>". */
  const char *source_name;
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

#ifdef __cplusplus
}
#endif

#endif /* BCAST_EMIT_H */
