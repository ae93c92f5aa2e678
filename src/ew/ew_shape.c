/* The shape side of an element-wise plan: the broadcast shape of the
 * inputs under a profile, and the declared signature's checks (element
 * types, the bound layouts, the result's rank and sizes). */
#include <inttypes.h>
#include <string.h>

#include "bcast/elementwise.h"
#include "core/diag.h"
#include "ew/ew_plan.h"

/* Copies a tensor's layout (type, shape, strides) with no data or owner. */
void bcast__ew_copy_layout(bcast_tensor *dst, const bcast_tensor *src) {
  dst->dtype = src->dtype;
  dst->rank = src->rank;
  for (int32_t i = 0; i < src->rank; i++) {
    dst->shape[i] = src->shape[i];
    dst->stride_bytes[i] = src->stride_bytes[i];
  }
  dst->data = NULL;
  dst->owner = NULL;
}

/* The broadcast shape of the inputs under the profile. */
bcast_status bcast__ew_infer_shape(const char *name, bcast_profile profile,
                                   size_t n, const bcast_tensor *inputs,
                                   bcast_shape *out, bcast_diag *diag) {
  bcast_shape shapes[EW_MAX_INPUTS];
  for (size_t k = 0; k < n; k++) {
    if (inputs[k].rank < 0 || inputs[k].rank > BCAST_MAX_RANK)
      return bcast__fail(diag, BCAST_RANK_LIMIT,
                         "%s: operand #%zu has rank %d, outside 0..%d", name,
                         k, (int)inputs[k].rank, BCAST_MAX_RANK);
    shapes[k].rank = inputs[k].rank;
    for (int32_t i = 0; i < inputs[k].rank; i++) {
      const int64_t d = inputs[k].shape[i];
      if (d < 0)
        return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                           "%s: operand #%zu dim %d has size %" PRId64, name,
                           k, (int)i, d);
      if (d == 0 && profile != BCAST_PROFILE_NUMPY) {
        bcast__fail(diag, BCAST_INCOMPATIBLE,
                    "%s: operand #%zu dim %d has size 0; TOSA tensors "
                    "have no empty dims (the numpy profile allows them)",
                    name, k, (int)i);
        bcast__locate(diag, (int)k, (int)i, 0, BCAST_DIAG_NONE,
                      BCAST_DIAG_NONE, 0, BCAST_DIAG_NONE);
        return BCAST_INCOMPATIBLE;
      }
      shapes[k].dims[i] = d;
    }
  }
  if (profile == BCAST_PROFILE_TOSA)
    for (size_t k = 1; k < n; k++)
      if (shapes[k].rank != shapes[0].rank) {
        bcast__fail(diag, BCAST_RANK_MISMATCH,
                    "%s: operands don't have matching ranks (operand #0 "
                    "has rank %d, operand #%zu rank %d); the trait and numpy "
                    "profiles expand ranks",
                    name, (int)shapes[0].rank, k, (int)shapes[k].rank);
        bcast__locate(diag, 0, BCAST_DIAG_NONE, shapes[0].rank, (int)k,
                      BCAST_DIAG_NONE, shapes[k].rank, BCAST_DIAG_NONE);
        bcast__mlir_message(diag, 1, "operands don't have matching ranks");
        return BCAST_RANK_MISMATCH;
      }
  const bcast_profile infer = profile == BCAST_PROFILE_NUMPY
                                  ? BCAST_PROFILE_NUMPY
                                  : BCAST_PROFILE_TRAIT;
  bcast_status status = bcast_shape_infer(n, shapes, infer, out, diag);
  if (status == BCAST_INCOMPATIBLE && diag && profile == BCAST_PROFILE_NUMPY) {
    /* NumPy's own words; the fields stay bcast_shape_infer's. */
    bcast__ew_numpy_mismatch(n, inputs, NULL, diag);
  } else if (status != BCAST_OK && diag) {
    bcast__prefix(diag, "%s: ", name);
  }
  return status;
}

void bcast__ew_append_numpy_shape(char *buf, size_t cap, size_t *len,
                                  int32_t rank, const int64_t *dims) {
  bcast__append(buf, cap, len, "(");
  for (int32_t i = 0; i < rank; i++)
    bcast__append(buf, cap, len, i ? ",%" PRId64 : "%" PRId64, dims[i]);
  bcast__append(buf, cap, len, rank == 1 ? ",)" : ")");
}

void bcast__ew_numpy_mismatch(size_t n, const bcast_tensor *inputs,
                              const bcast_tensor *out, bcast_diag *diag) {
  char msg[BCAST_DIAG_TEXT_MAX];
  size_t len = 0;
  msg[0] = '\0';
  bcast__append(msg, sizeof msg, &len,
                "operands could not be broadcast together with shapes ");
  for (size_t k = 0; k <= n; k++) {
    const bcast_tensor *t = k < n ? &inputs[k] : out;
    if (!t) break;
    bcast__ew_append_numpy_shape(msg, sizeof msg, &len, t->rank, t->shape);
    bcast__append(msg, sizeof msg, &len, " ");
  }
  memcpy(diag->message, msg, sizeof msg);
}

/* The declared element types, if any, against the inputs' types.  CAST
 * without a target takes the declared result type: *attrs then points at
 * *storage, a copy with cast_to set. */
bcast_status bcast__ew_check_declared_dtypes(const bcast_ew_options *o,
                                             bcast_op op, size_t n,
                                             const bcast_tensor *inputs,
                                             const bcast_op_attrs **attrs,
                                             bcast_op_attrs *storage,
                                             bcast_diag *diag) {
  const char *name = bcast_op_label(op, o->profile);
  for (size_t k = 0; o->declared_dtypes && k < n; k++)
    if (inputs[k].dtype != o->declared_dtypes[k]) {
      bcast__fail(diag, BCAST_TYPE,
                  "%s: operand #%zu is %s, but the signature declares "
                  "%s",
                  name, k, bcast_dtype_name(inputs[k].dtype),
                  bcast_dtype_name(o->declared_dtypes[k]));
      bcast__locate(diag, (int)k, BCAST_DIAG_NONE, 0, BCAST_DIAG_NONE,
                    BCAST_DIAG_NONE, 0, BCAST_DIAG_NONE);
      return BCAST_TYPE;
    }
  /* CAST's target, and MUL's result (MLIR 22 takes int8 * int8 -> int8 as
   * well as -> int32), follow the declared result. */
  if ((op == BCAST_OP_CAST || op == BCAST_OP_MUL) &&
      o->declared_result_dtype && !(*attrs)->cast_to) {
    *storage = **attrs;
    storage->cast_to = o->declared_result_dtype;
    *attrs = storage;
  }
  return BCAST_OK;
}

/* The declared signature, if any, against the bound layouts: the inputs
 * through bcast_bind_check ('?', named dims, the broadcast rule on run-time
 * sizes), the result's rank and static sizes against the broadcast
 * shape. */
bcast_status bcast__ew_check_declared(const bcast_ew_options *o,
                                      const char *name, size_t n,
                                      const bcast_tensor *inputs,
                                      const bcast_tensor *out,
                                      bcast_diag *diag) {
  if (o->declared) {
    bcast_tensor bound[EW_MAX_INPUTS];
    for (size_t k = 0; k < n; k++)
      bcast__ew_copy_layout(&bound[k], &inputs[k]);
    bcast_status status = bcast_bind_check(n, o->declared, bound, diag);
    if (status != BCAST_OK) {
      if (diag) bcast__prefix(diag, "%s: ", name);
      return status;
    }
  }
  const bcast_shape *r = o->declared_result;
  if (!r || r->rank == BCAST_RANK_UNRANKED) return BCAST_OK;
  if (r->rank != out->rank)
    return bcast__fail(diag, BCAST_RUNTIME_SHAPE,
                       "%s: the result is declared with rank %d but the "
                       "broadcast shape has rank %d",
                       name, (int)r->rank, (int)out->rank);
  for (int32_t i = 0; i < r->rank; i++)
    if (r->dims[i] >= 0 && r->dims[i] != out->shape[i]) {
      bcast__fail(diag, BCAST_RUNTIME_SHAPE,
                  "%s: result dim %d is declared as %" PRId64
                  " but the inputs broadcast to %" PRId64 " there",
                  name, (int)i, r->dims[i], out->shape[i]);
      bcast__locate(diag, BCAST_DIAG_RESULT, (int)i, r->dims[i],
                    BCAST_DIAG_NONE, BCAST_DIAG_NONE, out->shape[i], (int)i);
      return BCAST_RUNTIME_SHAPE;
    }
  return BCAST_OK;
}
