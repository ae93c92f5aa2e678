/* Error states (bcast_ew_options.fp_errors, bcast_ew_plan_execute_fpe):
 * the errors an op meets, as NumPy 1.24 reports them for the same op and
 * values, from one thread and from two; the caller's own floating-point
 * flags neither leak into the report nor get lost. */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bcast/elementwise.h"
#include "ew/ew_plan.h"
#include "test.h"

enum { DIV = BCAST_FPE_DIVIDE, OVER = BCAST_FPE_OVERFLOW };
enum { UNDER = BCAST_FPE_UNDERFLOW, INVAL = BCAST_FPE_INVALID };

/* One binary op on two one-element operands of a type, the values given as
 * doubles (converted to the type), and the bits NumPy's warnings name. */
typedef struct fpe_case {
  bcast_op op;
  bcast_dtype type;
  double a, b;
  unsigned want;
} fpe_case;

static const fpe_case fpe_cases[] = {
    /* numpy/core/tests/test_umath.py, TestDivision and TestRemainder */
    {BCAST_OP_DIVIDE, BCAST_FLOAT64, 1, 0, DIV},
    {BCAST_OP_DIVIDE, BCAST_FLOAT64, 0, 0, INVAL},
    {BCAST_OP_DIVIDE, BCAST_FLOAT32, -1, 0, DIV},
    {BCAST_OP_DIVIDE, BCAST_FLOAT64, 1, 2, 0},
    {BCAST_OP_DIVIDE, BCAST_FLOAT64, 1e-300, 1e300, UNDER},
    {BCAST_OP_FLOOR_DIVIDE, BCAST_FLOAT64, 1, 0, DIV},
    {BCAST_OP_FLOOR_DIVIDE, BCAST_FLOAT64, INFINITY, 0, 0},
    {BCAST_OP_FLOOR_DIVIDE, BCAST_FLOAT64, NAN, 0, 0},
    {BCAST_OP_FLOOR_DIVIDE, BCAST_FLOAT64, NAN, 1, 0},
    {BCAST_OP_REMAINDER, BCAST_FLOAT32, NAN, 2, 0},
    {BCAST_OP_FLOOR_DIVIDE, BCAST_FLOAT64, 0, 0, INVAL},
    {BCAST_OP_REMAINDER, BCAST_FLOAT64, 1, 0, INVAL},
    {BCAST_OP_REMAINDER, BCAST_FLOAT64, INFINITY, 1, INVAL},
    {BCAST_OP_REMAINDER, BCAST_FLOAT64, 5, 3, 0},
    /* integer division by zero and MIN // -1 warn; other overflow wraps
     * silently (test_umath.py, TestDivisionIntegerOverflowsAndDivideByZero) */
    {BCAST_OP_FLOOR_DIVIDE, BCAST_INT32, 7, 0, DIV},
    {BCAST_OP_FLOOR_DIVIDE, BCAST_UINT8, 7, 0, DIV},
    {BCAST_OP_FLOOR_DIVIDE, BCAST_INT8, -128, -1, OVER},
    {BCAST_OP_FLOOR_DIVIDE, BCAST_INT8, -128, 2, 0},
    {BCAST_OP_REMAINDER, BCAST_INT64, 7, 0, DIV},
    {BCAST_OP_REMAINDER, BCAST_UINT16, 7, 0, DIV},
    {BCAST_OP_REMAINDER, BCAST_INT8, -128, -1, 0},
    {BCAST_OP_ADD, BCAST_INT8, 127, 1, 0},
    {BCAST_OP_MUL, BCAST_UINT8, 16, 16, 0},
    /* IEEE arithmetic */
    {BCAST_OP_MUL, BCAST_FLOAT64, 1e300, 1e300, OVER},
    {BCAST_OP_MUL, BCAST_FLOAT64, 1e-300, 1e-300, UNDER},
    {BCAST_OP_SUB, BCAST_FLOAT64, INFINITY, INFINITY, INVAL},
    {BCAST_OP_ADD, BCAST_FLOAT32, 3e38, 3e38, OVER},
    {BCAST_OP_POW, BCAST_FLOAT64, 0, -1, DIV},
    {BCAST_OP_POW, BCAST_FLOAT64, -8, 1.0 / 3, INVAL},
    /* quiet on NaN, as NumPy's comparison and maximum loops */
    {BCAST_OP_LESS, BCAST_FLOAT64, NAN, 1, 0},
    {BCAST_OP_GREATER_EQUAL, BCAST_FLOAT32, 1, NAN, 0},
    {BCAST_OP_MAXIMUM, BCAST_FLOAT64, NAN, 1, 0},
    {BCAST_OP_FMIN, BCAST_FLOAT64, 1, NAN, 0},
};

/* Stores v as one element of type at p. */
static void put(bcast_dtype type, void *p, double v) {
  switch (type) {
  case BCAST_FLOAT64:
    *(double *)p = v;
    break;
  case BCAST_FLOAT32:
    *(float *)p = (float)v;
    break;
  case BCAST_INT8:
    *(int8_t *)p = (int8_t)v;
    break;
  case BCAST_UINT8:
    *(uint8_t *)p = (uint8_t)v;
    break;
  case BCAST_UINT16:
    *(uint16_t *)p = (uint16_t)v;
    break;
  case BCAST_INT32:
    *(int32_t *)p = (int32_t)v;
    break;
  default:
    *(int64_t *)p = (int64_t)v;
    break;
  }
}

TEST(ew_fpe_cases_as_numpy) {
  for (size_t i = 0; i < sizeof fpe_cases / sizeof fpe_cases[0]; i++) {
    const fpe_case *c = &fpe_cases[i];
    int64_t n = 1;
    unsigned char a[8], b[8];
    put(c->type, a, c->a);
    put(c->type, b, c->b);
    bcast_tensor in[2], out;
    bcast_tensor_wrap(&in[0], c->type, 1, &n, NULL, a, NULL);
    bcast_tensor_wrap(&in[1], c->type, 1, &n, NULL, b, NULL);
    bcast_ew_options o;
    bcast_ew_options_init(&o);
    o.profile = BCAST_PROFILE_NUMPY;
    unsigned got = 0;
    o.fp_errors = &got;
    CHECK_INT(bcast_ew_compute(c->op, NULL, 2, in, &out, &o, NULL), BCAST_OK);
    bcast_tensor_release(&out);
    if (got != c->want)
      test_fail(t, __FILE__, __LINE__, "case %zu: %s(%g, %g) as %s: %u, want %u",
                i, bcast_op_get(c->op)->name, c->a, c->b,
                bcast_dtype_name(c->type), got, c->want);
  }
}

/* The caller's flags: one raised before the call is neither reported nor
 * cleared; one the op raises is reported, not left set; bits OR into what
 * *fp_errors holds. */
TEST(ew_fpe_callers_flags) {
  int64_t n = 2;
  double a[2] = {1, 2}, b[2] = {0, 1};
  bcast_tensor in[2], out;
  bcast_tensor_wrap(&in[0], BCAST_FLOAT64, 1, &n, NULL, a, NULL);
  bcast_tensor_wrap(&in[1], BCAST_FLOAT64, 1, &n, NULL, b, NULL);
  bcast_ew_options o;
  bcast_ew_options_init(&o);
  o.profile = BCAST_PROFILE_NUMPY;
  unsigned got = BCAST_FPE_UNDERFLOW;
  o.fp_errors = &got;
  feclearexcept(FE_ALL_EXCEPT);
  feraiseexcept(FE_OVERFLOW);
  CHECK_INT(bcast_ew_compute(BCAST_OP_DIVIDE, NULL, 2, in, &out, &o, NULL),
            BCAST_OK);
  bcast_tensor_release(&out);
  CHECK_INT(got, BCAST_FPE_UNDERFLOW | BCAST_FPE_DIVIDE);
  CHECK(fetestexcept(FE_OVERFLOW));
  CHECK(!fetestexcept(FE_DIVBYZERO));
  feclearexcept(FE_ALL_EXCEPT);
}

/* One element of n overflows: the last one, in the second thread's share
 * when two threads split the run (also on the non-temporal path).  The
 * plan's second execution, with no overflow, reports nothing: each thread
 * clears its flags before starting on a run. */
TEST(ew_fpe_two_threads) {
  const int64_t n = (int64_t)1 << 21; /* 16 MiB of output */
  double *a = malloc((size_t)n * sizeof *a), big = 1e300;
  double *c = malloc((size_t)n * sizeof *c);
  CHECK(a && c);
  if (!a || !c) {
    free(a);
    free(c);
    return;
  }
  for (int64_t i = 0; i < n; i++) a[i] = 1.0;
  bcast_tensor in[2], out;
  bcast_tensor_wrap(&in[0], BCAST_FLOAT64, 1, &n, NULL, a, NULL);
  bcast_tensor_wrap(&in[1], BCAST_FLOAT64, 0, NULL, NULL, &big, NULL);
  bcast_tensor_wrap(&out, BCAST_FLOAT64, 1, &n, NULL, c, NULL);
  bcast_ew_options o;
  bcast_ew_options_init(&o);
  o.profile = BCAST_PROFILE_NUMPY;
  o.threads = 2;
  for (int pass = 0; pass < 2; pass++) {
    bcast_ew_plan *plan = NULL;
    CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_MUL, NULL, 2, in, &out, &o,
                                   NULL),
              BCAST_OK);
    if (!plan) break;
    if (pass) bcast__ew_plan_set_nt_store(plan, EW_NT_WRAPPER);
    const void *data[2] = {a, &big};
    unsigned got = 0;
    a[n - 1] = 1e300;
    CHECK_INT(bcast_ew_plan_execute_fpe(plan, c, data, &got, NULL), BCAST_OK);
    CHECK_INT(got, BCAST_FPE_OVERFLOW);
    CHECK(isinf(c[n - 1]) && c[0] == 1e300);
    a[n - 1] = 1.0;
    got = 0;
    CHECK_INT(bcast_ew_plan_run_fpe(plan, in, &out, &got, NULL), BCAST_OK);
    CHECK_INT(got, 0);
    /* The first element's overflow is the calling thread's. */
    a[0] = 1e300;
    CHECK_INT(bcast_ew_plan_run_fpe(plan, in, &out, &got, NULL), BCAST_OK);
    CHECK_INT(got, BCAST_FPE_OVERFLOW);
    a[0] = 1.0;
    bcast_ew_plan_destroy(plan);
  }
  free(a);
  free(c);
}
