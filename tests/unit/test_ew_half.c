/* float16 and bfloat16 kernels of the v3 set (AVX2 + F16C, ew_kernel.h)
 * and, where the CPU has AVX512-FP16, of the native float16 set
 * (ew_k_fp16.c) against the portable set, bit for bit (NaN payloads
 * included) and in the errors they report, and all against the reference
 * path (one scalar call per element); the same for float32 and float64
 * arithmetic, which the AVX-512 set (ew_k_v4.c) computes where the CPU
 * has it.
 *
 * Unary ops and casts with a float16 or bfloat16 input run over all 65,536
 * bit patterns; casts into those types and binary ops run on random
 * inputs (seeded: BCAST_TEST_SEED replays, BCAST_TEST_SCALE multiplies the
 * number of binary pairs and of floats the conversion test tries).  Runs
 * are contiguous, with an odd length at an odd offset (the blocks' tails),
 * and with one operand broadcast (stride 0) along the run.
 *
 * Under BCAST_ISA=portable (ctest's unit_portable) both sides are the
 * portable set and the comparison with the reference still holds.
 * ctest's unit_fp16 runs these tests with BCAST_TEST_REQUIRE=fp16, and is
 * reported skipped (not passed) on a CPU without AVX512-FP16. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast/elementwise.h"
#include "ew/ew_plan.h"
#include "test.h"

#define HALVES 65536

static int is_half(bcast_dtype d) {
  return d == BCAST_FLOAT16 || d == BCAST_BFLOAT16;
}

/* Random contents for any numeric type: every bit pattern of the half
 * types, float32/float64 values near halves (rounding ties included) or
 * any bits or specials, integers of any size or small. */
static void fill_random(uint64_t *rng, bcast_dtype dtype, void *data,
                        int64_t count) {
  static const uint16_t specials[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7c01,
                                      0xfd55, 0x7e00, 0xffff, 0x0001, 0x03ff,
                                      0x0400, 0x7bff, 0x3c00, 0xbc00};
  const size_t n_specials = sizeof specials / sizeof specials[0];
  const size_t size = bcast_dtype_size(dtype);
  for (int64_t i = 0; i < count; i++) {
    const uint64_t r = test_rand(rng);
    char *p = (char *)data + (size_t)i * size;
    const int pick = (int)(r % 4);
    const uint16_t half =
        pick == 0 ? specials[(r >> 8) % n_specials] : (uint16_t)(r >> 16);
    switch (dtype) {
    case BCAST_BOOL:
      *(uint8_t *)p = (uint8_t)((r >> 8) & 1);
      break;
    case BCAST_FLOAT16:
    case BCAST_BFLOAT16:
      /* A quarter small integers, so pow and the divisions see ordinary
       * operands too. */
      if (pick == 1) {
        const float v = (float)((int)((r >> 8) % 41) - 20);
        const uint16_t h =
            dtype == BCAST_FLOAT16 ? ew_f16_store(v) : ew_bf16_store(v);
        memcpy(p, &h, 2);
      } else {
        memcpy(p, &half, 2);
      }
      break;
    case BCAST_FLOAT32: {
      uint32_t u = (uint32_t)(r >> 32);
      if (pick <= 1) /* a half's value, plus low bits: ties and near-ties */
        u = ew_bits_of(ew_f16_load(half)) |
            (pick == 0 ? 0u : (uint32_t)(r >> 8) & 0x1fffu);
      memcpy(p, &u, 4);
      break;
    }
    case BCAST_FLOAT64: {
      double d;
      uint64_t u = test_rand(rng);
      memcpy(&d, &u, 8);
      if (pick <= 1) {
        d = (double)ew_f16_load(half);
        if (pick == 1 && isfinite(d)) {
          memcpy(&u, &d, 8);
          u ^= (r >> 8) & 0x3ffffffffffull;
          memcpy(&d, &u, 8);
        }
      }
      memcpy(p, &d, 8);
      break;
    }
    default: {
      uint64_t bits = pick == 1 ? (uint64_t)(int64_t)((int64_t)(r % 601) - 300)
                                : test_rand(rng);
      memcpy(p, &bits, size);
      break;
    }
    }
  }
}

/* The bits of the operand that output element i (C order) reads: inputs
 * of rank 1 or 2, broadcast by shape or by a zero stride. */
static uint64_t operand_bits(const bcast_tensor *in, const bcast_tensor *out,
                             int64_t i) {
  const int64_t cols = out->shape[out->rank - 1];
  const int64_t row = i / cols, col = i % cols;
  int64_t offset = 0;
  if (in->rank == 2)
    offset = (in->shape[0] == 1 ? 0 : row) * in->stride_bytes[0] +
             (in->shape[1] == 1 ? 0 : col) * in->stride_bytes[1];
  else if (in->rank == 1)
    offset = col * in->stride_bytes[0];
  uint64_t bits = 0;
  memcpy(&bits, (const char *)in->data + offset, bcast_dtype_size(in->dtype));
  return bits;
}

/* Whether bits of a float element are a NaN. */
static int half_is_nan(bcast_dtype dtype, uint64_t bits) {
  if (dtype == BCAST_FLOAT16) return (bits & 0x7fff) > 0x7c00;
  if (dtype == BCAST_BFLOAT16) return (bits & 0x7fff) > 0x7f80;
  if (dtype == BCAST_FLOAT32) return (bits & 0x7fffffffu) > 0x7f800000u;
  if (dtype == BCAST_FLOAT64)
    return (bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  return 0;
}

/* One plan over the given inputs, run with the kernels plans pick (the
 * native float16, the AVX-512 or the v3 set where the CPU has it), with
 * the v3 set where the first was one beyond it, with the portable set and
 * as the reference; fails on the first element whose bits differ. */
enum { SET_FAST, SET_V3, SET_PORTABLE, SET_COUNT };
static const char *const set_names[SET_COUNT] = {"fast", "v3", "portable"};

static void compare_sets(test_ctx *t, bcast_op op, bcast_profile profile,
                         const bcast_op_attrs *attrs, int arity,
                         const bcast_tensor *in, const char *what) {
  bcast_ew_options options;
  bcast_ew_options_init(&options);
  options.profile = profile;
  options.threads = 1;
  bcast_ew_plan *plan = NULL;
  bcast_diag diag;
  if (bcast_ew_plan_create(&plan, op, attrs, (size_t)arity, in, NULL, &options,
                           &diag) != BCAST_OK) {
    test_fail(t, __FILE__, __LINE__, "%s: plan: %s", what, diag.message);
    return;
  }
  const void *in_data[3];
  for (int k = 0; k < arity; k++) in_data[k] = in[k].data;
  const bcast_tensor *out = bcast_ew_plan_output(plan);
  int64_t count = 1;
  for (int32_t i = 0; i < out->rank; i++) count *= out->shape[i];
  const size_t size = bcast_dtype_size(out->dtype);
  const size_t bytes = (size_t)count * size;
  CHECK_INT(bcast__ew_plan_uses_avx2(plan), bcast__ew_use_v3());
  /* Plans take the native float16 and the AVX-512 sets for the rows that
   * have one, wherever it may be taken. */
  const ew_row *row = bcast__ew_plan_row(plan);
  const int fp16 = bcast__ew_plan_uses_fp16(plan);
  const int v4 = bcast__ew_plan_uses_v4(plan);
  CHECK_INT(fp16, bcast__ew_use_fp16() && bcast__ew_find_fp16(row) != NULL);
  CHECK_INT(v4, bcast__ew_use_v4() && bcast__ew_find_v4(row) != NULL);
  const int native = fp16 || v4;
  /* Each set's results and errors (NumPy's warnings), which must agree. */
  char *got[SET_COUNT] = {NULL, NULL, NULL};
  unsigned errors[SET_COUNT] = {0, 0, 0};
  for (int k = 0; k < SET_COUNT; k++) {
    if (k == SET_V3 && !native) continue;
    if (k == SET_V3) bcast__ew_plan_force_v3(plan);
    if (k == SET_PORTABLE) bcast__ew_plan_force_portable(plan);
    got[k] = malloc(bytes + 1);
    memset(got[k], 0xa5 + k, bytes + 1);
    CHECK_INT(
        bcast_ew_plan_execute_fpe(plan, got[k], in_data, &errors[k], &diag),
        BCAST_OK);
    if (errors[k] != errors[SET_FAST])
      test_fail(t, __FILE__, __LINE__, "%s: errors: %s %#x, %s %#x", what,
                set_names[SET_FAST], errors[SET_FAST], set_names[k],
                errors[k]);
  }
  char *want = malloc(bytes + 1);
  memset(want, 0x3c, bytes + 1);
  bcast__ew_plan_reference(plan, want, in_data);
  int failed = 0;
  for (int64_t i = 0; i < count && !failed; i++)
    for (int k = 0; k < SET_COUNT && !failed; k++) {
      const size_t off = (size_t)i * size;
      if (!got[k] || !memcmp(got[k] + off, want + off, size)) continue;
      uint64_t f = 0, w = 0, a = operand_bits(&in[0], out, i),
               b = arity > 1 ? operand_bits(&in[1], out, i) : 0;
      memcpy(&f, got[k] + off, size);
      memcpy(&w, want + off, size);
      /* Two NaN operands: IEEE 754 lets the result carry either payload,
       * and the compiler may swap the operands of a commutative
       * operation in a vectorized loop (the portable set does, against
       * the reference). */
      if (arity > 1 && half_is_nan(in[0].dtype, a) &&
          half_is_nan(in[1].dtype, b) && half_is_nan(out->dtype, f) &&
          half_is_nan(out->dtype, w))
        continue;
      test_fail(t, __FILE__, __LINE__,
                "%s: element %lld: %s set %#llx, reference %#llx (operands "
                "%#llx, %#llx)",
                what, (long long)i, set_names[k], (unsigned long long)f,
                (unsigned long long)w, (unsigned long long)a,
                (unsigned long long)b);
      failed = 1;
    }
  for (int k = 0; k < SET_COUNT; k++) {
    if (!got[k]) continue;
    CHECK(got[k][bytes] == (char)(0xa5 + k));
    free(got[k]);
  }
  free(want);
  bcast_ew_plan_destroy(plan);
}

/* The attributes of an op's test run: CLAMP's bounds, the result type. */
static void test_attrs(bcast_op op, bcast_dtype *result, bcast_op_attrs *a) {
  bcast_op_attrs_init(a);
  a->cast_to = result;
  if (op == BCAST_OP_CLAMP) {
    a->min_val = bcast_scalar_float(-1.5);
    a->max_val = bcast_scalar_float(6.0);
  }
}

static double test_scale(void) {
  const char *env = getenv("BCAST_TEST_SCALE");
  const double s = env ? strtod(env, NULL) : 1.0;
  return s > 0 ? s : 1.0;
}

static const bcast_profile half_profiles[2] = {BCAST_PROFILE_TOSA,
                                               BCAST_PROFILE_NUMPY};

/* Whether the kernel's CPU flags (the first "flags" line of /proc/cpuinfo)
 * list every flag in the NULL-terminated list: an oracle independent of
 * the library's CPUID checks (which have to agree with the OS: Linux hides
 * flags it does not support).  -1 when the file cannot be read. */
static int cpuinfo_has(const char *const *flags) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return -1;
  static char line[1 << 14];
  int result = -1;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "flags", 5) != 0) continue;
    line[strcspn(line, "\n")] = ' ';
    result = 1;
    for (const char *const *flag = flags; *flag; flag++) {
      char word[64];
      snprintf(word, sizeof word, " %s ", *flag);
      if (!strstr(line, word)) result = 0;
    }
    break;
  }
  fclose(f);
  return result;
}

TEST(ew_half_dispatch_follows_the_cpu_and_bcast_isa) {
  const char *isa = getenv("BCAST_ISA");
  const int portable = isa && strcmp(isa, "portable") == 0;
  const int v3_only = isa && strcmp(isa, "v3") == 0;
#if EW_HAVE_AVX2
  static const char *const v3_flags[] = {"avx2", "f16c", NULL};
  static const char *const fp16_flags[] = {
      "avx2", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_fp16", NULL};
  const int cpu = cpuinfo_has(v3_flags);
  CHECK(cpu >= 0); /* x86 Linux has /proc/cpuinfo */
  static const char *const v4_flags[] = {
      "avx2", "f16c", "avx512f", "avx512bw", "avx512dq", "avx512vl", NULL};
  const int cpu_fp16 = EW_HAVE_FP16 && cpuinfo_has(fp16_flags) == 1;
  const int cpu_v4 = EW_HAVE_V4 && cpuinfo_has(v4_flags) == 1;
#else
  const int cpu = 0, cpu_fp16 = 0, cpu_v4 = 0;
#endif
  CHECK_INT(bcast__ew_use_v3(), cpu && !portable);
  CHECK_INT(bcast__ew_use_fp16(), cpu_fp16 && !portable && !v3_only);
  CHECK_INT(bcast__ew_use_v4(), cpu_v4 && !portable && !v3_only);
  printf("  kernel set: %s\n", bcast__ew_kernel_sets());
  /* ctest's unit_fp16 requires the native set: without it these tests
   * compare only the v3 and portable sets, and that run says so. */
  const char *require = getenv("BCAST_TEST_REQUIRE");
  if (require && strcmp(require, "fp16") == 0 && !bcast__ew_use_fp16())
    test_skip(t, "no native float16 set here (%s): the CPU %s AVX512-FP16",
              EW_HAVE_FP16 ? "built" : "not built by this compiler",
              cpu_fp16 ? "has" : "lacks");
}

/* A set beyond v3 (find: its lookup; have: whether the build has it)
 * covers the rows of IEEE arithmetic but divide (ew_k_fp16.c, ew_k_v4.c)
 * of the given types and no other, each variant with an ordinary kernel
 * and, where with_nt, but the strided one, a non-temporal kernel (else
 * none: plans take the v3 set's). */
static void check_native_rows(test_ctx *t,
                              const ew_native_row *(*find)(const ew_row *),
                              const bcast_dtype *types, int n_types, int have,
                              int with_nt) {
  static const bcast_op ieee[] = {BCAST_OP_ADD, BCAST_OP_SUB, BCAST_OP_MUL,
                                  BCAST_OP_SQUARE};
  const int n_ieee = (int)(sizeof ieee / sizeof ieee[0]);
  int with = 0;
  for (size_t i = 0; i < bcast__ew_row_count(); i++) {
    const ew_row *row = bcast__ew_row_at(i);
    const ew_native_row *h = find(row);
    int arithmetic = 0, typed = 0;
    for (int k = 0; k < n_ieee; k++) arithmetic |= row->op == ieee[k];
    for (int k = 0; k < n_types; k++) typed |= row->in == types[k];
    const int want = have && arithmetic && typed && row->out == row->in &&
                     row->flavour == EW_FLAVOUR_ANY;
    CHECK_INT(h != NULL, want);
    if (!h) continue;
    with++;
    CHECK_INT(h->op, row->op);
    const int variants = bcast_op_arity(row->op) == 1 ? 3 : 5;
    CHECK_INT(h->kernels_nt != NULL, with_nt);
    for (int v = 0; v < variants; v++) {
      CHECK(h->kernels[v] != NULL);
      if (with_nt) CHECK_INT(h->kernels_nt[v] == NULL, v == 0);
    }
  }
  CHECK_INT(with, have ? n_ieee * n_types : 0);
}

TEST(ew_half_native_set_covers_the_ieee_arithmetic_rows) {
  const bcast_dtype halves[1] = {BCAST_FLOAT16};
  check_native_rows(t, bcast__ew_find_fp16, halves, 1, EW_HAVE_FP16, 1);
}

TEST(ew_sets_avx512_covers_the_float32_float64_arithmetic_rows) {
  const bcast_dtype floats[2] = {BCAST_FLOAT32, BCAST_FLOAT64};
  check_native_rows(t, bcast__ew_find_v4, floats, 2, EW_HAVE_V4, 0);
}

/* Whether the profile has op on inputs of type d into d. */
static int supported(bcast_op op, bcast_profile profile, bcast_dtype d) {
  bcast_dtype types[3], result;
  for (size_t idx = 0;
       bcast_ew_supported(op, profile, idx, types, &result) == BCAST_OK; idx++)
    if (types[0] == d && result == d &&
        (bcast_op_arity(op) == 1 || types[1] == d))
      return 1;
  return 0;
}

/* float32 and float64 arithmetic (the AVX-512 set's rows, and divide)
 * through every set the CPU has, random pairs as the half types' binary
 * ops below, square on one run and on a broadcast one. */
TEST(ew_sets_float32_float64_arithmetic_match_bit_for_bit) {
  static const bcast_op ops[] = {BCAST_OP_ADD, BCAST_OP_SUB, BCAST_OP_MUL,
                                 BCAST_OP_DIVIDE, BCAST_OP_SQUARE};
  static const bcast_dtype types[] = {BCAST_FLOAT32, BCAST_FLOAT64};
  uint64_t rng = test_seed() ^ 0xa512u;
  const int64_t R = (int64_t)(16 * test_scale()) + 1, C = 1027;
  char *a = malloc((size_t)(R * C) * 8), *b = malloc((size_t)(R * C) * 8);
  int runs = 0;
  for (int pi = 0; pi < 2; pi++)
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
      for (size_t d = 0; d < sizeof types / sizeof types[0]; d++) {
        const int arity = bcast_op_arity(ops[o]);
        if (!supported(ops[o], half_profiles[pi], types[d])) continue;
        fill_random(&rng, types[d], a, R * C);
        fill_random(&rng, types[d], b, R * C);
        char what[160];
        snprintf(what, sizeof what, "%s %s (%s)", bcast_op_get(ops[o])->name,
                 bcast_dtype_name(types[d]),
                 bcast_profile_name(half_profiles[pi]));
        const int64_t full[2] = {R, C}, row[2] = {1, C}, one[2] = {1, 1};
        const int64_t *shapes[4][2] = {
            {full, full}, {row, full}, {full, row}, {full, one}};
        for (int s = 0; s < (arity == 2 ? 4 : 2); s++) {
          bcast_tensor in[2];
          bcast_tensor_wrap(&in[0], types[d], 2, shapes[s][0], NULL, a, NULL);
          bcast_tensor_wrap(&in[1], types[d], 2, shapes[s][1], NULL, b, NULL);
          compare_sets(t, ops[o], half_profiles[pi], NULL, arity, in, what);
          runs++;
        }
      }
  free(a);
  free(b);
  CHECK(runs >= 24);
  printf("  %d runs of %lld elements\n", runs, (long long)(R * C));
}

/* Every unary op and cast with a half input over every bit pattern; casts
 * into the half types from every other type on random inputs. */
TEST(ew_half_unary_ops_and_casts_match_bit_for_bit) {
  uint64_t rng = test_seed() ^ 0xf16cu;
  int runs = 0;
  const int64_t n = HALVES;
  char *data = malloc((size_t)n * 8 + 8);
  for (int pi = 0; pi < 2; pi++)
    for (int op = 0; op < BCAST_OP_COUNT; op++) {
      if (bcast_op_arity((bcast_op)op) != 1) continue;
      bcast_dtype types[3], result;
      for (size_t idx = 0; bcast_ew_supported((bcast_op)op, half_profiles[pi],
                                              idx, types, &result) == BCAST_OK;
           idx++) {
        if (!is_half(types[0]) && !is_half(result)) continue;
        bcast_op_attrs attrs;
        test_attrs((bcast_op)op, &result, &attrs);
        if (is_half(types[0]))
          for (int64_t i = 0; i < n; i++) ((uint16_t *)data)[i] = (uint16_t)i;
        else
          fill_random(&rng, types[0], data, n);
        char what[160];
        snprintf(what, sizeof what, "%s %s -> %s (%s)",
                 bcast_op_get((bcast_op)op)->name, bcast_dtype_name(types[0]),
                 bcast_dtype_name(result),
                 bcast_profile_name(half_profiles[pi]));
        const size_t size = bcast_dtype_size(types[0]);
        bcast_tensor in;
        /* All of it; then an odd length from the second element. */
        bcast_tensor_wrap(&in, types[0], 1, &n, NULL, data, NULL);
        compare_sets(t, (bcast_op)op, half_profiles[pi], &attrs, 1, &in, what);
        const int64_t odd = n - 3;
        bcast_tensor_wrap(&in, types[0], 1, &odd, NULL, data + size, NULL);
        compare_sets(t, (bcast_op)op, half_profiles[pi], &attrs, 1, &in, what);
        /* One element broadcast along a run (stride 0). */
        const int64_t run = 301, zero = 0;
        bcast_tensor_wrap(&in, types[0], 1, &run, &zero, data + 7 * size,
                          NULL);
        compare_sets(t, (bcast_op)op, half_profiles[pi], &attrs, 1, &in, what);
        runs += 3;
      }
    }
  free(data);
  CHECK(runs > 100);
  printf("  %d unary runs\n", runs);
}

/* Every binary op on half types, random pairs: both contiguous, and each
 * operand in turn a row broadcast along the other's rows ([1, C] against
 * [R, C]) and a scalar. */
TEST(ew_half_binary_ops_match_bit_for_bit_on_random_pairs) {
  uint64_t rng = test_seed() ^ 0xb16u;
  const int64_t R = (int64_t)(16 * test_scale()) + 1, C = 1027;
  int runs = 0;
  char *a = malloc((size_t)(R * C) * 2), *b = malloc((size_t)(R * C) * 2);
  for (int pi = 0; pi < 2; pi++)
    for (int op = 0; op < BCAST_OP_COUNT; op++) {
      if (bcast_op_arity((bcast_op)op) != 2) continue;
      bcast_dtype types[3], result;
      for (size_t idx = 0; bcast_ew_supported((bcast_op)op, half_profiles[pi],
                                              idx, types, &result) == BCAST_OK;
           idx++) {
        if (!is_half(types[0]) || types[1] != types[0]) continue;
        bcast_op_attrs attrs;
        test_attrs((bcast_op)op, &result, &attrs);
        fill_random(&rng, types[0], a, R * C);
        fill_random(&rng, types[0], b, R * C);
        char what[160];
        snprintf(what, sizeof what, "%s %s -> %s (%s)",
                 bcast_op_get((bcast_op)op)->name, bcast_dtype_name(types[0]),
                 bcast_dtype_name(result),
                 bcast_profile_name(half_profiles[pi]));
        const int64_t full[2] = {R, C}, row[2] = {1, C}, one[2] = {1, 1};
        const int64_t *shapes[4][2] = {
            {full, full}, {row, full}, {full, row}, {full, one}};
        for (int s = 0; s < 4; s++) {
          bcast_tensor in[2];
          bcast_tensor_wrap(&in[0], types[0], 2, shapes[s][0], NULL, a, NULL);
          bcast_tensor_wrap(&in[1], types[0], 2, shapes[s][1], NULL, b, NULL);
          compare_sets(t, (bcast_op)op, half_profiles[pi], &attrs, 2, in,
                       what);
          runs++;
        }
      }
    }
  free(a);
  free(b);
  CHECK(runs > 40);
  printf("  %d binary runs of %lld pairs\n", runs, (long long)(R * C));
}

/* The block conversions themselves: loads over every half, stores over
 * floats spread over all 2^32 patterns (every float at
 * BCAST_TEST_SCALE=256), each against the scalar conversion. */
TEST(ew_half_block_conversions_match_the_scalar_ones) {
#if EW_HAVE_AVX2
  if (!bcast__ew_use_v3()) {
    printf("  no v3 kernels here: nothing to compare\n");
    return;
  }
  uint64_t rng = test_seed() ^ 0xc0de;
  static uint16_t h[HALVES], back[HALVES], bf[HALVES];
  static float f[HALVES];
  for (int i = 0; i < HALVES; i++) h[i] = (uint16_t)i;
  /* With the repair of signalling NaNs and without (where they come out
   * quieted), in two pieces: the last 13 take the eight-element step and
   * the buffers. */
  for (int repair = 1; repair >= 0; repair--) {
    ew_v3_f16_load_block(f, h, HALVES - 13, repair);
    ew_v3_f16_load_block(f + HALVES - 13, h + HALVES - 13, 13, repair);
    for (int i = 0; i < HALVES; i++) {
      const int signalling = (h[i] & 0x7fff) > 0x7c00 && !(h[i] & 0x0200);
      const uint32_t want = ew_bits_of(ew_f16_load(h[i])) |
                            (!repair && signalling ? 0x00400000u : 0u);
      if (ew_bits_of(f[i]) != want) {
        test_fail(t, __FILE__, __LINE__,
                  "load of half %#x (repair %d): %#x, want %#x", h[i], repair,
                  ew_bits_of(f[i]), want);
        break;
      }
    }
  }
  const uint64_t step = (uint64_t)(256.0 / test_scale()) < 1
                            ? 1
                            : (uint64_t)(256.0 / test_scale());
  uint64_t checked = 0;
  for (uint64_t base = 0; base < ((uint64_t)1 << 32); base += step * HALVES) {
    const uint64_t jitter = step > 1 ? test_rand(&rng) % step : 0;
    int64_t m = 0;
    for (; m < HALVES &&
           base + (uint64_t)m * step + jitter < ((uint64_t)1 << 32);
         m++)
      f[m] = ew_float_of((uint32_t)(base + (uint64_t)m * step + jitter));
    /* An odd count: the tail goes through the eight-element buffers. */
    if (m == HALVES) m--;
    ew_v3_f16_store_block(back, f, m);
    ew_v3_bf16_store_block(bf, f, m);
    for (int64_t i = 0; i < m; i++)
      if (back[i] != ew_f16_store(f[i]) || bf[i] != ew_bf16_store(f[i])) {
        test_fail(t, __FILE__, __LINE__,
                  "store of float %#x: half %#x want %#x, bfloat16 %#x want "
                  "%#x",
                  ew_bits_of(f[i]), back[i], ew_f16_store(f[i]), bf[i],
                  ew_bf16_store(f[i]));
        return;
      }
    checked += (uint64_t)m;
  }
  printf("  %llu floats stored\n", (unsigned long long)checked);
#else
  printf("  no v3 kernels on this target\n");
#endif
}
