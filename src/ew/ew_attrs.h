/* The attributes' one policy, shared by the type check, the plan (its
 * kernel parameters) and the MLIR formatter. */
#ifndef BCAST_EW_ATTRS_H
#define BCAST_EW_ATTRS_H

#include "bcast/elementwise.h"

/* CLAMP's bounds as a data type's values: lo_i/hi_i for signed and bool
 * data, lo_u/hi_u for unsigned data, lo_f/hi_f (rounded to the type) for
 * floating data.  Missing bounds are the type's limits (or -inf, +inf). */
typedef struct ew_bounds {
  int64_t lo_i, hi_i;
  uint64_t lo_u, hi_u;
  double lo_f, hi_f;
} ew_bounds;

/* Checks attrs->min_val and max_val against data type data by the rule in
 * bcast/elementwise.h and converts them.  BCAST_INVALID_ARGUMENT (message
 * prefixed "tosa.clamp: ") when a bound is not a value of the type or
 * min_val > max_val. */
bcast_status bcast__ew_clamp_bounds(const bcast_op_attrs *attrs,
                                    bcast_dtype data, ew_bounds *out,
                                    bcast_diag *diag);

/* The range lo..hi of an integer or bool type. */
void bcast__ew_int_range(bcast_dtype dtype, int64_t *lo, uint64_t *hi);

/* The kernels' parameters (ew_scalar.h) from attributes that
 * bcast_ew_result_dtype accepted for data type data. */
struct ew_params;
void bcast__ew_params_from_attrs(struct ew_params *p, const bcast_op_attrs *a,
                                 bcast_dtype data);

#endif
