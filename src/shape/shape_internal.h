/* Internal: a strided view over operand shapes, so the algebra can read the
 * shapes embedded in other structs (parsed MLIR types, tensors) without
 * copying them. */
#ifndef BCAST_SHAPE_INTERNAL_H
#define BCAST_SHAPE_INTERNAL_H

#include "bcast/shape.h"

typedef struct bcast__shapes {
  const char *base;   /* address of operand 0's bcast_shape */
  size_t stride;      /* bytes from one operand's shape to the next */
  size_t n;
} bcast__shapes;

static inline const bcast_shape *bcast__shape_at(bcast__shapes ops, size_t k) {
  return (const bcast_shape *)(const void *)(ops.base + k * ops.stride);
}

static inline bcast__shapes bcast__shapes_of(const bcast_shape *shapes,
                                             size_t n) {
  bcast__shapes v = {(const char *)shapes, sizeof *shapes, n};
  return v;
}

bcast_status bcast__shape_infer(bcast__shapes ops, bcast_profile profile,
                                bcast_shape *out, bcast_diag *diag);
bcast_status bcast__shape_verify(bcast__shapes ops, const bcast_shape *result,
                                 bcast_profile profile, bcast_diag *diag);

#endif
