/* Scalar operands: NEP 50's "weak" Python scalars.  A scalar's type is
 * decided by the arrays beside it (bcast_scalar_weak_dtype), then the
 * scalar becomes a rank-0 tensor of that type (bcast_scalar_tensor) and
 * takes part in the op as any operand. */
#include <inttypes.h>
#include <string.h>

#include "bcast/elementwise.h"
#include "core/diag.h"
#include "op/op_attrs.h"

/* bool < integer < float, for scalars and for types. */
static int scalar_rank(const bcast_scalar *s) {
  if (s->kind == BCAST_SCALAR_BOOL) return 0;
  return s->kind == BCAST_SCALAR_FLOAT ? 2 : 1;
}

static int type_rank(bcast_dtype d) {
  switch (bcast_dtype_kind_of(d)) {
  case BCAST_KIND_BOOL:
    return 0;
  case BCAST_KIND_FLOAT:
    return 2;
  default:
    return 1;
  }
}

/* A scalar's own type, with no array beside it. */
static bcast_dtype default_type(const bcast_scalar *s) {
  switch (s->kind) {
  case BCAST_SCALAR_BOOL:
    return BCAST_BOOL;
  case BCAST_SCALAR_UINT:
    return BCAST_UINT64;
  case BCAST_SCALAR_FLOAT:
    return BCAST_FLOAT64;
  default:
    return BCAST_INT64;
  }
}

/* Whether an integer scalar is a value of the integer or bool type. */
static int int_fits(const bcast_scalar *s, bcast_dtype d) {
  int64_t lo;
  uint64_t hi;
  bcast__op_int_range(d, &lo, &hi);
  if (s->kind == BCAST_SCALAR_UINT) return s->v.u <= hi;
  return s->v.i >= lo && (s->v.i < 0 || (uint64_t)s->v.i <= hi);
}

bcast_status bcast_scalar_weak_dtype(const bcast_scalar *scalar,
                                     size_t n_strong,
                                     const bcast_dtype *strong,
                                     bcast_dtype *out, bcast_diag *diag) {
  if (!scalar || !out || (n_strong && !strong) ||
      scalar->kind == BCAST_SCALAR_NONE ||
      (unsigned)scalar->kind > BCAST_SCALAR_BOOL)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "a scalar operand needs a value");
  if (n_strong == 0) {
    *out = default_type(scalar);
    return BCAST_OK;
  }
  bcast_dtype arrays;
  bcast_status status =
      bcast_dtype_result_type(n_strong, strong, &arrays, diag);
  if (status != BCAST_OK) return status;
  if (scalar_rank(scalar) > type_rank(arrays)) {
    *out = default_type(scalar);
    return BCAST_OK;
  }
  if (type_rank(arrays) == 1 && !int_fits(scalar, arrays)) {
    if (scalar->kind == BCAST_SCALAR_UINT)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "Python integer %" PRIu64 " out of bounds for %s",
                         scalar->v.u, bcast_dtype_name(arrays));
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "Python integer %" PRId64 " out of bounds for %s",
                       scalar->v.i, bcast_dtype_name(arrays));
  }
  *out = arrays;
  return BCAST_OK;
}

bcast_status bcast_op_scalar_dtype(bcast_op op, bcast_profile profile,
                                   const bcast_scalar *scalar, size_t n_strong,
                                   const bcast_dtype *strong, bcast_dtype *out,
                                   bcast_diag *diag) {
  if (profile != BCAST_PROFILE_NUMPY || (unsigned)op >= BCAST_OP_COUNT)
    return bcast_scalar_weak_dtype(scalar, n_strong, strong, out, diag);
  if (op == BCAST_OP_LOGICAL_AND || op == BCAST_OP_LOGICAL_OR ||
      op == BCAST_OP_LOGICAL_XOR) {
    /* checks the scalar, then tests it for nonzero as NumPy's bool loop */
    const bcast_status st =
        bcast_scalar_weak_dtype(scalar, 0, NULL, out, diag);
    if (st == BCAST_OK) *out = BCAST_BOOL;
    return st;
  }
  bcast_dtype arrays;
  if (bcast_op_get(op)->result == BCAST_RESULT_TRUE_DIV && n_strong &&
      bcast_dtype_result_type(n_strong, strong, &arrays, NULL) == BCAST_OK &&
      type_rank(arrays) < 2) {
    const bcast_dtype f64 = BCAST_FLOAT64;
    return bcast_scalar_weak_dtype(scalar, 1, &f64, out, diag);
  }
  return bcast_scalar_weak_dtype(scalar, n_strong, strong, out, diag);
}

bcast_status bcast_scalar_tensor(const bcast_scalar *scalar, bcast_dtype dtype,
                                 bcast_tensor *out, bcast_diag *diag) {
  memset(out, 0, sizeof *out);
  if (!scalar || scalar->kind == BCAST_SCALAR_NONE ||
      (unsigned)scalar->kind > BCAST_SCALAR_BOOL)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "a scalar operand needs a value");
  /* The value in its own type, then numpy's CAST to dtype. */
  union {
    int64_t i;
    uint64_t u;
    double f;
    uint8_t b;
  } value;
  const bcast_dtype own = default_type(scalar);
  if (scalar->kind == BCAST_SCALAR_BOOL)
    value.b = (uint8_t)(scalar->v.i != 0);
  else if (scalar->kind == BCAST_SCALAR_FLOAT)
    value.f = scalar->v.f;
  else if (scalar->kind == BCAST_SCALAR_UINT)
    value.u = scalar->v.u;
  else
    value.i = scalar->v.i;
  bcast_tensor src;
  bcast_status status =
      bcast_tensor_wrap(&src, own, 0, NULL, NULL, &value, diag);
  if (status != BCAST_OK) return status;
  bcast_op_attrs attrs;
  bcast_op_attrs_init(&attrs);
  attrs.cast_to = &dtype;
  bcast_ew_options options;
  bcast_ew_options_init(&options);
  options.profile = BCAST_PROFILE_NUMPY;
  status =
      bcast_ew_compute(BCAST_OP_CAST, &attrs, 1, &src, out, &options, diag);
  bcast_tensor_release(&src);
  return status;
}
