/* Loops around the scalar functions of ew_scalar.h, generated once per
 * arity and variant, and the table that finds them.
 *
 * A kernel is the engine's two-dimensional kind (bcast_kernel2_fn: rows
 * runs of n elements, operand 0 the output).  The strides along the run
 * pick the variant; the row strides are free.  For an op of arity N there
 * are 1 + 2^N variants:
 *   0          strided: any byte strides;
 *   1 + mask   the output contiguous and each input either contiguous (its
 *              bit in mask set) or broadcast along the run (stride 0, its
 *              value loaded once before the loop).
 * The contiguous variants index with constant steps (0 or 1), so the
 * compiler folds the steps and vectorizes the loops.  Each instance also
 * has an element function (one element through the same scalar function:
 * the reference path of the tests) and an unpredictability test (checked
 * mode).
 *
 * Instances are listed with X-macros over type lists.  A type list entry is
 *   (..., ID, S, storage type, value type, VS, load, store)
 * where VS names the scalar functions' suffix (float16 and bfloat16 use the
 * float32 functions) and load/store convert between storage and value. */
#ifndef BCAST_EW_KERNEL_H
#define BCAST_EW_KERNEL_H

#include "bcast/elementwise.h"
#include "bcast/plan.h"
#include "ew/ew_scalar.h"

/* Kernel flavours: the tosa profile's NEGATE (saturating, zero points) and
 * float -> integer CAST (round half even, saturating) differ from numpy's. */
enum { EW_FLAVOUR_ANY = 0, EW_FLAVOUR_TOSA = 1 };

typedef void (*ew_elem_fn)(char *out, char *const *in, const ew_params *p);
typedef int (*ew_unpred_fn)(char *const *in, const ew_params *p);

typedef struct ew_row {
  bcast_op op;
  int flavour;
  bcast_dtype in, out;          /* SELECT: in is the values' type */
  const bcast_kernel2_fn *kernels; /* 1 + 2^arity variants */
  const bcast_kernel2_fn *kernels_avx2; /* the same compiled for AVX2 */
  ew_elem_fn elem;
  ew_unpred_fn unpred;
} ew_row;

/* The row for (op, flavour, input type, result type), or NULL.  A tosa
 * flavour request falls back to the common row. */
const ew_row *bcast__ew_find(bcast_op op, int flavour, bcast_dtype in,
                             bcast_dtype out);

/* Every row of every kernel file, for the coverage test. */
size_t bcast__ew_row_count(void);
const ew_row *bcast__ew_row_at(size_t index);

/* ------------------------------------------------------------------------ */
/* Type lists. */

#define EW_FOR_BOOL(X, ...)                                                   \
  X(__VA_ARGS__, BOOL, b, uint8_t, uint8_t, b, ew_ld_bool, ew_st_same)
#define EW_FOR_SINT(X, ...)                                                   \
  X(__VA_ARGS__, INT8, i8, int8_t, int8_t, i8, ew_ld_same, ew_st_same)        \
  X(__VA_ARGS__, INT16, i16, int16_t, int16_t, i16, ew_ld_same, ew_st_same)   \
  X(__VA_ARGS__, INT32, i32, int32_t, int32_t, i32, ew_ld_same, ew_st_same)   \
  X(__VA_ARGS__, INT64, i64, int64_t, int64_t, i64, ew_ld_same, ew_st_same)
#define EW_FOR_UINT(X, ...)                                                   \
  X(__VA_ARGS__, UINT8, u8, uint8_t, uint8_t, u8, ew_ld_same, ew_st_same)     \
  X(__VA_ARGS__, UINT16, u16, uint16_t, uint16_t, u16, ew_ld_same, ew_st_same) \
  X(__VA_ARGS__, UINT32, u32, uint32_t, uint32_t, u32, ew_ld_same, ew_st_same) \
  X(__VA_ARGS__, UINT64, u64, uint64_t, uint64_t, u64, ew_ld_same, ew_st_same)
#define EW_FOR_FLOAT(X, ...)                                                  \
  X(__VA_ARGS__, FLOAT16, f16, uint16_t, float, f32, ew_f16_load,             \
    ew_f16_store)                                                             \
  X(__VA_ARGS__, BFLOAT16, bf16, uint16_t, float, f32, ew_bf16_load,          \
    ew_bf16_store)                                                            \
  X(__VA_ARGS__, FLOAT32, f32, float, float, f32, ew_ld_same, ew_st_same)     \
  X(__VA_ARGS__, FLOAT64, f64, double, double, f64, ew_ld_same, ew_st_same)
#define EW_FOR_INT(X, ...)                                                    \
  EW_FOR_SINT(X, __VA_ARGS__) EW_FOR_UINT(X, __VA_ARGS__)
#define EW_FOR_NUM(X, ...)                                                    \
  EW_FOR_INT(X, __VA_ARGS__) EW_FOR_FLOAT(X, __VA_ARGS__)
#define EW_FOR_ALL(X, ...)                                                    \
  EW_FOR_BOOL(X, __VA_ARGS__) EW_FOR_NUM(X, __VA_ARGS__)
#define EW_FOR_INT_BOOL(X, ...)                                               \
  EW_FOR_BOOL(X, __VA_ARGS__) EW_FOR_INT(X, __VA_ARGS__)

/* ------------------------------------------------------------------------ */
/* Loops.  NAME is the instance; TA/LA the input storage type and load, VA
 * its value type; TR/SR the output storage type and store; FN the scalar
 * function, UN its unpredictability test. */

#define EW_PARAMS_ const ew_params P = *(const ew_params *)params

/* Each loop is compiled twice: for the baseline (SSE2 on x86-64) and, on
 * x86 with GCC or Clang, for AVX2 through a target attribute; plans take
 * the AVX2 set when the CPU has it (ew_plan.c).  Elsewhere the second set
 * is a plain copy of the first. */
#define EW_PORTABLE_
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define EW_HAVE_AVX2 1
#define EW_AVX2_ __attribute__((target("avx2")))
#else
#define EW_HAVE_AVX2 0
#define EW_AVX2_
#endif

/* Every kernel is two-dimensional (bcast_kernel2_fn): rows runs of n
 * elements, run j of operand k at ptrs[k] + j * row_strides[k].  The row
 * strides are copied to locals first (the output's stores could alias
 * them as far as the compiler knows); a broadcast input's value is loaded
 * once per row. */
#define EW_KERNEL_HEAD_(NAME, ATTR)                                           \
  ATTR static void NAME(int64_t rows, int64_t n, char *const *ptrs,           \
                        const int64_t *strides, const int64_t *row_strides,   \
                        const void *params)

/* Unary, constant step SA (0: the input is broadcast along the run). */
#define EW_UNARY_STEP_(ATTR, NAME, SA, TA, LA, VA, TR, SR, FN)                \
  EW_KERNEL_HEAD_(NAME, ATTR) {                                               \
    EW_PARAMS_;                                                               \
    (void)strides;                                                            \
    const int64_t rr = row_strides[0], ra = row_strides[1];                   \
    char *rp = ptrs[0];                                                       \
    const char *ap = ptrs[1];                                                 \
    for (int64_t j = 0; j < rows; j++, rp += rr, ap += ra) {                  \
      TR *r = (TR *)rp;                                                       \
      const TA *a = (const TA *)ap;                                           \
      const VA a0 = LA(a[0]);                                                 \
      for (int64_t i = 0; i < n; i++)                                         \
        r[i] = SR(FN((SA) ? LA(a[i]) : a0, &P));                              \
    }                                                                         \
  }

#define EW_UNARY_SET_(ATTR, NAME, TA, LA, VA, TR, SR, FN)                     \
  EW_KERNEL_HEAD_(NAME##_s, ATTR) {                                           \
    EW_PARAMS_;                                                               \
    const int64_t sr = strides[0], sa = strides[1];                           \
    const int64_t rr = row_strides[0], ra = row_strides[1];                   \
    for (int64_t j = 0; j < rows; j++) {                                      \
      char *r = ptrs[0] + j * rr;                                             \
      const char *a = ptrs[1] + j * ra;                                       \
      for (int64_t i = 0; i < n; i++, r += sr, a += sa)                       \
        *(TR *)r = SR(FN(LA(*(const TA *)a), &P));                            \
    }                                                                         \
  }                                                                           \
  EW_UNARY_STEP_(ATTR, NAME##_0, 0, TA, LA, VA, TR, SR, FN)                   \
  EW_UNARY_STEP_(ATTR, NAME##_1, 1, TA, LA, VA, TR, SR, FN)                   \
  static const bcast_kernel2_fn NAME##_k[3] = {NAME##_s, NAME##_0, NAME##_1};

#define EW_UNARY_(NAME, TA, LA, VA, TR, SR, FN, UN)                           \
  EW_UNARY_SET_(EW_PORTABLE_, NAME, TA, LA, VA, TR, SR, FN)                   \
  EW_UNARY_SET_(EW_AVX2_, NAME##_v, TA, LA, VA, TR, SR, FN)                   \
  static void NAME##_e(char *r, char *const *in, const ew_params *p) {        \
    *(TR *)r = SR(FN(LA(*(const TA *)in[0]), p));                             \
  }                                                                           \
  static int NAME##_u(char *const *in, const ew_params *p) {                  \
    return UN(LA(*(const TA *)in[0]), p);                                     \
  }

/* Binary, constant steps SA, SB. */
#define EW_BINARY_STEP_(ATTR, NAME, SA, SB, TA, LA, VA, TR, SR, FN)           \
  EW_KERNEL_HEAD_(NAME, ATTR) {                                               \
    EW_PARAMS_;                                                               \
    (void)strides;                                                            \
    const int64_t rr = row_strides[0], ra = row_strides[1],                   \
                  rb = row_strides[2];                                        \
    char *rp = ptrs[0];                                                       \
    const char *ap = ptrs[1], *bp = ptrs[2];                                  \
    for (int64_t j = 0; j < rows; j++, rp += rr, ap += ra, bp += rb) {        \
      TR *r = (TR *)rp;                                                       \
      const TA *a = (const TA *)ap;                                           \
      const TA *b = (const TA *)bp;                                           \
      const VA a0 = LA(a[0]), b0 = LA(b[0]);                                  \
      for (int64_t i = 0; i < n; i++)                                         \
        r[i] = SR(FN((SA) ? LA(a[i]) : a0, (SB) ? LA(b[i]) : b0, &P));        \
    }                                                                         \
  }

#define EW_BINARY_SET_(ATTR, NAME, TA, LA, VA, TR, SR, FN)                    \
  EW_KERNEL_HEAD_(NAME##_s, ATTR) {                                           \
    EW_PARAMS_;                                                               \
    const int64_t sr = strides[0], sa = strides[1], sb = strides[2];          \
    const int64_t rr = row_strides[0], ra = row_strides[1],                   \
                  rb = row_strides[2];                                        \
    for (int64_t j = 0; j < rows; j++) {                                      \
      char *r = ptrs[0] + j * rr;                                             \
      const char *a = ptrs[1] + j * ra, *b = ptrs[2] + j * rb;                \
      for (int64_t i = 0; i < n; i++, r += sr, a += sa, b += sb)              \
        *(TR *)r = SR(FN(LA(*(const TA *)a), LA(*(const TA *)b), &P));        \
    }                                                                         \
  }                                                                           \
  EW_BINARY_STEP_(ATTR, NAME##_00, 0, 0, TA, LA, VA, TR, SR, FN)              \
  EW_BINARY_STEP_(ATTR, NAME##_10, 1, 0, TA, LA, VA, TR, SR, FN)              \
  EW_BINARY_STEP_(ATTR, NAME##_01, 0, 1, TA, LA, VA, TR, SR, FN)              \
  EW_BINARY_STEP_(ATTR, NAME##_11, 1, 1, TA, LA, VA, TR, SR, FN)              \
  static const bcast_kernel2_fn NAME##_k[5] = {                               \
      NAME##_s, NAME##_00, NAME##_10, NAME##_01, NAME##_11};

#define EW_BINARY_(NAME, TA, LA, VA, TR, SR, FN, UN)                          \
  EW_BINARY_SET_(EW_PORTABLE_, NAME, TA, LA, VA, TR, SR, FN)                  \
  EW_BINARY_SET_(EW_AVX2_, NAME##_v, TA, LA, VA, TR, SR, FN)                  \
  static void NAME##_e(char *r, char *const *in, const ew_params *p) {        \
    *(TR *)r = SR(FN(LA(*(const TA *)in[0]), LA(*(const TA *)in[1]), p));     \
  }                                                                           \
  static int NAME##_u(char *const *in, const ew_params *p) {                  \
    return UN(LA(*(const TA *)in[0]), LA(*(const TA *)in[1]), p);             \
  }

/* SELECT: condition (bool storage, nonzero is true), then two values of
 * type T.  The value is copied as stored: no conversion, NaN payloads
 * kept. */
#define EW_SELECT_STEP_(ATTR, NAME, SC, SA, SB, T)                            \
  EW_KERNEL_HEAD_(NAME, ATTR) {                                               \
    (void)strides;                                                            \
    (void)params;                                                             \
    const int64_t rr = row_strides[0], rc = row_strides[1],                   \
                  ra = row_strides[2], rb = row_strides[3];                   \
    char *rp = ptrs[0];                                                       \
    const char *cp = ptrs[1], *ap = ptrs[2], *bp = ptrs[3];                   \
    for (int64_t j = 0; j < rows;                                             \
         j++, rp += rr, cp += rc, ap += ra, bp += rb) {                       \
      T *r = (T *)rp;                                                         \
      const uint8_t *c = (const uint8_t *)cp;                                 \
      const T *a = (const T *)ap;                                             \
      const T *b = (const T *)bp;                                             \
      const uint8_t c0 = c[0];                                                \
      const T a0 = a[0], b0 = b[0];                                           \
      for (int64_t i = 0; i < n; i++) {                                       \
        /* Both values are loaded: a select, not a branch, so it              \
         * vectorizes. */                                                     \
        const T av = (SA) ? a[i] : a0, bv = (SB) ? b[i] : b0;                 \
        r[i] = ((SC) ? c[i] : c0) ? av : bv;                                  \
      }                                                                       \
    }                                                                         \
  }

#define EW_SELECT_SET_(ATTR, NAME, T)                                         \
  EW_KERNEL_HEAD_(NAME##_s, ATTR) {                                           \
    (void)params;                                                             \
    const int64_t sr = strides[0], sc = strides[1], sa = strides[2],          \
                  sb = strides[3];                                            \
    for (int64_t j = 0; j < rows; j++) {                                      \
      char *r = ptrs[0] + j * row_strides[0];                                 \
      const char *c = ptrs[1] + j * row_strides[1],                           \
                 *a = ptrs[2] + j * row_strides[2],                           \
                 *b = ptrs[3] + j * row_strides[3];                           \
      for (int64_t i = 0; i < n; i++, r += sr, c += sc, a += sa, b += sb)     \
        *(T *)r = *(const uint8_t *)c ? *(const T *)a : *(const T *)b;        \
    }                                                                         \
  }                                                                           \
  EW_SELECT_STEP_(ATTR, NAME##_000, 0, 0, 0, T)                               \
  EW_SELECT_STEP_(ATTR, NAME##_100, 1, 0, 0, T)                               \
  EW_SELECT_STEP_(ATTR, NAME##_010, 0, 1, 0, T)                               \
  EW_SELECT_STEP_(ATTR, NAME##_110, 1, 1, 0, T)                               \
  EW_SELECT_STEP_(ATTR, NAME##_001, 0, 0, 1, T)                               \
  EW_SELECT_STEP_(ATTR, NAME##_101, 1, 0, 1, T)                               \
  EW_SELECT_STEP_(ATTR, NAME##_011, 0, 1, 1, T)                               \
  EW_SELECT_STEP_(ATTR, NAME##_111, 1, 1, 1, T)                               \
  static const bcast_kernel2_fn NAME##_k[9] = {                               \
      NAME##_s,   NAME##_000, NAME##_100, NAME##_010, NAME##_110,             \
      NAME##_001, NAME##_101, NAME##_011, NAME##_111};

#define EW_SELECT_(NAME, T)                                                   \
  EW_SELECT_SET_(EW_PORTABLE_, NAME, T)                                       \
  EW_SELECT_SET_(EW_AVX2_, NAME##_v, T)                                       \
  static void NAME##_e(char *r, char *const *in, const ew_params *p) {        \
    (void)p;                                                                  \
    *(T *)r = *(const uint8_t *)in[0] ? *(const T *)in[1] : *(const T *)in[2]; \
  }                                                                           \
  static int NAME##_u(char *const *in, const ew_params *p) {                  \
    (void)in;                                                                 \
    (void)p;                                                                  \
    return 0;                                                                 \
  }

/* ------------------------------------------------------------------------ */
/* The table of a kernel file.  LIST(X) expands X(NAME, OP, FLAVOUR, IN,
 * OUT) once per instance; EW_TABLE_ makes the rows, an index by (op, in,
 * out) for the common flavour and a finder that scans the few tosa-flavour
 * rows first. */

#define EW_ROW_ID_(NAME, OP, FL, IN, OUT, ...) EW_ROWID_##NAME,
#define EW_ROW_(NAME, OP, FL, IN, OUT, ...)                                   \
  {BCAST_OP_##OP, EW_FLAVOUR_##FL, BCAST_##IN, BCAST_##OUT, NAME##_k,         \
   NAME##_v_k, NAME##_e, NAME##_u},
#define EW_INDEX_ANY_(NAME, OP, FL, IN, OUT, ...)                             \
  [BCAST_OP_##OP][BCAST_##IN][BCAST_##OUT] = EW_ROWID_##NAME + 1,
#define EW_INDEX_TOSA_(NAME, OP, FL, IN, OUT, ...)

#define EW_TABLE_(PREFIX, LIST)                                               \
  enum { LIST(EW_ROW_ID_) EW_ROWID_END_ };                                    \
  static const ew_row PREFIX##_rows[] = {LIST(EW_ROW_)};                      \
  static const uint16_t PREFIX##_index[BCAST_OP_COUNT][BCAST_DTYPE_COUNT]     \
                                      [BCAST_DTYPE_COUNT] = {                 \
      LIST(EW_INDEX_BY_FLAVOUR_)};                                            \
  const ew_row *bcast__ew_find_##PREFIX(bcast_op op, int flavour,             \
                                        bcast_dtype in, bcast_dtype out) {    \
    if (flavour == EW_FLAVOUR_TOSA)                                           \
      for (size_t i = 0; i < sizeof PREFIX##_rows / sizeof(ew_row); i++) {    \
        const ew_row *row = &PREFIX##_rows[i];                                \
        if (row->flavour == EW_FLAVOUR_TOSA && row->op == op &&               \
            row->in == in && row->out == out)                                 \
          return row;                                                         \
      }                                                                       \
    const uint16_t k = PREFIX##_index[op][in][out];                           \
    return k ? &PREFIX##_rows[k - 1] : NULL;                                  \
  }                                                                           \
  size_t bcast__ew_count_##PREFIX(void) {                                     \
    return sizeof PREFIX##_rows / sizeof(ew_row);                             \
  }                                                                           \
  const ew_row *bcast__ew_at_##PREFIX(size_t i) { return &PREFIX##_rows[i]; }

/* Index only the common-flavour rows. */
#define EW_INDEX_BY_FLAVOUR_(NAME, OP, FL, IN, OUT, ...)                      \
  EW_INDEX_##FL##_(NAME, OP, FL, IN, OUT, 0)

#define EW_DECLARE_TABLE_(PREFIX)                                             \
  const ew_row *bcast__ew_find_##PREFIX(bcast_op op, int flavour,             \
                                        bcast_dtype in, bcast_dtype out);     \
  size_t bcast__ew_count_##PREFIX(void);                                      \
  const ew_row *bcast__ew_at_##PREFIX(size_t i);

EW_DECLARE_TABLE_(unary)
EW_DECLARE_TABLE_(cast)
EW_DECLARE_TABLE_(binary)
EW_DECLARE_TABLE_(select)

#endif
