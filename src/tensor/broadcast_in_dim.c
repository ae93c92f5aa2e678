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
