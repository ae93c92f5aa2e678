/* A zeroed options struct (`T o = {0};`) means the defaults: for every
 * options struct of the public headers, the `= {0}` pattern behaves as the
 * init function's result (same plan outcome, same budget refusal, same
 * output).  Each case below differed before the defaults were made zero:
 * profile 0 was TRAIT, max_bytes 0 a budget of nothing, cast_to 0 BOOL. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast/bcast.h"
#include "test.h"

/* Plans op over two float32 inputs of the given shapes (data never read)
 * and returns the status; on success also tries to allocate the output
 * and returns that status instead. */
static bcast_status plan_and_alloc(const bcast_ew_options *o, int32_t rank_a,
                                   const int64_t *a, int32_t rank_b,
                                   const int64_t *b) {
  static float cell;
  const int64_t zeros[2] = {0, 0};
  bcast_tensor in[2];
  if (bcast_tensor_wrap(&in[0], BCAST_FLOAT32, rank_a, a, zeros, &cell,
                        NULL) != BCAST_OK ||
      bcast_tensor_wrap(&in[1], BCAST_FLOAT32, rank_b, b, zeros, &cell,
                        NULL) != BCAST_OK)
    return BCAST_INVALID_ARGUMENT;
  bcast_ew_plan *plan;
  bcast_status st =
      bcast_ew_plan_create(&plan, BCAST_OP_ADD, NULL, 2, in, NULL, o, NULL);
  if (st != BCAST_OK) return st;
  bcast_tensor out;
  st = bcast_ew_plan_alloc_output(plan, &out, NULL);
  bcast_tensor_release(&out);
  bcast_ew_plan_destroy(plan);
  return st;
}

TEST(zero_init_ew_options_mean_the_defaults) {
  bcast_ew_options zero = {0}, init;
  bcast_ew_options_init(&init);
  const bcast_ew_options *both[2] = {&zero, &init};
  const int64_t m[2] = {2, 3}, row[1] = {3};
  /* 2^28 x 2 float32 is 2 GiB, beyond the default budget of 1 GiB. */
  const int64_t huge[2] = {(int64_t)1 << 28, 2};
  for (int k = 0; k < 2; k++) {
    /* The tosa profile: equal ranks only (trait would accept this). */
    CHECK_INT(plan_and_alloc(both[k], 2, m, 1, row), BCAST_RANK_MISMATCH);
    /* The default budget: a small output fits, 2 GiB does not. */
    CHECK_INT(plan_and_alloc(both[k], 2, m, 2, m), BCAST_OK);
    CHECK_INT(plan_and_alloc(both[k], 2, huge, 2, huge), BCAST_BUDGET);
  }
  /* A negative budget still refuses everything. */
  zero.max_bytes = -1;
  CHECK_INT(plan_and_alloc(&zero, 2, m, 2, m), BCAST_BUDGET);
}

/* op on x (float32, n elements) with attrs; the result's first n floats
 * into y, or the status. */
static bcast_status run1(bcast_op op, const bcast_op_attrs *attrs,
                         const float *x, float *y, int64_t n) {
  bcast_tensor in[2], out;
  for (int k = 0; k < 2; k++)
    if (bcast_tensor_wrap(&in[k], BCAST_FLOAT32, 1, &n, NULL, (void *)x,
                          NULL) != BCAST_OK)
      return BCAST_INVALID_ARGUMENT;
  bcast_status st = bcast_ew_compute(op, attrs, (size_t)bcast_op_arity(op), in,
                                     &out, NULL, NULL);
  if (st == BCAST_OK) memcpy(y, out.data, (size_t)n * sizeof *y);
  bcast_tensor_release(&out);
  return st;
}

TEST(zero_init_op_attrs_mean_the_defaults) {
  bcast_op_attrs zero = {0}, init;
  bcast_op_attrs_init(&init);
  const bcast_op_attrs *both[2] = {&zero, &init};
  const float x[4] = {-3.5f, NAN, 2.0f, 1e30f};
  for (int k = 0; k < 2; k++) {
    float y[4];
    /* CAST without a result type is refused (0 is not BOOL). */
    bcast_dtype result;
    const bcast_dtype f32 = BCAST_FLOAT32;
    CHECK_INT(bcast_ew_result_dtype(BCAST_OP_CAST, BCAST_PROFILE_TOSA, 1, &f32,
                                    both[k], &result, NULL),
              BCAST_INVALID_ARGUMENT);
    CHECK_INT(run1(BCAST_OP_CAST, both[k], x, y, 4), BCAST_INVALID_ARGUMENT);
    /* CLAMP without bounds leaves every value, NaN propagates. */
    CHECK_INT(run1(BCAST_OP_CLAMP, both[k], x, y, 4), BCAST_OK);
    CHECK(y[0] == -3.5f && isnan(y[1]) && y[2] == 2.0f && y[3] == 1e30f);
    /* MAXIMUM(NaN, NaN) and the rest: nan_mode PROPAGATE. */
    CHECK_INT(run1(BCAST_OP_MAXIMUM, both[k], x, y, 4), BCAST_OK);
    CHECK(isnan(y[1]) && y[0] == -3.5f);
    /* MUL: shift 0, so float inputs are accepted. */
    CHECK_INT(run1(BCAST_OP_MUL, both[k], x, y, 4), BCAST_OK);
    CHECK(y[2] == 4.0f);
  }
}

typedef struct text_sink {
  char buf[1 << 14];
  size_t len;
} text_sink;

static bcast_status text_write(void *ctx, const char *data, size_t len) {
  text_sink *s = ctx;
  if (s->len + len >= sizeof s->buf) return BCAST_IO;
  memcpy(s->buf + s->len, data, len);
  s->len += len;
  s->buf[s->len] = '\0';
  return BCAST_OK;
}

TEST(zero_init_emit_options_mean_the_defaults) {
  static const char *modules[2] = {
      /* Lowers under every profile. */
      "func.func @f(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> "
      "tensor<2x3xf32> {\n"
      "  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> "
      "tensor<2x3xf32>\n"
      "  return %0 : tensor<2x3xf32>\n}\n",
      /* Lower rank: refused by tosa's own (default) rule only. */
      "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> "
      "tensor<2x3xf32> {\n"
      "  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> "
      "tensor<2x3xf32>\n"
      "  return %0 : tensor<2x3xf32>\n}\n"};
  bcast_emit_options zero = {0}, init;
  bcast_emit_options_init(&init);
  text_sink *a = calloc(2, sizeof *a);
  if (!a) return;
  for (int m = 0; m < 2; m++) {
    a[0].len = a[1].len = 0;
    a[0].buf[0] = a[1].buf[0] = '\0';
    const size_t len = strlen(modules[m]);
    bcast_status sz = bcast_emit_lower_module(modules[m], len, &zero,
                                              text_write, &a[0], NULL, NULL);
    bcast_status si = bcast_emit_lower_module(modules[m], len, &init,
                                              text_write, &a[1], NULL, NULL);
    CHECK_INT(sz, m == 0 ? BCAST_OK : BCAST_RANK_MISMATCH);
    CHECK_INT(sz, si);
    CHECK_STR(a[0].buf, a[1].buf);
  }
  free(a);
}

/* bcast_npy_write_opts has no init function: zeroed is NULL's meaning. */
TEST(zero_init_npy_write_opts_mean_null) {
  char paths[2][64];
  const int64_t shape[2] = {2, 2};
  const int32_t v[4] = {1, -2, 3, 70000};
  bcast_tensor x;
  CHECK_INT(
      bcast_tensor_wrap(&x, BCAST_INT32, 2, shape, NULL, (void *)v, NULL),
      BCAST_OK);
  const bcast_npy_write_opts zero = {0};
  char *bytes[2] = {NULL, NULL};
  long size[2] = {-1, -2};
  for (int k = 0; k < 2; k++) {
    snprintf(paths[k], sizeof paths[k], "/tmp/bcast_zero_init_%ld_%d.npy",
             (long)getpid(), k);
    CHECK_INT(bcast_npy_write(paths[k], &x, k ? NULL : &zero, NULL), BCAST_OK);
    FILE *f = fopen(paths[k], "rb");
    if (!f) continue;
    bytes[k] = calloc(1, 4096);
    size[k] = bytes[k] ? (long)fread(bytes[k], 1, 4096, f) : -1;
    fclose(f);
    remove(paths[k]);
  }
  CHECK(size[0] > 0 && size[0] == size[1]);
  CHECK(bytes[0] && bytes[1] && memcmp(bytes[0], bytes[1], 4096) == 0);
  free(bytes[0]);
  free(bytes[1]);
}
