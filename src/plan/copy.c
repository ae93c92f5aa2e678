/* Copy kernels: dst[i] = src[i] along one innermost run of a plan.
 *
 * Elements are moved as opaque 1, 2, 4, 8 or 16-byte units (a float16, a
 * float32 and a string reference all copy the same way), through may_alias
 * types so no kernel depends on the element's real type.  Three shapes of
 * run matter:
 *   contiguous source  a block copy (memcpy, or streaming stores);
 *   broadcast source   a fill with one value (stride 0);
 *   anything else      a strided loop, with a contiguous-destination variant.
 * Streaming (non-temporal) stores bypass the cache: for an output bigger
 * than the cache they save the read-for-ownership of every destination line
 * and roughly halve the memory traffic of a write.  The kernels do not
 * fence their streaming stores (an sfence waits for them to reach memory,
 * which on short runs costs more than the stores): the plan engine fences
 * once per thread after its last run. */
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define COPY_HAVE_STREAM 1
#else
#define COPY_HAVE_STREAM 0
#endif

#include "bcast/plan.h"

/* Outputs at least this large use streaming stores (L3 here is 32 MiB;
 * below ~8 MiB the output can still be in cache when the caller reads it,
 * measured with bench/bcast_bench). */
#define COPY_STREAM_MIN_BYTES ((int64_t)8 << 20)

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

COPY_KERNELS_(1, u8a)
COPY_KERNELS_(2, u16a)
COPY_KERNELS_(4, u32a)
COPY_KERNELS_(8, u64a)
COPY_KERNELS_(16, u128a)

#if COPY_HAVE_STREAM
/* Stores bytes [0, bytes) of a 16-byte pattern repeated from dst on, where
 * dst is 16-byte aligned and bytes a multiple of 16.  Four stores per
 * iteration cover a whole 64-byte line. */
static void store_pattern(char *dst, int64_t bytes, __m128i pattern) {
  int64_t i = 0;
  for (; i + 64 <= bytes; i += 64) {
    _mm_store_si128((__m128i *)(dst + i), pattern);
    _mm_store_si128((__m128i *)(dst + i + 16), pattern);
    _mm_store_si128((__m128i *)(dst + i + 32), pattern);
    _mm_store_si128((__m128i *)(dst + i + 48), pattern);
  }
  for (; i < bytes; i += 16) _mm_store_si128((__m128i *)(dst + i), pattern);
}

/* The same with non-temporal stores. */
static void stream_pattern(char *dst, int64_t bytes, __m128i pattern) {
  int64_t i = 0;
  for (; i + 64 <= bytes; i += 64) {
    _mm_stream_si128((__m128i *)(dst + i), pattern);
    _mm_stream_si128((__m128i *)(dst + i + 16), pattern);
    _mm_stream_si128((__m128i *)(dst + i + 32), pattern);
    _mm_stream_si128((__m128i *)(dst + i + 48), pattern);
  }
  for (; i < bytes; i += 16) _mm_stream_si128((__m128i *)(dst + i), pattern);
}

static size_t misalign16(const void *p) {
  return (size_t)(-(uintptr_t)p & 15u);
}

/* Block copy with streaming stores: a short head up to 16-byte alignment of
 * the destination, the aligned body, a short tail. */
static void copy_block_stream(int64_t n, char *const *ptrs,
                              const int64_t *strides, const void *params) {
  (void)params;
  char *dst = ptrs[0];
  const char *src = ptrs[1];
  int64_t bytes = n * strides[0];
  int64_t head = (int64_t)misalign16(dst);
  if (bytes < head + 64) {
    memcpy(dst, src, (size_t)bytes);
    return;
  }
  memcpy(dst, src, (size_t)head);
  int64_t i = head;
  for (; i + 64 <= bytes; i += 64) {
    __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
    __m128i b = _mm_loadu_si128((const __m128i *)(src + i + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(src + i + 32));
    __m128i d = _mm_loadu_si128((const __m128i *)(src + i + 48));
    _mm_stream_si128((__m128i *)(dst + i), a);
    _mm_stream_si128((__m128i *)(dst + i + 16), b);
    _mm_stream_si128((__m128i *)(dst + i + 32), c);
    _mm_stream_si128((__m128i *)(dst + i + 48), d);
  }
  memcpy(dst + i, src + i, (size_t)(bytes - i));
}

/* Fills with 16-byte vector stores, cached (WAY = store) or streaming
 * (WAY = stream).  The head is filled element by element up to 16-byte
 * alignment; since 16 is a multiple of the element size, the pattern is
 * then in phase.  A destination not aligned to its own element size never
 * reaches that alignment and is filled by the scalar loop. */
#define COPY_FILL_VECTOR_(E, T, WAY)                                          \
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
    unsigned char lanes[16];                                                  \
    for (int j = 0; j < 16; j += E) memcpy(lanes + j, ptrs[1], E);            \
    __m128i pattern = _mm_loadu_si128((const __m128i *)lanes);                \
    int64_t body = (n - head_n) * E / 16 * 16;                                \
    WAY##_pattern(dst + head, body, pattern);                                 \
    for (int64_t i = head_n + body / E; i < n; i++) ((T *)dst)[i] = value;    \
  }

#define COPY_FILL_BOTH_(E, T)                                                 \
  COPY_FILL_VECTOR_(E, T, store)                                              \
  COPY_FILL_VECTOR_(E, T, stream)

COPY_FILL_BOTH_(1, u8a)
COPY_FILL_BOTH_(2, u16a)
COPY_FILL_BOTH_(4, u32a)
COPY_FILL_BOTH_(8, u64a)
COPY_FILL_BOTH_(16, u128a)
#endif

typedef struct copy_kernel_row {
  bcast_kernel_fn fill, fill_stream, strided, gather;
} copy_kernel_row;

#if COPY_HAVE_STREAM
#define COPY_ROW_(E)                                                          \
  { copy_fill_store_##E, copy_fill_stream_##E, copy_strided_##E,             \
    copy_gather_##E }
#else
#define COPY_ROW_(E) {copy_fill_##E, copy_fill_##E, copy_strided_##E, copy_gather_##E}
#endif

bcast_kernel_fn bcast_copy_kernel(const bcast_plan *plan, int64_t elem_bytes,
                                  bcast_copy_stores stores) {
  static const copy_kernel_row rows[5] = {COPY_ROW_(1), COPY_ROW_(2),
                                          COPY_ROW_(4), COPY_ROW_(8),
                                          COPY_ROW_(16)};
  int which;
  switch (elem_bytes) {
    case 1: which = 0; break;
    case 2: which = 1; break;
    case 4: which = 2; break;
    case 8: which = 3; break;
    case 16: which = 4; break;
    default: return NULL;
  }
  const copy_kernel_row *row = &rows[which];
  int64_t out_bytes;
  int stream = COPY_HAVE_STREAM && stores == BCAST_COPY_STREAM_LARGE &&
               (__builtin_mul_overflow(plan->elem_count, elem_bytes,
                                       &out_bytes) ||
                out_bytes >= COPY_STREAM_MIN_BYTES);
  int dst_contiguous = (plan->contiguous_mask & 1u) != 0;
  if (!dst_contiguous) return row->strided;
  if (plan->broadcast_mask & 2u) return stream ? row->fill_stream : row->fill;
  if (plan->contiguous_mask & 2u) {
#if COPY_HAVE_STREAM
    if (stream) return copy_block_stream;
#endif
    return copy_block;
  }
  return row->gather;
}
