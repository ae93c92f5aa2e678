/* bcast/explicit.h - broadcasting spelled out: XLA's BroadcastInDim, XLA
 * binary ops with broadcast_dimensions, and PyTensor's partial form.
 *
 * broadcast_dimensions[i] names the output dim that operand dim i maps to.
 * Shape-level only; nothing allocates. */
#ifndef BCAST_EXPLICIT_H
#define BCAST_EXPLICIT_H

#include "bcast/export.h"
#include "bcast/shape.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bcast_dims_order {
  BCAST_DIMS_INCREASING, /* XLA: strictly increasing (default) */
  BCAST_DIMS_ANY_ORDER   /* StableHLO: unique, any order (a transpose) */
} bcast_dims_order;

/* Checks broadcast_in_dim(operand, out, dims) in StableHLO's order: one
 * entry per operand dim, no repeats, each in range (a negative entry is out
 * of range like one too large), the order rule, and each operand dim 1 or
 * equal to its output dim.  A dynamic operand dim passes here and is
 * checked when tensors are bound; a static operand size other than 1 onto
 * a dynamic output dim fails (BCAST_INCOMPATIBLE), as in XLA's shape
 * inference.  A scalar broadcasts to any shape with an empty map. */
BCAST_API bcast_status bcast_broadcast_in_dim_check(
    const bcast_shape *operand, const bcast_shape *out, const int64_t *dims,
    size_t n_dims, bcast_dims_order order, bcast_diag *diag);

/* The shape of an XLA element-wise binary op.  With n_dims == 0 the ranks
 * must be equal (or one operand a scalar) and size-1 dims broadcast both
 * ways.  Otherwise the lower-rank operand is first placed in the higher rank
 * through dims (the unmapped dims become 1), then size-1 dims broadcast both
 * ways: (4) with (1x2) under (0) gives 4x2; 1x2 with 4x3x1 under (1,2) gives
 * 4x3x2. */
BCAST_API bcast_status bcast_xla_binary_shape(const bcast_shape *lhs,
                                              const bcast_shape *rhs,
                                              const int64_t *dims,
                                              size_t n_dims, bcast_shape *out,
                                              bcast_diag *diag);

/* One output dim's size in the partial form. */
typedef struct bcast_dim_size {
  int32_t dim;
  int64_t size;
} bcast_dim_size;

/* PyTensor's partial BroadcastInDim: the output dims named in dims come from
 * the operand, the others (and operand dims of size 1 to expand) take the
 * sizes given.  Input (A,B), dims (0,2), {1: C} gives (A,C,B).  source[o]
 * receives the operand dim output dim o equals, or -1 for a new or expanded
 * dim (source may be NULL). */
BCAST_API bcast_status bcast_broadcast_in_dim_partial(
    const bcast_shape *operand, const int64_t *dims, size_t n_dims,
    const bcast_dim_size *sizes, size_t n_sizes, bcast_shape *out,
    int32_t *source, bcast_diag *diag);

/* What implicit (NumPy / ONNX / trait) broadcasting does to one operand,
 * spelled out as BroadcastInDim into the result.  Bit i of a mask is about
 * operand dim i. */
typedef struct bcast_explained {
  int32_t rank; /* BCAST_RANK_UNRANKED: the operand was skipped */
  int64_t
      broadcast_dimensions[BCAST_MAX_RANK]; /* operand dim i -> result dim */
  uint64_t expanded;       /* dim is 1, result dim static and not 1 */
  uint64_t maybe_expanded; /* dim is 1, result dim dynamic */
  uint64_t runtime_check;  /* dim is dynamic and must be checked when bound */
} bcast_explained;

/* Infers the result (as bcast_shape_infer) and fills explained[k] for each
 * operand: its broadcast_dimensions into the result (the right-aligned
 * identity map), the dims expanded from 1, and the dims that need a run-time
 * check.  broadcast_in_dim(operand k, out, explained[k].broadcast_dimensions)
 * equals the implicit broadcast. */
BCAST_API bcast_status bcast_explain(size_t n, const bcast_shape *operands,
                                     bcast_profile profile, bcast_shape *out,
                                     bcast_explained *explained,
                                     bcast_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* BCAST_EXPLICIT_H */
