/* Tensors: views, broadcasting, materialization against a per-element
 * reference, budgets, strings sharing bytes, reference counting. */
#include <stdlib.h>

#include "bcast/tensor.h"
#include "tensor/buffer.h"
#include "test.h"

/* One dtype per element size; 16 bytes is a string reference, copied as an
 * opaque unit (the random bytes are never dereferenced). */
static bcast_dtype dtype_of_size(int64_t bytes) {
  switch (bytes) {
  case 1:
    return BCAST_UINT8;
  case 2:
    return BCAST_FLOAT16;
  case 4:
    return BCAST_FLOAT32;
  case 8:
    return BCAST_INT64;
  default:
    return BCAST_STRING;
  }
}

/* Compares dst (any strides) against src, element by element in C order
 * of dst's shape, with a plain multi-index counter: no coalescing, no
 * reordering, nothing shared with the engine.  Returns mismatches. */
static int64_t compare_naive(const bcast_tensor *dst, const bcast_tensor *src,
                             int64_t elem) {
  const int32_t rank = dst->rank, lead = dst->rank - src->rank;
  int64_t count = 1, idx[BCAST_MAX_RANK], src_step[BCAST_MAX_RANK];
  for (int32_t i = 0; i < rank; i++) {
    count *= dst->shape[i];
    idx[i] = 0;
    src_step[i] = i >= lead && src->shape[i - lead] != 1
                      ? src->stride_bytes[i - lead]
                      : 0;
  }
  int64_t d = 0, s = 0, bad = 0; /* byte offsets from each data pointer */
  for (int64_t l = 0; l < count; l++) {
    bad += memcmp((const char *)dst->data + d, (const char *)src->data + s,
                  (size_t)elem) != 0;
    for (int32_t i = rank - 1; i >= 0; i--) {
      d += dst->stride_bytes[i];
      s += src_step[i];
      if (++idx[i] < dst->shape[i]) break;
      d -= dst->stride_bytes[i] * dst->shape[i];
      s -= src_step[i] * dst->shape[i];
      idx[i] = 0;
    }
  }
  return bad;
}

/* A random operand: shape compatible with out (each dim equal or 1, some
 * leading dims dropped) unless full_shape asks for out's shape, laid out in a random dim order with padding and
 * random sign, over random bytes.  *mem receives the backing block. */
static void random_layout(test_ctx *t, uint64_t *rng, int32_t out_rank,
                          const int64_t *out_shape, int64_t elem,
                          int full_shape, bcast_tensor *src, char **mem) {
  int32_t rank =
      full_shape ? out_rank : (int32_t)test_rand_range(rng, 0, out_rank);
  int64_t shape[BCAST_MAX_RANK], strides[BCAST_MAX_RANK];
  for (int32_t j = 0; j < rank; j++) {
    int64_t o = out_shape[out_rank - rank + j];
    shape[j] = !full_shape && test_rand_range(rng, 0, 2) == 0 ? 1 : o;
  }
  int32_t order[BCAST_MAX_RANK];
  for (int32_t j = 0; j < rank; j++) order[j] = j;
  for (int32_t j = rank - 1; j > 0; j--) {
    int32_t k = (int32_t)test_rand_range(rng, 0, j), tmp = order[j];
    order[j] = order[k];
    order[k] = tmp;
  }
  int64_t step = elem * test_rand_range(rng, 1, 2), offset = 0;
  for (int32_t j = 0; j < rank; j++) {
    int32_t d = order[j];
    int negative = test_rand_range(rng, 0, 3) == 0;
    strides[d] = negative ? -step : step;
    int64_t extent = shape[d] > 0 ? shape[d] : 1;
    if (negative) offset += (extent - 1) * step;
    step *= extent + test_rand_range(rng, 0, 1);
  }
  *mem = malloc((size_t)step);
  for (int64_t i = 0; i < step; i++) (*mem)[i] = (char)test_rand(rng);
  CHECK_INT(bcast_tensor_wrap(src, dtype_of_size(elem), rank, shape, strides,
                              *mem + offset, NULL),
            BCAST_OK);
}

static void check_random_materialize(test_ctx *t, uint64_t *rng, int max_rank,
                                     int64_t max_dim) {
  static const int64_t sizes[5] = {1, 2, 4, 8, 16};
  int64_t elem = sizes[test_rand_range(rng, 0, 4)];
  int32_t rank = (int32_t)test_rand_range(rng, 0, max_rank);
  int64_t shape[BCAST_MAX_RANK];
  for (int32_t i = 0; i < rank; i++) {
    int64_t r = test_rand_range(rng, 0, 19);
    shape[i] = r == 0 ? 0 : r < 6 ? 1 : test_rand_range(rng, 2, max_dim);
  }
  /* Keep outputs under 32 MiB: halve the largest dim until they fit. */
  for (;;) {
    int64_t bytes = elem;
    int32_t largest = 0;
    for (int32_t i = 0; i < rank; i++) {
      bytes *= shape[i];
      if (shape[i] > shape[largest]) largest = i;
    }
    if (bytes <= INT64_C(32) << 20) break;
    shape[largest] /= 2;
  }
  bcast_tensor src, view, out;
  char *mem;
  random_layout(t, rng, rank, shape, elem, 0, &src, &mem);
  CHECK_INT(bcast_broadcast_to(&view, &src, rank, shape, NULL), BCAST_OK);
  for (int threads = 1; threads <= 2; threads++) {
    bcast_diag diag;
    bcast_status status =
        bcast_materialize(&out, &view, INT64_C(1) << 32, threads, &diag);
    CHECK_INT(status, BCAST_OK);
    if (status != BCAST_OK) break;
    CHECK(bcast_tensor_is_contiguous(&out));
    int64_t bad = compare_naive(&out, &src, elem);
    if (bad) {
      char text[512];
      size_t len = 0;
      text[0] = '\0';
      for (int32_t i = 0; i < src.rank; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, " %lld/%lld",
                                (long long)src.shape[i],
                                (long long)src.stride_bytes[i]);
      test_fail(t, __FILE__, __LINE__,
                "%lld mismatches, elem %lld, %d threads, rank %d, src%s",
                (long long)bad, (long long)elem, threads, (int)rank, text);
    }
    bcast_tensor_release(&out);
  }
  bcast_tensor_release(&view);
  free(mem);
}

TEST(tensor_materialize_random_matches_naive) {
  uint64_t rng = test_seed();
  for (int i = 0; i < 600; i++) check_random_materialize(t, &rng, 8, 5);
}

TEST(tensor_copy_into_random_layouts) {
  /* Destinations with permuted, padded and negative strides. */
  uint64_t rng = test_seed() ^ 0xc0b1;
  static const int64_t sizes[5] = {1, 2, 4, 8, 16};
  for (int c = 0; c < 400; c++) {
    int64_t elem = sizes[test_rand_range(&rng, 0, 4)];
    /* One case in four has long dims (threaded copies); those stay at
     * rank <= 3 so that no case exceeds about a million elements. */
    int big = c % 4 == 0;
    int32_t rank = (int32_t)test_rand_range(&rng, 0, big ? 3 : 6);
    int64_t shape[BCAST_MAX_RANK];
    for (int32_t i = 0; i < rank; i++) {
      int64_t r = test_rand_range(&rng, 0, 9);
      shape[i] = r == 0 ? 1 : test_rand_range(&rng, 1, big ? 100 : 6);
    }
    bcast_tensor src, dst;
    char *src_mem, *dst_mem;
    random_layout(t, &rng, rank, shape, elem, 0, &src, &src_mem);
    random_layout(t, &rng, rank, shape, elem, 1, &dst, &dst_mem);
    for (int threads = 1; threads <= 2; threads++) {
      CHECK_INT(bcast_tensor_copy(&dst, &src, threads, NULL), BCAST_OK);
      CHECK_INT(compare_naive(&dst, &src, elem), 0);
    }
    free(src_mem);
    free(dst_mem);
  }
}

TEST(tensor_materialize_random_large_threaded) {
  /* Outputs past the thread threshold (256 KiB) and some past the
   * non-temporal one (8 MiB). */
  uint64_t rng = test_seed() ^ 0x5eed;
  for (int i = 0; i < 40; i++) check_random_materialize(t, &rng, 4, 200);
}

TEST(tensor_big_fixed_cases_both_store_kinds) {
  /* Each case is materialized (fresh buffer: cached stores) with one thread
   * and copied into a written buffer (non-temporal stores from 8 MiB up) with
   * two.  Odd row lengths put non-temporal stores at unaligned starts. */
  static const struct {
    int64_t elem;
    int32_t rank;
    int64_t out[4], src[4];
  } cases[] = {
      {4, 2, {1100, 2048}, {1100, 1}},
      {4, 2, {1100, 2048}, {1, 2048}},
      {2, 2, {3001, 1001}, {1, 1001}},
      {1, 2, {3001, 1001}, {3001, 1}},
      {8, 3, {101, 99, 103}, {101, 1, 1}},
      {16, 2, {1000, 600}, {1000, 1}},
      {4, 4, {4, 32, 256, 64}, {4, 1, 256, 1}},
      {1, 2, {9001, 1001}, {9001, 1}},
      {2, 2, {4500, 1001}, {1, 1001}},
      {4, 2, {2200, 1001}, {2200, 1}},
      {8, 2, {1100, 1001}, {1100, 1}},
      {2, 2, {4500, 1001}, {4500, 1}},
      {4, 2, {2200, 1001}, {1, 1001}},
      {4, 2, {300001, 3}, {300001, 1}},
      {2, 2, {200003, 7}, {1, 7}},
      {16, 3, {5, 40001, 3}, {5, 1, 3}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int64_t elem = cases[c].elem, n = 1;
    for (int32_t i = 0; i < cases[c].rank; i++) n *= cases[c].src[i];
    char *mem = malloc((size_t)(n * elem));
    for (int64_t i = 0; i < n * elem; i++) mem[i] = (char)(i * 131 + 7);
    bcast_tensor src, view, out;
    bcast_dtype dtype = dtype_of_size(elem);
    CHECK_INT(bcast_tensor_wrap(&src, dtype, cases[c].rank, cases[c].src, NULL,
                                mem, NULL),
              BCAST_OK);
    CHECK_INT(
        bcast_broadcast_to(&view, &src, cases[c].rank, cases[c].out, NULL),
        BCAST_OK);
    CHECK_INT(bcast_materialize(&out, &view, INT64_C(1) << 32, 1, NULL),
              BCAST_OK);
    CHECK_INT(compare_naive(&out, &src, elem), 0);
    memset(out.data, 0xa5, bcast__buffer_size(out.owner));
    CHECK_INT(bcast_tensor_copy(&out, &view, 2, NULL), BCAST_OK);
    CHECK_INT(compare_naive(&out, &src, elem), 0);
    bcast_tensor_release(&out);
    free(mem);
  }
}

/* *view: the scalar of dtype at value broadcast to shape (both steps
 * checked). */
static void scalar_view(test_ctx *t, bcast_tensor *view, bcast_dtype dtype,
                        void *value, int32_t rank, const int64_t *shape) {
  bcast_tensor scalar;
  CHECK_INT(bcast_tensor_wrap(&scalar, dtype, 0, NULL, NULL, value, NULL),
            BCAST_OK);
  CHECK_INT(bcast_broadcast_to(view, &scalar, rank, shape, NULL), BCAST_OK);
}

TEST(tensor_budget_message_states_bytes) {
  float one = 1.0f;
  bcast_tensor view, out;
  bcast_diag diag;
  const int64_t shape[2] = {4096, 4096};
  scalar_view(t, &view, BCAST_FLOAT32, &one, 2, shape);
  CHECK_INT(bcast_materialize(&out, &view, INT64_C(1) << 20, 1, &diag),
            BCAST_BUDGET);
  CHECK_STR(diag.message,
            "materializing float32 [4096,4096] needs 67108864 bytes "
            "(64.0 MiB), over the budget of 1048576 bytes (1.0 MiB)");
  CHECK_INT(bcast_materialize(&out, &view, INT64_C(1) << 26, 1, &diag),
            BCAST_OK);
  bcast_tensor_release(&out);
}

TEST(tensor_overflow_is_refused_before_allocating) {
  double one = 1.0;
  bcast_tensor view, out;
  bcast_diag diag;
  const int64_t huge[2] = {INT64_C(1) << 31, INT64_C(1) << 30};
  scalar_view(t, &view, BCAST_FLOAT64, &one, 2, huge);
  CHECK_INT(bcast_materialize(&out, &view, INT64_MAX, 1, &diag),
            BCAST_OVERFLOW);
  CHECK_CONTAINS(diag.message,
                 "materializing float64 [2147483648,1073741824]");
  CHECK_CONTAINS(diag.message, "overflows 64 bits");
  const int64_t count_overflow[3] = {INT64_C(1) << 40, INT64_C(1) << 40, 1};
  scalar_view(t, &view, BCAST_FLOAT64, &one, 3, count_overflow);
  CHECK_INT(bcast_materialize(&out, &view, INT64_MAX, 1, &diag),
            BCAST_OVERFLOW);
  CHECK_INT(bcast_tensor_alloc(&out, BCAST_INT8, 2, count_overflow, INT64_MAX,
                               &diag),
            BCAST_OVERFLOW);
}

/* A failed alloc or wrap leaves the tensor empty, so the usual cleanup path
 * (release everything) is safe whatever the tensor held before. */
TEST(tensor_failed_alloc_and_wrap_leave_the_tensor_empty) {
  bcast_tensor x, empty;
  memset(&empty, 0, sizeof empty);
  const int64_t shape[2] = {4, 3}, negative[1] = {-2};
  memset(&x, 0x5a, sizeof x);
  CHECK_INT(bcast_tensor_alloc(&x, BCAST_FLOAT32, 2, shape, 8, NULL),
            BCAST_BUDGET);
  CHECK(memcmp(&x, &empty, sizeof x) == 0);
  bcast_tensor_release(&x);
  memset(&x, 0x5a, sizeof x);
  CHECK_INT(
      bcast_tensor_wrap(&x, BCAST_FLOAT32, 1, negative, NULL, NULL, NULL),
      BCAST_INVALID_ARGUMENT);
  CHECK(memcmp(&x, &empty, sizeof x) == 0);
  bcast_tensor_release(&x);
}

/* Wraps data as an int8 tensor of the given shape (checked). */
static void wrap_i8(test_ctx *t, bcast_tensor *x, int32_t rank,
                    const int64_t *shape, void *data) {
  CHECK_INT(bcast_tensor_wrap(x, BCAST_INT8, rank, shape, NULL, data, NULL),
            BCAST_OK);
}

TEST(tensor_broadcast_views_errors_name_both_operands) {
  char a[6], b[2];
  bcast_tensor src[2], dst[2];
  bcast_diag diag;
  const int64_t sa[2] = {2, 3}, sb[1] = {2};
  wrap_i8(t, &src[0], 2, sa, a);
  wrap_i8(t, &src[1], 1, sb, b);
  CHECK_INT(bcast_broadcast_views(2, dst, src, &diag), BCAST_INCOMPATIBLE);
  CHECK_CONTAINS(diag.message,
                 "operand #0 dim 1 (size 3) is incompatible with operand #1 "
                 "dim 0 (size 2) at broadcast dim 1");
  CHECK_INT(diag.operand[0], 0);
  CHECK_INT(diag.operand[1], 1);
  CHECK_INT(diag.operand_axis[0], 1);
  CHECK_INT(diag.operand_axis[1], 0);
  CHECK_INT(diag.size[0], 3);
  CHECK_INT(diag.size[1], 2);
  CHECK_INT(diag.axis, 1);
}

TEST(tensor_broadcast_views_numpy_rules) {
  char mem[64];
  bcast_tensor src[3], dst[3];
  const int64_t s0[3] = {4, 1, 3}, s1[2] = {5, 1}, s2[1] = {0};
  wrap_i8(t, &src[0], 3, s0, mem);
  wrap_i8(t, &src[1], 2, s1, mem);
  wrap_i8(t, &src[2], 0, s2, mem);
  CHECK_INT(bcast_broadcast_views(3, dst, src, NULL), BCAST_OK);
  for (int i = 0; i < 3; i++) {
    CHECK_INT(dst[i].rank, 3);
    CHECK_INT(dst[i].shape[0], 4);
    CHECK_INT(dst[i].shape[1], 5);
    CHECK_INT(dst[i].shape[2], 3);
  }
  CHECK_INT(dst[0].stride_bytes[1], 0);
  CHECK_INT(dst[1].stride_bytes[0], 0);
  CHECK_INT(dst[1].stride_bytes[1], 1);
  CHECK_INT(dst[1].stride_bytes[2], 0);
  /* 1 with 0 gives 0; 0 with 3 is an error. */
  const int64_t z[1] = {0}, one[1] = {1}, three[1] = {3};
  bcast_diag diag;
  wrap_i8(t, &src[0], 1, z, NULL);
  wrap_i8(t, &src[1], 1, one, mem);
  CHECK_INT(bcast_broadcast_views(2, dst, src, NULL), BCAST_OK);
  CHECK_INT(dst[1].shape[0], 0);
  wrap_i8(t, &src[1], 1, three, mem);
  CHECK_INT(bcast_broadcast_views(2, dst, src, &diag), BCAST_INCOMPATIBLE);
  CHECK_CONTAINS(diag.message, "operand #0 dim 0 (size 0) is incompatible "
                               "with operand #1 dim 0 (size 3)");
}

TEST(tensor_broadcast_to_is_unidirectional) {
  char mem[8];
  bcast_tensor src, dst;
  bcast_diag diag;
  const int64_t s[2] = {2, 1}, to_ok[3] = {5, 2, 7}, to_bad[2] = {3, 7};
  wrap_i8(t, &src, 2, s, mem);
  CHECK_INT(bcast_broadcast_to(&dst, &src, 3, to_ok, NULL), BCAST_OK);
  CHECK_INT(dst.stride_bytes[0], 0);
  CHECK_INT(dst.stride_bytes[1], 1);
  CHECK_INT(dst.stride_bytes[2], 0);
  CHECK(dst.data == mem);
  CHECK_INT(bcast_broadcast_to(&dst, &src, 2, to_bad, &diag),
            BCAST_INCOMPATIBLE);
  CHECK_STR(diag.message,
            "cannot broadcast [2,1] to [3,7]: source dim 0 (size 2) is "
            "neither 1 nor the target's size 3 (target dim 0)");
  CHECK_INT(bcast_broadcast_to(&dst, &src, 1, to_bad, &diag),
            BCAST_RANK_MISMATCH);
  const int64_t s5[1] = {5}, to1[1] = {1};
  wrap_i8(t, &src, 1, s5, mem);
  CHECK_INT(bcast_broadcast_to(&dst, &src, 1, to1, NULL), BCAST_INCOMPATIBLE);
}

TEST(tensor_string_materialize_shares_bytes) {
  /* The source: a string tensor whose buffer keeps a byte buffer alive. */
  static const char text[] = "alphabetagamma";
  bcast_buffer *bytes;
  CHECK_INT(bcast__buffer_alloc(sizeof text, &bytes, NULL), BCAST_OK);
  char *chars = bcast__buffer_data(bytes);
  memcpy(chars, text, sizeof text);
  bcast_tensor src, view, out;
  const int64_t shape[2] = {1, 3};
  CHECK_INT(bcast_tensor_alloc(&src, BCAST_STRING, 2, shape, 1 << 20, NULL),
            BCAST_OK);
  CHECK_INT(bcast__buffer_keep(src.owner, bytes, NULL), BCAST_OK);
  bcast__buffer_release(bytes);
  bcast_string *refs = src.data;
  refs[0] = (bcast_string){chars, 5};
  refs[1] = (bcast_string){chars + 5, 4};
  refs[2] = (bcast_string){chars + 9, 5};

  const int64_t to[2] = {4, 3};
  CHECK_INT(bcast_broadcast_to(&view, &src, 2, to, NULL), BCAST_OK);
  CHECK_INT(bcast_materialize(&out, &view, 1 << 20, 1, NULL), BCAST_OK);
  bcast_tensor_release(&view);
  bcast_tensor_release(&src);
  /* Only out is left holding anything; its strings must still read. */
  const bcast_string *got = out.data;
  for (int i = 0; i < 12; i++) {
    static const char *const want[3] = {"alpha", "beta", "gamma"};
    CHECK(got[i].ptr == chars + (i % 3 == 0 ? 0 : i % 3 == 1 ? 5 : 9));
    CHECK_INT(got[i].len, strlen(want[i % 3]));
    CHECK(memcmp(got[i].ptr, want[i % 3], got[i].len) == 0);
  }
  bcast_tensor_release(&out);
}

TEST(tensor_views_count_references) {
  bcast_tensor a, b;
  const int64_t shape[1] = {16};
  CHECK_INT(bcast_tensor_alloc(&a, BCAST_INT32, 1, shape, 1 << 20, NULL),
            BCAST_OK);
  CHECK(a.owner != NULL);
  CHECK_INT(bcast__buffer_size(a.owner), 64);
  CHECK(((uintptr_t)a.data & 63) == 0);
  int32_t *data = a.data;
  CHECK_INT(data[15], 0);
  bcast_tensor_view(&b, &a);
  bcast_tensor_release(&a);
  CHECK(a.owner == NULL);
  data[3] = 42; /* still alive through b; ASan would see a use after free */
  CHECK_INT(((int32_t *)b.data)[3], 42);
  bcast_tensor c;
  const int64_t to[2] = {3, 16};
  CHECK_INT(bcast_broadcast_to(&c, &b, 2, to, NULL), BCAST_OK);
  bcast_tensor_release(&b);
  CHECK_INT(((int32_t *)c.data)[3], 42);
  bcast_tensor_release(&c);
}

TEST(tensor_broadcast_materialize_checks_total_budget) {
  float x[3] = {1, 2, 3};
  double y[2] = {4, 5};
  bcast_tensor in[2], out[2];
  bcast_diag diag;
  const int64_t sx[1] = {3}, sy[2] = {2, 1};
  CHECK_INT(bcast_tensor_wrap(&in[0], BCAST_FLOAT32, 1, sx, NULL, x, NULL),
            BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&in[1], BCAST_FLOAT64, 2, sy, NULL, y, NULL),
            BCAST_OK);
  /* 6 * 4 + 6 * 8 = 72 bytes. */
  CHECK_INT(bcast_broadcast_materialize(2, out, in, 71, 1, &diag),
            BCAST_BUDGET);
  CHECK_STR(diag.message,
            "materializing 2 outputs of shape [2,3] needs 72 bytes (72 "
            "bytes), over the budget of 71 bytes (71 bytes)");
  CHECK_INT(bcast_broadcast_materialize(2, out, in, 72, 1, &diag), BCAST_OK);
  const float *z0 = out[0].data;
  const double *z1 = out[1].data;
  CHECK(z0[3] == 1 && z0[5] == 3);
  CHECK(z1[2] == 4 && z1[3] == 5);
  bcast_tensor_release(&out[0]);
  bcast_tensor_release(&out[1]);
}

TEST(tensor_materialize_all_checks_total_budget) {
  /* x: float32 [3] read with stride 8 (every other float); y: int16
   * [2,1].  Their copies need 3 * 4 + 2 * 2 = 16 bytes. */
  float xs[6] = {1, -1, 2, -1, 3, -1};
  int16_t ys[2] = {7, 8};
  bcast_tensor in[2], out[2];
  bcast_diag diag;
  const int64_t sx[1] = {3}, stride_x[1] = {8}, sy[2] = {2, 1};
  CHECK_INT(
      bcast_tensor_wrap(&in[0], BCAST_FLOAT32, 1, sx, stride_x, xs, NULL),
      BCAST_OK);
  CHECK_INT(bcast_tensor_wrap(&in[1], BCAST_INT16, 2, sy, NULL, ys, NULL),
            BCAST_OK);
  CHECK_INT(bcast_materialize_all(2, out, in, 15, 1, &diag), BCAST_BUDGET);
  CHECK_STR(diag.message,
            "materializing 2 outputs of shapes [3], [2,1] needs 16 bytes (16 "
            "bytes), over the budget of 15 bytes (15 bytes)");
  CHECK_INT(bcast_materialize_all(1, out, &in[1], 3, 1, &diag), BCAST_BUDGET);
  CHECK_STR(diag.message,
            "materializing 1 output of shape [2,1] needs 4 bytes (4 bytes), "
            "over the budget of 3 bytes (3 bytes)");
  CHECK_INT(bcast_materialize_all(2, out, in, 16, 1, &diag), BCAST_OK);
  CHECK(bcast_tensor_is_contiguous(&out[0]) &&
        bcast_tensor_is_contiguous(&out[1]));
  const float *z0 = out[0].data;
  const int16_t *z1 = out[1].data;
  CHECK(z0[0] == 1 && z0[1] == 2 && z0[2] == 3);
  CHECK(z1[0] == 7 && z1[1] == 8);
  bcast_tensor_release(&out[0]);
  bcast_tensor_release(&out[1]);

  /* Two stride-0 views of 2^62 bytes each: the sum overflows 64 bits,
   * found before anything is allocated. */
  int8_t one = 1;
  const int64_t huge[1] = {(int64_t)1 << 62}, zero[1] = {0};
  CHECK_INT(bcast_tensor_wrap(&in[0], BCAST_INT8, 1, huge, zero, &one, NULL),
            BCAST_OK);
  in[1] = in[0];
  CHECK_INT(bcast_materialize_all(2, out, in, INT64_MAX, 1, &diag),
            BCAST_OVERFLOW);
  CHECK_STR(diag.message, "the 2 outputs together need more than "
                          "9223372036854775807 bytes");
}

TEST(tensor_bind_check_symbols_and_runtime_broadcast) {
  char mem[64];
  bcast_tensor ts[2];
  bcast_shape decl[2];
  bcast_diag diag;
  const int64_t a[2] = {3, 4}, b[1] = {4};
  wrap_i8(t, &ts[0], 2, a, mem);
  wrap_i8(t, &ts[1], 1, b, mem);
  decl[0].rank = 2;
  decl[0].dims[0] = BCAST_DIM_DYNAMIC;
  decl[0].dims[1] = BCAST_DIM_SYMBOL(0);
  decl[1].rank = 1;
  decl[1].dims[0] = BCAST_DIM_SYMBOL(0);
  CHECK_INT(bcast_bind_check(2, decl, ts, &diag), BCAST_OK);

  /* The symbol binds to 4 first, then to 5. */
  const int64_t b5[1] = {5};
  wrap_i8(t, &ts[1], 1, b5, mem);
  CHECK_INT(bcast_bind_check(2, decl, ts, &diag), BCAST_RUNTIME_SHAPE);
  CHECK_STR(diag.message,
            "operand #1 dim 0 (?<symbol 0>) is 5 at run time, but operand "
            "#0 dim 1 bound the same symbol to 4");

  /* Two anonymous dims that turn out 4 and 5: undefined under the trait. */
  decl[0].dims[1] = BCAST_DIM_DYNAMIC;
  decl[1].dims[0] = BCAST_DIM_DYNAMIC;
  CHECK_INT(bcast_bind_check(2, decl, ts, &diag), BCAST_RUNTIME_SHAPE);
  CHECK_CONTAINS(diag.message, "operand #0 dim 1 (declared ?) is 4 at run "
                               "time and operand #1 dim 0 (declared ?) is 5");
  CHECK_INT(diag.axis, 1);

  /* A static declared size the tensor does not have; a rank mismatch. */
  decl[0].dims[0] = 2;
  CHECK_INT(bcast_bind_check(1, decl, ts, &diag), BCAST_RUNTIME_SHAPE);
  CHECK_STR(diag.message,
            "operand #0 dim 0 is declared as 2 but is 3 at run time");
  decl[0].rank = 3;
  CHECK_INT(bcast_bind_check(1, decl, ts, &diag), BCAST_RANK_MISMATCH);
  decl[0].rank = BCAST_RANK_UNRANKED;
  CHECK_INT(bcast_bind_check(1, decl, ts, &diag), BCAST_OK);
}
