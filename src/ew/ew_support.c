/* Which element types each op takes, per profile, and the attribute checks.
 *
 * The type lists come from one table (ew_ops.h).  bcast_ew_supported walks
 * the same table, so what the enumeration returns is by construction what
 * bcast_ew_result_dtype accepts; the coverage test then proves each such
 * signature has a kernel. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/diag.h"
#include "ew/ew_attrs.h"
#include "ew/ew_ops.h"

const ew_op_row bcast__ew_ops[BCAST_OP_COUNT] = {
#define EW_ROW_(id, tosa, numpy, rule) \
  [BCAST_OP_##id] = {(tosa), (numpy), EW_RESULT_##rule},
    EW_OP_LIST(EW_ROW_)
#undef EW_ROW_
};

/* TOSA 1.0.2 CAST modes (tosa.xml): bool <-> i8/i16/i32; integer widening
 * and narrowing; integers -> fp16/bf16/fp32; fp16/fp32 -> integers;
 * bf16 -> integers and fp32; fp16 <-> fp32; fp32 -> bf16. */
const uint32_t bcast__ew_tosa_cast[BCAST_DTYPE_COUNT] = {
    [BCAST_BOOL] = EW_T_TINT,
    [BCAST_INT8] = EW_T_BOOL | EW_M(INT16) | EW_M(INT32) | EW_T_TFP,
    [BCAST_INT16] = EW_T_BOOL | EW_M(INT8) | EW_M(INT32) | EW_T_TFP,
    [BCAST_INT32] = EW_T_BOOL | EW_M(INT8) | EW_M(INT16) | EW_T_TFP,
    [BCAST_FLOAT16] = EW_T_TINT | EW_M(FLOAT32),
    [BCAST_BFLOAT16] = EW_T_TINT | EW_M(FLOAT32),
    [BCAST_FLOAT32] = EW_T_TINT | EW_M(FLOAT16) | EW_M(BFLOAT16),
};

static int profile_known(bcast_profile profile) {
  return profile == BCAST_PROFILE_TOSA || profile == BCAST_PROFILE_TRAIT ||
         profile == BCAST_PROFILE_NUMPY;
}

uint32_t bcast__ew_types(bcast_op op, bcast_profile profile) {
  if ((unsigned)op >= BCAST_OP_COUNT || !profile_known(profile)) return 0;
  return profile == BCAST_PROFILE_NUMPY ? bcast__ew_ops[op].numpy_types
                                        : bcast__ew_ops[op].tosa_types;
}

/* The result types CAST offers for input type in. */
static uint32_t cast_targets(bcast_dtype in, bcast_profile profile) {
  if (profile == BCAST_PROFILE_NUMPY)
    return (EW_T_ALL & (1u << in)) ? EW_T_ALL : 0;
  return bcast__ew_tosa_cast[in];
}

void bcast_op_attrs_init(bcast_op_attrs *attrs) {
  memset(attrs, 0, sizeof *attrs);
  attrs->min_val.kind = BCAST_SCALAR_NONE;
  attrs->max_val.kind = BCAST_SCALAR_NONE;
  attrs->nan_mode = BCAST_NAN_PROPAGATE;
  attrs->cast_to = BCAST_DTYPE_COUNT;
}

int bcast_ew_arity(bcast_op op) {
  if ((unsigned)op >= BCAST_OP_COUNT) return 0;
  return bcast_op_get(op)->broadcast_operands;
}

/* "int32, float16, bfloat16" for a type mask. */
static void format_types(uint32_t mask, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int d = 0; d < BCAST_DTYPE_COUNT; d++)
    if (mask & (1u << d))
      bcast__append(buf, cap, &len, "%s%s", len ? ", " : "",
                    bcast_dtype_name((bcast_dtype)d));
  if (len == 0) bcast__append(buf, cap, &len, "none");
}

static bcast_status check_attrs(bcast_op op, bcast_profile profile,
                                bcast_dtype in, const bcast_op_attrs *a,
                                bcast_diag *diag) {
  const char *name = bcast_op_get(op)->name;
  const int numpy = profile == BCAST_PROFILE_NUMPY;
  switch (op) {
  case BCAST_OP_MUL:
    if (a->shift < 0 || a->shift > 63)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.mul: shift %d is outside 0..63", (int)a->shift);
    if (a->shift != 0 && in != BCAST_INT32)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.mul: shift must be 0 for %s inputs (only "
                         "int32 products are shifted), not %d",
                         bcast_dtype_name(in), (int)a->shift);
    break;
  case BCAST_OP_CLAMP: {
    /* The bounds have the data's type (one rule: ew_attrs.c). */
    ew_bounds bounds;
    bcast_status status = bcast__ew_clamp_bounds(a, in, &bounds, diag);
    if (status != BCAST_OK) return status;
  }
    /* fall through - CLAMP also reads nan_mode */
  case BCAST_OP_MAXIMUM:
  case BCAST_OP_MINIMUM:
    if (a->nan_mode != BCAST_NAN_PROPAGATE && a->nan_mode != BCAST_NAN_IGNORE)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.%s: nan_mode %d is neither PROPAGATE nor "
                         "IGNORE",
                         name, (int)a->nan_mode);
    break;
  case BCAST_OP_NEGATE:
    if (a->input_zp == 0 && a->output_zp == 0) break;
    if (numpy)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.negate: zero points must be 0 in the numpy "
                         "profile (input_zp %lld, output_zp %lld)",
                         (long long)a->input_zp, (long long)a->output_zp);
    if (in != BCAST_INT8)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.negate: zero points must be 0 for %s "
                         "(input_zp %lld, output_zp %lld); only int8 has them",
                         bcast_dtype_name(in), (long long)a->input_zp,
                         (long long)a->output_zp);
    if (a->input_zp < INT8_MIN || a->input_zp > INT8_MAX ||
        a->output_zp < INT8_MIN || a->output_zp > INT8_MAX)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.negate: int8 zero points must be within "
                         "-128..127 (input_zp %lld, output_zp %lld)",
                         (long long)a->input_zp, (long long)a->output_zp);
    break;
  default:
    break;
  }
  return BCAST_OK;
}

bcast_status bcast_ew_result_dtype(bcast_op op, bcast_profile profile,
                                   size_t n_inputs, const bcast_dtype *inputs,
                                   const bcast_op_attrs *attrs,
                                   bcast_dtype *out, bcast_diag *diag) {
  if ((unsigned)op >= BCAST_OP_COUNT)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT, "unknown op %d", (int)op);
  const char *name = bcast_op_get(op)->name;
  if (!profile_known(profile))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "tosa.%s: the %s profile does not execute ops (use "
                       "tosa, trait or numpy)",
                       name, bcast_profile_name(profile));
  const int arity = bcast_ew_arity(op);
  if (n_inputs != (size_t)arity)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "tosa.%s takes %d input%s, not %zu", name, arity,
                       arity == 1 ? "" : "s", n_inputs);
  for (size_t k = 0; k < n_inputs; k++)
    if ((unsigned)inputs[k] >= BCAST_DTYPE_COUNT)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.%s: operand #%zu has no valid element type",
                         name, k);

  /* The data type: SELECT's values follow its bool condition. */
  size_t first = 0;
  if (op == BCAST_OP_SELECT) {
    if (inputs[0] != BCAST_BOOL)
      return bcast__fail(diag, BCAST_TYPE,
                         "tosa.select: the condition (operand #0) must be "
                         "bool, not %s",
                         bcast_dtype_name(inputs[0]));
    first = 1;
  }
  const bcast_dtype in = inputs[first];
  for (size_t k = first + 1; k < n_inputs; k++)
    if (inputs[k] != in)
      return bcast__fail(diag, BCAST_TYPE,
                         "tosa.%s: operand #%zu is %s but operand #%zu is %s; "
                         "inputs must share one element type (bcast does not "
                         "promote types)",
                         name, k, bcast_dtype_name(inputs[k]), first,
                         bcast_dtype_name(in));
  const uint32_t types = bcast__ew_types(op, profile);
  if (!(types & (1u << in))) {
    char list[512];
    format_types(types, list, sizeof list);
    return bcast__fail(diag, BCAST_TYPE,
                       "tosa.%s does not take %s in the %s profile (it takes "
                       "%s)",
                       name, bcast_dtype_name(in), bcast_profile_name(profile),
                       list);
  }

  bcast_op_attrs defaults;
  if (!attrs) {
    bcast_op_attrs_init(&defaults);
    attrs = &defaults;
  }
  bcast_status status = check_attrs(op, profile, in, attrs, diag);
  if (status != BCAST_OK) return status;

  bcast_dtype result = in;
  switch (bcast__ew_ops[op].result) {
  case EW_RESULT_SAME:
    break;
  case EW_RESULT_BOOL:
    result = BCAST_BOOL;
    break;
  case EW_RESULT_MUL:
    if (profile != BCAST_PROFILE_NUMPY &&
        (in == BCAST_INT8 || in == BCAST_INT16))
      result = BCAST_INT32;
    break;
  case EW_RESULT_CAST: {
    const bcast_dtype to = attrs->cast_to;
    if ((unsigned)to >= BCAST_DTYPE_COUNT)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "tosa.cast needs a result type (attribute 'to')");
    const uint32_t targets = cast_targets(in, profile);
    if (!(targets & (1u << to))) {
      char list[512];
      format_types(targets, list, sizeof list);
      return bcast__fail(diag, BCAST_TYPE,
                         "tosa.cast has no %s -> %s mode in the %s profile "
                         "(%s casts to %s)",
                         bcast_dtype_name(in), bcast_dtype_name(to),
                         bcast_profile_name(profile), bcast_dtype_name(in),
                         list);
    }
    result = to;
    break;
  }
  }
  *out = result;
  return BCAST_OK;
}

bcast_status bcast_ew_supported(bcast_op op, bcast_profile profile,
                                size_t index, bcast_dtype *inputs,
                                bcast_dtype *out) {
  const uint32_t types = bcast__ew_types(op, profile);
  if (!types) return BCAST_UNSUPPORTED;
  const int arity = bcast_ew_arity(op);
  size_t seen = 0;
  for (int d = 0; d < BCAST_DTYPE_COUNT; d++) {
    if (!(types & (1u << d))) continue;
    const bcast_dtype in = (bcast_dtype)d;
    uint32_t results;
    if (op == BCAST_OP_CAST) {
      results = cast_targets(in, profile);
    } else {
      bcast_dtype sig[3] = {in, in, in}, r;
      if (op == BCAST_OP_SELECT) sig[0] = BCAST_BOOL;
      if (bcast_ew_result_dtype(op, profile, (size_t)arity, sig, NULL, &r,
                                NULL) != BCAST_OK)
        continue;
      results = 1u << r;
    }
    for (int r = 0; r < BCAST_DTYPE_COUNT; r++) {
      if (!(results & (1u << r))) continue;
      if (seen++ != index) continue;
      for (int k = 0; k < arity; k++) inputs[k] = in;
      if (op == BCAST_OP_SELECT) inputs[0] = BCAST_BOOL;
      *out = (bcast_dtype)r;
      return BCAST_OK;
    }
  }
  return BCAST_UNSUPPORTED;
}
