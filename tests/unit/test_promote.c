/* NumPy's type promotion (bcast_dtype_result_type) and the weak typing of
 * scalar operands (bcast_scalar_weak_dtype, bcast_scalar_tensor).  The
 * whole table is compared with numpy.result_type by
 * tests/diff/test_numpy_ops.py; here the rule's cases from NumPy's
 * documentation and NEP 50, and the errors. */
#include "bcast/elementwise.h"
#include "test.h"

static bcast_dtype promote(bcast_dtype a, bcast_dtype b) {
  bcast_dtype out = BCAST_DTYPE_COUNT;
  bcast_diag diag;
  if (bcast_dtype_promote(a, b, &out, &diag) != BCAST_OK)
    return BCAST_DTYPE_COUNT;
  return out;
}

TEST(promote_follows_numpy_result_type) {
  /* "A B -> RESULT" in NumPy's names, read by bcast_dtype_parse. */
  static const char *const cases[] = {
      "float32 float64 -> float64",
      "int8 uint8 -> int16",
      "int64 float32 -> float64",
      "int16 float16 -> float32",
      "uint8 float16 -> float16",
      "uint64 int8 -> float64",
      "uint32 int8 -> int64",
      "uint8 int32 -> int32",
      "bool uint16 -> uint16",
      "bool bool -> bool",
      /* bfloat16: ml_dtypes' rule. */
      "bfloat16 float16 -> float32",
      "bfloat16 float32 -> float32",
      "bfloat16 bool -> bfloat16",
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char a[16], b[16], want[16];
    bcast_dtype ta, tb, tw;
    if (sscanf(cases[k], "%15s %15s -> %15s", a, b, want) != 3 ||
        bcast_dtype_parse(a, strlen(a), &ta) != BCAST_OK ||
        bcast_dtype_parse(b, strlen(b), &tb) != BCAST_OK ||
        bcast_dtype_parse(want, strlen(want), &tw) != BCAST_OK) {
      test_fail(t, __FILE__, __LINE__, "bad case '%s'", cases[k]);
      continue;
    }
    const bcast_dtype got = promote(ta, tb);
    if (got != tw)
      test_fail(t, __FILE__, __LINE__, "%s: got %d", cases[k], (int)got);
  }
  /* Symmetric over every pair. */
  for (int a = 0; a < BCAST_STRING; a++)
    for (int b = 0; b < BCAST_STRING; b++)
      CHECK_INT(promote((bcast_dtype)a, (bcast_dtype)b),
                promote((bcast_dtype)b, (bcast_dtype)a));
}

TEST(result_type_n_ary_and_errors) {
  bcast_dtype out;
  bcast_diag diag;
  /* With a float, each integer joins it on its own (numpy.result_type). */
  const bcast_dtype three[] = {BCAST_INT8, BCAST_UINT8, BCAST_FLOAT16};
  CHECK_INT(bcast_dtype_result_type(3, three, &out, &diag), BCAST_OK);
  CHECK_INT(out, BCAST_FLOAT16);
  const bcast_dtype ints[] = {BCAST_INT8, BCAST_UINT8, BCAST_UINT16};
  CHECK_INT(bcast_dtype_result_type(3, ints, &out, &diag), BCAST_OK);
  CHECK_INT(out, BCAST_INT32);
  const bcast_dtype str[] = {BCAST_INT8, BCAST_STRING};
  CHECK_INT(bcast_dtype_result_type(2, str, &out, &diag), BCAST_TYPE);
  CHECK_CONTAINS(diag.message, "string");
  CHECK_INT(bcast_dtype_result_type(0, str, &out, &diag),
            BCAST_INVALID_ARGUMENT);
}

static bcast_dtype weak(bcast_scalar s, bcast_dtype strong,
                        bcast_status want) {
  bcast_dtype out = BCAST_DTYPE_COUNT;
  bcast_diag diag;
  const bcast_status st = bcast_scalar_weak_dtype(&s, 1, &strong, &out, &diag);
  return st == want ? out : (bcast_dtype)-1;
}

TEST(scalar_operands_are_weak) {
  CHECK_INT(weak(bcast_scalar_int(3), BCAST_INT8, BCAST_OK), BCAST_INT8);
  CHECK_INT(weak(bcast_scalar_float(2.5), BCAST_INT8, BCAST_OK),
            BCAST_FLOAT64);
  CHECK_INT(weak(bcast_scalar_float(2.5), BCAST_FLOAT32, BCAST_OK),
            BCAST_FLOAT32);
  CHECK_INT(weak(bcast_scalar_int(1), BCAST_BOOL, BCAST_OK), BCAST_INT64);
  CHECK_INT(weak(bcast_scalar_bool(1), BCAST_UINT8, BCAST_OK), BCAST_UINT8);
  CHECK_INT(weak(bcast_scalar_int(-1), BCAST_UINT8, BCAST_INVALID_ARGUMENT),
            BCAST_DTYPE_COUNT);
  CHECK_INT(weak(bcast_scalar_uint(UINT64_MAX), BCAST_UINT64, BCAST_OK),
            BCAST_UINT64);
  bcast_scalar s = bcast_scalar_int(300);
  bcast_dtype strong = BCAST_INT8, out;
  bcast_diag diag;
  CHECK_INT(bcast_scalar_weak_dtype(&s, 1, &strong, &out, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK_CONTAINS(diag.message, "Python integer 300 out of bounds for int8");
  /* No array beside it: the default types. */
  CHECK_INT(bcast_scalar_weak_dtype(&s, 0, NULL, &out, &diag), BCAST_OK);
  CHECK_INT(out, BCAST_INT64);
  /* As a rank-0 tensor of the type, rounded by numpy's cast. */
  bcast_tensor zd;
  s = bcast_scalar_float(0.1);
  CHECK_INT(bcast_scalar_tensor(&s, BCAST_FLOAT32, &zd, &diag), BCAST_OK);
  CHECK_INT(zd.rank, 0);
  CHECK_INT(zd.dtype, BCAST_FLOAT32);
  CHECK(*(const float *)zd.data == 0.1f);
  bcast_tensor_release(&zd);
}

static bcast_dtype for_op(bcast_op op, bcast_scalar s, bcast_dtype strong,
                          bcast_status want) {
  bcast_dtype out = BCAST_DTYPE_COUNT;
  bcast_diag diag;
  const bcast_status st = bcast_op_scalar_dtype(op, BCAST_PROFILE_NUMPY, &s, 1,
                                                &strong, &out, &diag);
  return st == want ? out : (bcast_dtype)-1;
}

TEST(scalar_operands_take_the_type_of_the_loop) {
  /* divide runs integer arrays in float64: the scalar is typed beside it */
  CHECK_INT(
      for_op(BCAST_OP_DIVIDE, bcast_scalar_int(300), BCAST_INT8, BCAST_OK),
      BCAST_FLOAT64);
  CHECK_INT(
      for_op(BCAST_OP_DIVIDE, bcast_scalar_int(-1), BCAST_UINT64, BCAST_OK),
      BCAST_FLOAT64);
  CHECK_INT(
      for_op(BCAST_OP_DIVIDE, bcast_scalar_int(300), BCAST_FLOAT16, BCAST_OK),
      BCAST_FLOAT16);
  /* the logical ops test it for nonzero: bool */
  CHECK_INT(for_op(BCAST_OP_LOGICAL_XOR, bcast_scalar_int(300), BCAST_INT8,
                   BCAST_OK),
            BCAST_BOOL);
  CHECK_INT(for_op(BCAST_OP_LOGICAL_AND, bcast_scalar_float(0.5),
                   BCAST_FLOAT32, BCAST_OK),
            BCAST_BOOL);
  /* the other ops as bcast_scalar_weak_dtype */
  CHECK_INT(for_op(BCAST_OP_ADD, bcast_scalar_int(300), BCAST_INT8,
                   BCAST_INVALID_ARGUMENT),
            BCAST_DTYPE_COUNT);
  CHECK_INT(for_op(BCAST_OP_LESS, bcast_scalar_int(3), BCAST_UINT8, BCAST_OK),
            BCAST_UINT8);
  bcast_scalar s = bcast_scalar_int(300);
  bcast_dtype strong = BCAST_INT8, out;
  bcast_diag diag;
  CHECK_INT(bcast_op_scalar_dtype(BCAST_OP_DIVIDE, BCAST_PROFILE_TOSA, &s, 1,
                                  &strong, &out, &diag),
            BCAST_INVALID_ARGUMENT);
}
