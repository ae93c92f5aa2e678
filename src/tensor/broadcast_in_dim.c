/* BroadcastInDim on tensors: a view, never a copy. */
#include <string.h>

#include "core/diag.h"
#include "tensor/buffer.h"

bcast_status bcast_broadcast_in_dim(bcast_tensor *dst, const bcast_tensor *src,
                                    int32_t rank, const int64_t *shape,
                                    const int64_t *dims, size_t n_dims,
                                    bcast_dims_order order, bcast_diag *diag) {
  bcast_shape in, out;
  bcast_status st = bcast_shape_set(&in, src->rank, src->shape, diag);
  if (st == BCAST_OK) st = bcast_shape_set(&out, rank, shape, diag);
  if (st != BCAST_OK) return st;
  for (int32_t d = 0; d < rank; d++)
    if (shape[d] < 0)
      return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                         "output dim %d has size %lld; a tensor needs sizes "
                         ">= 0",
                         (int)d, (long long)shape[d]);
  st = bcast_broadcast_in_dim_check(&in, &out, dims, n_dims, order, diag);
  if (st != BCAST_OK) return st;
  bcast_tensor view;
  memset(&view, 0, sizeof view);
  view.dtype = src->dtype;
  view.rank = rank;
  for (int32_t d = 0; d < rank; d++) {
    view.shape[d] = shape[d];
    view.stride_bytes[d] = 0;
  }
  /* A mapped dim keeps its stride unless it expands from 1. */
  for (size_t i = 0; i < n_dims; i++)
    if (src->shape[i] == shape[dims[i]] && src->shape[i] != 1)
      view.stride_bytes[dims[i]] = src->stride_bytes[i];
  view.data = src->data;
  view.owner = src->owner;
  bcast__buffer_retain(view.owner);
  *dst = view;
  return BCAST_OK;
}

bcast_status bcast_xla_binary_views(bcast_tensor views[2],
                                    const bcast_tensor *lhs,
                                    const bcast_tensor *rhs,
                                    const int64_t *dims, size_t n_dims,
                                    bcast_diag *diag) {
  if (!views || !lhs || !rhs || (n_dims && !dims))
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_xla_binary_views: NULL argument");
  const bcast_tensor *src[2] = {lhs, rhs};
  bcast_shape s[2], out;
  for (int k = 0; k < 2; k++) {
    bcast_status st =
        bcast_shape_set(&s[k], src[k]->rank, src[k]->shape, diag);
    if (st != BCAST_OK) return st;
  }
  /* The map is checked by the shape rule first, so the view below cannot
   * fail on it. */
  bcast_status st =
      bcast_xla_binary_shape(&s[0], &s[1], dims, n_dims, &out, diag);
  if (st != BCAST_OK) return st;
  const int low = lhs->rank < rhs->rank ? 0 : 1;
  const bcast_tensor *high = src[1 - low];
  bcast_tensor placed_view;
  if (src[low]->rank == high->rank) {
    placed_view = *src[low];
    bcast__buffer_retain(placed_view.owner);
  } else {
    /* The lower-rank operand's dims land on dims[i]; the other dims are 1
     * (a scalar, with an empty map, becomes all 1s). */
    int64_t placed[BCAST_MAX_RANK];
    for (int32_t d = 0; d < high->rank; d++) placed[d] = 1;
    for (size_t i = 0; i < n_dims; i++) placed[dims[i]] = src[low]->shape[i];
    st = bcast_broadcast_in_dim(&placed_view, src[low], high->rank, placed,
                                dims, n_dims, BCAST_DIMS_INCREASING, diag);
    if (st != BCAST_OK) return st;
  }
  views[low] = placed_view;
  views[1 - low] = *high;
  bcast__buffer_retain(views[1 - low].owner);
  return BCAST_OK;
}
