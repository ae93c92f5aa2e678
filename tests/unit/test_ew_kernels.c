/* Element-wise kernels against the reference path.
 *
 * Every signature each profile declares supported (bcast_ew_supported) is
 * planned over several layouts that select each kernel variant (all inputs
 * contiguous, one input a stride-0 scalar, a column broadcast, a transposed
 * and a negative-stride input, rank 0), executed, and compared element by
 * element with the reference path (one scalar-function call per element,
 * C order) and with the plan forced to its strided variant.  The test also
 * proves that every kernel row is reached by some supported signature and
 * that every supported signature finds a row. */
#include <math.h>
#include <stdlib.h>

#include "bcast/elementwise.h"
#include "ew/ew_plan.h"
#include "plan/tune.h"
#include "test.h"

#define ROWS 7
#define COLS 33
/* Rows of whole 64-byte lines for every element size, and enough of them
 * for two groups of four and one row after (EW_NT_GROUP_RUN_). */
#define GROUP_ROWS 9
#define LINE_COLS 192

static const bcast_profile profiles[3] = {
    BCAST_PROFILE_TOSA, BCAST_PROFILE_TRAIT, BCAST_PROFILE_NUMPY};

/* Random contents: specials and small values for floats, 0/1 for bool,
 * any bits for integers. */
static void fill_random(uint64_t *rng, bcast_dtype dtype, void *data,
                        int64_t count) {
  static const double specials[] = {0.0,       -0.0, 1.0,   -1.0,    0.5,
                                    2.5,       -2.5, 1e-40, 65504.0, INFINITY,
                                    -INFINITY, NAN,  127.5, 3e9};
  const size_t n_specials = sizeof specials / sizeof specials[0];
  for (int64_t i = 0; i < count; i++) {
    const uint64_t r = test_rand(rng);
    double v = (double)((int64_t)(r % 2001) - 1000) / 64.0;
    if (r % 7 == 0) v = specials[(r >> 8) % n_specials];
    switch (dtype) {
    case BCAST_BOOL:
      ((uint8_t *)data)[i] = (uint8_t)(r & 1);
      break;
    case BCAST_FLOAT16:
      ((uint16_t *)data)[i] = ew_f16_store((float)v);
      break;
    case BCAST_BFLOAT16:
      ((uint16_t *)data)[i] = ew_bf16_store((float)v);
      break;
    case BCAST_FLOAT32:
      ((float *)data)[i] = (float)v;
      break;
    case BCAST_FLOAT64:
      ((double *)data)[i] = v;
      break;
    default: {
      const size_t size = bcast_dtype_size(dtype);
      /* Small values half the time so shifts and divisions see real cases. */
      uint64_t bits = (r >> 3) & 1 ? (uint64_t)(int64_t)((int64_t)(r % 19) - 9)
                                   : test_rand(rng);
      memcpy((char *)data + (size_t)i * size, &bits, size);
      break;
    }
    }
  }
}

/* A float element as a double; 0 for the other types. */
static double float_at(bcast_dtype dtype, const char *p) {
  switch (dtype) {
  case BCAST_FLOAT16:
  case BCAST_BFLOAT16: {
    uint16_t h;
    memcpy(&h, p, 2);
    return dtype == BCAST_FLOAT16 ? ew_f16_load(h) : ew_bf16_load(h);
  }
  case BCAST_FLOAT32: {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  case BCAST_FLOAT64: {
    double d;
    memcpy(&d, p, 8);
    return d;
  }
  default:
    return 0.0;
  }
}

/* Two elements agree: identical bytes, or both NaN. */
static int elems_agree(bcast_dtype dtype, const char *x, const char *y) {
  if (memcmp(x, y, bcast_dtype_size(dtype)) == 0) return 1;
  return isnan(float_at(dtype, x)) && isnan(float_at(dtype, y));
}

/* One input of a layout case: its shape (rank 2 or 0) and how its memory
 * is laid out. */
typedef enum { MEM_C, MEM_TRANSPOSED, MEM_REVERSED, MEM_BROADCAST } mem_kind;

typedef struct input_case {
  int32_t rank;
  int64_t shape[2];
  mem_kind mem;
} input_case;

/* Allocates memory for an input case and a view of it. */
static void *make_input(uint64_t *rng, bcast_dtype dtype, const input_case *c,
                        bcast_tensor *t) {
  const int64_t size = (int64_t)bcast_dtype_size(dtype);
  const int64_t count =
      c->rank == 0 || c->mem == MEM_BROADCAST ? 1 : c->shape[0] * c->shape[1];
  char *mem = malloc((size_t)(count * size));
  fill_random(rng, dtype, mem, count);
  int64_t strides[2] = {0, 0};
  char *data = mem;
  if (c->rank == 2) {
    switch (c->mem) {
    case MEM_C:
      strides[0] = c->shape[1] * size;
      strides[1] = size;
      break;
    case MEM_TRANSPOSED: /* column-major */
      strides[0] = size;
      strides[1] = c->shape[0] * size;
      break;
    case MEM_REVERSED: /* C order read backwards along both dims */
      strides[0] = -c->shape[1] * size;
      strides[1] = -size;
      data = mem + (count - 1) * size;
      break;
    case MEM_BROADCAST: /* one element seen everywhere (stride 0) */
      break;
    }
  }
  bcast_tensor_wrap(t, dtype, c->rank, c->shape, strides, data, NULL);
  return mem;
}

/* Plans one layout case, runs it (threads 1 and 2, and strided), compares
 * with the reference.  Returns the variant the plan picked, or -1. */
static int run_case(test_ctx *t, uint64_t *rng, bcast_op op,
                    const bcast_op_attrs *attrs, bcast_profile profile,
                    const bcast_dtype *types, const input_case *cases,
                    const ew_row **row_out) {
  const int arity = bcast_op_arity(op);
  bcast_tensor in[3];
  void *mem[3];
  const void *in_data[3];
  for (int k = 0; k < arity; k++) {
    mem[k] = make_input(rng, types[k], &cases[k], &in[k]);
    in_data[k] = in[k].data;
  }
  bcast_ew_options options;
  bcast_ew_options_init(&options);
  options.profile = profile;
  options.threads = 1;
  bcast_ew_plan *plan = NULL;
  bcast_diag diag;
  int variant = -1;
  bcast_status status = bcast_ew_plan_create(&plan, op, attrs, (size_t)arity,
                                             in, NULL, &options, &diag);
  if (status != BCAST_OK) {
    test_fail(t, __FILE__, __LINE__, "%s %s: plan: %s", bcast_op_get(op)->name,
              bcast_dtype_name(types[arity - 1]), diag.message);
    goto done;
  }
  variant = bcast__ew_plan_variant(plan);
  *row_out = bcast__ew_plan_row(plan);
  const bcast_tensor *out = bcast_ew_plan_output(plan);
  int64_t count = 1;
  for (int32_t i = 0; i < out->rank; i++) count *= out->shape[i];
  const size_t bytes = (size_t)count * bcast_dtype_size(out->dtype) + 1;
  char *got = malloc(bytes), *want = malloc(bytes), *strided = malloc(bytes);
  memset(got, 0xa5, bytes);
  memset(want, 0x5a, bytes);
  memset(strided, 0x3c, bytes);
  CHECK_INT(bcast_ew_plan_execute(plan, got, in_data, &diag), BCAST_OK);
  bcast__ew_plan_reference(plan, want, in_data);
  /* The same variant through the non-temporal kernels (where the v3 set
   * has them, else the wrapper again) and wrapper, and its baseline
   * (non-AVX2) build. */
  char *ntk = malloc(bytes), *nt = malloc(bytes), *portable = malloc(bytes);
  memset(ntk, 0xc3, bytes);
  memset(nt, 0x69, bytes);
  memset(portable, 0x96, bytes);
  if (!bcast__ew_plan_set_nt_store(plan, EW_NT_KERNEL))
    bcast__ew_plan_set_nt_store(plan, EW_NT_WRAPPER);
  CHECK_INT(bcast_ew_plan_execute(plan, ntk, in_data, &diag), BCAST_OK);
  bcast__ew_plan_set_nt_store(plan, EW_NT_WRAPPER);
  CHECK_INT(bcast_ew_plan_execute(plan, nt, in_data, &diag), BCAST_OK);
  bcast__ew_plan_force_portable(plan);
  CHECK_INT(bcast_ew_plan_execute(plan, portable, in_data, &diag), BCAST_OK);
  bcast__ew_plan_force_strided(plan);
  CHECK_INT(bcast_ew_plan_execute(plan, strided, in_data, &diag), BCAST_OK);
  const size_t size = bcast_dtype_size(out->dtype);
  for (int64_t i = 0; i < count; i++) {
    const char *g = got + (size_t)i * size, *w = want + (size_t)i * size,
               *s = strided + (size_t)i * size, *n = nt + (size_t)i * size,
               *o = portable + (size_t)i * size, *k = ntk + (size_t)i * size;
    if (!elems_agree(out->dtype, g, w) || !elems_agree(out->dtype, s, w) ||
        !elems_agree(out->dtype, n, w) || !elems_agree(out->dtype, o, w) ||
        !elems_agree(out->dtype, k, w)) {
      test_fail(t, __FILE__, __LINE__,
                "%s %s -> %s (%s profile, variant %d): element %lld differs "
                "from the reference",
                bcast_op_get(op)->name, bcast_dtype_name(types[arity - 1]),
                bcast_dtype_name(out->dtype), bcast_profile_name(profile),
                variant, (long long)i);
      break;
    }
  }
  free(got);
  free(want);
  free(strided);
  free(nt);
  free(ntk);
  free(portable);
  bcast_ew_plan_destroy(plan);
done:
  for (int k = 0; k < arity; k++) free(mem[k]);
  return variant;
}

TEST(ew_every_supported_signature_has_a_kernel_and_matches_the_reference) {
  uint64_t rng = test_seed() ^ 0xe1e3u;
  const size_t n_rows = bcast__ew_row_count();
  char *hit = calloc(n_rows, 1);
  int signatures = 0, runs = 0;
  for (int pi = 0; pi < 3; pi++) {
    const bcast_profile profile = profiles[pi];
    for (int op = 0; op < BCAST_OP_COUNT; op++) {
      const int arity = bcast_op_arity((bcast_op)op);
      bcast_dtype types[3], result;
      for (size_t idx = 0; bcast_ew_supported((bcast_op)op, profile, idx,
                                              types, &result) == BCAST_OK;
           idx++) {
        signatures++;
        bcast_op_attrs attrs;
        bcast_op_attrs_init(&attrs);
        attrs.cast_to = &result;
        if (op == BCAST_OP_CLAMP) {
          /* Bounds of the data's type (unsigned: 0, as -3 clipped to). */
          const bcast_dtype_kind kind = bcast_dtype_kind_of(types[0]);
          attrs.min_val = kind == BCAST_KIND_FLOAT ? bcast_scalar_float(-1.5)
                          : kind == BCAST_KIND_SIGNED ? bcast_scalar_int(-3)
                                                      : bcast_scalar_int(0);
          attrs.max_val = kind == BCAST_KIND_FLOAT  ? bcast_scalar_float(6.0)
                          : kind == BCAST_KIND_BOOL ? bcast_scalar_int(1)
                                                    : bcast_scalar_int(100);
        }
        if (op == BCAST_OP_MUL && types[0] == BCAST_INT32) attrs.shift = 3;
        if (op == BCAST_OP_NEGATE && types[0] == BCAST_INT8 &&
            profile != BCAST_PROFILE_NUMPY) {
          attrs.input_zp = 3;
          attrs.output_zp = -7;
        }
        bcast_dtype check;
        CHECK_INT(bcast_ew_result_dtype((bcast_op)op, profile, (size_t)arity,
                                        types, &attrs, &check, NULL),
                  BCAST_OK);
        CHECK_INT(check, result);

        /* Layouts.  Case 0: all contiguous; 1..arity: input k-1 a scalar
         * ([1,1]); then a column, a transposed and a reversed input 0;
         * with two inputs or more, the first and then the last a row
         * ([1,C] against [R,C], C whole lines of every type: the
         * non-temporal kernels' row groups); and rank 0. */
        const input_case full = {2, {ROWS, COLS}, MEM_C};
        const int layouts = arity + 4 + (arity > 1 ? 2 : 0);
        for (int layout = 0; layout < layouts; layout++) {
          input_case cases[3] = {full, full, full};
          int expect = -1;
          if (layout >= arity + 4) {
            for (int k = 0; k < arity; k++) {
              cases[k].shape[0] = GROUP_ROWS;
              cases[k].shape[1] = LINE_COLS;
            }
            cases[layout == arity + 4 ? 0 : arity - 1].shape[0] = 1;
            expect = (1 << arity);
          } else if (layout == 0) {
            expect = (1 << arity); /* 1 + all bits */
          } else if (layout <= arity) {
            /* A unary op's output has its input's shape: broadcast the
             * input by strides instead. */
            if (arity == 1)
              cases[0].mem = MEM_BROADCAST;
            else
              cases[layout - 1].shape[0] = cases[layout - 1].shape[1] = 1;
            expect = (1 << arity) - (1 << (layout - 1));
          } else if (layout == arity + 1) {
            cases[0].shape[1] = 1;
            expect = arity == 1 ? 2 : (1 << arity) - 1;
          } else if (layout == arity + 2) {
            cases[0].mem = MEM_TRANSPOSED;
            expect = 0;
          } else if (layout == arity + 3) {
            cases[0].mem = MEM_REVERSED;
            expect = 0;
            if (arity > 1) cases[1].mem = MEM_REVERSED;
          }
          const ew_row *row = NULL;
          const int variant = run_case(t, &rng, (bcast_op)op, &attrs, profile,
                                       types, cases, &row);
          runs++;
          if (variant >= 0 && expect >= 0 && variant != expect)
            test_fail(
                t, __FILE__, __LINE__, "%s layout %d: variant %d, expected %d",
                bcast_op_get((bcast_op)op)->name, layout, variant, expect);
          for (size_t r = 0; row && r < n_rows; r++)
            if (bcast__ew_row_at(r) == row) hit[r] = 1;
        }
        /* Rank 0. */
        input_case scalars[3] = {
            {0, {1, 1}, MEM_C}, {0, {1, 1}, MEM_C}, {0, {1, 1}, MEM_C}};
        const ew_row *row = NULL;
        run_case(t, &rng, (bcast_op)op, &attrs, profile, types, scalars, &row);
        runs++;
      }
    }
  }
  /* Every kernel row serves some supported signature. */
  for (size_t r = 0; r < n_rows; r++)
    if (!hit[r]) {
      const ew_row *row = bcast__ew_row_at(r);
      test_fail(t, __FILE__, __LINE__,
                "kernel row %s %s -> %s (flavour %d) is never used",
                bcast_op_get(row->op)->name, bcast_dtype_name(row->in),
                bcast_dtype_name(row->out), row->flavour);
    }
  free(hit);
  CHECK(signatures > 600);
  printf("  %d signatures, %d kernel rows, %d layout runs\n", signatures,
         (int)n_rows, runs);
}

/* Outputs big enough for the engine to split them across threads, with
 * and without non-temporal stores: rows short enough to pack several to a
 * block and rows cut into several blocks. */
TEST(ew_two_threads_match_one) {
  uint64_t rng = test_seed() ^ 0x2727u;
  static const struct {
    bcast_op op;
    bcast_dtype type;
    bcast_dtype cast_to;
  } cases[] = {
      {BCAST_OP_ADD, BCAST_FLOAT32, BCAST_FLOAT32},
      {BCAST_OP_MUL, BCAST_INT8, BCAST_INT32},
      {BCAST_OP_MAXIMUM, BCAST_FLOAT16, BCAST_FLOAT16},
      {BCAST_OP_SELECT, BCAST_INT32, BCAST_INT32},
      {BCAST_OP_CAST, BCAST_FLOAT32, BCAST_INT8},
      {BCAST_OP_GREATER, BCAST_INT32, BCAST_BOOL},
  };
  /* The last: rows of whole lines for every type here (the non-temporal
   * kernels' row groups, split between the threads). */
  static const int64_t widths[3][2] = {{300, 1000}, {61, 5003}, {37, 1088}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int w = 0; w < 3; w++) {
      const bcast_op op = cases[c].op;
      const int arity = bcast_op_arity(op);
      bcast_dtype types[3] = {cases[c].type, cases[c].type, cases[c].type};
      if (op == BCAST_OP_SELECT) types[0] = BCAST_BOOL;
      bcast_op_attrs attrs;
      bcast_op_attrs_init(&attrs);
      attrs.cast_to = &cases[c].cast_to;
      /* [R, C] against a row [1, C] (and a column for ternary). */
      const int64_t R = widths[w][0], C = widths[w][1];
      const int64_t shapes[3][2] = {{R, C}, {1, C}, {R, 1}};
      bcast_tensor in[3];
      void *mem[3];
      const void *in_data[3];
      for (int k = 0; k < arity; k++) {
        const int64_t count = shapes[k][0] * shapes[k][1];
        mem[k] = malloc((size_t)count * bcast_dtype_size(types[k]));
        fill_random(&rng, types[k], mem[k], count);
        bcast_tensor_wrap(&in[k], types[k], 2, shapes[k], NULL, mem[k], NULL);
        in_data[k] = mem[k];
      }
      /* Runs 0, 1: as planned; 2, 3: the wrapper; 4, 5: the
       * non-temporal kernels (the wrapper where there are none). */
      char *out[6];
      size_t bytes = 0;
      for (int run = 0; run < 6; run++) {
        bcast_ew_options options;
        bcast_ew_options_init(&options);
        options.threads = 1 + run % 2;
        bcast_ew_plan *plan;
        CHECK_INT(bcast_ew_plan_create(&plan, op, &attrs, (size_t)arity, in,
                                       NULL, &options, NULL),
                  BCAST_OK);
        CHECK_INT(bcast__ew_plan_uses_avx2(plan), bcast__ew_use_v3());
        if (run >= 2) {
          int how = run >= 4 ? EW_NT_KERNEL : EW_NT_WRAPPER;
          if (!bcast__ew_plan_set_nt_store(plan, how)) how = EW_NT_WRAPPER;
          CHECK(bcast__ew_plan_set_nt_store(plan, how));
          CHECK_INT(bcast__ew_plan_nt_stores(plan), how);
        }
        const size_t size =
            bcast_dtype_size(bcast_ew_plan_output(plan)->dtype);
        bytes = (size_t)(R * C) * size;
        out[run] = malloc(bytes + size);
        /* One element in: the non-temporal lines start off 16-byte
         * alignment. */
        const int off = run == 3 || run == 5;
        char *dst = out[run] + (off ? size : 0);
        CHECK_INT(bcast_ew_plan_execute(plan, dst, in_data, NULL), BCAST_OK);
        if (off) memmove(out[run], dst, bytes);
        bcast_ew_plan_destroy(plan);
      }
      for (int run = 1; run < 6; run++)
        CHECK(memcmp(out[0], out[run], bytes) == 0);
      for (int run = 0; run < 6; run++) free(out[run]);
      for (int k = 0; k < arity; k++) free(mem[k]);
    }
}

/* Small outputs run on one thread whatever the plan's thread count, with
 * one kernel call and no engine walk or OpenMP region: 64x64 + 64 float32
 * (16 KB) at 1 and 2 threads.  Larger outputs at 2 threads, and layouts
 * the engine cannot fold into two dims, still take the engine. */
TEST(ew_small_plans_call_the_kernel_directly) {
  static const struct {
    int32_t rank;
    int64_t shape[3];
    int64_t rhs; /* the second operand's one dim */
    int threads, direct;
  } cases[] = {
      {2, {64, 64, 0}, 64, 1, 1},       {2, {64, 64, 0}, 64, 2, 1},
      {2, {64, 64, 0}, 64, 0, 1},       {2, {1024, 1024, 0}, 1024, 1, 1},
      {2, {1024, 1024, 0}, 1024, 2, 0}, {3, {4, 5, 6}, 6, 1, 1},
  };
  float *a = calloc(1024 * 1024, sizeof *a), *b = calloc(1024, sizeof *b);
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    bcast_tensor in[2];
    const int64_t rhs[1] = {cases[c].rhs};
    bcast_tensor_wrap(&in[0], BCAST_FLOAT32, cases[c].rank, cases[c].shape,
                      NULL, a, NULL);
    bcast_tensor_wrap(&in[1], BCAST_FLOAT32, 1, rhs, NULL, b, NULL);
    bcast_ew_options options;
    bcast_ew_options_init(&options);
    options.profile = BCAST_PROFILE_NUMPY;
    options.threads = cases[c].threads;
    bcast_ew_plan *plan;
    CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_ADD, NULL, 2, in, NULL,
                                   &options, NULL),
              BCAST_OK);
    if (!plan) continue;
    /* [4, 5, 6] + [6] folds to [20, 6]: two dims. */
    CHECK_INT(bcast__ew_plan_direct(plan), cases[c].direct);
    if (cases[c].direct) {
      for (int how = EW_NT_WRAPPER; how <= EW_NT_KERNEL; how++)
        if (bcast__ew_plan_set_nt_store(plan, how))
          CHECK_INT(bcast__ew_plan_direct(plan), 0);
    }
    bcast_ew_plan_destroy(plan);
  }
  /* [4, 5, 6] + [5, 1] (a column per plane) keeps three dims. */
  const int64_t s3[3] = {4, 5, 6}, col[2] = {5, 1};
  bcast_tensor in[2];
  bcast_tensor_wrap(&in[0], BCAST_FLOAT32, 3, s3, NULL, a, NULL);
  bcast_tensor_wrap(&in[1], BCAST_FLOAT32, 2, col, NULL, b, NULL);
  bcast_ew_options numpy;
  bcast_ew_options_init(&numpy);
  numpy.profile = BCAST_PROFILE_NUMPY;
  numpy.threads = 2;
  bcast_ew_plan *plan;
  CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_ADD, NULL, 2, in, NULL,
                                 &numpy, NULL),
            BCAST_OK);
  if (plan) CHECK_INT(bcast__ew_plan_direct(plan), 0);
  bcast_ew_plan_destroy(plan);
  free(a);
  free(b);
}

/* The type classes computed from the dtype table keep the members they had
 * when they were listed by name, and agree with each row's kind and TOSA
 * column. */
TEST(ew_type_classes_follow_the_dtype_table) {
#define M_(d) (1u << BCAST_##d)
  CHECK_INT(BCAST_TYPES_BOOL, M_(BOOL));
  CHECK_INT(BCAST_TYPES_TINT, M_(INT8) | M_(INT16) | M_(INT32));
  CHECK_INT(BCAST_TYPES_TFP, M_(FLOAT16) | M_(BFLOAT16) | M_(FLOAT32));
  CHECK_INT(BCAST_TYPES_SINT, M_(INT8) | M_(INT16) | M_(INT32) | M_(INT64));
  CHECK_INT(BCAST_TYPES_UINT,
            M_(UINT8) | M_(UINT16) | M_(UINT32) | M_(UINT64));
  CHECK_INT(BCAST_TYPES_FLOAT,
            M_(FLOAT16) | M_(BFLOAT16) | M_(FLOAT32) | M_(FLOAT64));
  CHECK_INT(BCAST_TYPES_ALL, ((1u << BCAST_DTYPE_COUNT) - 1) & ~M_(STRING) &
                                 ~M_(FLOAT8_E4M3FN) & ~M_(FLOAT8_E5M2));
  CHECK_INT(BCAST_TYPES_FP8, M_(FLOAT8_E4M3FN) | M_(FLOAT8_E5M2));
#undef M_
  /* The masks are constant expressions. */
  static const unsigned constant[] = {BCAST_TYPES_TINT, BCAST_TYPES_TFP,
                                      BCAST_TYPES_ALL};
  CHECK_INT(constant[2], BCAST_TYPES_ALL);
#define ROW_(unused, id, name, ctype, size, kind, npy, mlir, S, VT, VS,       \
             coding, digits, tosa)                                            \
  {                                                                           \
    const unsigned bit = 1u << BCAST_##id;                                    \
    CHECK_INT(!!(BCAST_TYPES_BOOL & bit), (kind) == BCAST_KIND_BOOL);         \
    CHECK_INT(!!(BCAST_TYPES_SINT & bit), (kind) == BCAST_KIND_SIGNED);       \
    CHECK_INT(!!(BCAST_TYPES_UINT & bit), (kind) == BCAST_KIND_UNSIGNED);     \
    CHECK_INT(!!(BCAST_TYPES_FLOAT & bit),                                    \
              (kind) == BCAST_KIND_FLOAT && BCAST_DTYPE_ARITH(tosa));         \
    CHECK_INT(!!(BCAST_TYPES_FP8 & bit), !BCAST_DTYPE_ARITH(tosa));           \
    CHECK_INT(!!(BCAST_TYPES_TINT & bit),                                     \
              (kind) == BCAST_KIND_SIGNED && BCAST_DTYPE_IN_TOSA(tosa));      \
    CHECK_INT(!!(BCAST_TYPES_TFP & bit),                                      \
              (kind) == BCAST_KIND_FLOAT && BCAST_DTYPE_IN_TOSA(tosa));       \
  }
  BCAST_DTYPE_TABLE(ROW_, 0)
#undef ROW_
}

/* The kernel tables generated from the dtype table: every row is complete
 * and never takes strings, SELECT has a row for every non-string type, and
 * CAST the whole cross product (the deferred inner loop of ew_k_cast.c)
 * plus TOSA's float -> int8/int16/int32 flavour; the 8-bit floats have
 * the casts to and from bool and the other floats, from the signed
 * integers, and the tosa flavour's to the signed integers. */
TEST(ew_kernel_rows_cover_the_dtype_table) {
  for (size_t r = 0; r < bcast__ew_row_count(); r++) {
    const ew_row *row = bcast__ew_row_at(r);
    CHECK(row->kernels && row->kernels_avx2 && row->elem && row->unpred);
    /* Non-temporal kernels exactly where there is a v3 set, for every
     * contiguous-output variant. */
    CHECK(!row->kernels_nt == !EW_HAVE_AVX2);
    const int variants = 1 + (1 << bcast_op_arity(row->op));
    for (int v = 0; row->kernels_nt && v < variants; v++)
      CHECK(!row->kernels_nt[v] == (v == 0));
    CHECK(row->in != BCAST_STRING && row->out != BCAST_STRING);
    CHECK(bcast__ew_find(row->op, row->flavour, row->in, row->out) == row);
  }
  int casts = 0, tosa_casts = 0;
  for (int a = 0; a < BCAST_DTYPE_COUNT; a++) {
    const bcast_dtype in = (bcast_dtype)a;
    const int kernel_type = (BCAST_TYPES_ALL >> a) & 1;
    const int select_type = ((BCAST_TYPES_ALL | BCAST_TYPES_FP8) >> a) & 1;
    const uint32_t fp8_peers =
        BCAST_TYPES_BOOL | BCAST_TYPES_FLOAT |
        ((BCAST_TYPES_FP8 >> a) & 1
             ? 0u
             : (uint32_t)(BCAST_TYPES_SINT | BCAST_TYPES_UINT));
    CHECK_INT(bcast__ew_find(BCAST_OP_SELECT, EW_FLAVOUR_ANY, in, in) != NULL,
              select_type);
    for (int b = 0; b < BCAST_DTYPE_COUNT; b++) {
      const bcast_dtype out = (bcast_dtype)b;
      const ew_row *any =
          bcast__ew_find(BCAST_OP_CAST, EW_FLAVOUR_ANY, in, out);
      const ew_row *tosa =
          bcast__ew_find(BCAST_OP_CAST, EW_FLAVOUR_TOSA, in, out);
      const int fp8_pair = (((BCAST_TYPES_FP8 >> a) & (fp8_peers >> b)) |
                            ((fp8_peers >> a) & (BCAST_TYPES_FP8 >> b))) &
                           1;
      CHECK_INT(any != NULL, (kernel_type && ((BCAST_TYPES_ALL >> b) & 1)) ||
                                 fp8_pair);
      casts += any != NULL;
      if (tosa && tosa->flavour == EW_FLAVOUR_TOSA) {
        const int widen_half = in == BCAST_FLOAT16 &&
                               (out == BCAST_FLOAT32 || out == BCAST_FLOAT64);
        CHECK(widen_half ||
              ((((BCAST_TYPES_FLOAT | BCAST_TYPES_FP8) >> a) & 1) &&
               ((BCAST_TYPES_SINT >> b) & 1)));
        tosa_casts++;
      }
    }
  }
  /* The 13 types' cross product; each 8-bit float to and from bool and
   * the 4 floats, and from the 4 signed and the 4 unsigned integers (into
   * an unsigned integer they cast as into the signed one, ew_build.c). */
  CHECK_INT(casts, 13 * 13 + 2 * (2 * 5 + 4 + 4));
  /* Every float (float64 and the 8-bit floats too) to every signed integer
   * (int64 too): MLIR 22's dialect casts them all; and float16 widened to
   * float32 and float64 as MLIR's lowering widens it (a signalling NaN
   * quieted, ew_k_cast.c). */
  CHECK_INT(tosa_casts, 6 * 4 + 2);
}

/* How a cast plan of n elements from `in` to `out` writes (an EW_NT_*). */
static int cast_nt_stores(test_ctx *t, bcast_dtype in, bcast_dtype out,
                          int64_t n) {
  static char dummy[8];
  bcast_tensor x;
  CHECK_INT(bcast_tensor_wrap(&x, in, 1, &n, NULL, dummy, NULL), BCAST_OK);
  bcast_op_attrs attrs;
  bcast_op_attrs_init(&attrs);
  attrs.cast_to = &out;
  bcast_ew_options options;
  bcast_ew_options_init(&options);
  options.profile = BCAST_PROFILE_NUMPY;
  bcast_ew_plan *plan = NULL;
  CHECK_INT(bcast_ew_plan_create(&plan, BCAST_OP_CAST, &attrs, 1, &x, NULL,
                                 &options, NULL),
            BCAST_OK);
  const int nt = plan ? bcast__ew_plan_nt_stores(plan) : -1;
  bcast_ew_plan_destroy(plan);
  return nt;
}

/* The casts whose non-temporal kernels would read their lines back
 * before the element stores reach the cache (a one-byte type to an
 * eight-byte one, a float to int64, int64 to float64) take the
 * wrapper; the others their kernels (v3 set, an output far beyond the
 * non-temporal threshold). */
TEST(ew_casts_that_build_lines_in_memory_take_the_wrapper) {
  const int64_t n = (int64_t)1 << 24; /* 128 MiB of float64 */
  if (!bcast__ew_use_v3() || bcast__tuned_nt_store_min() > n) return;
  static const bcast_dtype wrapped[][2] = {
      {BCAST_INT8, BCAST_FLOAT64},    {BCAST_BOOL, BCAST_INT64},
      {BCAST_UINT8, BCAST_INT64},     {BCAST_FLOAT32, BCAST_INT64},
      {BCAST_FLOAT64, BCAST_INT64},   {BCAST_INT64, BCAST_FLOAT64}};
  static const bcast_dtype kernels[][2] = {
      {BCAST_INT8, BCAST_FLOAT32},    {BCAST_FLOAT32, BCAST_FLOAT64},
      {BCAST_INT64, BCAST_FLOAT32},   {BCAST_INT16, BCAST_INT64},
      {BCAST_INT32, BCAST_FLOAT64}};
  for (size_t i = 0; i < sizeof wrapped / sizeof wrapped[0]; i++)
    CHECK_INT(cast_nt_stores(t, wrapped[i][0], wrapped[i][1], n),
              EW_NT_WRAPPER);
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
    CHECK_INT(cast_nt_stores(t, kernels[i][0], kernels[i][1], n),
              EW_NT_KERNEL);
}
