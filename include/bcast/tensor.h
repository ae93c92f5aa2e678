/* bcast/tensor.h - tensors, zero-copy broadcast views and materialization.
 *
 * Ownership.  A bcast_tensor is a small value (dtype, shape, byte strides,
 * data pointer) plus an optional counted reference to the bcast_buffer that
 * holds its memory:
 *   - owner == NULL: a borrowed view.  The caller keeps the memory (and, for
 *     strings, the string bytes) alive for as long as the view is used.
 *   - owner != NULL: the tensor holds one reference to owner.  Copying a
 *     tensor with bcast_tensor_view() takes another reference;
 *     bcast_tensor_release() drops one.  The buffer is freed with its last
 *     reference.
 * A buffer may keep another buffer alive (buffer->keep), which is how a
 * materialized string tensor shares the string bytes of its source without
 * copying them.
 *
 * Strides are in bytes and may be 0 (broadcast) or negative.  data points at
 * element [0, ..., 0].  A rank-0 tensor has one element.
 */
#ifndef BCAST_TENSOR_H
#define BCAST_TENSOR_H

#include "bcast/export.h"
#include "bcast/dtype.h"
#include "bcast/explicit.h"
#include "bcast/shape.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bcast_buffer bcast_buffer;

typedef struct bcast_tensor {
  bcast_dtype dtype;
  int32_t rank;
  int64_t shape[BCAST_MAX_RANK];
  int64_t stride_bytes[BCAST_MAX_RANK];
  void *data;
  bcast_buffer *owner;
} bcast_tensor;

/* Default byte budget for materialization (1 GiB); callers pass their own. */
#define BCAST_DEFAULT_MAX_BYTES ((int64_t)1 << 30)

/* A borrowed view of caller memory.  stride_bytes == NULL means C order.
 * On failure *t is left empty. */
BCAST_API bcast_status bcast_tensor_wrap(bcast_tensor *t, bcast_dtype dtype,
                                         int32_t rank, const int64_t *shape,
                                         const int64_t *stride_bytes,
                                         void *data, bcast_diag *diag);

/* A new owned, C-contiguous tensor; contents zeroed (strings empty).
 * The byte count is overflow-checked and refused beyond max_bytes
 * (BCAST_BUDGET, the message states the bytes needed). On failure *t is
 * left empty, so releasing it is harmless. */
BCAST_API bcast_status bcast_tensor_alloc(bcast_tensor *t, bcast_dtype dtype,
                                          int32_t rank, const int64_t *shape,
                                          int64_t max_bytes, bcast_diag *diag);

/* dst becomes another view of src (sharing and retaining src's buffer). */
BCAST_API void bcast_tensor_view(bcast_tensor *dst, const bcast_tensor *src);
/* Drops the tensor's reference, if any, and clears it. */
BCAST_API void bcast_tensor_release(bcast_tensor *t);

/* Element count (overflow-checked) and C-contiguity. */
BCAST_API bcast_status bcast_tensor_elem_count(const bcast_tensor *t,
                                               int64_t *out, bcast_diag *diag);
BCAST_API int bcast_tensor_is_contiguous(const bcast_tensor *t);

/* Unidirectional broadcast (numpy.broadcast_to): dst is a stride-0 view of
 * src with the given shape.  O(rank), no element copied. */
BCAST_API bcast_status bcast_broadcast_to(bcast_tensor *dst,
                                          const bcast_tensor *src,
                                          int32_t rank, const int64_t *shape,
                                          bcast_diag *diag);

/* XLA's BroadcastInDim on a tensor: dst is a zero-copy view of src with the
 * given shape, where src dim i lands on output dim dims[i] (checked as
 * bcast_broadcast_in_dim_check: count, range, repeats, order rule, sizes 1
 * or equal).  Unmapped output dims and expanded size-1 dims get stride 0;
 * with BCAST_DIMS_ANY_ORDER the strides are permuted, folding a transpose
 * into the view.  O(rank), no element copied. */
BCAST_API bcast_status bcast_broadcast_in_dim(
    bcast_tensor *dst, const bcast_tensor *src, int32_t rank,
    const int64_t *shape, const int64_t *dims, size_t n_dims,
    bcast_dims_order order, bcast_diag *diag);

/* XLA's element-wise binary op on tensors, by bcast_xla_binary_shape's
 * rule (the map checked first, its diagnostics unchanged): views[0] and
 * views[1] are zero-copy views of lhs and rhs with equal ranks, the
 * lower-rank operand placed in the higher rank through dims (its unmapped
 * dims 1, stride 0), ready for an op that broadcasts size-1 dims both ways.
 * With equal ranks both views are the tensors themselves.  The caller
 * releases both views (they hold their own references). */
BCAST_API bcast_status bcast_xla_binary_views(bcast_tensor views[2],
                                              const bcast_tensor *lhs,
                                              const bcast_tensor *rhs,
                                              const int64_t *dims,
                                              size_t n_dims, bcast_diag *diag);

/* Multidirectional broadcast of n tensors (numpy.broadcast_arrays, ONNX):
 * dst[i] are views of src[i], all of the common shape. */
BCAST_API bcast_status bcast_broadcast_views(size_t n, bcast_tensor *dst,
                                             const bcast_tensor *src,
                                             bcast_diag *diag);

/* Copies src, broadcast unidirectionally to dst's shape, into dst's memory
 * (any strides on both sides; dst must not overlap src).  Same dtype
 * required (BCAST_TYPE).  For strings the references are copied; when both
 * tensors are owned, dst's buffer keeps src's alive. */
BCAST_API bcast_status bcast_tensor_copy(const bcast_tensor *dst,
                                         const bcast_tensor *src, int threads,
                                         bcast_diag *diag);

/* A new C-contiguous owned copy of src (any strides), within max_bytes.
 * String tensors share their bytes with src (the new buffer keeps src's
 * buffer alive).  threads: OpenMP threads for outputs large enough to
 * split (<= 0: the OpenMP default); small outputs run on one. */
BCAST_API bcast_status bcast_materialize(bcast_tensor *dst,
                                         const bcast_tensor *src,
                                         int64_t max_bytes, int threads,
                                         bcast_diag *diag);

/* New C-contiguous owned copies z[i] of x[i] (any shapes, strides and
 * dtypes), as bcast_materialize makes them, whose bytes together must fit
 * in max_bytes: the total is checked before anything is allocated
 * (BCAST_OVERFLOW beyond 64 bits, BCAST_BUDGET over the budget, the
 * message stating the bytes needed).  On failure no copy is left. */
BCAST_API bcast_status bcast_materialize_all(size_t n, bcast_tensor *z,
                                             const bcast_tensor *x,
                                             int64_t max_bytes, int threads,
                                             bcast_diag *diag);

/* ONNX Broadcast: Z0..ZL = Broadcast(X0..XL), each Zi materialized.
 * The total byte count of all outputs is checked against max_bytes, as
 * bcast_materialize_all does. */
BCAST_API bcast_status bcast_broadcast_materialize(size_t n, bcast_tensor *z,
                                                   const bcast_tensor *x,
                                                   int64_t max_bytes,
                                                   int threads,
                                                   bcast_diag *diag);

/* Binds concrete tensors to a declared shape that may contain '?' or named
 * dims: checks ranks, static sizes, equal sizes for the same symbol, and the
 * broadcast rule for dims the trait calls undefined behaviour (two runtime
 * sizes > 1 that differ).  Errors name the operand and the dim. */
BCAST_API bcast_status bcast_bind_check(size_t n, const bcast_shape *declared,
                                        const bcast_tensor *tensors,
                                        bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_TENSOR_H */
