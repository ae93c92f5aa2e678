/* The shape algebra: the InferDim table, N-ary inference properties, the
 * trait document's Verify examples, and the profiles' differences. */
#include <stdlib.h>

#include "test.h"
#include "bcast/bcast.h"
#include "test_shapes.h"

static const bcast_shape SCALAR = {0, {0}};
static const bcast_shape UNRANKED = {BCAST_RANK_UNRANKED, {0}};

static int shapes_equal(const bcast_shape *a, const bcast_shape *b) {
  if (a->rank != b->rank) return 0;
  for (int32_t i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

/* The trait document's table, one row per class pair in both orders, with
 * the size-0 extension of MLIR and NumPy.  Classes: '?', 1, >1 (2 and 3 as
 * two distinct values), 0. */
TEST(shape_infer_dim_table) {
  static const struct {
    int64_t a, b;
    int ok;
    int64_t want;
  } rows[] = {
      {Q, Q, 1, Q}, {Q, 1, 1, Q}, {1, Q, 1, Q}, {Q, 5, 1, 5}, {5, Q, 1, 5},
      {1, 1, 1, 1}, {1, 5, 1, 5}, {5, 1, 1, 5}, {5, 5, 1, 5}, {5, 3, 0, 0},
      {3, 5, 0, 0}, {0, 1, 1, 0}, {1, 0, 1, 0}, {0, 0, 1, 0}, {0, 5, 0, 0},
      {5, 0, 0, 0}, {0, Q, 1, Q}, {Q, 0, 1, Q},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    int64_t out = -99;
    bcast_status st = bcast_dim_infer(rows[i].a, rows[i].b, &out);
    if (rows[i].ok) {
      CHECK_INT(st, BCAST_OK);
      CHECK_INT(out, rows[i].want);
    } else {
      CHECK_INT(st, BCAST_INCOMPATIBLE);
    }
  }
}

/* Every pair of dims from a pool of each class, both orders: the result is
 * symmetric, and agrees with the rule stated in words. */
TEST(shape_infer_dim_exhaustive_classes) {
  const int64_t pool[] = {
      Q, BCAST_DIM_SYMBOL(0), BCAST_DIM_SYMBOL(1), 0, 1, 2, 3, 7};
  const size_t n = sizeof pool / sizeof pool[0];
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < n; j++) {
      int64_t a = pool[i], b = pool[j], ab = -99, ba = -99;
      bcast_status s1 = bcast_dim_infer(a, b, &ab);
      bcast_status s2 = bcast_dim_infer(b, a, &ba);
      CHECK_INT(s1, s2);
      if (s1 == BCAST_OK) CHECK_INT(ab, ba);
      int dyn_a = a < 0, dyn_b = b < 0;
      if (!dyn_a && !dyn_b) {
        int compatible = a == b || a == 1 || b == 1;
        CHECK_INT(s1 == BCAST_OK, compatible);
        if (compatible) CHECK_INT(ab, a == 1 ? b : a);
      } else {
        CHECK_INT(s1, BCAST_OK);
        int64_t other = dyn_a ? b : a;
        if (dyn_a && dyn_b)
          CHECK_INT(ab, a == b ? a : Q);
        else if (other > 1)
          CHECK_INT(ab, other);
        else if (other == 1)
          CHECK_INT(ab, dyn_a ? a : b);
        else
          CHECK_INT(ab, Q); /* 0 with '?' */
      }
    }
  }
}

TEST(shape_infer_rank_expansion_and_unranked) {
  bcast_shape ops[3] = {SHAPE(4), SHAPE(2, 3, 4), UNRANKED}, out;
  CHECK_INT(bcast_shape_infer(3, ops, BCAST_PROFILE_TRAIT, &out, NULL),
            BCAST_OK);
  bcast_shape want = SHAPE(2, 3, 4);
  CHECK(shapes_equal(&out, &want));

  bcast_shape none[2] = {UNRANKED, UNRANKED};
  CHECK_INT(bcast_shape_infer(2, none, BCAST_PROFILE_TRAIT, &out, NULL),
            BCAST_OK);
  CHECK_INT(out.rank, BCAST_RANK_UNRANKED);

  bcast_shape one[2] = {UNRANKED, SHAPE(Q, 1)};
  CHECK_INT(bcast_shape_infer(2, one, BCAST_PROFILE_TRAIT, &out, NULL),
            BCAST_OK);
  want = SHAPE(Q, 1);
  CHECK(shapes_equal(&out, &want));

  bcast_shape scal[2] = {SCALAR, SCALAR};
  CHECK_INT(bcast_shape_infer(2, scal, BCAST_PROFILE_TRAIT, &out, NULL),
            BCAST_OK);
  CHECK_INT(out.rank, 0);
}

TEST(shape_infer_error_names_operands_and_dims) {
  bcast_diag d;
  bcast_shape ops[3] = {SHAPE(1, 3), SHAPE(4, 1), SHAPE(2)}, out;
  CHECK_INT(bcast_shape_infer(3, ops, BCAST_PROFILE_TRAIT, &out, &d),
            BCAST_INCOMPATIBLE);
  CHECK_INT(d.status, BCAST_INCOMPATIBLE);
  CHECK_INT(d.operand[0], 0);
  CHECK_INT(d.operand[1], 2);
  CHECK_INT(d.axis, 1);
  CHECK_INT(d.operand_axis[0], 1);
  CHECK_INT(d.operand_axis[1], 0);
  CHECK_INT(d.size[0], 3);
  CHECK_INT(d.size[1], 2);
  CHECK_STR(d.message,
            "at broadcast dim 1: operand #0 dim 1 (size 3) is incompatible "
            "with operand #2 dim 0 (size 2)");
  CHECK_STR(d.mlir_message, "operands don't have broadcast-compatible shapes");

  /* The operand that set a dim is named even after a '?' passed by. */
  bcast_shape ops2[3] = {SHAPE(5), SHAPE(Q), SHAPE(4)};
  CHECK_INT(bcast_shape_infer(3, ops2, BCAST_PROFILE_TRAIT, &out, &d),
            BCAST_INCOMPATIBLE);
  CHECK_INT(d.operand[0], 0);
  CHECK_INT(d.operand[1], 2);
}

TEST(shape_infer_profiles_rank_rules) {
  bcast_diag d;
  bcast_shape ops[2] = {SHAPE(3), SHAPE(1, 3)}, out;
  CHECK_INT(bcast_shape_infer(2, ops, BCAST_PROFILE_NUMPY, &out, NULL),
            BCAST_OK);
  CHECK_INT(bcast_shape_infer(2, ops, BCAST_PROFILE_TOSA, &out, &d),
            BCAST_RANK_MISMATCH);
  CHECK_STR(d.mlir_message, "operands don't have matching ranks");
  CHECK_CONTAINS(d.message, "operand #0 has rank 1 but operand #1 has rank 2");
  CHECK_INT(bcast_shape_infer(2, ops, BCAST_PROFILE_XLA, &out, &d),
            BCAST_RANK_MISMATCH);
  CHECK_CONTAINS(d.message, "broadcast_dimensions");
}

/* A random shape of rank 0..5 with dims drawn to collide often. */
static bcast_shape random_shape(uint64_t *rng, int allow_unranked,
                                int allow_zero) {
  bcast_shape s;
  if (allow_unranked && test_rand(rng) % 10 == 0) {
    s.rank = BCAST_RANK_UNRANKED;
    return s;
  }
  s.rank = (int32_t)test_rand_range(rng, 0, 5);
  for (int32_t i = 0; i < s.rank; i++) {
    switch (test_rand(rng) % 6) {
    case 0:
      s.dims[i] = Q;
      break;
    case 1:
      s.dims[i] = allow_zero ? 0 : 1;
      break;
    case 2:
    case 3:
      s.dims[i] = 1;
      break;
    default:
      s.dims[i] = test_rand_range(rng, 2, 3);
      break;
    }
  }
  return s;
}

/* Properties over random shapes.  Associativity holds on shapes without
 * size-0 dims: there InferDim is the join of the order 1 < '?' < n.  MLIR's
 * rule that 0 with '?' gives '?' forgets the 0, so with zeros the N-ary
 * inference is the left fold and no more: ([0],[?],[2]) infers [2] while
 * ([?],[2],[0]) fails.  The first half of the iterations checks
 * associativity without zeros, every iteration checks the left fold. */
TEST(shape_infer_properties_random) {
  uint64_t rng = test_seed() ^ 0x5eed;
  for (int iter = 0; iter < 20000; iter++) {
    int zeros = iter >= 10000;
    bcast_shape a = random_shape(&rng, 1, zeros),
                b = random_shape(&rng, 1, zeros),
                c = random_shape(&rng, 1, zeros);
    bcast_shape ab, ba, abc, ab_c, a_bc, bc, out;
    bcast_shape pair1[2] = {a, b}, pair2[2] = {b, a};
    bcast_status s1 =
        bcast_shape_infer(2, pair1, BCAST_PROFILE_TRAIT, &ab, NULL);
    bcast_status s2 =
        bcast_shape_infer(2, pair2, BCAST_PROFILE_TRAIT, &ba, NULL);
    /* Commutativity. */
    CHECK_INT(s1, s2);
    if (s1 == BCAST_OK) CHECK(shapes_equal(&ab, &ba));
    /* Associativity: N-ary equals either fold order. */
    bcast_shape three[3] = {a, b, c};
    bcast_status s3 =
        bcast_shape_infer(3, three, BCAST_PROFILE_TRAIT, &abc, NULL);
    bcast_shape pbc[2] = {b, c};
    bcast_status sbc =
        bcast_shape_infer(2, pbc, BCAST_PROFILE_TRAIT, &bc, NULL);
    int left_ok = 0, right_ok = 0;
    if (s1 == BCAST_OK) {
      bcast_shape p[2] = {ab, c};
      left_ok = bcast_shape_infer(2, p, BCAST_PROFILE_TRAIT, &ab_c, NULL) ==
                BCAST_OK;
    }
    if (sbc == BCAST_OK) {
      bcast_shape p[2] = {a, bc};
      right_ok = bcast_shape_infer(2, p, BCAST_PROFILE_TRAIT, &a_bc, NULL) ==
                 BCAST_OK;
    }
    CHECK_INT(s3 == BCAST_OK, left_ok);
    if (s3 == BCAST_OK && left_ok) CHECK(shapes_equal(&abc, &ab_c));
    if (!zeros) {
      CHECK_INT(s3 == BCAST_OK, right_ok);
      if (s3 == BCAST_OK && right_ok) CHECK(shapes_equal(&abc, &a_bc));
    }
    /* Scalars (and unranked operands) are identities. */
    bcast_shape with_scalar[2] = {a, SCALAR};
    CHECK_INT(
        bcast_shape_infer(2, with_scalar, BCAST_PROFILE_TRAIT, &out, NULL),
        BCAST_OK);
    if (a.rank != BCAST_RANK_UNRANKED)
      CHECK(shapes_equal(&out, &a));
    else
      CHECK_INT(out.rank, 0);
    /* A successful inference verifies against its own result. */
    if (s3 == BCAST_OK) {
      CHECK_INT(bcast_shape_verify(3, three, &abc, BCAST_PROFILE_TRAIT, NULL),
                BCAST_OK);
      CHECK_INT(bcast_shape_verify(3, three, &abc, BCAST_PROFILE_MLIR, NULL),
                BCAST_OK);
    }
  }
}

/* The eight valid and five invalid examples of the trait document. */
TEST(shape_verify_trait_document_examples) {
  struct {
    int n;
    bcast_shape ops[2];
    bcast_shape result;
    bcast_status trait, mlir;
  } ex[] = {
      {2, {SHAPE(1, 2), SHAPE(1, 2)}, SHAPE(1, 2), BCAST_OK, BCAST_OK},
      {2, {SHAPE(Q), SHAPE(Q)}, SHAPE(Q), BCAST_OK, BCAST_OK},
      {2, {SHAPE(1), SHAPE(4)}, SHAPE(4), BCAST_OK, BCAST_OK},
      {1, {SHAPE(4)}, SHAPE(Q), BCAST_OK, BCAST_OK},
      {2, {SHAPE(4), SHAPE(2, 3, 4)}, SHAPE(2, 3, 4), BCAST_OK, BCAST_OK},
      {2, {SHAPE(2), SHAPE(2)}, SHAPE(2), BCAST_OK, BCAST_OK},
      {1, {SHAPE(2)}, UNRANKED, BCAST_OK, BCAST_OK},
      {2, {UNRANKED, UNRANKED}, SHAPE(2), BCAST_OK, BCAST_OK},
      {2,
       {SHAPE(3), SHAPE(2)},
       SHAPE(Q),
       BCAST_INCOMPATIBLE,
       BCAST_INCOMPATIBLE},
      {2, {SHAPE(3), SHAPE(3)}, SHAPE(1, 3), BCAST_RESULT_MISMATCH, BCAST_OK},
      {2, {SHAPE(Q), SHAPE(Q)}, SHAPE(4), BCAST_RESULT_MISMATCH, BCAST_OK},
      {2,
       {SHAPE(2), SHAPE(2)},
       SHAPE(4),
       BCAST_RESULT_MISMATCH,
       BCAST_RESULT_MISMATCH},
      {2,
       {SHAPE(1), SHAPE(1)},
       SHAPE(4),
       BCAST_RESULT_MISMATCH,
       BCAST_RESULT_MISMATCH},
  };
  for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
    bcast_diag d;
    bcast_status st = bcast_shape_verify(
        (size_t)ex[i].n, ex[i].ops, &ex[i].result, BCAST_PROFILE_TRAIT, &d);
    if (st != ex[i].trait)
      test_fail(t, __FILE__, __LINE__, "example %zu: trait gave %s", i,
                bcast_status_name(st));
    st = bcast_shape_verify((size_t)ex[i].n, ex[i].ops, &ex[i].result,
                            BCAST_PROFILE_MLIR, &d);
    if (st != ex[i].mlir)
      test_fail(t, __FILE__, __LINE__, "example %zu: mlir gave %s", i,
                bcast_status_name(st));
  }
}

TEST(shape_verify_messages) {
  bcast_diag d;
  bcast_shape ops[2] = {SHAPE(1), SHAPE(1)};
  bcast_shape r = SHAPE(4);
  CHECK_INT(bcast_shape_verify(2, ops, &r, BCAST_PROFILE_TRAIT, &d),
            BCAST_RESULT_MISMATCH);
  CHECK_STR(d.mlir_message,
            "result type '4' not broadcast compatible with broadcasted "
            "operands's shapes '1'");
  CHECK_CONTAINS(
      d.message,
      "result dim 0 (size 4) does not match broadcast dim 0 (size 1");
  CHECK_INT(d.operand[0], BCAST_DIAG_RESULT);

  bcast_shape q[2] = {SHAPE(Q), SHAPE(Q)};
  CHECK_INT(bcast_shape_verify(2, q, &r, BCAST_PROFILE_TRAIT, &d),
            BCAST_RESULT_MISMATCH);
  CHECK_STR(d.mlir_message,
            "result type '4' not broadcast compatible with broadcasted "
            "operands's shapes '?'");
  CHECK_CONTAINS(d.message, "inferred '?'");

  bcast_shape three[2] = {SHAPE(3), SHAPE(3)};
  bcast_shape rank0 = SCALAR;
  CHECK_INT(bcast_shape_verify(2, three, &rank0, BCAST_PROFILE_MLIR, &d),
            BCAST_RESULT_MISMATCH);
  CHECK_STR(d.mlir_message,
            "result type '' not broadcast compatible with broadcasted "
            "operands's shapes '3'");
}

TEST(shape_verify_tosa_order_and_messages) {
  bcast_diag d;
  /* Broadcast compatibility is checked before equal ranks. */
  bcast_shape a[2] = {SHAPE(3), SHAPE(2, 4)};
  bcast_shape r = SHAPE(2, 3);
  CHECK_INT(bcast_shape_verify(2, a, &r, BCAST_PROFILE_TOSA, &d),
            BCAST_INCOMPATIBLE);
  bcast_shape b[2] = {SHAPE(1, 3), SHAPE(1, 3)};
  bcast_shape r3 = SHAPE(2, 1, 3);
  CHECK_INT(bcast_shape_verify(2, b, &r3, BCAST_PROFILE_TOSA, &d),
            BCAST_RANK_MISMATCH);
  CHECK_STR(d.mlir_message, "result type has different rank than operands");
  bcast_shape z[2] = {SHAPE(0), SHAPE(1)};
  bcast_shape r0 = SHAPE(0);
  CHECK_INT(bcast_shape_verify(2, z, &r0, BCAST_PROFILE_TOSA, &d),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(d.message, "operand #0 dim 0 has size 0");
  CHECK_INT(bcast_shape_verify(2, z, &r0, BCAST_PROFILE_TRAIT, &d), BCAST_OK);
}

TEST(shape_rank_limit) {
  bcast_shape s;
  int64_t dims[65];
  for (int i = 0; i < 65; i++) dims[i] = 1;
  CHECK_INT(bcast_shape_set(&s, 64, dims, NULL), BCAST_OK);
  bcast_diag d;
  CHECK_INT(bcast_shape_set(&s, 65, dims, &d), BCAST_RANK_LIMIT);
  CHECK_CONTAINS(d.message, "64");
  bcast_shape bad[1];
  bad[0].rank = 70;
  bcast_shape out;
  CHECK_INT(bcast_shape_infer(1, bad, BCAST_PROFILE_TRAIT, &out, &d),
            BCAST_RANK_LIMIT);
}

TEST(shape_parse_and_format) {
  static const struct {
    const char *in, *list, *mlir;
  } rows[] = {
      {"[2,?,1]", "[2,?,1]", "2x?x1"},
      {"[]", "[]", ""},
      {"()", "[]", ""},
      {"(3,)", "[3]", "3"},
      {"*", "*", "*"},
      {"4x?x3", "[4,?,3]", "4x?x3"},
      {" [ 2 , 3 ] ", "[2,3]", "2x3"},
      {"tensor<2x?x3xf32>", "[2,?,3]", "2x?x3"},
      {"tensor<f32>", "[]", ""},
      {"tensor<*xi32>", "*", "*"},
      {"vector<4x2xf16>", "[4,2]", "4x2"},
      {"vector<[4]x2xf16>", "[4,2]", "4x2"},
      {"tensor<0x1xcomplex<f32>>", "[0,1]", "0x1"},
      {"tensor<3x4xf32, #enc>", "[3,4]", "3x4"},
      {"[9223372036854775807]", "[9223372036854775807]",
       "9223372036854775807"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    bcast_shape s;
    bcast_diag d;
    bcast_status st =
        bcast_shape_parse(rows[i].in, strlen(rows[i].in), &s, &d);
    if (st != BCAST_OK) {
      test_fail(t, __FILE__, __LINE__, "'%s': %s", rows[i].in, d.message);
      continue;
    }
    char buf[256];
    bcast_shape_format(&s, BCAST_SHAPE_STYLE_LIST, buf, sizeof buf);
    CHECK_STR(buf, rows[i].list);
    bcast_shape_format(&s, BCAST_SHAPE_STYLE_MLIR, buf, sizeof buf);
    CHECK_STR(buf, rows[i].mlir);
  }
  /* snprintf-like: the full length is returned even when cut. */
  bcast_shape s = SHAPE(100, 200);
  char small[4];
  CHECK_INT(
      bcast_shape_format(&s, BCAST_SHAPE_STYLE_LIST, small, sizeof small), 9);
  CHECK_STR(small, "[10");
}

TEST(shape_parse_errors) {
  static const struct {
    const char *in;
    bcast_status st;
    const char *says;
  } rows[] = {
      {"[2,", BCAST_PARSE, "expected a size"},
      {"[-1]", BCAST_PARSE, "negative"},
      {"[a]", BCAST_PARSE, "named dim 'a' is not accepted here"},
      {"[99999999999999999999]", BCAST_OVERFLOW, "larger than"},
      {"", BCAST_PARSE, "empty"},
      {"[2,3", BCAST_PARSE, "missing closing bracket"},
      {"tensor<2x3xf32", BCAST_PARSE, "missing '>'"},
      {"tensor<", BCAST_PARSE, "missing '>'"},
      {"tensor<-1xf32>", BCAST_PARSE, "negative dimension '-1'"},
      {"tensor<2x>", BCAST_PARSE, "missing element type"},
      {"tensor<99999999999999999999xf32>", BCAST_OVERFLOW, "larger than"},
      {"vector<*xf32>", BCAST_PARSE, "unranked"},
      {"tensor<2xf32>x", BCAST_PARSE, "text after"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    bcast_shape s;
    bcast_diag d;
    bcast_status st =
        bcast_shape_parse(rows[i].in, strlen(rows[i].in), &s, &d);
    if (st != rows[i].st)
      test_fail(t, __FILE__, __LINE__, "'%s' gave %s (%s)", rows[i].in,
                bcast_status_name(st), st ? d.message : "");
    else
      CHECK_CONTAINS(d.message, rows[i].says);
  }
  /* Rank 65, in both spellings. */
  char text[512];
  size_t n = 0;
  n += (size_t)snprintf(text + n, sizeof text - n, "tensor<");
  for (int i = 0; i < 65; i++)
    n += (size_t)snprintf(text + n, sizeof text - n, "1x");
  snprintf(text + n, sizeof text - n, "f32>");
  bcast_shape s;
  bcast_diag d;
  CHECK_INT(bcast_shape_parse(text, strlen(text), &s, &d), BCAST_RANK_LIMIT);
  CHECK_CONTAINS(d.message, "64");
}

TEST(shape_elem_count_overflow) {
  bcast_shape s = SHAPE(4294967296, 4294967296);
  int64_t n;
  bcast_diag d;
  CHECK_INT(bcast_shape_elem_count(&s, &n, &d), BCAST_OVERFLOW);
  bcast_shape ok = SHAPE(3, 0, 5);
  CHECK_INT(bcast_shape_elem_count(&ok, &n, NULL), BCAST_OK);
  CHECK_INT(n, 0);
}

/* MLIR's size-0 rule makes inference order-dependent; bcast follows MLIR
 * (the mlir-opt differential test checks the same cases). */
TEST(shape_infer_zero_with_dynamic_is_order_dependent) {
  bcast_shape out, want = SHAPE(2);
  bcast_shape fwd[3] = {SHAPE(0), SHAPE(Q), SHAPE(2)};
  CHECK_INT(bcast_shape_infer(3, fwd, BCAST_PROFILE_MLIR, &out, NULL),
            BCAST_OK);
  CHECK(shapes_equal(&out, &want));
  bcast_shape rev[3] = {SHAPE(Q), SHAPE(2), SHAPE(0)};
  CHECK_INT(bcast_shape_infer(3, rev, BCAST_PROFILE_MLIR, &out, NULL),
            BCAST_INCOMPATIBLE);
}

/* NumPy's tuple style, and the formatter for dims outside a bcast_shape. */
TEST(shape_format_numpy_tuple) {
  char text[64];
  const int64_t dims[3] = {4, 3, 7};
  CHECK_INT(bcast_shape_format_dims(2, dims, BCAST_SHAPE_STYLE_NUMPY, text,
                                    sizeof text),
            6);
  CHECK_STR(text, "(4, 3)");
  CHECK_DIMS_TEXT(1, dims, BCAST_SHAPE_STYLE_NUMPY, "(4,)");
  CHECK_DIMS_TEXT(0, dims, BCAST_SHAPE_STYLE_NUMPY, "()");
  CHECK_DIMS_TEXT(3, dims, BCAST_SHAPE_STYLE_LIST, "[4,3,7]");
  CHECK_DIMS_TEXT(3, dims, BCAST_SHAPE_STYLE_MLIR, "4x3x7");
  bcast_shape s;
  CHECK_INT(bcast_shape_parse("[2,?,1]", 7, &s, NULL), BCAST_OK);
  CHECK_INT(bcast_shape_format(&s, BCAST_SHAPE_STYLE_NUMPY, text, 5), 9);
  CHECK_STR(text, "(2, ");
  s.rank = BCAST_RANK_UNRANKED;
  bcast_shape_format(&s, BCAST_SHAPE_STYLE_NUMPY, text, sizeof text);
  CHECK_STR(text, "*");
}
