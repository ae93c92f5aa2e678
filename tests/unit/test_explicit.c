/* Explicit broadcasting: the XLA document's examples with their exact
 * shapes, every invalid-map message, and the partial form. */
#include "test.h"
#include "bcast/bcast.h"

#define Q BCAST_DIM_DYNAMIC

static bcast_shape S(int32_t rank, const int64_t *dims) {
  bcast_shape s;
  s.rank = rank;
  for (int32_t i = 0; i < rank; i++) s.dims[i] = dims[i];
  return s;
}
#define SHAPE(...) S((int32_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})

static void check_shape(test_ctx *t, int line, const bcast_shape *got,
                        const bcast_shape *want) {
  char g[256], w[256];
  bcast_shape_format(got, BCAST_SHAPE_STYLE_LIST, g, sizeof g);
  bcast_shape_format(want, BCAST_SHAPE_STYLE_LIST, w, sizeof w);
  if (strcmp(g, w)) test_fail(t, __FILE__, line, "shape %s, expected %s", g, w);
}

TEST(explicit_xla_document_examples) {
  bcast_shape out, want;
  bcast_shape m23 = SHAPE(2, 3), v3 = SHAPE(3), s = {0, {0}};
  /* Matrix + scalar, no dims needed. */
  CHECK_INT(bcast_xla_binary_shape(&m23, &s, NULL, 0, &out, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &m23);
  /* Matrix (2,3) + vector (3) under (1). */
  int64_t d1[] = {1};
  CHECK_INT(bcast_xla_binary_shape(&m23, &v3, d1, 1, &out, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &m23);
  /* ...without dims it is invalid in XLA. */
  bcast_diag d;
  CHECK_INT(bcast_xla_binary_shape(&m23, &v3, NULL, 0, &out, &d), BCAST_RANK_MISMATCH);
  CHECK_CONTAINS(d.message, "need broadcast_dimensions");
  /* 3x3 + 3 under (0) and under (1). */
  bcast_shape m33 = SHAPE(3, 3);
  int64_t d0[] = {0};
  CHECK_INT(bcast_xla_binary_shape(&m33, &v3, d0, 1, &out, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &m33);
  /* 2x3x4 + 3x4 under (1,2). */
  bcast_shape c234 = SHAPE(2, 3, 4), m34 = SHAPE(3, 4);
  int64_t d12[] = {1, 2};
  CHECK_INT(bcast_xla_binary_shape(&c234, &m34, d12, 2, &out, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &c234);
  /* Degenerate dims: the document's four examples. */
  bcast_shape a = SHAPE(2, 1), b = SHAPE(2, 3);
  CHECK_INT(bcast_xla_binary_shape(&a, &b, NULL, 0, &out, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &b);
  a = SHAPE(1, 2, 5), b = SHAPE(7, 2, 5);
  CHECK_INT(bcast_xla_binary_shape(&a, &b, NULL, 0, &out, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &b);
  a = SHAPE(7, 2, 5), b = SHAPE(7, 1, 5);
  CHECK_INT(bcast_xla_binary_shape(&a, &b, NULL, 0, &out, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &a);
  a = SHAPE(7, 2, 5), b = SHAPE(7, 2, 6);
  CHECK_INT(bcast_xla_binary_shape(&a, &b, NULL, 0, &out, &d), BCAST_INCOMPATIBLE);
  CHECK_CONTAINS(d.message, "at broadcast dim 2");
  /* Outer operation (2,1) with (1,3). */
  a = SHAPE(2, 1), b = SHAPE(1, 3), want = SHAPE(2, 3);
  CHECK_INT(bcast_xla_binary_shape(&a, &b, NULL, 0, &out, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &want);
  /* Composition: (4) with (1x2) under (0) gives 4x2. */
  a = SHAPE(4), b = SHAPE(1, 2), want = SHAPE(4, 2);
  CHECK_INT(bcast_xla_binary_shape(&a, &b, d0, 1, &out, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &want);
  /* 1x2 with 4x3x1 under (1,2) gives 4x3x2. */
  a = SHAPE(1, 2), b = SHAPE(4, 3, 1), want = SHAPE(4, 3, 2);
  CHECK_INT(bcast_xla_binary_shape(&a, &b, d12, 2, &out, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &want);
}

TEST(explicit_broadcast_in_dim_checks) {
  bcast_diag d;
  bcast_shape in = SHAPE(2, 3), out = SHAPE(4, 2, 3);
  int64_t ok[] = {1, 2}, few[] = {1}, range[] = {1, 3}, rep[] = {2, 2},
          bad[] = {0, 2};
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, ok, 2, BCAST_DIMS_INCREASING, &d), BCAST_OK);
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, few, 1, BCAST_DIMS_INCREASING, &d), BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "has 1 entries but the operand has rank 2");
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, range, 2, BCAST_DIMS_INCREASING, &d), BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "broadcast_dimensions[1] = 3 is out of range");
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, rep, 2, BCAST_DIMS_ANY_ORDER, &d), BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "[0] and [1] both map to output dim 2");
  bcast_shape tout = SHAPE(3, 2);
  int64_t tr[] = {1, 0};
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &tout, tr, 2, BCAST_DIMS_INCREASING, &d), BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "strictly increasing");
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &tout, tr, 2, BCAST_DIMS_ANY_ORDER, &d), BCAST_OK);
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, bad, 2, BCAST_DIMS_INCREASING, &d), BCAST_INCOMPATIBLE);
  CHECK_CONTAINS(d.message, "operand dim 0 (size 2) maps to output dim 0 (size 4); it must be 1 or 4");
  bcast_shape scalar = {0, {0}};
  CHECK_INT(bcast_broadcast_in_dim_check(&scalar, &out, NULL, 0, BCAST_DIMS_INCREASING, &d), BCAST_OK);
  bcast_shape dyn = SHAPE(Q, 3);
  CHECK_INT(bcast_broadcast_in_dim_check(&dyn, &out, ok, 2, BCAST_DIMS_INCREASING, &d), BCAST_OK);
}

TEST(explicit_partial_form) {
  /* (A,B) = (5,7), dims (0,2), {1: 4} gives (5,4,7). */
  bcast_shape in = SHAPE(5, 7), out, want = SHAPE(5, 4, 7);
  int64_t dims[] = {0, 2};
  bcast_dim_size sizes[] = {{1, 4}};
  int32_t source[8];
  CHECK_INT(bcast_broadcast_in_dim_partial(&in, dims, 2, sizes, 1, &out, source, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &want);
  CHECK_INT(source[0], 0);
  CHECK_INT(source[1], -1);
  CHECK_INT(source[2], 1);
  /* Expanding a size-1 input dim. */
  bcast_shape in1 = SHAPE(1, 7), want1 = SHAPE(6, 4, 7);
  bcast_dim_size sizes2[] = {{1, 4}, {0, 6}};
  CHECK_INT(bcast_broadcast_in_dim_partial(&in1, dims, 2, sizes2, 2, &out, source, NULL), BCAST_OK);
  check_shape(t, __LINE__, &out, &want1);
  CHECK_INT(source[0], -1);
  /* A non-1 input dim cannot take another size. */
  bcast_diag d;
  CHECK_INT(bcast_broadcast_in_dim_partial(&in, dims, 2, sizes2, 2, &out, source, &d), BCAST_INCOMPATIBLE);
  CHECK_CONTAINS(d.message, "operand dim 0 (size 5)");
  /* A gap in the output (dim 1 neither mapped nor sized). */
  int64_t gap[] = {0, 2};
  CHECK_INT(bcast_broadcast_in_dim_partial(&in, gap, 2, NULL, 0, &out, source, &d), BCAST_INVALID_ARGUMENT);
}
