/* bcast/elementwise.h - the element-wise ops (TOSA's 36 and NumPy's),
 * executed on the engine.
 *
 * One entry-point family serves every op and element type: the op is a
 * bcast_op (bcast/op.h), the types are the operands' bcast_dtype.  A plan
 * is prepared once for the operands' shapes, strides and types and the op's
 * attributes, then executed any number of times on new buffers of the same
 * layout; bcast_ew_compute / bcast_ew_compute_into do both in one call.
 * Operands broadcast through stride-0 views; nothing is materialized.
 *
 * Profiles (bcast_ew_options.profile):
 *   BCAST_PROFILE_TOSA   (default) TOSA 1.0.2's attributes and numerics;
 *                        operand ranks must be equal.  Element types:
 *                        options.tables, by default MLIR 22's dialect (its
 *                        extra types computed as its tosa-to-linalg
 *                        computes them), or TOSA 1.0.2's tables.
 *   BCAST_PROFILE_TRAIT  the same types and numerics, ranks expanded with
 *                        leading 1s as the TOSA-to-Linalg RFC's lowering
 *                        accepted.
 *   BCAST_PROFILE_NUMPY  every numeric type (bool, int8..uint64, float16,
 *                        bfloat16, float32, float64) where the op means
 *                        something, with NumPy's results: wrapping
 *                        integers, IEEE floats.  Inputs of different types
 *                        are promoted as NumPy does
 *                        (bcast_op_operand_dtypes): bcast_ew_compute and
 *                        bcast_ew_compute_into convert each input of
 *                        another type once, at its own shape, into a new
 *                        buffer within options.max_bytes; a plan
 *                        (bcast_ew_plan_create) takes inputs of the types
 *                        the op computes in only.  NumPy's own ops
 *                        (BCAST_NUMPY_OP_LIST in bcast/op.h) run here only.
 *                        intdiv stays TOSA's truncating division on every
 *                        integer type (-7 / 2 = -3): NumPy has no
 *                        truncating integer division, and its floor_divide
 *                        (-7 // 2 = -4) is a different op.
 * Other profiles are refused (BCAST_INVALID_ARGUMENT).
 *
 * Where TOSA calls a result unpredictable, bcast computes one documented
 * value (see "Unpredictable results" below); with options.checked it
 * instead returns BCAST_CHECKED, before writing anything, naming the op,
 * the first offending output index (C order) and the operand values.
 *
 * Unpredictable results (same rule in every profile):
 *   add/sub/abs on integers out of range     wraps (two's complement)
 *   negate out of range (incl. -INT32_MIN)   tosa profile: saturates, as the
 *                                            i8/i16 formula does; numpy: wraps
 *   intdiv by 0                              0
 *   intdiv INT_MIN / -1                      INT_MIN (wraps)
 *   shift count outside [0, bits-1]          logical_left_shift and
 *                                            logical_right_shift: 0;
 *                                            arithmetic_right_shift: the
 *                                            sign fill (-1 or 0), no rounding
 *   mul i32 with shift > 0, result out of
 *     i32 range                              the low 32 bits (wraps)
 *   pow outside its domain (a < 0, a == 0
 *     with b <= 0, NaN or inf operands)      C's pow (IEEE: NaN, inf, ...)
 *   cast float -> int of NaN (tosa)          0 (others saturate: defined)
 *   cast float -> int (numpy) of NaN, inf or
 *     out of range                           x86-64's conversion: the
 *                                            integer minimum of the 32- or
 *                                            64-bit conversion, wrapped
 *                                            (uint64 from 2^64 and +inf:
 *                                            0, as NumPy)
 *   integer pow with a negative exponent     trunc(a^b): 1 for a == 1,
 *     (numpy profile)                        +-1 for a == -1, else 0
 *   floor_divide / remainder of integers     a // 0 = a % 0 = 0,
 *     by 0, MIN // -1 (numpy profile)        MIN // -1 = MIN (NumPy 1.24's
 *                                            values; NumPy warns)
 * In checked mode exactly these cases are reported (integer add, sub and
 * abs are checked for every integer type; mul with shift == 0 wraps by
 * TOSA's definition and is never reported).
 */
#ifndef BCAST_ELEMENTWISE_H
#define BCAST_ELEMENTWISE_H

#include "bcast/export.h"
#include "bcast/op.h"
#include "bcast/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Scalar operands.  A bcast_scalar (bcast/op.h) beside the arrays. */

/* Scalar operands (NumPy's Python scalars, NEP 50's "weak" rule, as NumPy
 * 2 and NumPy 1.24 with numpy._set_promotion_state("weak") type them).  A
 * scalar beside arrays of types strong[0..n_strong) takes their result
 * type when its kind (bool < integer < float) is not above that type's;
 * otherwise it is a default type: int64 for an integer (uint64 above
 * INT64_MAX), float64 for a float.  With no arrays, the default types
 * (bool for a bool).  An integer outside the range of the integer type it
 * takes is BCAST_INVALID_ARGUMENT ("Python integer 300 out of bounds for
 * int8", NumPy 2's OverflowError).  For SELECT pass the two values' types
 * for its values and none for its condition. */
BCAST_API bcast_status bcast_scalar_weak_dtype(const bcast_scalar *scalar,
                                               size_t n_strong,
                                               const bcast_dtype *strong,
                                               bcast_dtype *out,
                                               bcast_diag *diag);

/* A scalar operand's type as NumPy types it for op: as
 * bcast_scalar_weak_dtype, except where the numpy profile computes the
 * arrays' types in another type, which NEP 50 types the scalar beside
 * (NumPy converts a Python scalar to the loop's type): divide runs integer
 * and bool arrays in float64 (int8 array / 300 is float64, not an
 * OverflowError), and logical_and, logical_or and logical_xor test every
 * input for nonzero (NumPy's bool loop: a scalar is bool).  Other
 * profiles and ops: bcast_scalar_weak_dtype. */
BCAST_API bcast_status bcast_op_scalar_dtype(
    bcast_op op, bcast_profile profile, const bcast_scalar *scalar,
    size_t n_strong, const bcast_dtype *strong, bcast_dtype *out,
    bcast_diag *diag);

/* A new rank-0 tensor holding scalar as a value of dtype (integers wrap
 * into an integer type, floats round to nearest even, as numpy's cast;
 * bcast_scalar_weak_dtype has already refused what NumPy refuses).  The
 * tensor then enters the element-wise calls as any operand: the numpy
 * profile promotes it with the others. */
BCAST_API bcast_status bcast_scalar_tensor(const bcast_scalar *scalar,
                                           bcast_dtype dtype,
                                           bcast_tensor *out,
                                           bcast_diag *diag);

/* ------------------------------------------------------------------------ */
/* Types.  The attributes (bcast_op_attrs) and their parser are the op
 * table's (bcast/op.h), as is an op's number of data inputs
 * (bcast_op_arity: MUL's shift and NEGATE's zero points are attributes
 * here); an MLIR dictionary is read by bcast_op_attrs_parse_mlir
 * (bcast/mlir.h). */

/* Whether op supports these input types under the profile (tosa, trait or
 * numpy), with these attributes; on success *out is the result type.
 * attrs may be NULL (defaults), except for CAST, which needs cast_to.
 * Checks the input count, that the inputs share one type (SELECT: its
 * condition is bool and the two values share one type), the profile's type
 * list and the attributes the op reads.  Errors: BCAST_TYPE for an
 * unsupported or mismatched type, BCAST_INVALID_ARGUMENT for a bad count,
 * profile or attribute. */
BCAST_API bcast_status
bcast_ew_result_dtype(bcast_op op, bcast_profile profile, size_t n_inputs,
                      const bcast_dtype *inputs, const bcast_op_attrs *attrs,
                      bcast_dtype *out, bcast_diag *diag);

/* Enumerates the supported signatures of op under a profile.  index counts
 * from 0; for each index below the count, fills inputs[0..arity-1] and *out
 * and returns BCAST_OK; at index == count returns BCAST_UNSUPPORTED (end).
 * CAST enumerates its (input, result) pairs.  inputs needs room for 3. */
BCAST_API bcast_status bcast_ew_supported(bcast_op op, bcast_profile profile,
                                          size_t index, bcast_dtype *inputs,
                                          bcast_dtype *out);

/* ------------------------------------------------------------------------ */
/* Execution. */

/* Every default is zero: `bcast_ew_options o = {0};` and
 * bcast_ew_options_init(&o) give the same options, so a field added later
 * keeps its default in code that zeroes the struct. */
typedef struct bcast_ew_options {
  bcast_profile profile; /* BCAST_PROFILE_TOSA (default, 0), TRAIT or
                            NUMPY */
  int checked;           /* nonzero: report unpredictable results */
  int threads;           /* OpenMP threads; <= 0: the OpenMP default.
                            Small outputs run on one thread. */
  /* Optional declared signature, e.g. from an MLIR op: declared[k] is the
   * shape of input k, possibly with '?' or named dims; the bound tensors
   * are checked against it with bcast_bind_check (BCAST_RUNTIME_SHAPE on a
   * mismatch).  declared_result likewise checks the broadcast shape. */
  const bcast_shape *declared;
  const bcast_shape *declared_result;
  /* Optional declared element types: declared_dtypes[k] is input k's,
   * *declared_result_dtype the result's.  An input of another type is
   * BCAST_TYPE (operand located in the diagnostic), checked before the op's
   * own type rules; a result type other than the op gives is BCAST_TYPE.
   * CAST without attrs->cast_to takes *declared_result_dtype as its
   * target. */
  const bcast_dtype *declared_dtypes;
  const bcast_dtype *declared_result_dtype;
  int64_t max_bytes; /* budget for a new output in bytes; 0 (default)
                        means BCAST_DEFAULT_MAX_BYTES, a negative budget
                        refuses every new output */
  /* Optional progress report (bcast_ew_compute only): called with the
   * output bytes written so far and the total, after each piece of about
   * a million elements, from the calling thread or, when OpenMP threads
   * share the work, from the team's master thread only; then once more
   * with done == total.  Pieces finish out of order across threads, so
   * done is a count, not a position.  NULL (the default) costs nothing:
   * the kernels run unwrapped. */
  void (*progress)(void *ctx, int64_t done_bytes, int64_t total_bytes);
  void *progress_ctx;
  /* The element-type tables of the tosa and trait profiles:
   * BCAST_TYPE_TABLES_MLIR (default, 0: MLIR 22's dialect) or
   * BCAST_TYPE_TABLES_TOSA_1_0 (bcast/op.h). */
  bcast_type_tables tables;
  /* Optional: where the one-call forms (and the tiles of bcast/save.h)
   * OR the BCAST_FPE_* bits of the errors their kernels met (see "Error
   * states" below).  NULL (the default) does not look at the
   * floating-point flags. */
  unsigned *fp_errors;
} bcast_ew_options;

/* Error states.  The errors an execution met, as NumPy's four classes
 * (np.seterr's divide, over, under, invalid) and with NumPy's bit values
 * (NPY_FPE_*).  Floating-point errors are the IEEE flags the kernels raise,
 * read after the run on every thread that took part (each thread's flags
 * are cleared when it starts on the run; the caller's are left as they
 * were), never in a second pass over the data.  As NumPy's loops, the
 * comparisons, maximum, minimum, fmax, fmin, clamp, select and the
 * logical ops report nothing for NaN operands.  Integer floor_divide and
 * remainder by 0 report BCAST_FPE_DIVIDE, signed MIN // -1
 * BCAST_FPE_OVERFLOW (NumPy's warnings); other integer overflow wraps
 * silently, as NumPy's array loops. */
#define BCAST_FPE_DIVIDE 1u
#define BCAST_FPE_OVERFLOW 2u
#define BCAST_FPE_UNDERFLOW 4u
#define BCAST_FPE_INVALID 8u

/* Sets *options to the defaults (the same as zeroing it). */
BCAST_API void bcast_ew_options_init(bcast_ew_options *options);

typedef struct bcast_ew_plan bcast_ew_plan;

/* Prepares op over inputs[0..n_inputs-1] (their dtype, rank, shape and
 * stride_bytes; data is not read).  out describes the output's layout:
 * NULL means a new C-contiguous tensor (bcast_ew_plan_alloc_output makes
 * one); otherwise out must have exactly the broadcast shape and the result
 * type, any strides.  options may be NULL (defaults).  Shape errors are
 * the shape algebra's (BCAST_INCOMPATIBLE, BCAST_RANK_MISMATCH with
 * "operands don't have matching ranks" in the tosa profile); size-0 dims
 * are refused in the tosa and trait profiles.  *plan is NULL on failure. */
BCAST_API bcast_status bcast_ew_plan_create(
    bcast_ew_plan **plan, bcast_op op, const bcast_op_attrs *attrs,
    size_t n_inputs, const bcast_tensor *inputs, const bcast_tensor *out,
    const bcast_ew_options *options, bcast_diag *diag);

/* Frees a plan made by bcast_ew_plan_create; NULL is allowed. */
BCAST_API void bcast_ew_plan_destroy(bcast_ew_plan *plan);

/* The output layout the plan writes (data == NULL, owner == NULL). */
BCAST_API const bcast_tensor *bcast_ew_plan_output(const bcast_ew_plan *plan);

/* A new owned C-contiguous tensor for the plan's output; fails with
 * BCAST_UNSUPPORTED when the plan was built for a caller's strided out,
 * and BCAST_BUDGET beyond options.max_bytes. */
BCAST_API bcast_status bcast_ew_plan_alloc_output(const bcast_ew_plan *plan,
                                                  bcast_tensor *out,
                                                  bcast_diag *diag);

/* Executes the plan: out_data and in_data[k] point at element [0..0] of
 * buffers laid out exactly as planned.  The output may be an input's
 * buffer when that input has the output's shape and strides (in place);
 * any other overlap is undefined.  Never allocates.  BCAST_CHECKED (checked
 * plans only) leaves the output untouched. */
BCAST_API bcast_status bcast_ew_plan_execute(const bcast_ew_plan *plan,
                                             void *out_data,
                                             const void *const *in_data,
                                             bcast_diag *diag);

/* As execute, with tensors: checks that each has the planned dtype, shape
 * and strides, and that out does not partly overlap an input. */
BCAST_API bcast_status bcast_ew_plan_run(const bcast_ew_plan *plan,
                                         const bcast_tensor *inputs,
                                         const bcast_tensor *out,
                                         bcast_diag *diag);

/* As execute and run, ORing into *fp_errors the BCAST_FPE_* bits of the
 * errors this execution met (see "Error states"). */
BCAST_API bcast_status bcast_ew_plan_execute_fpe(const bcast_ew_plan *plan,
                                                 void *out_data,
                                                 const void *const *in_data,
                                                 unsigned *fp_errors,
                                                 bcast_diag *diag);
BCAST_API bcast_status bcast_ew_plan_run_fpe(const bcast_ew_plan *plan,
                                             const bcast_tensor *inputs,
                                             const bcast_tensor *out,
                                             unsigned *fp_errors,
                                             bcast_diag *diag);

/* One call: plan, allocate a new C-contiguous *result, execute.  On
 * failure *result is released (empty). */
BCAST_API bcast_status
bcast_ew_compute(bcast_op op, const bcast_op_attrs *attrs, size_t n_inputs,
                 const bcast_tensor *inputs, bcast_tensor *result,
                 const bcast_ew_options *options, bcast_diag *diag);

/* One call into a caller's tensor (out=): exactly the broadcast shape and
 * result type, any strides; may be an input with the same shape and
 * strides (in place). */
BCAST_API bcast_status bcast_ew_compute_into(
    bcast_op op, const bcast_op_attrs *attrs, size_t n_inputs,
    const bcast_tensor *inputs, const bcast_tensor *out,
    const bcast_ew_options *options, bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_ELEMENTWISE_H */
