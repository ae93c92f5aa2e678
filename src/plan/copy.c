/* Copy kernels: dst[i] = src[i] along one innermost run of a plan.
 *
 * Elements are moved as opaque 1, 2, 4, 8 or 16-byte units (a float16, a
 * float32 and a string reference all copy the same way), through may_alias
 * types so no kernel depends on the element's real type.  Three shapes of
 * run matter:
 *   contiguous source  a block copy (memcpy, or non-temporal stores);
 *   broadcast source   a fill with one value (stride 0);
 *   anything else      a strided loop, with a contiguous-destination variant.
 * Runs shorter than COPY_SHORT_RUN elements cost more in calls than in
 * stores, so bcast_copy_run hands those kernels whole rows of the next dim
 * instead, and writes rows that are all alike once and copies them forward.
 * Outputs of at least bcast__nt_min_bytes_for(plan) take non-temporal
 * stores, from nt_store.h, which also says why the kernels leave them
 * unfenced. */
#include <stdint.h>
#include <string.h>

#include "bcast/plan.h"
#include "core/diag.h"
#include "plan/nt_store.h"

#if defined(__GNUC__)
typedef uint8_t u8a __attribute__((may_alias));
typedef uint16_t u16a __attribute__((may_alias));
typedef uint32_t u32a __attribute__((may_alias));
typedef uint64_t u64a __attribute__((may_alias));
typedef struct u128a {
  uint64_t lo, hi;
} __attribute__((may_alias)) u128a;
#else
typedef uint8_t u8a;
typedef uint16_t u16a;
typedef uint32_t u32a;
typedef uint64_t u64a;
typedef struct u128a {
  uint64_t lo, hi;
} u128a;
#endif

/* The block copy is the same for every element size. */
static void copy_block(int64_t n, char *const *ptrs, const int64_t *strides,
                       const void *params) {
  (void)params;
  memcpy(ptrs[0], ptrs[1], (size_t)(n * strides[0]));
}

/* Per element size: fill, strided copy, and copy into a contiguous
 * destination from a strided source. */
#define COPY_KERNELS_(E, T)                                                   \
  static void copy_fill_##E(int64_t n, char *const *ptrs,                     \
                            const int64_t *strides, const void *params) {     \
    (void)strides;                                                            \
    (void)params;                                                             \
    T *dst = (T *)ptrs[0];                                                    \
    const T value = *(const T *)ptrs[1];                                      \
    for (int64_t i = 0; i < n; i++) dst[i] = value;                           \
  }                                                                           \
  static void copy_strided_##E(int64_t n, char *const *ptrs,                  \
                               const int64_t *strides, const void *params) {  \
    (void)params;                                                             \
    char *dst = ptrs[0];                                                      \
    const char *src = ptrs[1];                                                \
    const int64_t dst_step = strides[0], src_step = strides[1];               \
    for (int64_t i = 0; i < n; i++) {                                         \
      *(T *)dst = *(const T *)src;                                            \
      dst += dst_step;                                                        \
      src += src_step;                                                        \
    }                                                                         \
  }                                                                           \
  static void copy_gather_##E(int64_t n, char *const *ptrs,                   \
                              const int64_t *strides, const void *params) {   \
    (void)params;                                                             \
    T *dst = (T *)ptrs[0];                                                    \
    const char *src = ptrs[1];                                                \
    const int64_t src_step = strides[1];                                      \
    for (int64_t i = 0; i < n; i++) {                                         \
      dst[i] = *(const T *)src;                                               \
      src += src_step;                                                        \
    }                                                                         \
  }

/* Short rows: the kernel's n counts rows of the next dim out, and params
 * describes the run inside each row.  Three variants, as for runs: a fill
 * (source broadcast along the row), a contiguous copy, anything else. */
typedef struct copy_rows_params {
  int64_t n;
  int64_t dst_step, src_step;
  bcast_kernel_fn first_row; /* for copy_rows_repeat */
} copy_rows_params;

/* The row loop of the row kernels below: the statements given run once per
 * row, with dst and src at the row's start and n its length in elements. */
#define EACH_ROW_(...)                                                        \
  const int64_t n = ((const copy_rows_params *)params)->n;                    \
  char *dst = ptrs[0];                                                        \
  const char *src = ptrs[1];                                                  \
  for (int64_t r = 0; r < rows; r++) {                                        \
    __VA_ARGS__                                                               \
    dst += strides[0];                                                        \
    src += strides[1];                                                        \
  }

#define COPY_ROWS_(E, T)                                                      \
  static void copy_rows_fill_##E(int64_t rows, char *const *ptrs,             \
                                 const int64_t *strides,                      \
                                 const void *params) {                        \
    EACH_ROW_(const T value = *(const T *)src;                                \
              for (int64_t i = 0; i < n; i++)((T *)dst)[i] = value;)          \
  }                                                                           \
  static void copy_rows_copy_##E(int64_t rows, char *const *ptrs,             \
                                 const int64_t *strides,                      \
                                 const void *params) {                        \
    EACH_ROW_(for (int64_t i = 0; i < n; i++)((T *)dst)[i] =                  \
                  ((const T *)src)[i];)                                       \
  }                                                                           \
  static void copy_rows_strided_##E(int64_t rows, char *const *ptrs,          \
                                    const int64_t *strides,                   \
                                    const void *params) {                     \
    const copy_rows_params *p = params;                                       \
    char *dst = ptrs[0];                                                      \
    const char *src = ptrs[1];                                                \
    for (int64_t r = 0; r < rows; r++) {                                      \
      char *d = dst;                                                          \
      const char *s = src;                                                    \
      for (int64_t i = 0; i < p->n; i++) {                                    \
        *(T *)d = *(const T *)s;                                              \
        d += p->dst_step;                                                     \
        s += p->src_step;                                                     \
      }                                                                       \
      dst += strides[0];                                                      \
      src += strides[1];                                                      \
    }                                                                         \
  }

#define COPY_ALL_(E, T)                                                       \
  COPY_KERNELS_(E, T)                                                         \
  COPY_ROWS_(E, T)

COPY_ALL_(1, u8a)
COPY_ALL_(2, u16a)
COPY_ALL_(4, u32a)
COPY_ALL_(8, u64a)
COPY_ALL_(16, u128a)

#if BCAST__HAVE_NT_STORE
static size_t misalign16(const void *p) {
  return (size_t)(-(uintptr_t)p & 15u);
}

/* Block copy with non-temporal stores (bcast__nt_store_copy: ordinary
 * stores up to the destination's first 64-byte line boundary, whole lines
 * non-temporal, a short tail).  A run without one whole line past the head
 * goes through the cache. */
static void copy_block_nt_store(int64_t n, char *const *ptrs,
                                const int64_t *strides, const void *params) {
  (void)params;
  char *dst = ptrs[0];
  const char *src = ptrs[1];
  int64_t bytes = n * strides[0];
  if (bytes < (int64_t)(-(uintptr_t)dst & 63u) + 64) {
    memcpy(dst, src, (size_t)bytes);
    return;
  }
  bcast__nt_store_copy(dst, src, bytes);
}

/* Fills with vector stores (bcast__fill_pattern), cached (WAY = store) or
 * non-temporal (WAY = nt_store).  The head is filled element by element
 * up to 16-byte alignment; since 16 is a multiple of the element size, the
 * pattern is then in phase.  A destination not aligned to its own element
 * size never reaches that alignment and is filled by the scalar loop. */
/* A 16-byte register holding copies of one element. */
#define SPLAT_8_(v) _mm_set1_epi8((char)(v))
#define SPLAT_16_(v) _mm_set1_epi16((short)(v))
#define SPLAT_32_(v) _mm_set1_epi32((int)(v))
#define SPLAT_64_(v) _mm_set1_epi64x((long long)(v))
#define SPLAT_128_(v) _mm_loadu_si128((const __m128i *)&(v))

#define COPY_FILL_VECTOR_(E, T, SPLAT, WAY)                                   \
  static void copy_fill_##WAY##_##E(int64_t n, char *const *ptrs,             \
                                    const int64_t *strides,                   \
                                    const void *params) {                     \
    char *dst = ptrs[0];                                                      \
    size_t head = misalign16(dst);                                            \
    if (head % E != 0 || n * E < (int64_t)head + 64) {                        \
      copy_fill_##E(n, ptrs, strides, params);                                \
      return;                                                                 \
    }                                                                         \
    const T value = *(const T *)ptrs[1];                                      \
    int64_t head_n = (int64_t)(head / E);                                     \
    for (int64_t i = 0; i < head_n; i++) ((T *)dst)[i] = value;               \
    const __m128i pattern = SPLAT(value);                                     \
    int64_t body = (n - head_n) * E / 16 * 16;                                \
    bcast__fill_pattern(dst + head, body, pattern, COPY_NT_##WAY);            \
    for (int64_t i = head_n + body / E; i < n; i++) ((T *)dst)[i] = value;    \
  }

#define COPY_NT_store 0
#define COPY_NT_nt_store 1
#define COPY_FILL_BOTH_(E, T, SPLAT)                                          \
  COPY_FILL_VECTOR_(E, T, SPLAT, store)                                       \
  COPY_FILL_VECTOR_(E, T, SPLAT, nt_store)

COPY_FILL_BOTH_(1, u8a, SPLAT_8_)
COPY_FILL_BOTH_(2, u16a, SPLAT_16_)
COPY_FILL_BOTH_(4, u32a, SPLAT_32_)
COPY_FILL_BOTH_(8, u64a, SPLAT_64_)
COPY_FILL_BOTH_(16, u128a, SPLAT_128_)
#endif

#if BCAST__HAVE_NT_STORE
/* Short rows of one value each, rows back to back (as (N,1) -> (N,3)): a
 * row is written with whole 16-byte splats that may spill into the rows
 * after it, which their own splats then overwrite (rows go in order, so
 * each row's last writer is itself).  The final rows, whose splats would
 * spill past the call's last row, are filled exactly.  Needs rows of at
 * most 64 bytes. */
#define COPY_ROWS_SPLAT_(E, T, SPLAT)                                         \
  static void copy_rows_splat_##E(int64_t rows, char *const *ptrs,            \
                                  const int64_t *strides,                     \
                                  const void *params) {                       \
    const int64_t row_bytes = strides[0];                                     \
    const int64_t wide = (row_bytes + 15) / 16 * 16;                          \
    const int64_t spill_rows = (wide + row_bytes - 1) / row_bytes;            \
    const int64_t splat_rows = rows > spill_rows ? rows - spill_rows : 0;     \
    char *dst = ptrs[0];                                                      \
    const char *src = ptrs[1];                                                \
    for (int64_t r = 0; r < splat_rows; r++) {                                \
      const __m128i v = SPLAT(*(const T *)src);                               \
      for (int64_t j = 0; j < wide; j += 16)                                  \
        _mm_storeu_si128((__m128i *)(dst + j), v);                            \
      dst += row_bytes;                                                       \
      src += strides[1];                                                      \
    }                                                                         \
    char *const rest[2] = {dst, (char *)src};                                 \
    copy_rows_fill_##E(rows - splat_rows, rest, strides, params);             \
  }

COPY_ROWS_SPLAT_(1, u8a, SPLAT_8_)
COPY_ROWS_SPLAT_(2, u16a, SPLAT_16_)
COPY_ROWS_SPLAT_(4, u32a, SPLAT_32_)
COPY_ROWS_SPLAT_(8, u64a, SPLAT_64_)
#endif

typedef struct copy_kernel_row {
  bcast_kernel_fn fill, fill_nt_store, strided, gather;
  bcast_kernel_fn rows_fill, rows_copy, rows_strided;
} copy_kernel_row;

#if BCAST__HAVE_NT_STORE
#define COPY_ROW_(E)                                                          \
  {                                                                           \
    copy_fill_store_##E, copy_fill_nt_store_##E, copy_strided_##E,            \
        copy_gather_##E, copy_rows_fill_##E, copy_rows_copy_##E,              \
        copy_rows_strided_##E                                                 \
  }
#else
#define COPY_ROW_(E)                                                          \
  {                                                                           \
    copy_fill_##E, copy_fill_##E, copy_strided_##E, copy_gather_##E,          \
        copy_rows_fill_##E, copy_rows_copy_##E, copy_rows_strided_##E         \
  }
#endif

static const copy_kernel_row copy_rows[5] = {
    COPY_ROW_(1), COPY_ROW_(2), COPY_ROW_(4), COPY_ROW_(8), COPY_ROW_(16)};

static const copy_kernel_row *copy_row_for(int64_t elem_bytes) {
  switch (elem_bytes) {
  case 1:
    return &copy_rows[0];
  case 2:
    return &copy_rows[1];
  case 4:
    return &copy_rows[2];
  case 8:
    return &copy_rows[3];
  case 16:
    return &copy_rows[4];
  default:
    return NULL;
  }
}

bcast_kernel_fn bcast_copy_kernel(const bcast_plan *plan, int64_t elem_bytes,
                                  bcast_copy_stores stores) {
  const copy_kernel_row *row = copy_row_for(elem_bytes);
  if (!row) return NULL;
  int64_t out_bytes;
  int nt_store =
      BCAST__HAVE_NT_STORE && stores == BCAST_COPY_NT_STORE_LARGE &&
      (__builtin_mul_overflow(plan->elem_count, elem_bytes, &out_bytes) ||
       out_bytes >= bcast__nt_min_bytes_for(plan));
  int dst_contiguous = (plan->contiguous_mask & 1u) != 0;
  if (!dst_contiguous) return row->strided;
  if (plan->broadcast_mask & 2u)
    return nt_store ? row->fill_nt_store : row->fill;
  if (plan->contiguous_mask & 2u) {
#if BCAST__HAVE_NT_STORE
    if (nt_store) return copy_block_nt_store;
#endif
    return copy_block;
  }
  return row->gather;
}

/* Rows that are all the same (source stride 0 across rows) written back to
 * back: the first row is written once, then doubled by copying the output
 * onto itself up to a block of COPY_REPEAT_BLOCK bytes, which stays in L1
 * and is copied forward until the end.  A (1,7) -> (N,7) broadcast becomes
 * a run of 4 KiB memcpy calls instead of N calls of 7 elements. */
#define COPY_REPEAT_BLOCK 4096

static void copy_rows_repeat(int64_t rows, char *const *ptrs,
                             const int64_t *strides, const void *params) {
  const copy_rows_params *p = params;
  const int64_t row_bytes = strides[0];
  char *dst = ptrs[0];
  p->first_row(1, ptrs, strides, params);
  int64_t done = 1;
  while (done < rows && done * row_bytes < COPY_REPEAT_BLOCK) {
    int64_t k = done < rows - done ? done : rows - done;
    memcpy(dst + done * row_bytes, dst, (size_t)(k * row_bytes));
    done += k;
  }
  const int64_t block = done;
  while (done < rows) {
    int64_t k = block < rows - done ? block : rows - done;
    memcpy(dst + done * row_bytes, dst, (size_t)(k * row_bytes));
    done += k;
  }
}

/* Innermost runs shorter than this many elements are moved a row at a time
 * (measured on (N,1)->(N,3) and (1,7)->(N,7) float32). */
#ifndef COPY_SHORT_RUN
#define COPY_SHORT_RUN 16
#endif

bcast_status bcast_copy_run(const bcast_plan *plan, char *const *base,
                            int64_t elem_bytes, bcast_copy_stores stores,
                            int threads, bcast_diag *diag) {
  const copy_kernel_row *row = copy_row_for(elem_bytes);
  if (!row)
    return bcast__fail(diag, BCAST_UNSUPPORTED,
                       "no copy kernel for %lld-byte elements",
                       (long long)elem_bytes);
  bcast_status status = bcast_plan_check_bases(plan, base, diag);
  if (status != BCAST_OK) return status;
  const int inner = plan->ndim - 1;
  if (inner == 0 || plan->extent[inner] >= COPY_SHORT_RUN) {
    bcast_plan_run(plan, base,
                   bcast_copy_kernel(plan, elem_bytes, stores), NULL,
                   threads);
    return BCAST_OK;
  }
  /* The same loop nest one dim shorter, whose "elements" are whole short
   * runs: the engine walks rows, the kernel walks each row. */
  copy_rows_params params = {plan->extent[inner], plan->stride_bytes[0][inner],
                             plan->stride_bytes[1][inner], NULL};
  bcast_plan rows = *plan;
  rows.ndim = inner;
  rows.elem_count = plan->elem_count / plan->extent[inner];
  rows.elem_bytes[0] = plan->elem_bytes[0] * plan->extent[inner];
  bcast_kernel_fn kernel = row->rows_strided;
  if (params.dst_step == elem_bytes && params.src_step == 0)
    kernel = row->rows_fill;
  else if (params.dst_step == elem_bytes && params.src_step == elem_bytes)
    kernel = row->rows_copy;
  const int outer = inner - 1;
  const int rows_packed = params.dst_step == elem_bytes &&
                          rows.stride_bytes[0][outer] == elem_bytes * params.n;
  if (rows_packed && rows.stride_bytes[1][outer] == 0) {
    params.first_row = kernel;
    kernel = copy_rows_repeat;
  }
#if BCAST__HAVE_NT_STORE
  else if (rows_packed && params.src_step == 0 &&
           elem_bytes * params.n <= 64) {
    switch (elem_bytes) {
    case 1:
      kernel = copy_rows_splat_1;
      break;
    case 2:
      kernel = copy_rows_splat_2;
      break;
    case 4:
      kernel = copy_rows_splat_4;
      break;
    case 8:
      kernel = copy_rows_splat_8;
      break;
    default:
      break;
    }
  }
#endif
  bcast_plan_run(&rows, base, kernel, &params, threads);
  return BCAST_OK;
}
