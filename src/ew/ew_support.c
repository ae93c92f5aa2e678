/* The attribute checks of the element-wise ops, and the type rules of the
 * op table (src/op/op_types.c) joined with them.  bcast_ew_supported walks
 * the same rules, so what the enumeration returns is by construction what
 * bcast_ew_result_dtype accepts; the coverage test then proves each such
 * signature has a kernel. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bcast/elementwise.h"
#include "core/diag.h"
#include "ew/ew_attrs.h"

/* Every default is zero (BCAST_SCALAR_NONE, BCAST_NAN_PROPAGATE, cast_to
 * NULL), so that a zeroed struct means the defaults. */
void bcast_op_attrs_init(bcast_op_attrs *attrs) {
  memset(attrs, 0, sizeof *attrs);
}

int bcast_ew_arity(bcast_op op) { return bcast_op_arity(op); }

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
  bcast_op_attrs defaults;
  if (!attrs) {
    bcast_op_attrs_init(&defaults);
    attrs = &defaults;
  }
  bcast_dtype result;
  const bcast_dtype cast_to =
      attrs->cast_to ? *attrs->cast_to : BCAST_DTYPE_COUNT;
  bcast_status status = bcast_op_result_dtype(op, profile, n_inputs, inputs,
                                              cast_to, &result, diag);
  if (status != BCAST_OK) return status;
  status = check_attrs(op, profile, inputs[op == BCAST_OP_SELECT ? 1 : 0],
                       attrs, diag);
  if (status != BCAST_OK) return status;
  *out = result;
  return BCAST_OK;
}

bcast_status bcast_ew_supported(bcast_op op, bcast_profile profile,
                                size_t index, bcast_dtype *inputs,
                                bcast_dtype *out) {
  const uint32_t types = bcast_op_types(op, profile);
  if (!types) return BCAST_UNSUPPORTED;
  const int arity = bcast_ew_arity(op);
  size_t seen = 0;
  for (int d = 0; d < BCAST_DTYPE_COUNT; d++) {
    if (!(types & (1u << d))) continue;
    const bcast_dtype in = (bcast_dtype)d;
    uint32_t results;
    if (op == BCAST_OP_CAST) {
      results = bcast_op_cast_targets(in, profile);
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
