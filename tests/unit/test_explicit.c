/* Explicit broadcasting: the XLA document's examples with their exact
 * shapes, every invalid-map message, and the partial form. */
#include "test.h"
#include "bcast/bcast.h"
#include "shape/shape_internal.h"
#include "test_shapes.h"

static void check_shape(test_ctx *t, int line, const bcast_shape *got,
                        const bcast_shape *want) {
  char g[256], w[256];
  bcast_shape_format(got, BCAST_SHAPE_STYLE_LIST, g, sizeof g);
  bcast_shape_format(want, BCAST_SHAPE_STYLE_LIST, w, sizeof w);
  if (strcmp(g, w))
    test_fail(t, __FILE__, line, "shape %s, expected %s", g, w);
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
  CHECK_INT(bcast_xla_binary_shape(&m23, &v3, NULL, 0, &out, &d),
            BCAST_RANK_MISMATCH);
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
  CHECK_INT(bcast_xla_binary_shape(&a, &b, NULL, 0, &out, &d),
            BCAST_INCOMPATIBLE);
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
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, ok, 2,
                                         BCAST_DIMS_INCREASING, &d),
            BCAST_OK);
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, few, 1,
                                         BCAST_DIMS_INCREASING, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "has 1 entries but the operand has rank 2");
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, range, 2,
                                         BCAST_DIMS_INCREASING, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "broadcast_dimensions[1] = 3 is out of range");
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, rep, 2,
                                         BCAST_DIMS_ANY_ORDER, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "[0] and [1] both map to output dim 2");
  bcast_shape tout = SHAPE(3, 2);
  int64_t tr[] = {1, 0};
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &tout, tr, 2,
                                         BCAST_DIMS_INCREASING, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "strictly increasing");
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &tout, tr, 2,
                                         BCAST_DIMS_ANY_ORDER, &d),
            BCAST_OK);
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, bad, 2,
                                         BCAST_DIMS_INCREASING, &d),
            BCAST_INCOMPATIBLE);
  CHECK_CONTAINS(d.message, "operand dim 0 (size 2) maps to output dim 0 "
                            "(size 4); it must be 1 or 4");
  bcast_shape scalar = {0, {0}};
  CHECK_INT(bcast_broadcast_in_dim_check(&scalar, &out, NULL, 0,
                                         BCAST_DIMS_INCREASING, &d),
            BCAST_OK);
  bcast_shape dyn = SHAPE(Q, 3);
  CHECK_INT(bcast_broadcast_in_dim_check(&dyn, &out, ok, 2,
                                         BCAST_DIMS_INCREASING, &d),
            BCAST_OK);
}

/* StableHLO's order and XLA's dynamic-dim rule (broadcast_in_dim C2-C5). */
TEST(explicit_broadcast_in_dim_stablehlo_corners) {
  bcast_diag d;
  bcast_shape in = SHAPE(2, 3), out = SHAPE(4, 2, 3);
  /* C3: a negative entry fails as one too large does. */
  int64_t neg[] = {-1, 2}, big[] = {1, 7};
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, neg, 2,
                                         BCAST_DIMS_ANY_ORDER, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(
      d.message,
      "broadcast_dimensions[0] = -1 is out of range for an output of rank 3");
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, big, 2,
                                         BCAST_DIMS_ANY_ORDER, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(
      d.message,
      "broadcast_dimensions[1] = 7 is out of range for an output of rank 3");
  /* C4 before C3: repeats of an out-of-range entry are named as repeats. */
  int64_t rep_big[] = {9, 9};
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &out, rep_big, 2,
                                         BCAST_DIMS_ANY_ORDER, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "[0] and [1] both map to output dim 9");
  /* XLA: a static size other than 1 onto a dynamic dim fails; 1 onto it
   * and a dynamic dim onto a static one pass. */
  bcast_shape dyn_out = SHAPE(4, Q, Q);
  int64_t ok[] = {1, 2};
  CHECK_INT(bcast_broadcast_in_dim_check(&in, &dyn_out, ok, 2,
                                         BCAST_DIMS_ANY_ORDER, &d),
            BCAST_INCOMPATIBLE);
  CHECK_CONTAINS(
      d.message,
      "operand dim 0 (size 2) maps to output dim 1, which is dynamic");
  bcast_shape ones = SHAPE(1, 1), dyn_in = SHAPE(Q, Q);
  CHECK_INT(bcast_broadcast_in_dim_check(&ones, &dyn_out, ok, 2,
                                         BCAST_DIMS_ANY_ORDER, &d),
            BCAST_OK);
  CHECK_INT(bcast_broadcast_in_dim_check(&dyn_in, &out, ok, 2,
                                         BCAST_DIMS_ANY_ORDER, &d),
            BCAST_OK);
}

TEST(explicit_partial_form) {
  /* (A,B) = (5,7), dims (0,2), {1: 4} gives (5,4,7). */
  bcast_shape in = SHAPE(5, 7), out, want = SHAPE(5, 4, 7);
  int64_t dims[] = {0, 2};
  bcast_dim_size sizes[] = {{1, 4}};
  int32_t source[8];
  CHECK_INT(bcast_broadcast_in_dim_partial(&in, dims, 2, sizes, 1, &out,
                                           source, NULL),
            BCAST_OK);
  check_shape(t, __LINE__, &out, &want);
  CHECK_INT(source[0], 0);
  CHECK_INT(source[1], -1);
  CHECK_INT(source[2], 1);
  /* Expanding a size-1 input dim. */
  bcast_shape in1 = SHAPE(1, 7), want1 = SHAPE(6, 4, 7);
  bcast_dim_size sizes2[] = {{1, 4}, {0, 6}};
  CHECK_INT(bcast_broadcast_in_dim_partial(&in1, dims, 2, sizes2, 2, &out,
                                           source, NULL),
            BCAST_OK);
  check_shape(t, __LINE__, &out, &want1);
  CHECK_INT(source[0], -1);
  /* A non-1 input dim cannot take another size. */
  bcast_diag d;
  CHECK_INT(bcast_broadcast_in_dim_partial(&in, dims, 2, sizes2, 2, &out,
                                           source, &d),
            BCAST_INCOMPATIBLE);
  CHECK_CONTAINS(d.message, "operand dim 0 (size 5)");
  /* A gap in the output (dim 1 neither mapped nor sized). */
  int64_t gap[] = {0, 2};
  CHECK_INT(
      bcast_broadcast_in_dim_partial(&in, gap, 2, NULL, 0, &out, source, &d),
      BCAST_INVALID_ARGUMENT);
}

/* An entry count over the rank limit is refused as such however large it
 * is.  The output rank was once summed as (int64_t)n_dims + new_dims: a
 * count of 2^63 or more became negative and slipped past the limit (and
 * with a size to add, the sum could overflow).  No entry is read: the
 * count is refused first, so one entry stands for all of them. */
TEST(explicit_partial_huge_count) {
  bcast_shape in = SHAPE(5, 7), out;
  int64_t dims[] = {0};
  int32_t source[8];
  static const size_t counts[] = {BCAST_MAX_RANK + 1, 1000,
                                  (size_t)INT64_MAX,  (size_t)INT64_MAX + 1,
                                  SIZE_MAX - 1,       SIZE_MAX};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
    bcast_diag d;
    CHECK_INT(bcast_broadcast_in_dim_partial(&in, dims, counts[c], NULL, 0,
                                             &out, source, &d),
              BCAST_RANK_LIMIT);
    CHECK_CONTAINS(d.message, "over the limit of 64");
  }
}

/* Element (i, j, ...) of a tensor of int32, through its strides. */
static int32_t at(const bcast_tensor *x, const int64_t *index) {
  const char *p = x->data;
  for (int32_t d = 0; d < x->rank; d++) p += index[d] * x->stride_bytes[d];
  return *(const int32_t *)(const void *)p;
}

/* The XLA document's examples with their values: the operands are placed
 * by broadcast_in_dim views and added element by element. */
TEST(explicit_xla_document_values) {
  int32_t m[6] = {1, 2, 3, 4, 5, 6}, v[3] = {7, 8, 9};
  bcast_tensor tm, tv, view;
  int64_t s23[2] = {2, 3}, s3[1] = {3}, s33[2] = {3, 3};
  CHECK_INT(bcast_tensor_wrap(&tm, BCAST_INT32, 2, s23, NULL, m, NULL),
            BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&tv, BCAST_INT32, 1, s3, NULL, v, NULL),
            BCAST_OK);
  /* |1 2 3| + |7 8 9| under (1) = |8 10 12; 11 13 15|. */
  int64_t d1[1] = {1}, d0[1] = {0};
  CHECK_INT(bcast_broadcast_in_dim(&view, &tv, 2, s23, d1, 1,
                                   BCAST_DIMS_INCREASING, NULL),
            BCAST_OK);
  static const int32_t sum[6] = {8, 10, 12, 11, 13, 15};
  for (int64_t i = 0; i < 2; i++)
    for (int64_t j = 0; j < 3; j++) {
      int64_t idx[2] = {i, j};
      CHECK_INT(at(&tm, idx) + at(&view, idx), sum[i * 3 + j]);
    }
  bcast_tensor_release(&view);
  /* 3-vector into 3x3 under (1): rows 7 8 9; under (0): columns. */
  CHECK_INT(bcast_broadcast_in_dim(&view, &tv, 2, s33, d1, 1,
                                   BCAST_DIMS_INCREASING, NULL),
            BCAST_OK);
  for (int64_t i = 0; i < 3; i++)
    for (int64_t j = 0; j < 3; j++) {
      int64_t idx[2] = {i, j};
      CHECK_INT(at(&view, idx), v[j]);
    }
  CHECK_INT(bcast_broadcast_in_dim(&view, &tv, 2, s33, d0, 1,
                                   BCAST_DIMS_INCREASING, NULL),
            BCAST_OK);
  for (int64_t i = 0; i < 3; i++)
    for (int64_t j = 0; j < 3; j++) {
      int64_t idx[2] = {i, j};
      CHECK_INT(at(&view, idx), v[i]);
    }
  /* Composition: |1 2 3 4| + [5 6] under (0) = |6 7; 7 8; 8 9; 9 10|. */
  int32_t a4[4] = {1, 2, 3, 4}, b12[2] = {5, 6};
  int64_t s4[1] = {4}, s12[2] = {1, 2}, s42[2] = {4, 2};
  bcast_tensor ta, tb, va, vb;
  bcast_tensor_wrap(&ta, BCAST_INT32, 1, s4, NULL, a4, NULL);
  bcast_tensor_wrap(&tb, BCAST_INT32, 2, s12, NULL, b12, NULL);
  bcast_shape sa = {1, {4}}, sb = {2, {1, 2}}, out;
  CHECK_INT(bcast_xla_binary_shape(&sa, &sb, d0, 1, &out, NULL), BCAST_OK);
  CHECK_INT(out.rank, 2);
  CHECK_INT(bcast_broadcast_in_dim(&va, &ta, 2, s42, d0, 1,
                                   BCAST_DIMS_INCREASING, NULL),
            BCAST_OK);
  int64_t id2[2] = {0, 1};
  CHECK_INT(bcast_broadcast_in_dim(&vb, &tb, 2, s42, id2, 2,
                                   BCAST_DIMS_INCREASING, NULL),
            BCAST_OK);
  static const int32_t comp[8] = {6, 7, 7, 8, 8, 9, 9, 10};
  for (int64_t i = 0; i < 4; i++)
    for (int64_t j = 0; j < 2; j++) {
      int64_t idx[2] = {i, j};
      CHECK_INT(at(&va, idx) + at(&vb, idx), comp[i * 2 + j]);
    }
  /* A transpose folded in (StableHLO order): [2,3] -> [3,2] under (1,0). */
  int64_t s32[2] = {3, 2}, tr[2] = {1, 0};
  CHECK_INT(bcast_broadcast_in_dim(&view, &tm, 2, s32, tr, 2,
                                   BCAST_DIMS_ANY_ORDER, NULL),
            BCAST_OK);
  for (int64_t i = 0; i < 3; i++)
    for (int64_t j = 0; j < 2; j++) {
      int64_t idx[2] = {i, j}, src[2] = {j, i};
      CHECK_INT(at(&view, idx), at(&tm, src));
    }
}

/* explain's map, given to broadcast_in_dim, reproduces implicit
 * broadcasting exactly: same shape and same strides as broadcast_to. */
TEST(explicit_explain_equals_implicit_random) {
  uint64_t rng = test_seed() ^ 0xe4;
  static char memory[8];
  for (int iter = 0; iter < 5000; iter++) {
    size_t n = (size_t)test_rand_range(&rng, 1, 4);
    bcast_shape ops[4], out;
    int32_t max_rank = (int32_t)test_rand_range(&rng, 0, 5);
    int64_t target[5];
    for (int32_t d = 0; d < max_rank; d++)
      target[d] = test_rand_range(&rng, 0, 4);
    for (size_t k = 0; k < n; k++) {
      ops[k].rank = (int32_t)test_rand_range(&rng, 0, max_rank);
      for (int32_t i = 0; i < ops[k].rank; i++) {
        int64_t full = target[max_rank - ops[k].rank + i];
        ops[k].dims[i] = test_rand(&rng) % 3 == 0 ? 1 : full;
      }
    }
    bcast_explained ex[4];
    if (bcast_explain(n, ops, BCAST_PROFILE_NUMPY, &out, ex, NULL) !=
        BCAST_OK) {
      test_fail(t, __FILE__, __LINE__, "iteration %d: explain failed", iter);
      continue;
    }
    for (size_t k = 0; k < n; k++) {
      CHECK_INT(bcast_broadcast_in_dim_check(
                    &ops[k], &out, ex[k].broadcast_dimensions,
                    (size_t)ops[k].rank, BCAST_DIMS_INCREASING, NULL),
                BCAST_OK);
      bcast_tensor src, implicit, explicit_view;
      CHECK_INT(bcast_tensor_wrap(&src, BCAST_INT8, ops[k].rank, ops[k].dims,
                                  NULL, memory, NULL),
                BCAST_OK);
      CHECK_INT(bcast_broadcast_to(&implicit, &src, out.rank, out.dims, NULL),
                BCAST_OK);
      CHECK_INT(bcast_broadcast_in_dim(&explicit_view, &src, out.rank,
                                       out.dims, ex[k].broadcast_dimensions,
                                       (size_t)ops[k].rank,
                                       BCAST_DIMS_INCREASING, NULL),
                BCAST_OK);
      for (int32_t d = 0; d < out.rank; d++) {
        CHECK_INT(explicit_view.shape[d], implicit.shape[d]);
        if (out.dims[d] > 1)
          CHECK_INT(explicit_view.stride_bytes[d], implicit.stride_bytes[d]);
      }
      /* The expanded mask is exactly the dims that are 1 against a larger
       * (or empty) result dim. */
      for (int32_t i = 0; i < ops[k].rank; i++) {
        int64_t r = out.dims[ex[k].broadcast_dimensions[i]];
        CHECK_INT((ex[k].expanded >> i) & 1, ops[k].dims[i] == 1 && r != 1);
      }
    }
  }
}

TEST(explicit_symbols_and_constraints) {
  bcast_symbols syms;
  bcast_symbols_init(&syms);
  bcast_shape ops[2], out;
  CHECK_INT(bcast_shape_parse_symbolic("[n,1]", 5, &syms, &ops[0], NULL),
            BCAST_OK);
  CHECK_INT(bcast_shape_parse_symbolic("[1,m]", 5, &syms, &ops[1], NULL),
            BCAST_OK);
  CHECK_INT(syms.count, 2);
  bcast_constraint c[8];
  size_t nc;
  CHECK_INT(bcast_shape_infer_constrained(2, ops, BCAST_PROFILE_TRAIT, &out, c,
                                          8, &nc, NULL),
            BCAST_OK);
  char text[256];
  bcast_shape_format_symbolic(&out, BCAST_SHAPE_STYLE_LIST, &syms, text,
                              sizeof text);
  CHECK_STR(text, "[n,m]");
  CHECK_INT(nc, 0);
  /* [n] with [n]: no check; [n] with [m]: '?' and one check. */
  CHECK_INT(bcast_shape_parse_symbolic("[n]", 3, &syms, &ops[0], NULL),
            BCAST_OK);
  CHECK_INT(bcast_shape_parse_symbolic("[n]", 3, &syms, &ops[1], NULL),
            BCAST_OK);
  CHECK_INT(bcast_shape_infer_constrained(2, ops, BCAST_PROFILE_TRAIT, &out, c,
                                          8, &nc, NULL),
            BCAST_OK);
  CHECK_INT(nc, 0);
  bcast_shape_format_symbolic(&out, BCAST_SHAPE_STYLE_LIST, &syms, text,
                              sizeof text);
  CHECK_STR(text, "[n]");
  CHECK_INT(bcast_shape_parse_symbolic("[m]", 3, &syms, &ops[1], NULL),
            BCAST_OK);
  CHECK_INT(bcast_shape_infer_constrained(2, ops, BCAST_PROFILE_TRAIT, &out, c,
                                          8, &nc, NULL),
            BCAST_OK);
  CHECK_INT(nc, 1);
  CHECK_INT(out.dims[0], Q);
  bcast_constraint_format(&c[0], &syms, text, sizeof text);
  CHECK_STR(text, "n == m or n == 1 or m == 1");
  /* A dynamic dim against a static size > 1 must be 1 or that size. */
  bcast_shape q[2] = {SHAPE(Q, 3), SHAPE(5, 1)};
  CHECK_INT(bcast_shape_infer_constrained(2, q, BCAST_PROFILE_TRAIT, &out, c,
                                          8, &nc, NULL),
            BCAST_OK);
  CHECK_INT(nc, 1);
  bcast_constraint_format(&c[0], NULL, text, sizeof text);
  CHECK_STR(text, "operand #0 dim 0 == 5 or operand #0 dim 0 == 1");
  /* Names are kept apart from '?' and reused across shapes. */
  CHECK_INT(
      bcast_shape_parse_symbolic("[batch,?,n]", 11, &syms, &ops[0], NULL),
      BCAST_OK);
  CHECK_INT(ops[0].dims[2], BCAST_DIM_SYMBOL(0));
  CHECK_INT(ops[0].dims[1], Q);
}

TEST(explicit_run_time_check_analysis) {
  bcast_symbols syms;
  bcast_symbols_init(&syms);
  bcast_shape ops[3], out;
  /* Axis by axis: ? with 1, 3 with ?, 1 with 4, ? with 5, n with n. */
  CHECK_INT(
      bcast_shape_parse_symbolic("[?,3,1,?,n]", 11, &syms, &ops[0], NULL),
      BCAST_OK);
  CHECK_INT(
      bcast_shape_parse_symbolic("[1,?,4,5,n]", 11, &syms, &ops[1], NULL),
      BCAST_OK);
  CHECK_INT(bcast_shape_parse_symbolic("[1]", 3, &syms, &ops[2], NULL),
            BCAST_OK);
  CHECK_INT(bcast_shape_infer(3, ops, BCAST_PROFILE_TRAIT, &out, NULL),
            BCAST_OK);
  bcast__shapes view = bcast__shapes_of(ops, 3);
  static const int want_check[5] = {0, 1, 0, 1, 0};
  static const int want_dynamic[5] = {1, 1, 0, 1, 2};
  static const bcast__dim_role want_role[5][3] = {
      {BCAST__DIM_DYNAMIC_EQUAL, BCAST__DIM_MAYBE_EXPANDED, BCAST__DIM_ABSENT},
      {BCAST__DIM_EQUAL, BCAST__DIM_CHECK, BCAST__DIM_ABSENT},
      {BCAST__DIM_EXPANDED, BCAST__DIM_EQUAL, BCAST__DIM_ABSENT},
      {BCAST__DIM_CHECK, BCAST__DIM_EQUAL, BCAST__DIM_ABSENT},
      {BCAST__DIM_DYNAMIC_EQUAL, BCAST__DIM_DYNAMIC_EQUAL,
       BCAST__DIM_MAYBE_EXPANDED}};
  bcast_constraint c[4];
  size_t nc = 0;
  for (int32_t a = 0; a < 5; a++) {
    bcast__axis axis;
    bcast__axis_analyze(view, out.rank, a, out.dims[a], &axis, c, 4, &nc);
    CHECK_INT(axis.needs_check, want_check[a]);
    CHECK_INT(axis.n_dynamic, want_dynamic[a]);
    for (size_t k = 0; k < 3; k++)
      CHECK_INT(bcast__dim_role_of(view, out.rank, &axis, k), want_role[a][k]);
  }
  /* The pairs name the operand that set the running dim first. */
  CHECK_INT(nc, 2);
  CHECK_INT(c[0].axis, 1);
  CHECK_INT(c[0].operand[0], 0);
  CHECK_INT(c[0].size[0], 3);
  CHECK_INT(c[0].operand[1], 1);
  CHECK_INT(c[0].size[1], Q);
  CHECK_INT(c[1].axis, 3);
  CHECK_INT(c[1].operand[0], 0);
  CHECK_INT(c[1].size[1], 5);
  /* The public views agree: two constraints, and explain marks the two
   * dynamic dims that need a check. */
  size_t n_pub = 0;
  bcast_constraint pub[4];
  CHECK_INT(bcast_shape_infer_constrained(3, ops, BCAST_PROFILE_TRAIT, &out,
                                          pub, 4, &n_pub, NULL),
            BCAST_OK);
  CHECK_INT(n_pub, 2);
  bcast_explained ex[3];
  CHECK_INT(bcast_explain(3, ops, BCAST_PROFILE_TRAIT, &out, ex, NULL),
            BCAST_OK);
  CHECK_INT(ex[0].runtime_check, 1u << 3);
  CHECK_INT(ex[1].runtime_check, 1u << 1);
  CHECK_INT(ex[0].expanded, 1u << 2);
  CHECK_INT(ex[1].maybe_expanded, 1u << 0);
  CHECK_INT(ex[2].maybe_expanded, 1u << 0);
  /* '?' against a static 0 is undecided, though the result stays '?'; two
   * '?' always are. */
  bcast_shape z[2] = {SHAPE(Q), SHAPE(0)};
  CHECK_INT(bcast_shape_infer(2, z, BCAST_PROFILE_TRAIT, &out, NULL),
            BCAST_OK);
  bcast__axis axis;
  bcast__axis_analyze(bcast__shapes_of(z, 2), 1, 0, out.dims[0], &axis, NULL,
                      0, NULL);
  CHECK_INT(axis.needs_check, 1);
  CHECK_INT(axis.n_dynamic, 1);
  CHECK_INT(axis.dim, Q);
  bcast_shape qq[2] = {SHAPE(Q), SHAPE(Q)};
  bcast__axis_analyze(bcast__shapes_of(qq, 2), 1, 0, Q, &axis, NULL, 0, NULL);
  CHECK_INT(axis.needs_check, 1);
  CHECK_INT(axis.n_dynamic, 2);
}
