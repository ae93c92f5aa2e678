/* The plan engine: alignment, stride 0, dropping size-1 dims, ordering,
 * coalescing, masks, and a run that visits every element exactly once. */
#include <stdlib.h>
#include <string.h>

#include "bcast/plan.h"
#include "test.h"

/* Builds a plan for an output and one source, both described by shape and
 * byte strides; the output is operand 0. */
static bcast_status
build2(bcast_plan *plan, int32_t out_rank, const int64_t *out_shape,
       const int64_t *out_strides, int32_t src_rank, const int64_t *src_shape,
       const int64_t *src_strides, int64_t elem, bcast_diag *diag) {
  const int32_t rank[2] = {out_rank, src_rank};
  const int64_t *const shape[2] = {out_shape, src_shape};
  const int64_t *const strides[2] = {out_strides, src_strides};
  const int64_t elem_bytes[2] = {elem, elem};
  return bcast_plan_build(plan, out_rank, out_shape, 2, rank, shape, strides,
                          elem_bytes, diag);
}

/* The whole plan a test expects: its dims outermost first with the byte
 * strides of the output (operand 0) and the source (operand 1), and the two
 * masks; the element count is the product of the extents. */
typedef struct want_plan {
  int32_t ndim;
  int64_t extent[4];
  int64_t out_stride[4];
  int64_t src_stride[4];
  uint32_t broadcast_mask, contiguous_mask;
} want_plan;

/* Builds the plan of build2 (no diagnostic) and checks all of it against
 * *want. */
static void check_plan(test_ctx *t, int32_t out_rank, const int64_t *out_shape,
                       const int64_t *out_strides, int32_t src_rank,
                       const int64_t *src_shape, const int64_t *src_strides,
                       int64_t elem, const want_plan *want) {
  bcast_plan plan;
  CHECK_INT(build2(&plan, out_rank, out_shape, out_strides, src_rank,
                   src_shape, src_strides, elem, NULL),
            BCAST_OK);
  CHECK_INT(plan.ndim, want->ndim);
  int64_t count = 1;
  for (int32_t d = 0; d < want->ndim && d < plan.ndim; d++) {
    CHECK_INT(plan.extent[d], want->extent[d]);
    CHECK_INT(plan.stride_bytes[0][d], want->out_stride[d]);
    CHECK_INT(plan.stride_bytes[1][d], want->src_stride[d]);
    count *= want->extent[d];
  }
  CHECK_INT(plan.elem_count, count);
  CHECK_INT(plan.broadcast_mask, want->broadcast_mask);
  CHECK_INT(plan.contiguous_mask, want->contiguous_mask);
}

TEST(plan_coalesces_contiguous_operands) {
  const int64_t shape[3] = {2, 3, 4}, strides[3] = {48, 16, 4};
  check_plan(t, 3, shape, strides, 3, shape, strides, 4,
             &(want_plan){1, {24}, {4}, {4}, 0, 3});
}

TEST(plan_column_broadcast_is_an_inner_fill) {
  const int64_t out[2] = {4096, 4096}, out_s[2] = {16384, 4};
  const int64_t src[2] = {4096, 1}, src_s[2] = {4, 4};
  check_plan(t, 2, out, out_s, 2, src, src_s, 4,
             &(want_plan){2, {4096, 4096}, {16384, 4}, {4, 0}, 2, 1});
}

TEST(plan_row_broadcast_is_an_inner_copy) {
  const int64_t out[2] = {4096, 4096}, out_s[2] = {16384, 4};
  const int64_t src[1] = {4096}, src_s[1] = {4};
  check_plan(t, 2, out, out_s, 1, src, src_s, 4,
             &(want_plan){2, {4096, 4096}, {16384, 4}, {0, 4}, 0, 3});
}

TEST(plan_keeps_dims_that_do_not_coalesce) {
  const int64_t out[4] = {64, 32, 256, 64};
  const int64_t out_s[4] = {32 * 256 * 64 * 4, 256 * 64 * 4, 64 * 4, 4};
  const int64_t src[4] = {64, 1, 256, 1}, src_s[4] = {1024, 1024, 4, 4};
  check_plan(t, 4, out, out_s, 4, src, src_s, 4,
             &(want_plan){4,
                          {64, 32, 256, 64},
                          {32 * 256 * 64 * 4, 256 * 64 * 4, 64 * 4, 4},
                          {1024, 0, 4, 0},
                          2,
                          1});
}

TEST(plan_coalesces_broadcast_dims_together) {
  /* (1,1,4) -> (2,3,4): the two broadcast dims merge into one of 6. */
  const int64_t out[3] = {2, 3, 4}, out_s[3] = {48, 16, 4};
  const int64_t src[3] = {1, 1, 4}, src_s[3] = {16, 16, 4};
  check_plan(t, 3, out, out_s, 3, src, src_s, 4,
             &(want_plan){2, {6, 4}, {16, 4}, {0, 4}, 0, 3});
}

TEST(plan_orders_dims_by_output_strides) {
  /* A Fortran-order output: its dim 1 has the larger stride and goes out. */
  const int64_t out[2] = {3, 4}, out_s[2] = {4, 12};
  const int64_t src_s[2] = {16, 4};
  check_plan(t, 2, out, out_s, 2, out, src_s, 4,
             &(want_plan){2, {4, 3}, {12, 4}, {4, 16}, 0, 1});
}

TEST(plan_ties_broken_by_later_operands) {
  /* Output stride 0 everywhere (a reduction target): the source decides. */
  const int64_t out[2] = {5, 7}, out_s[2] = {0, 0};
  const int64_t src_s[2] = {4, 24}; /* padded: no coalescing */
  check_plan(t, 2, out, out_s, 2, out, src_s, 4,
             &(want_plan){2, {7, 5}, {0, 0}, {24, 4}, 1, 2});
}

TEST(plan_negative_strides_stay_negative) {
  const int64_t out[1] = {5}, out_s[1] = {2}, src_s[1] = {-2};
  check_plan(t, 1, out, out_s, 1, out, src_s, 2,
             &(want_plan){1, {5}, {2}, {-2}, 0, 1});
}

TEST(plan_scalar_and_all_ones_are_one_element) {
  check_plan(t, 0, NULL, NULL, 0, NULL, NULL, 8,
             &(want_plan){1, {1}, {0}, {0}, 3, 0});
  const int64_t ones[3] = {1, 1, 1}, s[3] = {8, 8, 8};
  check_plan(t, 3, ones, s, 2, ones, s, 8,
             &(want_plan){1, {1}, {0}, {0}, 3, 0});
}

static void count_kernel(int64_t n, char *const *ptrs, const int64_t *strides,
                         const void *params) {
  int64_t *calls = (int64_t *)params;
  (void)ptrs;
  (void)strides;
  calls[0]++;
  calls[1] += n;
}

TEST(plan_size_zero_runs_nothing) {
  bcast_plan plan;
  const int64_t out[3] = {4, 0, 3}, s[3] = {0, 12, 4};
  CHECK_INT(build2(&plan, 3, out, s, 3, out, s, 4, NULL), BCAST_OK);
  CHECK_INT(plan.elem_count, 0);
  int64_t calls[2] = {0, 0};
  char *base[2] = {NULL, NULL};
  bcast_plan_run(&plan, base, count_kernel, calls, 2);
  CHECK_INT(calls[0], 0);
}

TEST(plan_errors_name_operand_and_dims) {
  bcast_plan plan;
  bcast_diag diag;
  const int64_t out[2] = {3, 4}, s[2] = {16, 4};
  const int64_t src[2] = {3, 2};
  CHECK_INT(build2(&plan, 2, out, s, 2, src, s, 4, &diag), BCAST_INCOMPATIBLE);
  CHECK_STR(diag.message,
            "operand #1 dim 1 (size 2) cannot broadcast to output dim 1 "
            "(size 4)");
  CHECK_INT(diag.operand[0], 1);
  CHECK_INT(diag.axis, 1);
  const int64_t big[3] = {INT64_C(1) << 32, INT64_C(1) << 32, 2};
  const int64_t bs[3] = {0, 0, 0};
  CHECK_INT(build2(&plan, 3, big, bs, 3, big, bs, 1, &diag), BCAST_OVERFLOW);
  CHECK_INT(build2(&plan, 65, big, bs, 0, big, bs, 1, &diag),
            BCAST_RANK_LIMIT);
  CHECK_INT(build2(&plan, 1, big, bs, 2, big, bs, 1, &diag),
            BCAST_RANK_MISMATCH);
}

/* Marks each visited byte of a 1-byte output; a second visit shows as 2. */
static void mark_kernel(int64_t n, char *const *ptrs, const int64_t *strides,
                        const void *params) {
  (void)params;
  char *p = ptrs[0];
  for (int64_t i = 0; i < n; i++, p += strides[0]) (*p)++;
}

/* The same with a two-dimensional kernel; params counts the calls that
 * got more than one row. */
static void mark_rows_kernel(int64_t rows, int64_t n, char *const *ptrs,
                             const int64_t *strides,
                             const int64_t *row_strides, const void *params) {
  if (rows > 1) __atomic_fetch_add((int64_t *)params, 1, __ATOMIC_RELAXED);
  for (int64_t j = 0; j < rows; j++) {
    char *p = ptrs[0] + j * row_strides[0];
    for (int64_t i = 0; i < n; i++, p += strides[0]) (*p)++;
  }
}

/* Plans one output of the given shape whose elements sit in every other
 * byte, dims in the order of the shape (permuted and padded strides), runs
 * it on `threads` threads with mark_rows_kernel (two_d) or mark_kernel, and
 * checks that every element is visited once and no padding byte at all;
 * a two-dimensional run with rows to share must get calls of several rows. */
static void check_visits_once(test_ctx *t, int32_t rank, const int64_t *shape,
                              int two_d, int threads) {
  int64_t strides[4], bytes = 2;
  for (int32_t k = 0; k < rank; k++) {
    strides[k] = bytes;
    bytes *= shape[k];
  }
  char *mem = calloc((size_t)bytes, 1);
  const int32_t ranks[1] = {rank};
  const int64_t *const shapes[1] = {shape};
  const int64_t *const ss[1] = {strides};
  const int64_t elem[1] = {1};
  bcast_plan plan;
  CHECK_INT(
      bcast_plan_build(&plan, rank, shape, 1, ranks, shapes, ss, elem, NULL),
      BCAST_OK);
  char *base[1] = {mem};
  int64_t multi = 0;
  if (two_d)
    bcast_plan_run_rows(&plan, base, mark_rows_kernel, &multi, threads);
  else
    bcast_plan_run(&plan, base, mark_kernel, NULL, threads);
  int64_t bad = 0;
  for (int64_t i = 0; i < bytes; i++) bad += mem[i] != ((i % 2) == 0 ? 1 : 0);
  CHECK_INT(bad, 0);
  if (two_d && plan.ndim >= 2 && plan.extent[plan.ndim - 2] > 2)
    CHECK(multi > 0);
  free(mem);
}

TEST(plan_run_visits_every_element_once) {
  /* Sizes chosen so thread chunks split rows (few rows) and whole rows
   * (many rows). */
  static const int64_t cases[][3] = {
      {3, 5, 700000}, {1000, 3, 97}, {7, 1, 1}, {2, 300, 1001}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int threads = 1; threads <= 2; threads++)
      check_visits_once(t, 3, cases[c], 0, threads);
}

TEST(plan_run_rows_visits_every_element_once) {
  /* As above, plus rank 1 and 4 (odometer outside the row dim), and
   * sizes whose thread chunks start and end inside rows. */
  static const int64_t cases[][4] = {{1, 3, 5, 700000},  {1, 1000, 3, 97},
                                     {1, 7, 1, 1},       {1, 2, 300, 1001},
                                     {1, 1, 1, 1500001}, {5, 3, 7, 30011},
                                     {3, 17, 2, 40000}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int threads = 1; threads <= 2; threads++)
      check_visits_once(t, 4, cases[c], 1, threads);
}

static void atomic_count_kernel(int64_t n, char *const *ptrs,
                                const int64_t *strides, const void *params) {
  int64_t *calls = (int64_t *)params;
  (void)ptrs;
  (void)strides;
  __atomic_fetch_add(&calls[0], 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&calls[1], n, __ATOMIC_RELAXED);
}

TEST(plan_huge_stride_zero_output_splits_without_overflow) {
  /* 2^62 elements that all alias one byte: the counts must add up. */
  bcast_plan plan;
  const int64_t out[2] = {INT64_C(1) << 31, INT64_C(1) << 31};
  const int64_t zero[2] = {0, 0};
  CHECK_INT(build2(&plan, 2, out, zero, 2, out, zero, 1, NULL), BCAST_OK);
  CHECK_INT(plan.ndim, 1);
  CHECK_INT(plan.extent[0], INT64_C(1) << 62);
  for (int threads = 1; threads <= 2; threads++) {
    int64_t calls[2] = {0, 0};
    char byte = 0;
    char *base[2] = {&byte, &byte};
    bcast_plan_run(&plan, base, atomic_count_kernel, calls, threads);
    CHECK_INT(calls[1], INT64_C(1) << 62);
    CHECK(calls[0] >= 1 && calls[0] <= threads);
  }
}

/* The kernels load typed elements: a stride (of a dim longer than 1) that
 * is not a multiple of the element's alignment is refused when the plan is
 * built, a base pointer that is not aligned when it runs (NumPy's
 * test_lower_align: float64 at byte offset 4), each naming the operand; a
 * size-1 dim's stride does not matter. */
TEST(plan_refuses_misaligned_elements) {
  bcast_plan plan;
  bcast_diag diag;
  const int64_t shape[1] = {3}, out_strides[1] = {8}, odd[1] = {12};
  CHECK_INT(build2(&plan, 1, shape, out_strides, 1, shape, odd, 8, &diag),
            BCAST_INVALID_ARGUMENT);
  CHECK(strstr(diag.message, "operand #1") != NULL);
  CHECK(strstr(diag.message, "12 bytes") != NULL);
  const int64_t one[1] = {1}, any[1] = {5};
  CHECK_INT(build2(&plan, 1, shape, out_strides, 1, one, any, 8, &diag),
            BCAST_OK);
  /* 12-byte elements align to 4; 2-byte to 2. */
  const int64_t s12[1] = {12}, s6[1] = {6};
  CHECK_INT(build2(&plan, 1, shape, s12, 1, shape, s12, 12, &diag), BCAST_OK);
  CHECK_INT(build2(&plan, 1, shape, s6, 1, shape, s6, 2, &diag), BCAST_OK);

  CHECK_INT(build2(&plan, 1, shape, out_strides, 1, shape, out_strides, 8,
                   &diag),
            BCAST_OK);
  double buf[8];
  char *base[2] = {(char *)buf, (char *)buf + 32};
  CHECK_INT(bcast_plan_check_bases(&plan, base, &diag), BCAST_OK);
  base[1] = (char *)buf + 4;
  CHECK_INT(bcast_plan_check_bases(&plan, base, &diag), BCAST_INVALID_ARGUMENT);
  CHECK(strstr(diag.message, "operand #1") != NULL);
  CHECK_INT(bcast_copy_run(&plan, base, 8, BCAST_COPY_CACHED, 1, &diag),
            BCAST_INVALID_ARGUMENT);
}
