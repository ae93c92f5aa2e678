/* The element-wise ops' type support: the type rules of the op table
 * (src/op/op_types.c) joined with its attribute checks
 * (src/op/op_attrs.c).  bcast_ew_supported walks the same rules, so what
 * the enumeration returns is by construction what bcast_ew_result_dtype
 * accepts; the coverage test then proves each such signature has a
 * kernel. */
#include <stdint.h>

#include "bcast/elementwise.h"
#include "core/diag.h"
#include "ew/ew_kernel.h"
#include "ew/ew_plan.h"
#include "op/op_attrs.h"

bcast_status bcast_ew_result_dtype(bcast_op op, bcast_profile profile,
                                   size_t n_inputs, const bcast_dtype *inputs,
                                   const bcast_op_attrs *attrs,
                                   bcast_dtype *out, bcast_diag *diag) {
  return bcast__ew_result_dtype_in(op, profile, BCAST_TYPE_TABLES_MLIR,
                                   n_inputs, inputs, attrs, out, diag);
}

bcast_status bcast__ew_result_dtype_in(bcast_op op, bcast_profile profile,
                                       bcast_type_tables tables,
                                       size_t n_inputs,
                                       const bcast_dtype *inputs,
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
  bcast_status status = bcast_op_result_dtype_in(
      op, profile, tables, n_inputs, inputs, cast_to, &result, diag);
  if (status != BCAST_OK) return status;
  const bcast_dtype in = inputs[op == BCAST_OP_SELECT ? 1 : 0];
  status = bcast__op_attrs_check(op, profile, in, attrs, diag);
  if (status != BCAST_OK) return status;
  *out = result;
  return BCAST_OK;
}

bcast_status bcast_ew_supported(bcast_op op, bcast_profile profile,
                                size_t index, bcast_dtype *inputs,
                                bcast_dtype *out) {
  const uint32_t types = bcast_op_types(op, profile);
  if (!types) return BCAST_UNSUPPORTED;
  const int arity = bcast_op_arity(op);
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
